// SPDX-License-Identifier: BSD-2-Clause
/*
 * Plugins: finding a shared object, checking that it is an xskf plugin of this ABI, and the
 * runner that turns one or more of them into a chain (chain.c) and runs it through the
 * standard command line (run.c), with a control socket (ctl.c). See docs/plugins.md.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/backend.h"
#include "core/compiler.h"
#include "core/log.h"
#include "runner/chain.h"
#include "runner/cli.h"
#include "runner/ctl.h"
#include "runner/plugin_name.h"
#include "runner/plugin_trust.h"
#include "runner/run.h"

#ifndef XSKF_PLUGIN_DIR
#define XSKF_PLUGIN_DIR "/usr/local/lib/xskf/plugins"
#endif

static bool good_name(const char *s)
{
	return s && xskf_plugin_name__valid(s, strlen(s));
}

/* Take @d (as the plugin exported it) into @pl if it is a plugin this xskf can run. */
static int take(struct xskf_chain_plugin *pl, const struct xskf_plugin *d, const char *file)
{
	const size_t need = offsetof(struct xskf_plugin, cli); /* sz, abi, name, app, app_ctx */
	const struct xskf_app *app;

	snprintf(pl->file, sizeof(pl->file), "%s", file);
	if (d->abi != XSKF_PLUGIN_ABI) {
		pr_warn("%s: built for plugin ABI %u, this xskf has ABI %u: rebuild it "
			"against this xskf\n",
			file, d->abi, XSKF_PLUGIN_ABI);
		return -EPROTO;
	}
	if (d->sz < need) {
		pr_warn("%s: its descriptor is %zu bytes, ABI %u needs at least %zu: "
			"not built with XSKF_PLUGIN()?\n",
			file, d->sz, XSKF_PLUGIN_ABI, need);
		return -EPROTO;
	}
	memset(&pl->desc, 0, sizeof(pl->desc));
	/* fields a newer plugin added at the end are not ours to read */
	memcpy(&pl->desc, d, d->sz < XSKF_OPTS_KNOWN(xskf_plugin) ? d->sz : XSKF_OPTS_KNOWN(xskf_plugin));
	pl->p = &pl->desc;
	if (!good_name(d->name)) {
		pr_warn("%s: plugin name '%s' is invalid: use 1 to 32 of [a-z0-9_-]\n",
			file, d->name ? d->name : "(none)");
		return -EINVAL;
	}
	app = d->app;
	if (!app) {
		pr_warn("%s: plugin '%s' has no app (.app = &app)\n", file, d->name);
		return -EINVAL;
	}
	if (app->flags & XSKF_APP_F_TX_ONLY ? !app->tx_fill : !app->rx_burst) {
		pr_warn("%s: plugin '%s' has no %s callback, which it needs\n", file,
			d->name, app->flags & XSKF_APP_F_TX_ONLY ? "tx_fill" : "rx_burst");
		return -EINVAL;
	}
	return 0;
}

/* The plugin folders, colon-separated: $XSKF_PLUGIN_PATH, next to this program, installed. */
static void plugin_dirs(char *dirs, size_t len, char *self, size_t self_len)
{
	const char *env = getenv("XSKF_PLUGIN_PATH");
	ssize_t n = readlink("/proc/self/exe", self, self_len - 1);
	int w;

	self[n > 0 ? n : 0] = 0;
	if (strrchr(self, '/'))
		*strrchr(self, '/') = 0;
	w = snprintf(dirs, len, "%s%s%s:%s", env ? env : "", env ? ":" : "", self, XSKF_PLUGIN_DIR);
	if (w < 0 || (size_t)w >= len)
		snprintf(dirs, len, "%s", XSKF_PLUGIN_DIR); /* an absurd $XSKF_PLUGIN_PATH */
}

/* Edit distance of two short names (insert, delete, replace: one each), capped at 9. */
static unsigned int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int row[34], prev, cur;

	if (la > 32 || lb > 32)
		return 9;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
		}
	}
	return row[lb] < 9 ? row[lb] : 9;
}

/* The plugin file of the folders @dirs whose name is closest to @name (2 edits at most). */
static void suggest(const char *name, char *dirs, char *best, size_t len)
{
	unsigned int bestd = 3;
	char *save = NULL, *d;
	struct dirent *de;

	best[0] = 0;
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dir = opendir(d);

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char cand[64];
			size_t l = strlen(de->d_name);
			unsigned int dist;

			if (l < 4 || l - 3 >= sizeof(cand) || strcmp(de->d_name + l - 3, ".so"))
				continue;
			memcpy(cand, de->d_name, l - 3);
			cand[l - 3] = 0;
			dist = distance(name, cand);
			if (dist < bestd) {
				bestd = dist;
				snprintf(best, len, "%s", cand);
			}
		}
		closedir(dir);
	}
}

