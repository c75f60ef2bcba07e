// SPDX-License-Identifier: BSD-2-Clause
/*
 * The software RSS hash behind xskf_pkt__rx_hash(): Toeplitz over the outer IPv4/IPv6 addresses
 * (and TCP/UDP ports), with the port's key, for frames the driver gave no hash for. Lazy: the
 * XDP program only parses; an app pays for the hash only when it asks for one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hints.h"
#include "core/toeplitz.h"
/* the XDP program's parser, also plain C: for frames that arrive without a meta */
#include "xskf_hints_parse.h"

struct xskf_rss {
	struct xskf_toeplitz t; /* first: 64-byte aligned */
	size_t key_len;
	uint8_t key[XSKF_TOEPLITZ_MAX_KEY];
};

static struct xskf_rss default_rss __attribute__((aligned(64)));
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static int default_ready; /* set (release) once default_rss is built: skips pthread_once() */

/*
 * The worker's per-port keys (xskf_hints__set_thread_rss()): per thread, because port indices
 * are per engine and a worker belongs to one engine (no process-wide table by port index).
 * initial-exec: a plain %fs-relative load, no __tls_get_addr() call on each hash.
 */
#define XSKF_TLS __thread __attribute__((tls_model("initial-exec")))
static XSKF_TLS const struct xskf_rss *const *tls_rss;
static XSKF_TLS unsigned int tls_nr_rss;

static void rss_init(struct xskf_rss *rss, const uint8_t *key, size_t key_len)
{
	rss->key_len = key_len;
	memcpy(rss->key, key, key_len);
	xskf_toeplitz__init(&rss->t, key, key_len);
}

static void default_init(void)
{
	rss_init(&default_rss, xskf_toeplitz_ms_key, sizeof(xskf_toeplitz_ms_key));
	__atomic_store_n(&default_ready, 1, __ATOMIC_RELEASE);
}

const struct xskf_rss *xskf_rss__default(void)
{
	if (!__atomic_load_n(&default_ready, __ATOMIC_ACQUIRE))
		pthread_once(&default_once, default_init);
	return &default_rss;
}

struct xskf_rss *xskf_rss__new(const uint8_t *key, size_t key_len)
{
	struct xskf_rss *rss;

	if (!key) {
		key = xskf_toeplitz_ms_key;
		key_len = sizeof(xskf_toeplitz_ms_key);
	}
	if (key_len < 4 || key_len > XSKF_TOEPLITZ_MAX_KEY) {
		errno = EINVAL;
		return NULL;
	}
	/* posix_memalign: aligned_alloc() wants a size that is a multiple of the alignment */
	if (posix_memalign((void **)&rss, 64, sizeof(*rss))) {
		errno = ENOMEM;
		return NULL;
	}
	rss_init(rss, key, key_len);
	return rss;
}

void xskf_rss__free(struct xskf_rss *rss)
{
	if (rss != &default_rss)
		free(rss);
}

void xskf_hints__set_thread_rss(const struct xskf_rss *const *by_port, unsigned int nr_ports)
{
	tls_rss = by_port;
	tls_nr_rss = by_port ? nr_ports : 0;
}

uint32_t xskf_rss__hash(const struct xskf_rss *rss, const void *in, size_t len)
{
	if (len > XSKF_TOEPLITZ_MAX_INPUT)
		len = XSKF_TOEPLITZ_MAX_INPUT;
	return xskf_toeplitz__hash(&rss->t, in, len);
}

/*
 * Hash what a NIC hashes: source and destination address in packet order, then source and
 * destination port for TCP and UDP unless the frame is a fragment (first ones included, so that
 * all of a datagram's fragments land together: i40e and ice give fragments packet types of
 * their own, hashed on addresses). The outer headers of a tunnel (a NIC doing inner-header RSS
 * for tunnels hashes the inner ones: not reproduced).
 * The lengths are constants in each branch, so that the table loops unroll.
 */
