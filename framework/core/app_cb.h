/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which app callback this thread is in, for the line the runner prints from the fatal-signal
 * handler (runner/chain.c: "plugin 'NAME' (FILE) crashed in rx_burst"). The worker marks the
 * callbacks it calls itself (rx_burst, tx_fill: two stores a burst); the runner marks those it
 * calls through its chain. Private.
 */
#ifndef XSKF_APP_CB_H
#define XSKF_APP_CB_H

enum xskf_app_cb {
	XSKF_CB_NONE,
	XSKF_CB_CONFIGURE,
	XSKF_CB_INIT,
	XSKF_CB_WORKER_INIT,
	XSKF_CB_RX_BURST,
	XSKF_CB_TX_FILL,
	XSKF_CB_TICK,
	XSKF_CB_WORKER_FINI,
	XSKF_CB_FINI,
	XSKF_CB_JSON,
	XSKF_CB_COMMAND,
	XSKF_CB_CLEANUP,
	XSKF_CB_MAX,
};

/* initial-exec: one %fs-relative store, and readable from a signal handler */
extern __thread unsigned char xskf__app_cb __attribute__((tls_model("initial-exec")));

#endif /* XSKF_APP_CB_H */
