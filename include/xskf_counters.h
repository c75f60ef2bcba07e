/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The counters of a queue (one socket), one row each: the single place a counter is named.
 * XSKF_QUEUE_COUNTERS(X, R) expands X(field, obj, key, src, type, help) once per counter and
 * R(field, n) once per reserved array, in the order of struct xskf_queue_stats. From the rows
 * come that struct's members, the worker's own counters (framework/core/sock.h), the stats
 * document (`--json`, `xskfctl stats`: queues[].obj.key, or queues[].key with no obj), its
 * Prometheus families (`xskfctl metrics`: xskf_queue_[obj_]key_total) and the counter table of
 * docs/operations.md, which test `counter-docs` holds to these rows; `xskfctl top`'s columns and
 * the live lines show them as the queue view of util/counters.c says.
 *
 * Adding a counter: one row at the end (struct xskf_queue_stats only grows, so plugins built
 * against an older header keep working), and its row in docs/operations.md. Its worker
 * increments s->c.FIELD.
 *
 *   field  the member of struct xskf_queue_stats
 *   obj    the object of a queue in the stats document holding it; empty: the queue itself
 *   key    its name there
 *   src    who counts it: WORKER (the worker that owns the socket), KERNEL (the kernel's
 *          XDP_STATISTICS of the socket), PROG (xskf's XDP program, per queue id, all CPUs)
 *   type   its Prometheus type (counter: it only grows)
 *   help   one sentence, the family's HELP
 *
 * Thread: a macro; no code, no data symbol.
 */
#ifndef XSKF_COUNTERS_H
#define XSKF_COUNTERS_H

#define XSKF_QUEUE_COUNTERS(X, R)                                                                  \
	X(rx_packets, , rx_packets, WORKER, counter, "Frames received on the queue's socket.")     \
	X(rx_bytes, , rx_bytes, WORKER, counter, "Bytes received on the queue's socket.")          \
	/* completed by the kernel */                                                              \
	X(tx_packets, , tx_packets, WORKER, counter, "Frames sent on the queue's socket.")         \
	X(tx_bytes, , tx_bytes, WORKER, counter, "Bytes sent on the queue's socket.")              \
	/* verdict XSKF_DROP */                                                                    \
	X(drop_app, , drop_app, WORKER, counter, "Frames the app dropped (its verdict).")          \
	/* XSKF_FWD to a port this worker has no queue on */                                       \
	X(drop_no_port, , drop_no_port, WORKER, counter,                                           \
	  "Frames sent to a port that does not exist.")                                            \
	/* a frame longer than the frame allows */                                                 \
	X(drop_too_long, , drop_too_long, WORKER, counter,                                         \
	  "Frames too long for the port they were sent to.")                                       \
	/* the TX ring and the worker's TX batch both full */                                      \
	X(drop_tx_full, , drop_tx_full, WORKER, counter,                                           \
	  "Frames dropped because the TX ring was full.")                                          \
	/* times a TX batch found the ring full (back-pressure) */                                 \
	X(tx_ring_full, , tx_ring_full, WORKER, counter, "Times the TX ring was found full.")      \
	/* times the fill ring could not be topped up */                                           \
	X(fill_ring_empty, , fill_ring_empty, WORKER, counter,                                     \
	  "Times the worker found no frame to put in the fill ring.")                              \
	/* wakeup syscalls made */                                                                 \
	X(kicks, , kicks, WORKER, counter, "Wake-up calls (sendto) made for TX.")                  \
	/* the kernel's XDP_STATISTICS for this socket */                                          \
	X(k_rx_dropped, kernel, rx_dropped, KERNEL, counter,                                       \
	  "Kernel XDP statistics: frames dropped at RX (rx_dropped).")                             \
	X(k_rx_invalid_descs, kernel, rx_invalid_descs, KERNEL, counter,                           \
	  "Kernel XDP statistics: invalid RX descriptors.")                                        \
	X(k_tx_invalid_descs, kernel, tx_invalid_descs, KERNEL, counter,                           \
	  "Kernel XDP statistics: invalid TX descriptors.")                                        \
	X(k_rx_ring_full, kernel, rx_ring_full, KERNEL, counter,                                   \
	  "Kernel XDP statistics: frames dropped, the RX ring full.")                              \
	X(k_rx_fill_ring_empty_descs, kernel, rx_fill_ring_empty_descs, KERNEL, counter,           \
	  "Kernel XDP statistics: times the fill ring was empty.")                                 \
	X(k_tx_ring_empty_descs, kernel, tx_ring_empty_descs, KERNEL, counter,                     \
	  "Kernel XDP statistics: times the TX ring was empty.")                                   \
	/* the XDP program's per-CPU counters for this queue id, summed */                         \
	X(prog_redirected, program, redirected, PROG, counter,                                     \
	  "Frames xskf's XDP program redirected to the queue's socket.")                           \
	X(prog_passed, program, passed, PROG, counter,                                             \
	  "Frames xskf's XDP program passed to the kernel's stack.")                               \
	X(prog_errors, program, errors, PROG, counter,                                             \
	  "Frames xskf's XDP program could not redirect.")                                         \
	/* RX hints by source, index XSKF_SRC_NONE, _HW, _SW: reserved, never counted */           \
	R(hint_hash, 3)                                                                            \
	/*                                                                                         \
	 * TCP/UDP checksums of received frames (docs/forwarding.md): frames whose checksum was    \
	 * looked at (every frame with csum_repair; else every frame of a burst shorter than the   \
	 * batch and the first of every 64th full burst), those of them whose checksum the sender  \
	 * left unfinished, and those finished in software (csum_repair).                          \
	 */                                                                                        \
	X(csum_checked, csum, checked, WORKER, counter,                                            \
	  "Frames whose L4 checksum state was sampled.")                                           \
	X(csum_unfinished, csum, unfinished, WORKER, counter,                                      \
	  "Sampled frames with an unfinished L4 checksum (a sender's offload).")                   \
	X(csum_repaired, csum, repaired, WORKER, counter, "Checksums finished by --csum-repair.")  \
	/*                                                                                         \
	 * Multi-buffer frames (docs/jumbo.md; the names users read keep the older word,           \
	 * "chains"): received; dropped because one had more than XSKF_MAX_BUFS buffers, because   \
	 * it had no end (a buffer marked to go on followed by none, found at exit), or because it \
	 * was to be sent with more buffers than the output socket takes (its tx_max_segs).        \
	 */                                                                                        \
	X(rx_chains, chains, rx, WORKER, counter, "Multi-buffer frames received.")                 \
	X(drop_chain_long, chains, drop_long, WORKER, counter,                                     \
	  "Multi-buffer frames dropped whole: more than XSKF_MAX_BUFS buffers.")                   \
	X(drop_chain_open, chains, drop_open, WORKER, counter,                                     \
	  "Multi-buffer frames dropped at the drain: a buffer marked to go on that nothing "       \
	  "followed.")                                                                             \
	X(drop_chain_tx, chains, drop_tx, WORKER, counter,                                         \
	  "Multi-buffer frames not sent: more buffers than the kernel takes for one frame.")       \
	/*                                                                                         \
	 * TX metadata (xskf_tx.h, docs/tx-offloads.md): frames sent with metadata for the kernel  \
	 * or the device, checksums xskf computed in software instead, frames dropped for a        \
	 * request that could not be carried out (a checksum start or offset beyond the frame, no  \
	 * room in front of it), requests for an offload the port has not (the frame went without  \
	 * it), launch times in the past or more than XSKF_TX_LAUNCH_MAX_NS ahead (sent at once),  \
	 * timestamps handed back, and timestamps lost (the app's array was full).                 \
	 */                                                                                        \
	X(txmd_frames, tx_meta, frames, WORKER, counter,                                           \
	  "Frames sent with TX metadata (an offload request carried out).")                        \
	X(txmd_csum_sw, tx_meta, csum_sw, WORKER, counter,                                         \
	  "TX checksums xskf computed in software (the port has no offload).")                     \
	X(txmd_invalid, tx_meta, invalid, WORKER, counter,                                         \
	  "TX metadata requests refused as invalid (never sent).")                                 \
	X(txmd_unsupported, tx_meta, unsupported, WORKER, counter,                                 \
	  "TX metadata requests the port or socket cannot carry out.")                             \
	X(txmd_launch_bad, tx_meta, launch_bad, WORKER, counter,                                   \
	  "Launch times refused: in the past or too far ahead.")                                   \
	X(txmd_stamps, tx_meta, stamps, WORKER, counter, "TX timestamps handed back to the app.")  \
	X(txmd_stamps_lost, tx_meta, stamps_lost, WORKER, counter,                                 \
	  "TX timestamps asked for and not handed back.")                                          \
	/*                                                                                         \
	 * Frames (RX descriptors) still in the RX ring when the worker stopped draining it at the \
	 * end of a run: an app slower than half a second for what the ring held. Redirected, so   \
	 * reconciliation counts them; never read by the app.                                      \
	 */                                                                                        \
	X(rx_left, , rx_left_at_stop, WORKER, counter,                                             \
	  "Frames left in the RX ring when the worker stopped draining it at the end.")

/* A row macro that expands to nothing: for the rows a use of the table leaves out. */
#define XSKF_COUNTER_SKIP(...)

#endif /* XSKF_COUNTERS_H */
