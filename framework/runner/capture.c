// SPDX-License-Identifier: BSD-2-Clause
/*
 * Live capture, the runner's half (capture.h): the pcapng writer on the control thread.
 *
 * The stream: one line "ok: capturing ...\n", then a pcapng section (little-endian, as this
 * machine): a section header, one interface description per captured socket (port and queue:
 * "veth0:q1", nanosecond timestamps, the snap length), an enhanced packet block per frame
 * (direction in epb_flags, the RX hints as a comment: hash, its source, hash type, packet
 * type), and at the end an interface statistics block whose isb_osdrop is the frames the
 * workers' rings dropped while the capture ran. xskfctl copies the stream to its file.
 * The stream ends after the count, when the run ends, or when the client sends a line ("end",
 * xskfctl at Ctrl-C): each way with the statistics block, then the run closes.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "xskf_meta.h"
#include "core/capture.h"
#include "core/engine.h"
#include "core/sock.h"
#include "runner/capture.h"
#include "runner/ctl.h"
#include "buf.h" /* util/: the stream's buffer */

#define CAP_BUF_MAX (8u << 20) /* pcapng bytes waiting for the client, at most */

struct xskf_capture_session {
	struct xskf_ctl_capture req;
	struct xbuf b;                /* the stream not yet sent (util/buf.h) */
	size_t off;                   /* of b: the first byte not yet sent */
	bool ended, started;
	bool in_eof;                  /* the client shut its write side: no "end" will come */
	unsigned long long written;   /* enhanced packet blocks */
	int64_t real_off;             /* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	int *ifid;                    /* per socket of the engine: its interface id, or -1 */
	unsigned int nr_if;
	unsigned int next_worker;     /* the worker read first next time (fairness) */
};

static void put(struct xskf_capture_session *cs, const void *p, size_t n)
{
	xbuf_put(&cs->b, p, n);
}

static void put32(struct xskf_capture_session *cs, uint32_t v)
{
	put(cs, &v, 4);
}

/* An option: code, length, value padded to 32 bits. */
static void opt(struct xskf_capture_session *cs, uint16_t code, const void *v, uint16_t len)
{
	static const uint8_t zero[4];

	put(cs, &code, 2);
	put(cs, &len, 2);
	put(cs, v, len);
	put(cs, zero, (4 - len % 4) % 4);
}

static void opt_end(struct xskf_capture_session *cs)
{
	put32(cs, 0);
}

/* Close the block begun at @start: its total length, at its second word and at its end. */
static void block_end(struct xskf_capture_session *cs, size_t start)
{
	uint32_t total = (uint32_t)(cs->b.len - start + 4);

	put32(cs, total);
	if (!cs->b.oom)
		memcpy(cs->b.p + start + 4, &total, 4);
}

static size_t block_begin(struct xskf_capture_session *cs, uint32_t type)
{
	size_t start = cs->b.len;

	put32(cs, type);
	put32(cs, 0); /* the length, once known */
	return start;
}

static void header(struct xskf_capture_session *cs, struct xskf_engine *eng)
{
	static const char appl[] = "xskf " XSKF_VERSION " (xskfctl capture)";
	uint8_t tsresol = 9; /* nanoseconds */
	uint16_t ver[2] = { 1, 0 };
	int64_t section = -1;
	size_t b;
	unsigned int i;

	b = block_begin(cs, 0x0A0D0D0A); /* section header */
	put32(cs, 0x1A2B3C4D);
	put(cs, ver, 4);
	put(cs, &section, 8);
	opt(cs, 4, appl, sizeof(appl) - 1); /* shb_userappl */
	opt_end(cs);
	block_end(cs, b);
	for (i = 0; i < eng->nr_socks; i++) {
		struct xskf_sock *s = &eng->socks[i];
		uint16_t link = 1; /* LINKTYPE_ETHERNET */
		uint16_t rsv = 0;
		char name[40];

		if (cs->ifid[i] < 0)
			continue;
		b = block_begin(cs, 1); /* interface description */
		put(cs, &link, 2);
		put(cs, &rsv, 2);
		put32(cs, cs->req.snaplen);
		snprintf(name, sizeof(name), "%s:q%u", s->port->name, s->queue);
		opt(cs, 2, name, (uint16_t)strlen(name)); /* if_name */
		opt(cs, 9, &tsresol, 1);                  /* if_tsresol */
		opt_end(cs);
		block_end(cs, b);
	}
}

