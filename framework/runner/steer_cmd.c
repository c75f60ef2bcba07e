// SPDX-License-Identifier: BSD-2-Clause
/*
 * Steering in the runner: the command line's rules (--steer, --steer-file, --keep-host), the
 * control socket's `steer` request (xskfctl steer add|del|list) and the steering counters
 * in the live lines and the JSON document. Everything goes through the engine's public calls
 * (include/xskf.h: xskf_engine__steer_*()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/cli.h"
#include "runner/steer_cmd.h"
#include "core/log.h"
#include "counters.h" /* util/: the steering families */

static int add_one(struct xskf_engine *eng, const char *rule, const char *where)
{
	char err[400];
	int ret = xskf_engine__steer_add(eng, -1, rule, err, sizeof(err));

	if (ret >= 0)
		return 0;
	pr_warn("%s%s\n", where, err);
	return ret == -EINVAL || ret == -EEXIST || ret == -ENOSPC ? 2 : 1;
}

#define STEER_FILE_MAX (1u << 20) /* 1024 rules of 510 bytes, and their comments */
#define STEER_LINE_MAX 510

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a folder"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
			     : "not a regular file";
}

/*
 * The whole of a --steer-file, read before any rule of it is added: a regular file of at most
 * STEER_FILE_MAX bytes (/dev/zero or a FIFO would never end; a folder reads as nothing), every
 * read checked. *@buf is malloc'd and NUL-terminated, *@len its bytes. 0 or 2 (said).
 */
static int read_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	char *b = NULL;
	ssize_t r;
	int fd;

	/* O_NONBLOCK: a FIFO is refused below, not waited on at the open */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		pr_warn("cannot open --steer-file '%s': %s\n", path, strerror(errno));
		return 2;
	}
	if (fstat(fd, &st)) {
		pr_warn("cannot read --steer-file '%s': %s\n", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		pr_warn("--steer-file '%s' is %s: give a file of rules, one a line\n", path,
			file_kind(st.st_mode));
		goto fail;
	}
	if ((uint64_t)st.st_size > STEER_FILE_MAX)
		goto big;
	b = malloc(STEER_FILE_MAX + 2);
	if (!b) {
		pr_warn("--steer-file '%s': out of memory\n", path);
		goto fail;
	}
	/* up to one byte past the bound: a file that grows, or says its size is 0 (/proc) */
	while (got <= STEER_FILE_MAX) {
		r = read(fd, b + got, STEER_FILE_MAX + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			pr_warn("cannot read --steer-file '%s': %s\n", path, strerror(errno));
			goto fail;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	if (got > STEER_FILE_MAX)
		goto big;
	close(fd);
	b[got] = 0;
	*buf = b;
	*len = got;
	return 0;
big:
	pr_warn("--steer-file '%s' is larger than %u KiB: a file of rules (1024 at most, one a "
		"line) is smaller\n",
		path, STEER_FILE_MAX >> 10);
fail:
	free(b);
	close(fd);
	return 2;
}

/* Is @rule the port's default ("default ACTION")? */
static bool is_default(const char *rule)
{
	return !strncmp(rule, "default", 7) && (rule[7] == ' ' || !rule[7]);
}

/*
 * One rule a line; blank lines and # comments skipped. Every line is checked before it is
 * added, and a file that is not text is refused by its first fault, with its line: a NUL byte
 * (it would end the line early, silently), a line over STEER_LINE_MAX bytes, a second
 * 'default' (the last would win without a word).
 */
static int add_file(struct xskf_engine *eng, const char *path)
{
	char where[300], *buf, *line, *next;
	unsigned int n = 0, def_line = 0;
	size_t len, l, k;
	int ret = 0;

	if (read_file(path, &buf, &len))
		return 2;
	for (line = buf; !ret && line < buf + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));
		char *nul;

		n++;
		l = nl ? (size_t)(nl - line) : (size_t)(buf + len - line);
		next = line + l + 1;
		nul = memchr(line, 0, l);
		if (nul) {
			pr_warn(
			    "%s:%u: a NUL byte at column %zu: a file of rules is text, one rule a "
			    "line\n",
			    path, n, (size_t)(nul - line) + 1);
			ret = 2;
			break;
		}
		if (l > STEER_LINE_MAX) {
			pr_warn("%s:%u: line longer than %d bytes\n", path, n, STEER_LINE_MAX);
			ret = 2;
			break;
		}
		line[l] = 0;
		while (l && line[l - 1] == '\r')
			line[--l] = 0;
		for (char *t = line; *t; t++)
			if (*t == '\t')
				*t = ' ';
		k = strspn(line, " ");
		if (!line[k] || line[k] == '#')
			continue;
		if (is_default(line + k)) {
			if (def_line) {
				pr_warn("%s:%u: a second 'default' line (the first is line %u): "
					"keep one\n",
					path, n, def_line);
				ret = 2;
				break;
			}
			def_line = n;
		}
		snprintf(where, sizeof(where), "%s:%u: ", path, n);
		ret = add_one(eng, line + k, where);
	}
	free(buf);
	return ret;
}

