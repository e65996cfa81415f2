/* The rules every bind path meets, in one place: the host paths never
 * bound and the inside paths the launcher owns, for the policy's binds,
 * the caller's, the workspace and the ones toolcell adds itself (a
 * script), checked by text here and by mount.c again on the resolved
 * source. Pure; runs in the parent before clone. */
#ifndef TOOLCELL_BIND_H
#define TOOLCELL_BIND_H

#include <stdbool.h>
#include <stddef.h>

#include "toolcell/config.h"

#define TC_WORKSPACE_INSIDE "/workspace" /* where a workspace shows by default */

/* path is root or beneath it, by text ("/a/b" is beneath "/a", "/ab" is not). */
bool tc_path_at_or_beneath(const char *path, const char *root);

/* A host path (inside false) or an inside path (inside true) a bind may
 * name: absolute, normalized, no control character, not a refused place.
 * 0, or -EINVAL with why saying what is wrong ("is at or beneath /usr,
 * which the launcher owns"). */
int tc_bind_path_check(const char *path, bool inside, char *why, size_t why_len);

/* The host path exposes the whole file system or the host's system state
 * (/, /proc, /sys, /dev, /run and beneath, a home directory root): never a
 * bind's source, whatever the policy says. */
bool tc_bind_host_refused(const char *path);

/* cfg has a live bind: a writable bind of a host folder itself (not the
 * workspace, whose changes go to a layer), which the host sees as the tool
 * writes. Its filter then refuses set-id mode bits (seccomp.c). */
bool tc_binds_live(const struct tc_config *cfg);

/* Free the host and inside strings of binds[0..n). */
void tc_binds_free(struct tc_bind *binds, size_t n);

#endif
