// SPDX-License-Identifier: BSD-2-Clause
/*
 * xskfctl's connection to the runs (xskfctl.h): the control folder, its instances, the one
 * chosen, a request and its answer, the `stats` document. Every command (xskfctl.c and the
 * sub-command files) calls these and they call none of them back, so the files form no circle.
 *
 * Who answers is checked (SO_PEERCRED: the uid that created the listening socket): root or
 * ourselves, never another user, who could have put a socket of theirs where we look and
 * forge the answer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xskfctl.h"

const char *ctl_dir(void)
{
	const char *dir = getenv("XSKF_CTL_DIR");

	return dir && *dir ? dir : "/run/xskf";
}

bool ctl_all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* [@s, @e) is a non-empty run of digits */
static bool all_digits2(const char *s, const char *e)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Does socket file @name (NAME.PID.sock) belong to @want: a PID (all digits), a NAME, or any? */
static bool sock_matches(const char *name, const char *want)
{
	size_t l = strlen(name), wl;
	const char *dot;

	if (l <= 5 || strcmp(name + l - 5, ".sock"))
		return false;
	dot = memrchr(name, '.', l - 5); /* the dot before PID */
	if (!dot || dot == name || !all_digits2(dot + 1, name + l - 5))
		return false;
	if (!want)
		return true;
	wl = strlen(want);
	if (ctl_all_digits(want)) /* a pid */
		return (size_t)(name + l - 5 - dot - 1) == wl && !memcmp(dot + 1, want, wl);
	return (size_t)(dot - name) == wl && !memcmp(name, want, wl);
}

static int inst_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ctl_inst *)a)->name, ((const struct ctl_inst *)b)->name);
}

static void inst_fill(struct ctl_inst *in, const char *dir, const char *file)
{
	size_t l = strlen(file) - 5; /* without ".sock" */
	const char *dot = memrchr(file, '.', l);

	snprintf(in->path, sizeof(in->path), "%s/%s", dir, file);
	snprintf(in->name, sizeof(in->name), "%.*s", (int)l, file);
	snprintf(in->pid, sizeof(in->pid), "%.*s", (int)(file + l - dot - 1), dot + 1);
}

/*
 * The control folder, opened, if we can trust what is in it: a real folder (a symlink is not
 * followed), owned by root or by us, writable by nobody else (as tmux and ssh-agent check
 * theirs). Else anyone could lay a socket there: its answers are checked (SO_PEERCRED), but
 * the list of runs would be theirs. NULL after one line (errno ENOENT: no folder).
 */
static DIR *open_ctl_dir(const char *dir)
{
	struct stat st, st2;
	int fd;

	if (lstat(dir, &st))
		return NULL;
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"xskfctl: the control folder %s is %s: not following it (remove it, or "
			"set XSKF_CTL_DIR to xskf's folder)\n",
			dir, S_ISLNK(st.st_mode) ? "a symlink" : "not a folder");
		errno = EPERM;
		return NULL;
	}
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)) {
		fprintf(stderr,
			"xskfctl: the control folder %s is not to be trusted (owner uid %u, mode "
			"%04o; it must be root's or yours and writable by nobody else): remove it "
			"and restart the runs, or set XSKF_CTL_DIR\n",
			dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
		errno = EPERM;
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st2) || st2.st_dev != st.st_dev || st2.st_ino != st.st_ino)) {
		fprintf(stderr, "xskfctl: the control folder %s changed while it was checked\n",
			dir);
		close(fd);
		errno = EPERM;
		return NULL;
	}
	return fd < 0 ? NULL : fdopendir(fd);
}

