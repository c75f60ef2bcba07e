// SPDX-License-Identifier: BSD-2-Clause
/*
 * CPU cost of xsk-tunnel's per-frame work without any I/O: encap of a 60-byte frame, and decap
 * of the result, each over and over, in one buffer laid out as a UMEM chunk (288 bytes of headroom). The
 * veth numbers of bench/tunnel.sh are bound by copy-mode I/O and move with the load on the
 * machine; this says what the tunnel itself adds per frame. Built by meson (bench/meson.build)
 * and run by bench/tunnel.sh:
 *
 *   build/bench/tunnel_micro CONFIG_V4 CONFIG_V6
 *
 * The configs' default remote must be one of their own local addresses, so that decap takes the
 * frame encap just wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tunnel_config.h"
#include "tunnel_vxlan.h"

#define ITER 20000000u

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ns per frame for encap, or for decap of one encapsulated frame (which decap leaves intact) */
static double run(const struct tun_table *t, bool decap)
{
	static uint8_t chunk[2048] __attribute__((aligned(64)));
	const struct tun_underlay ul = { .mac = { 2, 0, 0, 0, 0, 0x11 }, .mtu = 1500 };
	struct xskf_pkt enc = { .data = chunk + 288, .len = 60, .headroom = 288 };
	uint16_t ip_id = 0;
	unsigned int i, bad = 0;
	double t0;

	for (i = 0; i < 60; i++)
		chunk[288 + i] = (uint8_t)i;
	chunk[288 + 12] = 0x08; /* inner: IPv4/UDP */
	chunk[288 + 13] = 0x00;
	chunk[288 + 14] = 0x45;
	chunk[288 + 23] = 17;
	if (decap && tun_vxlan__encap(t, &ul, &enc, &ip_id) != TUN_ENCAP)
		bad++;
	t0 = now();
	for (i = 0; i < ITER; i++) {
		struct xskf_pkt p = { .data = chunk + 288, .len = 60, .headroom = 288 };

		if (decap) {
			p = enc;
			bad += tun_vxlan__decap(t, &p) != TUN_DECAP;
		} else {
			chunk[288 + 35] = (uint8_t)i; /* source port: 256 flows */
			bad += tun_vxlan__encap(t, &ul, &p, &ip_id) != TUN_ENCAP;
		}
	}
	if (bad)
		fprintf(stderr, "micro: %u frames failed\n", bad);
	return (now() - t0) * 1e9 / ITER;
}

int main(int argc, char **argv)
{
	char err[256];
	int i, r;

	for (i = 1; i < argc; i++) {
		struct tun_table *t = tun_config__load(argv[i], err, sizeof(err));
		double enc = 1e9, dec = 1e9;

		if (!t) {
			fprintf(stderr, "micro: %s\n", err);
			return 1;
		}
		for (r = 0; r < 5; r++) { /* best of 5: the least disturbed run */
			double e = run(t, false), d = run(t, true);

			enc = e < enc ? e : enc;
			dec = d < dec ? d : dec;
		}
		printf("micro %s: encap %.1f ns/frame, decap %.1f ns/frame\n",
		       t->dflt.remote.family == 2 ? "ipv4" : "ipv6", enc, dec);
		tun_table__free(t);
	}
	return 0;
}
