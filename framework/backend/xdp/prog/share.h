/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs that share an interface's program: the lock (share_lock.c), joining and leaving
 * (prog_share.c), and what the shared maps say, checked (share_owner.c).
 */
#ifndef XSKF_BACKEND_XDP_SHARE_H
#define XSKF_BACKEND_XDP_SHARE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct xskf_engine;
struct xskf_port;

/*
 * Several runs on one interface (prog_share.c, docs/steering.md). Thread: the control thread
 * (set-up, xskf_engine__watch(), the steering commands), unless said otherwise.
 *
 * xskf_share__lock()/unlock() - the interface's file lock in the control folder, around every
 * change of what the runs share (owners, rules, the table's write and flip). Nested takes by
 * one run count. lock: 0, or -errno said in one line (no lock file: the run goes on
 * unlocked; -ETIMEDOUT: another run held it for 10 s). Unlock after either.
 */
int xskf_share__lock(struct xskf_port *port);
void xskf_share__unlock(struct xskf_port *port);
/* The last run out, lock held: remove the lock file (a run waiting on it opens a new one). */
void xskf_share__forget(struct xskf_port *port);
struct bpf_map_info;
/* The fd of the map named @name of program @prog_id (its info in @mi), or -ENOENT. Any thread. */
int xskf_share__prog_map(uint32_t prog_id, const char *name, struct bpf_map_info *mi);
/* Does program @prog_id have live queue owners? 1 (one's pid in @pid), 0, or -ENOENT when the
 * program has no owner map (not a sharing xskf program). */
int xskf_share__live(uint32_t prog_id, pid_t *pid);
/* Check (@claim false) or take (@claim true) the port's queues: 0, or -EBUSY with one line
 * naming the owner of a queue a live run holds. Taking over a dead run's queue says so. */
int xskf_share__queues(struct xskf_engine *eng, struct xskf_port *port, bool claim);
/* Load the skeleton over the maps of the live program share.join_id, attach nothing: 0, or
 * -errno with one line naming what differs from what this run would load. */
int xskf_share__join(struct xskf_engine *eng, struct xskf_port *port);
/* Leave: our XSKMAP entries, queues and rules out of the shared maps. Returns true when no
 * other live run owns a queue (the caller detaches the program), false when others stay (said
 * in one line, with a --force'd foreign program that cannot be put back). */
bool xskf_share__leave(struct xskf_port *port);
/* The watch: a dead run's queues and rules out of the table (one line). Returns 0. */
int xskf_share__reap(struct xskf_port *port);
/* Async-signal-safe: does a process other than us own a queue in owner map @fd? */
bool xskf_share__others_sigsafe(int fd);

/*
 * What the shared maps say, checked (share_owner.c, share_check.c). owner_live: is (@pid,
 * @start) a live process that holds an fd of map @map_id (the program's xskf_queues: every
 * xskf run on it does, nothing else)? Cached per process. map_holder: a process other than
 * this one holding map @map_id, or 0 (a scan of /proc: at start only). owner_ok, rule_ok: does
 * the record of queue @q / slot @slot pass the checks? A record that does not is named in
 * one line (once until it changes) and is to be ignored.
 */
struct xskf_prog_qowner;
struct xskf_prog_srule;
bool xskf_share__owner_live(uint32_t map_id, uint32_t pid, uint64_t start);
pid_t xskf_share__map_holder(uint32_t map_id);
uint32_t xskf_share__map_id(int fd);
bool xskf_share__owner_ok(const struct xskf_port *port, uint32_t q,
			  const struct xskf_prog_qowner *o);
bool xskf_share__rule_ok(const struct xskf_port *port, uint32_t slot,
			 const struct xskf_prog_srule *r);

#endif /* XSKF_BACKEND_XDP_SHARE_H */