static void packet(struct xskf_capture_session *cs, const struct xskf_cap_rec *r)
{
	static const uint8_t zero[4];
	uint64_t ts = (uint64_t)((int64_t)r->ts_ns + cs->real_off);
	uint32_t flags = r->dir == XSKF_CAP_RX ? 1 : 2; /* inbound, outbound */
	char c[128];
	size_t b;
	int n;

	b = block_begin(cs, 6); /* enhanced packet */
	put32(cs, (uint32_t)cs->ifid[r->sock]);
	put32(cs, (uint32_t)(ts >> 32));
	put32(cs, (uint32_t)ts);
	put32(cs, r->cap_len);
	put32(cs, r->orig_len);
	put(cs, r->data, r->cap_len);
	put(cs, zero, (4 - r->cap_len % 4) % 4);
	opt(cs, 2, &flags, 4); /* epb_flags */
	if (r->hints) {
		n = snprintf(c, sizeof(c), "rx_hash=0x%08x hash_src=%s hash_type=0x%x ptype=0x%x",
			     r->rx_hash,
			     r->hint_src == XSKF_SRC_HW   ? "hw"
			     : r->hint_src == XSKF_SRC_SW ? "sw"
							  : "none",
			     r->hash_type, r->ptype);
		opt(cs, 1, c, (uint16_t)n); /* opt_comment */
	}
	opt_end(cs);
	block_end(cs, b);
	cs->written++;
}

/* The interface statistics: the rings' drops, on interface 0 (they are the workers'). */
static void stats(struct xskf_capture_session *cs, struct xskf_engine *eng)
{
	static const char note[] = "isb_osdrop: frames the capture rings of the workers dropped "
				   "(full), all interfaces";
	struct timespec t;
	uint64_t drops = xskf_capture__drops(eng), ts;
	size_t b;

	if (!cs->nr_if)
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	ts = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	b = block_begin(cs, 5);
	put32(cs, 0);
	put32(cs, (uint32_t)(ts >> 32));
	put32(cs, (uint32_t)ts);
	opt(cs, 7, &drops, 8); /* isb_osdrop */
	opt(cs, 1, note, sizeof(note) - 1);
	opt_end(cs);
	block_end(cs, b);
}

struct xskf_capture_session *xskf_capture_session__new(struct xskf_engine *eng, const char *args,
							char *err, size_t errlen)
{
	struct xskf_capture_session *cs = calloc(1, sizeof(*cs));
	struct xskf_cap_filter f = { .port = -1 };
	char why[160], line[256];
	struct timespec m, r;
	unsigned int i;
	int e, n;

	if (!cs || !(cs->ifid = calloc(eng->nr_socks ? eng->nr_socks : 1, sizeof(int)))) {
		snprintf(err, errlen, "error: capture: out of memory\n");
		goto fail;
	}
	cs->b.first = 65536;
	if (xskf_ctl__capture_args(args, &cs->req, why, sizeof(why))) {
		snprintf(err, errlen, "error: %s\n", why);
		goto fail;
	}
	if (cs->req.port[0]) {
		for (i = 0; i < eng->nr_ports && strcmp(eng->ports[i].name, cs->req.port); i++)
			;
		if (i == eng->nr_ports) {
			snprintf(err, errlen, "error: capture: no port '%s' in this run (xskfctl "
				 "stats lists its ports)\n", cs->req.port);
			goto fail;
		}
		f.port = (int)i;
	}
	f.queue = cs->req.queue;
	f.dirs = cs->req.dirs;
	f.snaplen = cs->req.snaplen;
	for (i = 0; i < eng->nr_socks; i++) {
		const struct xskf_sock *s = &eng->socks[i];
		bool want = (f.port < 0 || (unsigned int)f.port == s->port->idx) &&
			    (f.queue < 0 || (uint32_t)f.queue == s->queue);

		cs->ifid[i] = want ? (int)cs->nr_if++ : -1;
	}
	if (!cs->nr_if) {
		snprintf(err, errlen, "error: capture: no socket of this run has queue %d%s%s "
			 "(xskfctl stats lists its queues)\n", f.queue, f.port >= 0 ? " on " : "",
			 f.port >= 0 ? cs->req.port : "");
		goto fail;
	}
	if (eng->app.flags & XSKF_APP_F_TX_ONLY) {
		snprintf(err, errlen, "error: capture: %s only sends (a TX-only app): its frames "
			 "are not captured yet\n", eng->app.name ? eng->app.name : "this run");
		goto fail;
	}
	e = xskf_capture__start(eng, &f);
	if (e) {
		snprintf(err, errlen, "error: capture: %s\n", strerror(-e));
		goto fail;
	}
	cs->started = true;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	cs->real_off = ((int64_t)r.tv_sec - m.tv_sec) * 1000000000ll + (r.tv_nsec - m.tv_nsec);
	n = snprintf(line, sizeof(line), "ok: capturing %s%s, %u socket%s, %s, ",
		     cs->req.port[0] ? "port " : "every port", cs->req.port, cs->nr_if,
		     cs->nr_if == 1 ? "" : "s",
		     f.dirs == 3 ? "rx and tx" : f.dirs == 1 ? "rx" : "tx");
	if (cs->req.count)
		snprintf(line + n, sizeof(line) - (size_t)n, "%llu frames\n", cs->req.count);
	else
		snprintf(line + n, sizeof(line) - (size_t)n, "until the client goes\n");
	put(cs, line, strlen(line));
	header(cs, eng);
	if (cs->b.oom) {
		snprintf(err, errlen, "error: capture: out of memory\n");
		goto fail;
	}
	return cs;
fail:
	xskf_capture_session__free(cs, eng);
	return NULL;
}