int xskf_steer_cmd__apply(struct xskf_engine *eng, const struct xskf_cli *c)
{
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_steer; i++) {
		ret = c->steer[i].file ? add_file(eng, c->steer[i].arg)
				       : add_one(eng, c->steer[i].arg, "");
		if (ret)
			return ret;
	}
	if (c->keep_host && xskf_engine__steer_keep_host(eng, -1))
		return 1;
	return 0;
}

static void list(FILE *f, struct xskf_engine *eng)
{
	unsigned int p, i;

	for (p = 0; p < xskf_engine__nr_ports(eng); p++)
		for (i = 0;; i++) {
			struct xskf_steer_info in = {.sz = sizeof(in)};

			if (xskf_engine__steer_rule(eng, p, i, &in))
				break;
			if (in.id)
				fprintf(f, "%s %4u  %-50s hits %llu%s\n",
					xskf_engine__port_name(eng, p), in.id, in.text,
					(unsigned long long)in.hits,
					in.keep_host ? "  (--keep-host)" : "");
			else
				fprintf(f, "%s    -  %-50s hits %llu\n",
					xskf_engine__port_name(eng, p), in.text,
					(unsigned long long)in.hits);
		}
}

/*
 * The canonical text of rule @id of the first port (0: its default), as `steer list` shows it:
 * what `steer add` echoes, so the operator sees the rule as read ("dport 010" is port 10),
 * not the words typed. Falls back to @typed when it is not found (no port).
 */
static const char *added_text(struct xskf_engine *eng, int id, const char *typed,
			      struct xskf_steer_info *in)
{
	unsigned int i;

	for (i = 0;; i++) {
		*in = (struct xskf_steer_info){.sz = sizeof(*in)};
		if (xskf_engine__steer_rule(eng, 0, i, in))
			return typed;
		if (in->id == (unsigned int)id)
			return in->text;
	}
}

void xskf_steer_cmd__ctl(FILE *f, struct xskf_engine *eng, const char *args)
{
	struct xskf_steer_info in;
	char err[400], *end;
	unsigned long id;
	uint64_t hits;
	int ret;

	if (!strcmp(args, "list")) {
		list(f, eng);
		return;
	}
	if (!strncmp(args, "add ", 4)) {
		ret = xskf_engine__steer_add(eng, -1, args + 4, err, sizeof(err));
		if (ret > 0)
			fprintf(f, "ok: rule %d added: %s\n", ret,
				added_text(eng, ret, args + 4, &in));
		else if (ret == 0)
			fprintf(f, "ok: %s\n", added_text(eng, 0, args + 4, &in));
		else
			fprintf(f, "error: %s\n", err[0] ? err : strerror(-ret));
		return;
	}
	if (!strncmp(args, "del ", 4)) {
		errno = 0;
		id = strtoul(args + 4, &end, 10);
		if (errno || end == args + 4 || *end || !id || id > 1000000000) {
			fprintf(f, "error: steer del '%s': give a rule id (xskfctl steer list)\n",
				args + 4);
			return;
		}
		ret = xskf_engine__steer_del(eng, (unsigned int)id, &hits);
		if (ret == -ENOENT)
			fprintf(f, "error: no steering rule %lu (xskfctl steer list)\n", id);
		else if (ret)
			fprintf(f, "error: steer del %lu: %s; the table in use is unchanged\n", id,
				strerror(-ret));
		else
			fprintf(f, "ok: rule %lu deleted after %llu hits\n", id,
				(unsigned long long)hits);
		return;
	}
	fprintf(f, "error: steer takes 'add RULE', 'del ID' or 'list'\n");
}

