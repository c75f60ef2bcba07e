/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whom a plugin file trusts: the runner loads plugins as root, so a file that someone else
 * could have written, or put where we look, is code of theirs run as root. plugin_trust.c.
 */
#ifndef XSKF_PLUGIN_TRUST_H
#define XSKF_PLUGIN_TRUST_H

#include <stddef.h>

/*
 * Resolve @path (realpath: the file dlopen() will map) into @canon and check it and every
 * folder above it, as sudo and PAM do for their modules: each must be owned by root or by the
 * caller (real or effective uid) and writable by nobody else, the file must be a regular
 * file. One exception: a folder owned by root with the sticky bit (/tmp), where nobody can
 * rename or remove what another user owns. With $XSKF_PLUGIN_INSECURE=1 a failed check is a
 * warning instead (development).
 * Returns 0 (load @canon), or -ENOENT / -EPERM after one line that names the file or folder,
 * what is wrong and the fix. Thread: control thread.
 */
int xskf_plugin__trusted(const char *path, char *canon, size_t len);

#endif /* XSKF_PLUGIN_TRUST_H */