/* The plugin file @path, trusted, loaded and checked, into @pl (pl->dl stays for the caller). */
static int load_path(struct xskf_chain_plugin *pl, const char *path)
{
	const struct xskf_plugin *d;
	char canon[PATH_MAX];
	int err;

	err = xskf_plugin__trusted(path, canon, sizeof(canon));
	if (err)
		return err;
	pl->dl = dlopen(canon, RTLD_NOW | RTLD_LOCAL);
	if (!pl->dl) {
		pr_warn("%s: cannot load it as a plugin: %s\n", path, dlerror());
		return -ENOEXEC;
	}
	d = dlsym(pl->dl, "xskf_plugin_descriptor");
	if (!d) {
		pr_warn("%s: no symbol xskf_plugin_descriptor: not an xskf plugin "
			"(build it with XSKF_PLUGIN())\n",
			path);
		return -ENOEXEC;
	}
	return take(pl, d, path);
}

static void unload(struct xskf_chain_plugin *pl)
{
	if (pl->dl)
		dlclose(pl->dl);
	memset(pl, 0, sizeof(*pl));
}

/*
 * The first plugin of the folders @dirs (colon-separated) whose descriptor is called @name, in
 * @pl: what `xskf plugins` lists is the descriptor's name, and a file may be called otherwise
 * (count-l3 in count_l3.so). Each .so is loaded to read its name, as the listing does, without
 * a word for those that do not load (the listing says why). Also the closest name of all, in
 * @best (2 edits at most), for the not-found message.
 */
