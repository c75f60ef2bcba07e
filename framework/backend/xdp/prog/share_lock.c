// SPDX-License-Identifier: BSD-2-Clause
/*
 * The interface's lock (prog_share.c tells what runs share on one interface): a file in the
 * control folder, one per interface (netns inode + ifindex), taken around every change of what
 * the runs share. A module of its own so that the table's writer (steer.c) and the sharing
 * (prog_share.c) both take it without calling each other: prog_share.c calls steer.c's
 * rewrite with the lock held, and steer.c's nested take only counts (lock_depth).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "backend/xdp/xdp_state.h"
#include "core/clock.h"
#include "core/engine.h"
#include "core/proc.h"
#include "backend/xdp/prog/share.h"

/* The interface's lock file: an interface is its netns and its index (names repeat). */
static void lock_name(const struct xskf_port *port, char *name, size_t len)
{
	struct stat ns;

	if (stat("/proc/self/ns/net", &ns))
		ns.st_ino = 0;
	snprintf(name, len, "xdp-%lu-%d.lock", (unsigned long)ns.st_ino, port->ifindex);
}

/*
 * Open the lock file: an fd of 3 or more (a zeroed port has none). In a folder of ours only
 * (the control folder's rules, runner/ctl.c): a folder another user can write would let them
 * hold the lock, or swap the file.
 */
static int lock_open(struct xskf_port *port)
{
	static bool told;
	const char *dir = xskf_proc__ctl_dir();
	char name[64], why[256];
	int dfd, fd = -1, err = 0;

	lock_name(port, name, sizeof(name));
	/* the control folder's rule, checked on the opened folder (proc.c) */
	dfd = xskf_proc__ctl_dir_open(why, sizeof(why));
	if (dfd < 0)
		err = dfd;
	else if ((fd = openat(dfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
		err = -errno;
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0 && fd < 3) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		fd = hi;
	}
	if (fd < 0) {
		if (!err)
			err = -errno; /* the dup above */
		if (!told)
			pr_warn("%s: no lock file %s/%s: %s; runs that share the interface are not "
				"serialised (set XSKF_CTL_DIR to a folder of yours)\n",
				port->name, dir, name, why[0] ? why : strerror(-err));
		told = true;
		return err;
	}
	xskf_xdp_port(port)->share.lock_fd = fd;
	return 0;
}

/*
 * Take the lock, waiting at most LOCK_WAIT_NS: a run holds it for a table write (ms) or from
 * its set-up to its attach (a second or so). Two runs that set up the same interfaces in
 * another order would wait on each other for ever: one of them gives up instead.
 */
#define LOCK_WAIT_NS (10 * 1000 * 1000 * 1000ULL)

static int lock_wait(struct xskf_port *port)
{
	uint64_t start = xskf_now_ns();

	while (flock(xskf_xdp_port(port)->share.lock_fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (xskf_now_ns() - start > LOCK_WAIT_NS) {
			pr_warn(
			    "%s: another xskf run has held the interface's lock for 10 s (setting "
			    "up several interfaces in another order?): start again\n",
			    port->name);
			return -ETIMEDOUT;
		}
		usleep(2000);
	}
	return 0;
}

int xskf_share__lock(struct xskf_port *port)
{
	struct stat st;
	int err;

	/* no interface (the BPF tests' program, never attached): nothing to share */
	if (xskf_xdp_port(port)->share.lock_depth++ || !port->ifindex)
		return 0;
	for (;;) {
		if (xskf_xdp_port(port)->share.lock_fd < 3 && (err = lock_open(port)))
			return err;
		err = lock_wait(port);
		if (err)
			return err;
		/* the last run out removes the file (xskf_share__forget()): one we opened before
		 * that holds a lock nobody else sees; open the new one */
		if (fstat(xskf_xdp_port(port)->share.lock_fd, &st) || st.st_nlink)
			return 0;
		close(xskf_xdp_port(port)->share.lock_fd);
		xskf_xdp_port(port)->share.lock_fd = -1;
	}
}

void xskf_share__forget(struct xskf_port *port)
{
	char path[512], name[64];

	if (xskf_xdp_port(port)->share.lock_fd < 3 || !xskf_xdp_port(port)->share.lock_depth)
		return;
	lock_name(port, name, sizeof(name));
	snprintf(path, sizeof(path), "%s/%s", xskf_proc__ctl_dir(), name);
	unlink(path);
}

void xskf_share__unlock(struct xskf_port *port)
{
	if (!xskf_xdp_port(port)->share.lock_depth || --xskf_xdp_port(port)->share.lock_depth)
		return;
	if (xskf_xdp_port(port)->share.lock_fd >= 3)
		flock(xskf_xdp_port(port)->share.lock_fd, LOCK_UN);
}
