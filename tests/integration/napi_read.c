// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskf-napi-read IFNAME [QUEUE]: the NAPIs of an interface as the kernel's netdev netlink
 * lists them (napi-get dump), one line each: "napi ID defer D gro-flush NS irq-suspend NS|-",
 * and with QUEUE first the line "queue Q napi ID" (queue-get; 0: the driver names none). For
 * the tests of --napi (test_napi.sh): the values read back through xskf's own client.
 * Exit 0, 2 on a usage or netlink error (one line).
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/xdp/sock/napi_nl.h"

int main(int argc, char **argv)
{
	struct xskf_napi_info in[64];
	struct xskf_napi_nl nl;
	unsigned int ifindex;
	int n, i, err;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: xskf-napi-read IFNAME [QUEUE]\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "xskf-napi-read: no interface %s\n", argv[1]);
		return 2;
	}
	/* the kernel's values, whatever XSKF_FEATURES_OFF makes xskf itself do: a checking tool */
	err = xskf_napi_nl__open_raw(&nl);
	if (err) {
		fprintf(stderr, "xskf-napi-read: netdev netlink: %s\n", strerror(-err));
		return 2;
	}
	printf("napi-set %s\n", nl.has_napi_set ? "yes" : "no");
	if (argc == 3) {
		uint32_t id;

		err = xskf_napi_nl__queue_napi(&nl, ifindex, (uint32_t)atoi(argv[2]), &id);
		if (err)
			printf("queue %s error %s\n", argv[2], strerror(-err));
		else
			printf("queue %s napi %u\n", argv[2], id);
	}
	n = xskf_napi_nl__dump(&nl, ifindex, in, 64);
	if (n < 0) {
		fprintf(stderr, "xskf-napi-read: napi-get: %s\n", strerror(-n));
		xskf_napi_nl__close(&nl);
		return 2;
	}
	for (i = 0; i < n && i < 64; i++) {
		printf("napi %u defer %u gro-flush %llu irq-suspend ", in[i].id,
		       in[i].defer_hard_irqs, (unsigned long long)in[i].gro_flush_timeout);
		if (in[i].has_irq_suspend)
			printf("%llu\n", (unsigned long long)in[i].irq_suspend_timeout);
		else
			printf("-\n");
	}
	xskf_napi_nl__close(&nl);
	return 0;
}