static int hash_frame(const struct xskf_rss *rss, const uint8_t *frame, size_t flen,
		      uint32_t ptype, unsigned int l3, unsigned int l4, uint32_t *hash,
		      uint16_t *type)
{
	unsigned int l4t = ptype & XSKF_PTYPE_L4_MASK;
	bool ports = (l4t == XSKF_PTYPE_L4_TCP || l4t == XSKF_PTYPE_L4_UDP) &&
		     !(ptype & XSKF_PTYPE_FRAG) && l4 && l4 + 4 <= flen;
	bool tcp = l4t == XSKF_PTYPE_L4_TCP;
	uint32_t h;

	switch (ptype & XSKF_PTYPE_L3_MASK) {
	case XSKF_PTYPE_L3_IPV4:
	case XSKF_PTYPE_L3_IPV4_OPT:
		/* source and destination: 8 bytes at offset 12 of the IPv4 header */
		if (!l3 || l3 + 20 > flen)
			return -ENOENT;
		h = xskf_toeplitz__hash_at(&rss->t, 0, frame + l3 + 12, 8);
		if (ports) {
			h ^= xskf_toeplitz__hash_at(&rss->t, 8, frame + l4, 4);
			*type = tcp ? XDP_RSS_TYPE_L4_IPV4_TCP : XDP_RSS_TYPE_L4_IPV4_UDP;
		} else {
			*type = XDP_RSS_TYPE_L3_IPV4;
		}
		break;
	case XSKF_PTYPE_L3_IPV6:
	case XSKF_PTYPE_L3_IPV6_EXT:
		/* source and destination: 32 bytes at offset 8 of the IPv6 header */
		if (!l3 || l3 + 40 > flen)
			return -ENOENT;
		h = xskf_toeplitz__hash_at(&rss->t, 0, frame + l3 + 8, 32);
		if (ports) {
			h ^= xskf_toeplitz__hash_at(&rss->t, 32, frame + l4, 4);
			*type = tcp ? XDP_RSS_TYPE_L4_IPV6_TCP : XDP_RSS_TYPE_L4_IPV6_UDP;
		} else {
			*type = XDP_RSS_TYPE_L3_IPV6;
		}
		break;
	default:
		return -ENOENT;
	}
	*hash = h;
	return 0;
}

int xskf_rss__hash_pkt(const struct xskf_rss *rss, const struct xskf_pkt *pkt, uint32_t *hash,
		       uint16_t *type)
{
	const struct xskf_meta *m = xskf_pkt__meta(pkt);
	const uint8_t *frame;
	struct xskf_parse p;

	if (!rss)
		rss = xskf_rss__default();
	/* the meta's offsets are from the frame as received, which starts right after it */
	frame = m ? (const uint8_t *)(m + 1) : NULL;
	/* a meta without the parse (the app asked for the driver's hash only) does not help */
	if (m && !(m->src & XSKF_META_NOPARSE) && frame <= pkt->data)
		return hash_frame(rss, frame, (size_t)(pkt->data + pkt->len - frame), m->ptype,
				  m->l3_off, m->l4_off, hash, type);
	/* no valid meta: parse here (the outer frame is all the hash needs) */
	xskf_parse_outer(pkt->data, pkt->data + pkt->len, &p);
	return hash_frame(rss, pkt->data, pkt->len, p.ptype, p.l3_off, p.l4_off, hash, type);
}

int xskf_hash__sw(const struct xskf_pkt *pkt, uint32_t *hash, uint16_t *type)
{
	const struct xskf_rss *rss = NULL;

	if (pkt->port < tls_nr_rss)
		rss = tls_rss[pkt->port];
	return xskf_rss__hash_pkt(rss, pkt, hash, type);
}

void xskf_hints__set_str(uint32_t hints, char *buf, size_t len)
{
	static const char *const names[] = { "ptype", "tunnel", "rx_hash", "rx_timestamp", "vlan" };
	size_t at = 0;
	unsigned int i;

	if (!len)
		return;
	buf[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int n;

		if (!(hints & (1u << i)))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? " " : "", names[i]);
		if (n < 0 || (size_t)n >= len - at)
			return;
		at += (size_t)n;
	}
	if (!at)
		snprintf(buf, len, "none");
}
