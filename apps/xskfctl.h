/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What xskfctl's commands share: the control folder, its instances, one request to one of
 * them, and the `stats` document read into a tree. Single-threaded, like xskfctl.
 */
#ifndef XSKFCTL_H
#define XSKFCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/un.h>

#include <xskf_counters.h>

#include "json.h" /* util/: the JSON parser */

#define CTL_MAX_INSTANCES 256

/* One running instance: its socket NAME.PID.sock in the control folder. */
struct ctl_inst {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char name[256]; /* NAME.PID, the instance label */
	char pid[24];
};

/* xskfctl_conn.c: the connection every command uses (it calls no command back). */

/* The control folder: $XSKF_CTL_DIR, else /run/xskf. */
const char *ctl_dir(void);

/*
 * Every NAME.PID.sock of the control folder, sorted by name (at most CTL_MAX_INSTANCES) into
 * @v. Returns how many, or -1 after a line on stderr (the folder cannot be read).
 */
int ctl_instances(struct ctl_inst *v, int max);

/*
 * The instance the user chose (@want: NAME, PID, a socket's path, or NULL: the only one).
 * 0, or -1 after the lines on stderr that name the problem (or the choices).
 */
int ctl_choose(const char *want, struct ctl_inst *inst);

/*
 * Send @req (one line, with its '\n') to @path and read the whole answer (at most
 * XJ_MAX_TEXT bytes) into *@ans (malloc'd, NUL-terminated, *@len bytes). An "error: busy"
 * answer is tried again, 50 ms apart for up to 2 s. 0, or -1 with the reason in @err (no
 * "xskfctl: " prefix; nothing printed).
 */
int ctl_ask(const char *path, const char *req, char **ans, size_t *len, char *err, size_t errlen);

/* ctl_ask("stats") read into @doc: 0, or -1 with the reason in @err (an "error:" answer too). */
int ctl_stats(const char *path, struct xj_doc *doc, char *err, size_t errlen);

/*
 * Connect to the run at @path and check who serves it (root or us). The socket, or -1 with
 * the reason in @err.
 */
int ctl_connect(const char *path, char *err, size_t errlen);

/* Is @s one or more decimal digits (a pid)? */
bool ctl_all_digits(const char *s);

/* The commands that xskfctl answers itself: 0, 1 (nothing or an error answered), 2 (usage). */
int cmd_list(int argc, char **argv);
int cmd_metrics(const char *want, int argc, char **argv);
int cmd_top(const char *want, int argc, char **argv);
int cmd_capture(const char *want, int argc, char **argv);

#endif /* XSKFCTL_H */
