// SPDX-License-Identifier: BSD-2-Clause
/*
 * Least privilege after set-up. Capabilities are per thread in Linux; once the sockets are
 * bound and the program attached:
 *
 *   control thread   CAP_NET_ADMIN to detach the XDP program at exit (netlink), and a worker's
 *                    at its crash (engine.c forwards the fatal signal's detach to it); the rest
 *                    it does afterwards (XDP_STATISTICS, BPF map reads and updates and program
 *                    queries through fds it already holds, the device-plugin socket, the
 *                    watch's ioctls and netlink dumps) needs none. What its backend asks more
 *                    (keep_caps: the xdp backend with a component in libxdp's dispatcher keeps
 *                    CAP_SYS_ADMIN and CAP_BPF, for libxdp's detach)
 *   workers          none, and no file of root's: the filesystem uid and gid 65534 (nobody),
 *                    no supplementary group. The per-packet path needs nothing (rings are
 *                    plain memory; the wakeups, sendto/recvfrom on a bound AF_XDP socket,
 *                    check no capability and no uid). As root without capabilities a worker
 *                    would still own every root file (/etc/shadow is 0640 root): a bug that
 *                    writes a path in a worker would write there. As nobody it owns nothing.
 *
 * Permitted, effective and inheritable sets and the bounding set are all reduced, so nothing
 * can be regained. The control thread stays uid 0: the files it removes at exit (the control
 * socket, the device-plugin socket, pins, lock files) are root's in root's folders. Without
 * CAP_DAC_OVERRIDE, CAP_FOWNER and the others, uid 0 is the owner of root's files, no more.
 *
 * Why the filesystem ids and not the uid: a worker's real, effective and saved uid stay 0.
 *  - Credentials are per thread in the kernel, but glibc's set*id() change every thread (its
 *    setxid broadcast): the worker's change is the raw system call.
 *  - The kernel makes the process not dumpable when a thread's euid or fsuid changes. Another
 *    run's control thread, which holds no CAP_SYS_PTRACE, then cannot read this run's
 *    /proc/PID/fdinfo, by which the runs sharing an interface tell a live owner of a queue
 *    from a dead one (backend/xdp/prog/share_owner.c): it would take this run for dead. So the flag
 *    is set back as it was. That is safe only because the uid stays 0: ptrace asks the real
 *    uid to match and the tracer's capabilities to cover the target's, so no process of uid
 *    65534 (a served container's) can attach to a worker, which shares the control thread's
 *    memory. With the uid itself changed, it could.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "core/log.h"
#include "core/privs.h"

/* Drops every capability outside @keep from the bounding set: needs CAP_SETPCAP, so first. */
static void bset_keep(uint64_t keep)
{
	int c, last = 40; /* CAP_CHECKPOINT_RESTORE: the highest this kernel's headers may lack */

	for (c = 0; c <= last; c++)
		if (!(keep & (1ull << c)) && prctl(PR_CAPBSET_READ, c, 0, 0, 0) == 1)
			prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
}

/* Effective and permitted reduced to @keep, inheritable emptied. Returns 0 or -errno. */
static int caps_keep(uint64_t keep)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[0].effective = d[0].permitted = (uint32_t)keep & d[0].permitted;
	d[1].effective = d[1].permitted = (uint32_t)(keep >> 32) & d[1].permitted;
	d[0].inheritable = d[1].inheritable = 0;
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}

int xskf_privs__keep(uint64_t keep)
{
	bset_keep(keep);
	return caps_keep(keep);
}

int xskf_privs__worker(void)
{
	const long nobody = XSKF_PRIVS_WORKER_ID;
	int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);

	bset_keep(0);
	/* this thread's uid (the raw call too): a user's run has no root files to give up */
	if (syscall(SYS_geteuid) == 0) {
		/*
		 * groups first, while CAP_SETGID is held. setfs*id() return the previous id and
		 * cannot fail: the new one is read back.
		 */
		if (syscall(SYS_setgroups, 0, NULL))
			return -errno;
		syscall(SYS_setfsgid, nobody);
		syscall(SYS_setfsuid, nobody);
		if (syscall(SYS_setfsgid, -1) != nobody || syscall(SYS_setfsuid, -1) != nobody)
			return -EPERM;
		if (dumpable > 0 && prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0))
			return -errno;
	}
	return caps_keep(0);
}
