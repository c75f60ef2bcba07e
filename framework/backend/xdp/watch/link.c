// SPDX-License-Identifier: BSD-2-Clause
/*
 * The link across the XDP attach (xdp.c calls it). Some drivers reset their link when a program is attached or
 * removed (igb and e1000e close and reopen the device: 1-2 s without carrier), and frames sent
 * meanwhile are lost before they reach any queue. A run that declares itself up before the
 * link is back tells a sender to start too early, so the start waits for the link it had
 * before the attach, and says so: a pause of seconds at start is otherwise a mystery.
 *
 * "Up" is the carrier (the driver's, at once) and IFF_RUNNING (the stack's operstate, which
 * the kernel's linkwatch sets up to a second later): both, as a sender sees the link. A reset
 * is told by the carrier_changes counter, since the carrier may be back before we look.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "backend/xdp/watch/link.h"
#include "core/sysfs.h"

/* igb under QEMU TCG took up to 4 s; a real NIC's autonegotiation takes up to 3 s */
#define XSKF_LINK_WAIT_MS 10000
#define POLL_MS		  20

/* true when port @p's link is up: IFF_UP, IFF_RUNNING and carrier */
static bool link_up(int sock, const struct xskf_port *p)
{
	struct ifreq ifr = {};

	if (!if_indextoname((unsigned int)p->ifindex, ifr.ifr_name) ||
	    ioctl(sock, SIOCGIFFLAGS, &ifr))
		return false;
	return (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING) &&
	       xskf_sysfs__long("/sys/class/net/%s/carrier", ifr.ifr_name) == 1;
}

static long changes(const struct xskf_port *p)
{
	char name[IF_NAMESIZE];

	if (!if_indextoname((unsigned int)p->ifindex, name))
		return -1;
	return xskf_sysfs__long("/sys/class/net/%s/carrier_changes", name);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void xskf_link__before_attach(const struct xskf_engine *eng, struct xskf_link_seen *seen)
{
	unsigned int i;
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	for (i = 0; i < eng->nr_ports; i++) {
		seen[i].up = sock >= 0 && link_up(sock, &eng->ports[i]);
		seen[i].changes = changes(&eng->ports[i]);
	}
	if (sock >= 0)
		close(sock);
}

void xskf_link__after_attach(const struct xskf_engine *eng, const struct xskf_link_seen *seen)
{
	struct timespec tick = {.tv_nsec = POLL_MS * 1000000L};
	bool wait[XSKF_MAX_PORTS] = {false};
	unsigned int i, waiting = 0;
	long t0 = now_ms(), c;
	int sock;

	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return; /* cannot look: start as before */
	for (i = 0; i < eng->nr_ports; i++) {
		if (!seen[i].up)
			continue; /* down before: nothing to wait for (the watch tells when it is
				     up) */
		c = changes(&eng->ports[i]);
		wait[i] = (c >= 0 && c != seen[i].changes) || !link_up(sock, &eng->ports[i]);
		waiting += wait[i];
	}
	while (waiting && now_ms() - t0 < XSKF_LINK_WAIT_MS) {
		nanosleep(&tick, NULL);
		for (i = 0; i < eng->nr_ports; i++) {
			if (!wait[i] || !link_up(sock, &eng->ports[i]))
				continue;
			wait[i] = false;
			waiting--;
			pr_info(
			    "%s: the driver reset the link at the XDP attach: waited %.1f s for it "
			    "to be up again before starting, so that no frame is lost to it\n",
			    eng->ports[i].name, (double)(now_ms() - t0) / 1000);
		}
	}
	for (i = 0; i < eng->nr_ports; i++)
		if (wait[i])
			pr_warn(
			    "%s: the link went down at the XDP attach (the driver reset it) and is "
			    "still down after %d s: starting; frames flow once it is up\n",
			    eng->ports[i].name, XSKF_LINK_WAIT_MS / 1000);
	close(sock);
}
