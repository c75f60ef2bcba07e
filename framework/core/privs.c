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
 *   workers          none: the per-packet path needs none (rings are plain memory; the
 *                    wakeups, sendto/recvfrom on a bound AF_XDP socket, need no capability)
 *
 * Permitted, effective and inheritable sets and the bounding set are all reduced, so nothing
 * can be regained. The uid stays 0 in every thread: the files removed at exit (the control
 * socket, the device-plugin socket, pins, lock files) are root's in root's folders. Without
 * CAP_DAC_OVERRIDE, CAP_FOWNER and the others, uid 0 is the owner of root's files, no more.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "core/log.h"
#include "core/privs.h"

int xskf_privs__keep(uint64_t keep)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};
	int c, last = 40; /* CAP_CHECKPOINT_RESTORE: the highest this kernel's headers may lack */

	if (syscall(SYS_capget, &h, d))
		return -errno;
	/* the bounding set first: dropping from it needs CAP_SETPCAP, which goes next */
	for (c = 0; c <= last; c++)
		if (!(keep & (1ull << c)) && prctl(PR_CAPBSET_READ, c, 0, 0, 0) == 1)
			prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
	d[0].effective = d[0].permitted = (uint32_t)keep & d[0].permitted;
	d[1].effective = d[1].permitted = (uint32_t)(keep >> 32) & d[1].permitted;
	d[0].inheritable = d[1].inheritable = 0;
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}
