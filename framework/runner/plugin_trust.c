// SPDX-License-Identifier: BSD-2-Clause
/*
 * Is a plugin file safe to load as root (plugin_trust.h)? The check runs on the canonical
 * path, one component at a time with lstat(): a component that is a symlink there was
 * swapped in after realpath() resolved it, and is refused. Once every folder from / down is
 * writable only by root or the caller, nobody else can change what the path names between
 * this check and dlopen(): the check and the load see the same file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "runner/plugin_trust.h"

static bool trusted_uid(uid_t u)
{
	return u == 0 || u == getuid() || u == geteuid();
}

/*
 * What is wrong with @at (the file when @is_file, else a folder on its path), in @why; or
 * false when nothing is.
 */
static bool wrong(const char *at, const struct stat *st, bool is_file, char *why, size_t len)
{
	const char *what = is_file ? "the file" : "the folder";
	unsigned int mode = st->st_mode & 07777;

	if (S_ISLNK(st->st_mode)) {
		snprintf(why, len, "%s %s became a symlink while it was checked: check who can "
			 "write above it", what, at);
		return true;
	}
	if (is_file ? !S_ISREG(st->st_mode) : !S_ISDIR(st->st_mode)) {
		snprintf(why, len, "%s is not a %s", at, is_file ? "regular file" : "folder");
		return true;
	}
	if (!trusted_uid(st->st_uid)) {
		snprintf(why, len, "%s %s is owned by uid %u, neither root nor you: chown root %s",
			 what, at, (unsigned int)st->st_uid, at);
		return true;
	}
	/* a sticky folder of root's (/tmp): nobody renames or removes what others own there */
	if ((mode & 022) && !(!is_file && (mode & S_ISVTX) && st->st_uid == 0)) {
		snprintf(why, len, "%s %s is writable by %s (mode %04o): chmod go-w %s", what, at,
			 (mode & 022) == 022 ? "group and others" : mode & 002 ? "others" : "its group",
			 mode, at);
		return true;
	}
	return false;
}

int xskf_plugin__trusted(const char *path, char *canon, size_t len)
{
	const char *ins = getenv("XSKF_PLUGIN_INSECURE");
	char real[PATH_MAX], at[PATH_MAX], why[3 * PATH_MAX + 200];
	struct stat st;
	char *p;

	if (!realpath(path, real)) {
		pr_warn("%s: cannot load it as a plugin: %s\n", path, strerror(errno));
		return -ENOENT;
	}
	snprintf(canon, len, "%s", real);
	why[0] = 0;
	/* "/", "/a", "/a/b", ..., then the file: each as it is, links not followed */
	for (p = real;; p = strchr(p + 1, '/')) {
		size_t l = p && p != real ? (size_t)(p - real) : p ? 1 : strlen(real);

		snprintf(at, sizeof(at), "%.*s", (int)l, real);
		if (lstat(at, &st)) {
			snprintf(why, sizeof(why), "%s: %s", at, strerror(errno));
			break;
		}
		if (wrong(at, &st, !p, why, sizeof(why)))
			break;
		why[0] = 0;
		if (!p)
			break;
	}
	if (!why[0])
		return 0;
	if (ins && !strcmp(ins, "1")) {
		pr_warn("warning: plugin %s loaded though %s (XSKF_PLUGIN_INSECURE=1)\n", real,
			why);
		return 0;
	}
	pr_warn("plugin %s refused: %s (whoever can write there chooses the code xskf runs as "
		"root; XSKF_PLUGIN_INSECURE=1 for development)\n",
		real, why);
	return -EPERM;
}