/* Does port @p steer at all (a rule, or a default that is not xsk)? */
static bool steers(struct xskf_engine *eng, unsigned int p)
{
	struct xskf_steer_info in = {.sz = sizeof(in)};

	if (!xskf_engine__steer_rule(eng, p, 1, &in))
		return true;
	return !xskf_engine__steer_rule(eng, p, 0, &in) && strcmp(in.text, "default xsk");
}

/* @queue < 0: the sum over the port's bound queues */
static void port_stats(struct xskf_engine *eng, unsigned int p, struct xskf_steer_stats *sum)
{
	unsigned int i;
	uint32_t q;
	unsigned int port;
	struct xskf_queue_stats qs;

	memset(sum, 0, sizeof(*sum));
	sum->sz = sizeof(*sum);
	for (i = 0; !xskf_engine__queue_stats(eng, i, &port, &q, &qs); i++) {
		struct xskf_steer_stats s = {.sz = sizeof(s)};

		if (port != p || xskf_engine__steer_stats(eng, p, q, &s))
			continue;
		sum->seen += s.seen;
		sum->xsk += s.xsk;
		sum->pass += s.pass;
		sum->cpumap += s.cpumap;
		sum->drop += s.drop;
	}
}

void xskf_steer_cmd__line(struct xskf_engine *eng, FILE *f, double elapsed)
{
	unsigned int p;

	for (p = 0; p < xskf_engine__nr_ports(eng); p++) {
		struct xskf_steer_stats s;

		if (!steers(eng, p))
			continue;
		port_stats(eng, p, &s);
		fprintf(f, "[%7.1fs] steer %s", elapsed, xskf_engine__port_name(eng, p));
		xc_live(f, &xc_steer, &s, NULL);
		fputc('\n', f);
	}
}

/* Port @p's rules, in matching order, the default last (xc_steer_rule). */
static void json_rules(struct xskf_engine *eng, struct xjw *w, unsigned int p)
{
	unsigned int i;

	xjw_arr(w, "rules", NULL);
	for (i = 0;; i++) {
		struct xskf_steer_info in = {.sz = sizeof(in)};

		if (xskf_engine__steer_rule(eng, p, i, &in))
			break;
		xjw_obj(w, NULL, NULL);
		xc_json(w, &xc_steer_rule, &in);
		xjw_end(w, NULL);
	}
	xjw_end(w, NULL);
}

void xskf_steer_cmd__json(struct xskf_engine *eng, struct xjw *w)
{
	unsigned int p, i, port;
	struct xskf_queue_stats qs;
	uint32_t q;

	xjw_arr(w, "steering", "\n    ");
	for (p = 0; p < xskf_engine__nr_ports(eng); p++) {
		struct xskf_steer_stats s;

		port_stats(eng, p, &s);
		xjw_obj(w, NULL, NULL);
		xjw_str(w, "port", xskf_engine__port_name(eng, p));
		xc_json(w, &xc_steer, &s);
		xjw_break(w, "\n     ");
		json_rules(eng, w, p);
		xjw_break(w, "\n     ");
		xjw_arr(w, "queues", NULL);
		for (i = 0; !xskf_engine__queue_stats(eng, i, &port, &q, &qs); i++) {
			struct xskf_steer_stats qst = {.sz = sizeof(qst)};

			if (port != p || xskf_engine__steer_stats(eng, p, q, &qst))
				continue;
			xjw_obj(w, NULL, NULL);
			xjw_u64(w, "queue", q);
			xc_json(w, &xc_steer_queue, &qst);
			xjw_end(w, NULL);
		}
		xjw_end(w, NULL);
		xjw_end(w, NULL);
	}
	xjw_end(w, "\n  ");
}
