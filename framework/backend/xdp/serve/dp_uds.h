/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --serve-uds (dp_uds.c): the AF_XDP device plugin's UDS protocol as a server, handing out
 * the XSKMAP of each port. Thread: the control thread.
 */
#ifndef XSKF_BACKEND_XDP_DP_UDS_H
#define XSKF_BACKEND_XDP_DP_UDS_H

struct xskf_engine;

/*
 * Listen on --serve-uds's path (after the attach): 0 (also without the option), or -errno
 * said in one line (a folder not ours alone, a live server there, not a socket). A stale
 * socket (nobody listening) is removed first, said.
 */
int xskf_dp_uds__open(struct xskf_engine *eng);
/* Accept and answer what came since the last call; never waits (xskf_engine__watch()). */
void xskf_dp_uds__serve(struct xskf_engine *eng);
/* Close every connection and the socket, and remove its file. Nothing when not open. */
void xskf_dp_uds__close(void);
/* The fatal-signal handler's (async-signal-safe): the socket's file removed (the backend's
 * emergency(), xdp.c). */
void xskf_dp_uds__emergency(void);

#endif /* XSKF_BACKEND_XDP_DP_UDS_H */