/* The sockets of the folder matching @want (NULL: all) into @v; their count (may be > @max). */
static int scan(const char *want, struct ctl_inst *v, int max)
{
	const char *dir = ctl_dir();
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = open_ctl_dir(dir);
	if (!d && errno == EPERM)
		return -1;
	if (!d) {
		if (errno == ENOENT)
			fprintf(stderr, "xskfctl: no xskf is running (no control folder %s)\n",
				dir);
		else if (errno == EACCES)
			fprintf(stderr,
				"xskfctl: cannot read the control folder %s: %s: only its "
				"owner (root) can reach a running xskf: run xskfctl as root\n",
				dir, strerror(errno));
		else
			fprintf(stderr, "xskfctl: cannot read the control folder %s: %s\n", dir,
				strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (!sock_matches(de->d_name, want))
			continue;
		/* a path that does not fit sun_path cannot be reached: not a run of ours */
		if (strlen(dir) + 1 + strlen(de->d_name) >= sizeof(v->path))
			continue;
		if (n < max)
			inst_fill(&v[n], dir, de->d_name);
		n++;
	}
	closedir(d);
	qsort(v, (size_t)(n < max ? n : max), sizeof(*v), inst_cmp);
	return n;
}

int ctl_instances(struct ctl_inst *v, int max)
{
	int n = scan(NULL, v, max);

	return n > max ? max : n;
}

int ctl_choose(const char *want, struct ctl_inst *inst)
{
	static struct ctl_inst v[CTL_MAX_INSTANCES];
	const char *dir = ctl_dir();
	int n, i;

	if (want && strchr(want, '/')) {
		const char *base = strrchr(want, '/') + 1;

		if (strlen(want) >= sizeof(inst->path)) {
			fprintf(stderr, "xskfctl: socket path too long: %s\n", want);
			return -1;
		}
		memset(inst, 0, sizeof(*inst));
		snprintf(inst->path, sizeof(inst->path), "%s", want);
		if (sock_matches(base, NULL)) {
			inst_fill(inst, ".", base);
			snprintf(inst->path, sizeof(inst->path), "%s", want);
		} else {
			snprintf(inst->name, sizeof(inst->name), "%s", base);
		}
		return 0;
	}
	n = scan(want, v, CTL_MAX_INSTANCES);
	if (n < 0)
		return -1;
	if (n == 1) {
		*inst = v[0];
		return 0;
	}
	for (i = 0; i < n && i < CTL_MAX_INSTANCES; i++)
		fprintf(stderr, "%s\n", v[i].path);
	if (!n && want)
		fprintf(stderr, "xskfctl: no running xskf called '%s' (no %s%s%s.sock in %s)\n",
			want, ctl_all_digits(want) ? "*." : "", want, ctl_all_digits(want) ? "" : ".*",
			dir);
	else if (!n)
		fprintf(stderr, "xskfctl: no xskf is running (no socket in %s)\n", dir);
	else
		fprintf(stderr,
			"xskfctl: %d runs have a socket (above): choose one with -s NAME, "
			"-s PID or -s SOCKET\n",
			n);
	return -1;
}

/*
 * One try of ctl_ask(): as it, or -EAGAIN when the run was busy and @may_retry (an "error:
 * busy" first line, or a close before a word: refused while we were writing).
 */
int ctl_connect(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "socket path too long: %s", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		snprintf(err, errlen, "cannot connect to %s: %s", path, strerror(errno));
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl)) {
		snprintf(err, errlen, "cannot tell who serves %s: %s", path, strerror(errno));
		goto fail;
	}
	if (cred.uid != 0 && cred.uid != geteuid()) {
		snprintf(err, errlen,
			 "%s is served by uid %u (pid %d), neither root nor you: not trusting it",
			 path, (unsigned int)cred.uid, (int)cred.pid);
		goto fail;
	}
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

static int ask_once(const char *path, const char *req, char **ans, size_t *len, char *err,
		    size_t errlen, bool may_retry)
{
	size_t rl = strlen(req), cap = 65536, n = 0;
	char *buf = NULL;
	ssize_t r;
	int fd;

	*ans = NULL;
	*len = 0;
	fd = ctl_connect(path, err, errlen);
	if (fd < 0)
		return -1;
	/* a refusal may have closed the socket before we wrote: its line is still to be read */
	r = send(fd, req, rl, MSG_NOSIGNAL);
	if (r != (ssize_t)rl && errno != EPIPE && errno != ECONNRESET) {
		snprintf(err, errlen, "cannot send to %s: %s", path, strerror(errno));
		goto fail;
	}
	shutdown(fd, SHUT_WR);
	buf = malloc(cap + 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	while ((r = recv(fd, buf + n, cap - n, 0)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *nb;

			if (cap >= XJ_MAX_TEXT) {
				snprintf(err, errlen, "%s answered more than 64 MiB", path);
				goto fail;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
			buf = nb;
		}
	}
	/* a refusal is written and the socket closed with our request unread: a reset after it */
	if (r < 0 && !(errno == ECONNRESET && n)) {
		snprintf(err, errlen, "cannot read from %s: %s", path, strerror(errno));
		goto fail;
	}
	if (may_retry && (!n || (n >= 11 && !memcmp(buf, "error: busy", 11)))) {
		free(buf);
		close(fd);
		return -EAGAIN;
	}
	if (!n) {
		snprintf(err, errlen, "%s closed without an answer", path);
		goto fail;
	}
	close(fd);
	buf[n] = 0;
	*ans = buf;
	*len = n;
	return 0;
fail:
	free(buf);
	if (fd >= 0)
		close(fd);
	return -1;
}

int ctl_ask(const char *path, const char *req, char **ans, size_t *len, char *err, size_t errlen)
{
	int tries, r;

	/*
	 * A run serves a bounded number of connections; one that comes while they are all taken
	 * and before its request has arrived is told "error: busy" (the server never waits).
	 * That answer says to try again: so we do, for up to 2 s, 50 ms apart.
	 */
	for (tries = 0;; tries++) {
		r = ask_once(path, req, ans, len, err, errlen, tries < 40);
		if (r != -EAGAIN)
			return r;
		usleep(50 * 1000);
	}
}

int ctl_stats(const char *path, struct xj_doc *doc, char *err, size_t errlen)
{
	const char *why = NULL;
	size_t len, off = 0;
	char *ans;
	int r;

	memset(doc, 0, sizeof(*doc));
	if (ctl_ask(path, "stats\n", &ans, &len, err, errlen))
		return -1;
	if (len >= 6 && !memcmp(ans, "error:", 6)) {
		snprintf(err, errlen, "%s answered: %.*s", path, (int)strcspn(ans, "\n"), ans);
		free(ans);
		return -1;
	}
	r = xj_doc__new(doc, ans, len, &off, &why);
	free(ans);
	if (r) {
		snprintf(err, errlen, "%s: the stats answer is not JSON (byte %zu: %s%s)", path, off,
			 why && r != -ENOMEM ? "expected " : "", why && r != -ENOMEM ? why : strerror(-r));
		xj_doc__free(doc);
		return -1;
	}
	return 0;
}
