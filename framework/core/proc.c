// SPDX-License-Identifier: BSD-2-Clause
/*
 * Is another process alive? The owner of an XDP program (prog.c) and of a control socket
 * (ctl.c) is a pid; a pid that exists is not enough. A killed process whose parent does not
 * reap it (its parent gone and init slow, or a parent that never waits) stays a zombie: the pid
 * exists, kill(pid, 0) succeeds, and its start time still matches, yet it holds nothing (its
 * fds, sockets and programs are released at exit). So /proc/PID/stat's state decides.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/proc.h"

/* Fields 3 (state) and 22 (start time) of /proc/@pid/stat; -errno when there is no such pid. */
static int proc_stat(pid_t pid, char *state, uint64_t *start)
{
	char path[64], buf[1024], *p;
	unsigned long long st = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	/* comm (field 2) may hold spaces and parentheses: count fields from the last ')' */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -EIO;
	*state = p[2];
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%llu", &st);
	*start = st;
	return 0;
}

uint64_t xskf_proc__start_time(pid_t pid)
{
	uint64_t start;
	char state;

	return proc_stat(pid, &state, &start) ? 0 : start;
}

bool xskf_proc__alive(pid_t pid)
{
	uint64_t start;
	char state;

	if (pid <= 0)
		return false;
	if (proc_stat(pid, &state, &start))
		/* no /proc entry: ask the kernel (a /proc of another pid namespace, or none) */
		return kill(pid, 0) == 0 || errno == EPERM;
	return state != 'Z' && state != 'X' && state != 'x';
}

bool xskf_proc__same(pid_t pid, uint64_t start_time)
{
	uint64_t start;
	char state;

	if (pid <= 0 || proc_stat(pid, &state, &start))
		return false;
	return state != 'Z' && state != 'X' && state != 'x' && start == start_time;
}

const char *xskf_proc__ctl_dir(void)
{
	const char *d = getenv("XSKF_CTL_DIR");

	return d && *d ? d : "/run/xskf";
}

int xskf_proc__trusted_dir_open(const char *dir, mode_t mode, char *why, size_t len)
{
	struct stat st;
	int fd, err;

	if (len)
		why[0] = 0;
	if (mkdir(dir, mode) && errno != EEXIST)
		return -errno;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		if (err == -ELOOP) /* a symlink: named as such, not "too many levels" */
			snprintf(why, len, "%s is a symlink, not a folder", dir);
		return err;
	}
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(
		    why, len,
		    "%s is not a folder of ours alone (owner uid %u, mode %03o; it must be uid "
		    "%u and not group/other writable)",
		    dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 0777),
		    (unsigned int)geteuid());
		close(fd);
		return -EPERM;
	}
	return fd;
}

int xskf_proc__ctl_dir_open(char *why, size_t len)
{
	return xskf_proc__trusted_dir_open(xskf_proc__ctl_dir(), 0700, why, len);
}

int xskf_sock_file__bind(struct xskf_sock_file *f, int sock, int dfd, const char *dir,
			 const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int n, r = -1;

	if (strlen(name) >= sizeof(f->name))
		return -ENAMETOOLONG;
	/* through the fd: a folder renamed since it was checked cannot send bind elsewhere */
	n = snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", dfd, name);
	if (n > 0 && (size_t)n < sizeof(sa.sun_path))
		r = bind(sock, (struct sockaddr *)&sa, sizeof(sa));
	/* no /proc, or a name too long for the detour: the path, checked on the fd below */
	if (r && (n <= 0 || (size_t)n >= sizeof(sa.sun_path) || errno == ENOENT)) {
		n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s", dir, name);
		if (n < 0 || (size_t)n >= sizeof(sa.sun_path))
			return -ENAMETOOLONG;
		r = bind(sock, (struct sockaddr *)&sa, sizeof(sa));
	}
	if (r)
		return -errno;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISSOCK(st.st_mode))
		return -EXDEV;
	f->dfd = dfd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	memcpy(f->name, name, strlen(name) + 1);
	return 0;
}

int xskf_sock_file__unlink(const struct xskf_sock_file *f)
{
	struct stat st;

	if (f->dfd < 0 || !f->name[0])
		return 0;
	if (fstatat(f->dfd, f->name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	if (!S_ISSOCK(st.st_mode) || st.st_dev != f->dev || st.st_ino != f->ino)
		return -1;
	return unlinkat(f->dfd, f->name, 0) ? 0 : 1;
}

int xskf_sock_file__remove(struct xskf_sock_file *f)
{
	int r = xskf_sock_file__unlink(f), dfd = f->dfd;

	/* the name first: a fatal-signal hook running now finds nothing to do */
	f->name[0] = 0;
	f->dfd = -1;
	if (dfd >= 0)
		close(dfd);
	return r;
}
