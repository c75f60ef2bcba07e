/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Live capture, the runner's half (capture.c): one capture at a time, served on a control
 * connection. The control thread takes the workers' records (core/capture.h) and writes them
 * to the connection as pcapng; it never waits for the client: what the client does not take
 * stays in a bounded buffer, and when that is full the workers' rings fill and count drops.
 * Thread: control thread, all of it.
 */
#ifndef XSKF_RUNNER_CAPTURE_H
#define XSKF_RUNNER_CAPTURE_H

#include <stddef.h>

struct xskf_engine;
struct xskf_capture_session;

/*
 * Start the capture that @args asks for (xskf_ctl__capture_args()) on @eng. Returns the
 * session, whose first bytes are the answer's "ok: ..." line and the pcapng header, or NULL
 * with one line in @err ("error: ...\n").
 */
struct xskf_capture_session *xskf_capture_session__new(struct xskf_engine *eng, const char *args,
							char *err, size_t errlen);

/*
 * Move the capture on: records into pcapng (as far as the buffer's bound), bytes to @fd (as
 * far as it takes them now). Returns 1 (going on), 0 (finished: every byte sent, close it),
 * or -1 (the client went away: close it).
 */
int xskf_capture_session__step(struct xskf_capture_session *cs, struct xskf_engine *eng, int fd);

/* The run ends: what the rings hold and the drop counts are written, and sent as far as @fd
 * takes them now; the capture is stopped. */
void xskf_capture_session__end(struct xskf_capture_session *cs, struct xskf_engine *eng, int fd);

/* Stop the capture if it runs, and free @cs. */
void xskf_capture_session__free(struct xskf_capture_session *cs, struct xskf_engine *eng);

#endif /* XSKF_RUNNER_CAPTURE_H */