static int find_by_desc(struct xskf_chain_plugin *pl, const char *name, char *dirs, char *best,
			size_t best_len)
{
	xskf_print_fn_t print = xskf_set_print(NULL);
	char *save = NULL, *d, path[PATH_MAX];
	unsigned int bestd = 3, dist;
	int err = -ENOENT;
	struct dirent *de;

	for (d = strtok_r(dirs, ":", &save); d && err; d = strtok_r(NULL, ":", &save)) {
		DIR *dir = opendir(d);

		while (dir && err && (de = readdir(dir))) {
			size_t l = strlen(de->d_name);

			if (l < 4 || strcmp(de->d_name + l - 3, ".so"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", d, de->d_name);
			if (load_path(pl, path)) {
				unload(pl);
				continue;
			}
			if (!strcmp(pl->p->name, name)) {
				err = 0;
				break;
			}
			dist = distance(name, pl->p->name);
			if (dist < bestd) {
				bestd = dist;
				snprintf(best, best_len, "%s", pl->p->name);
			}
			unload(pl);
		}
		if (dir)
			closedir(dir);
	}
	xskf_set_print(print);
	return err;
}

/*
 * The plugin called @name, into @pl: first a file NAME.so whose descriptor is NAME, in the
 * folders' order (one load, the common case); then the first plugin whose descriptor is NAME
 * (the name `xskf plugins` lists); then a file NAME.so called otherwise inside (a name given by
 * its file, as before). A NAME.so that does not load is that error, as for a path.
 */
static int load_name(struct xskf_chain_plugin *pl, const char *name)
{
	char dirs[8192], scan[8192], self[PATH_MAX], best[64], by_file[PATH_MAX + 72];
	char path[PATH_MAX + 72], *save = NULL, *d;
	const char *env;
	int err;

	plugin_dirs(dirs, sizeof(dirs), self, sizeof(self));
	memcpy(scan, dirs, sizeof(dirs));
	by_file[0] = 0;
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/%s.so", d, name);
		if (access(path, R_OK))
			continue;
		err = load_path(pl, path);
		if (err)
			return err;
		if (!strcmp(pl->p->name, name))
			return 0;
		if (!by_file[0])
			snprintf(by_file, sizeof(by_file), "%s", path);
		unload(pl);
	}
	best[0] = 0;
	memcpy(dirs, scan, sizeof(dirs));
	if (!find_by_desc(pl, name, scan, best, sizeof(best)))
		return 0;
	if (by_file[0])
		return load_path(pl, by_file);
	if (!best[0])
		suggest(name, dirs, best, sizeof(best));
	env = getenv("XSKF_PLUGIN_PATH");
	pr_warn("plugin '%s' not found%s%s%s ('xskf plugins' lists what there is; looked for a "
		"plugin called %s and a file %s.so %s%s%snext to xskf (%s) and in %s%s; a path "
		"with a '/' works too: ./%s.so)\n",
		name, best[0] ? ": did you mean '" : "", best, best[0] ? "'?" : "", name, name,
		env ? "in $XSKF_PLUGIN_PATH (" : "", env ? env : "", env ? "), " : "", self,
		XSKF_PLUGIN_DIR, env ? "" : "; $XSKF_PLUGIN_PATH (not set) adds folders", name);
	return -ENOENT;
}

/*
 * @spec with a '/' is a path (./foo.so for one in the current folder); without, a name, with
 * or without ".so", looked up in the plugin folders only. dlopen() gets the checked
 * canonical path, so its own library search (LD_LIBRARY_PATH, ld.so.cache) never chooses.
 */
static int load(struct xskf_chain_plugin *pl, const char *spec)
{
	char name[64];
	size_t l = strlen(spec);

	if (strchr(spec, '/'))
		return load_path(pl, spec);
	if (l > 3 && !strcmp(spec + l - 3, ".so"))
		l -= 3;
	snprintf(name, sizeof(name), "%.*s", (int)(l < 63 ? l : 63), spec);
	if (l >= 64 || !good_name(name)) {
		pr_warn("'%s' is neither a plugin name nor a path to a .so (a path has a "
			"'/': ./%s)\n",
			spec, spec);
		return -EINVAL;
	}
	return load_name(pl, name);
}

/* ---- running a chain ---- */

/* A running chain and its control socket: the run loop hook's argument. */
struct chain_run {
	struct xskf_chain *ch;
	struct xskf_ctl *ctl;
	bool tried;
};

/* Run loop hook: the control socket, opened once the run is up (not for a bad command line). */
static void serve(struct xskf_engine *eng, double elapsed, void *arg)
{
	struct chain_run *r = arg;

	if (!r->tried) {
		r->tried = true;
		r->ctl = xskf_ctl__open(r->ch->name);
	}
	xskf_ctl__serve(r->ctl, r->ch, eng, elapsed);
}

/* Run end hook: a live capture gets its last frames and its end before the engine stops. */
static void run_end(struct xskf_engine *eng, void *arg)
{
	struct chain_run *r = arg;

	xskf_ctl__run_end(r->ctl, eng);
}

static int run_chain(struct xskf_chain *ch, const char *prog, int argc, char **argv)
{
	struct chain_run r = { .ch = ch };
	struct xskf_run_hook hook = { .fn = serve, .arg = &r, .end = run_end };
	char **av;
	int i, n = 0, status;

	status = xskf_chain__build(ch);
	if (status)
		return 2;
	xskf_chain__on_crash(ch); /* before the control socket's hook: the line comes first */
	/* `-- plugin options`: one command line for getopt, plugin options after the standard */
	av = calloc((size_t)argc + 1, sizeof(*av));
	if (!av)
		return 1;
	/* argv[0] names the command in usage and messages: 'xsk-rxdrop', 'xskf run filter,l2fwd' */
	av[n++] = (char *)prog;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--"))
			av[n++] = argv[i];
	status = xskf_run__app(&ch->app, ch, &ch->cli, n, av, &hook);
	xskf_ctl__close(r.ctl);
	for (i = 0; i < (int)ch->n; i++)
		if (ch->pl[i].p->cleanup) {
			xskf_chain__mark((unsigned int)i, XSKF_CB_CLEANUP);
			ch->pl[i].p->cleanup(ch->pl[i].p->app_ctx);
		}
	xskf_chain__mark(0, XSKF_CB_NONE);
	xskf_chain__free(ch);
	free(av);
	return status;
}

int xskf_plugin__main(const struct xskf_plugin *p, int argc, char **argv)
{
	static struct xskf_chain ch;
	int err;

	memset(&ch, 0, sizeof(ch));
	ch.n = 1;
	err = take(&ch.pl[0], p, "(built in)");
	if (err)
		return 2;
	snprintf(ch.name, sizeof(ch.name), "%s", p->app->name ? p->app->name : p->name);
	return run_chain(&ch, argc ? basename(argv[0]) : p->name, argc, argv);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: xskf run PLUGIN[,PLUGIN...] -i IFACE [-q Q] [options] [-- plugin options]\n"
		   "       xskf plugins          list the plugins found\n");
	xskf_backend__usage(f);
	fprintf(f, "       xskf --version        versions of xskf, the plugin ABI, libbpf, libxdp\n"
		   "       xskf run PLUGIN --help   the options of a plugin and the standard ones\n"
		   "PLUGIN is a name (looked up in $XSKF_PLUGIN_PATH, next to xskf, and in %s)\n"
		   "or a path to a .so. Several plugins form a chain: a frame one marks XSKF_NEXT\n"
		   "goes on to the next. See xskf(1) and docs/plugins.md.\n",
		XSKF_PLUGIN_DIR);
}