/* Records of the workers' rings into pcapng, up to the count and the buffer's bound. */
static void take(struct xskf_capture_session *cs, struct xskf_engine *eng)
{
	unsigned int k, w, idle = 0;

	if (!cs->started)
		return;
	for (k = 0; idle < eng->nr_workers; k++) {
		const struct xskf_cap_rec *r;

		if (cs->req.count && cs->written >= cs->req.count)
			break;
		if (cs->b.len - cs->off >= CAP_BUF_MAX || cs->b.oom)
			return; /* the client is slow: the rings fill, and count */
		w = (cs->next_worker + k) % eng->nr_workers;
		r = xskf_capture__peek(eng, w);
		if (!r) {
			idle++;
			continue;
		}
		idle = 0;
		packet(cs, r);
		xskf_capture__next(eng, w);
	}
	cs->next_worker = (cs->next_worker + 1) % (eng->nr_workers ? eng->nr_workers : 1);
	if (cs->req.count && cs->written >= cs->req.count && !cs->ended) {
		xskf_capture__stop(eng);
		cs->started = false;
		stats(cs, eng);
		cs->ended = true;
	}
}

/* Send what @fd takes now. -1 when the client is gone. */
static int flush(struct xskf_capture_session *cs, int fd)
{
	while (cs->off < cs->b.len) {
		ssize_t r = send(fd, cs->b.p + cs->off, cs->b.len - cs->off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);

		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (r <= 0)
			return -1;
		cs->off += (size_t)r;
	}
	/* what was sent leaves the buffer once it is half of it (a move of what is left) */
	if (cs->off == cs->b.len || cs->off > cs->b.cap / 2) {
		xbuf_consume(&cs->b, cs->off);
		cs->off = 0;
	}
	return 0;
}

/* The end of the capture: the last records, the statistics block (the drops). */
static void finish(struct xskf_capture_session *cs, struct xskf_engine *eng)
{
	if (cs->ended)
		return;
	take(cs, eng);
	if (cs->started)
		xskf_capture__stop(eng);
	cs->started = false;
	stats(cs, eng);
	cs->ended = true;
}

/*
 * Did the client ask for the end? Any bytes after the request ("end\n": xskfctl at Ctrl-C)
 * end the capture as -c N does, so the file gets its statistics block. A client that only
 * shuts its write side (a script's socat) is not asking for anything: it is read no more.
 */
static bool end_asked(struct xskf_capture_session *cs, int fd)
{
	char buf[64];
	ssize_t r;

	if (cs->in_eof)
		return false;
	r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (!r)
		cs->in_eof = true;
	return r > 0;
}

int xskf_capture_session__step(struct xskf_capture_session *cs, struct xskf_engine *eng, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT | (cs->in_eof ? 0 : POLLIN) };

	/* the client closed its end (xskfctl killed, a full disk): nobody to write to */
	if (poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR)))
		return -1;
	if ((p.revents & POLLIN) && end_asked(cs, fd))
		finish(cs, eng);
	take(cs, eng);
	if (cs->b.oom || flush(cs, fd))
		return -1;
	return cs->ended && cs->off == cs->b.len ? 0 : 1;
}

void xskf_capture_session__end(struct xskf_capture_session *cs, struct xskf_engine *eng, int fd)
{
	finish(cs, eng);
	flush(cs, fd);
}

void xskf_capture_session__free(struct xskf_capture_session *cs, struct xskf_engine *eng)
{
	if (!cs)
		return;
	if (cs->started && eng)
		xskf_capture__stop(eng);
	free(cs->ifid);
	xbuf_free(&cs->b);
	free(cs);
}