/* A plugin `xskf plugins` listed. */
struct seen_plugin {
	char name[40], path[PATH_MAX * 2], file[256];
};

/*
 * Of two plugins called @name, the one listed first (@first) and a later one in the file
 * @file: does `xskf run NAME` run the first? load_name() takes a file NAME.so first.
 */
static bool runs_first(const struct seen_plugin *first, const char *name, const char *file)
{
	size_t l = strlen(name);
	bool first_file = !strncmp(first->file, name, l) && !strcmp(first->file + l, ".so");
	bool later_file = !strncmp(file, name, l) && !strcmp(file + l, ".so");

	return first_file || !later_file;
}

/* `xskf plugins`: every .so of the plugin folders, and what it is (or why it is not). */
static int list_plugins(void)
{
	char self[PATH_MAX], dirs[8192], *save = NULL, *d, path[PATH_MAX * 2];
	struct dirent *de;
	unsigned int found = 0;
	static struct seen_plugin seen[64];

	plugin_dirs(dirs, sizeof(dirs), self, sizeof(self));
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dir = opendir(d);

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			struct xskf_chain_plugin pl = {};
			size_t l = strlen(de->d_name);

			if (l < 4 || strcmp(de->d_name + l - 3, ".so"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", d, de->d_name);
			if (!load(&pl, path)) {
				unsigned int k;

				printf("%-12s %s%s%s\n", pl.p->name, path,
				       pl.p->cli && pl.p->cli->summary ? "\n             " : "",
				       pl.p->cli && pl.p->cli->summary ? pl.p->cli->summary : "");
				/* two files, one plugin name: say which one the name runs */
				for (k = 0; k < found && k < 64; k++)
					if (!strcmp(seen[k].name, pl.p->name))
						pr_warn("warning: two plugins called '%s': %s "
							"and %s; 'xskf run %s' runs %s: give the "
							"other's path to run it\n",
							pl.p->name, seen[k].path, path, pl.p->name,
							runs_first(&seen[k], pl.p->name, de->d_name)
								? seen[k].path
								: path);
				if (found < 64) {
					snprintf(seen[found].name, sizeof(seen[found].name), "%s",
						 pl.p->name);
					snprintf(seen[found].path, sizeof(seen[found].path), "%s", path);
					snprintf(seen[found].file, sizeof(seen[found].file), "%s",
						 de->d_name);
				}
				found++;
			}
			if (pl.dl)
				dlclose(pl.dl);
		}
		closedir(dir);
	}
	if (!found)
		pr_warn("no plugins found\n");
	return found ? 0 : 1;
}

int xskf_run__main(int argc, char **argv)
{
	static struct xskf_chain ch;
	const struct xskf_backend_cmd *bc;
	char specs[1024], prog[1100], *save = NULL, *s;
	unsigned int k;
	int status;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		xskf_cli__version(stdout, "xskf");
		return 0;
	}
	if (!strcmp(argv[1], "plugins"))
		return list_plugins();
	/* xskf features, xskf doctor: the backends' own commands (core/backend.h) */
	bc = xskf_backend__cmd(argv[1]);
	if (bc)
		return bc->main(argc - 1, argv + 1);
	if (strcmp(argv[1], "run") || argc < 3 || argv[2][0] == '-') {
		usage(stderr);
		return 2;
	}
	memset(&ch, 0, sizeof(ch));
	snprintf(specs, sizeof(specs), "%s", argv[2]);
	for (s = strtok_r(specs, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (ch.n == XSKF_CHAIN_MAX) {
			pr_warn("at most %d plugins in a chain\n", XSKF_CHAIN_MAX);
			status = 2;
			goto out;
		}
		if (load(&ch.pl[ch.n], s)) {
			ch.n++;
			status = 2;
			goto out;
		}
		for (k = 0; k < ch.n; k++)
			if (!strcmp(ch.pl[k].p->name, ch.pl[ch.n].p->name)) {
				pr_warn("plugin '%s' given twice\n", ch.pl[k].p->name);
				ch.n++;
				status = 2;
				goto out;
			}
		snprintf(ch.name + strlen(ch.name), sizeof(ch.name) - strlen(ch.name), "%s%s",
			 ch.n ? "+" : "", ch.pl[ch.n].p->name);
		ch.n++;
	}
	/* argv[2] (the plugin list) stands in for the program name: `xskf run LIST` */
	snprintf(prog, sizeof(prog), "xskf run %s", argv[2]);
	status = run_chain(&ch, prog, argc - 2, argv + 2);
	return status;
out:
	for (k = 0; k < ch.n; k++)
		if (ch.pl[k].dl)
			dlclose(ch.pl[k].dl);
	return status;
}
