/* Which rootfs a run uses, and whether it may: the policy's variant or the
 * caller's --rootfs (only where allow.rootfs lists it), found in the build
 * tree or the installed state directory, and only a tree rootfs/build-rootfs
 * made (never the host's /). The chosen tree is held with a shared flock for
 * the whole run, so a rebuild never removes it under a running sandbox.
 * Runs in the parent before clone. */
#ifndef TOOLCELL_ROOTFS_H
#define TOOLCELL_ROOTFS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "toolcell/error.h"

/* The rootfs layout contract: what toolcell assumes inside a tree that
 * rootfs/build-rootfs made, in one place. Its top holds the two folders the
 * sandbox binds read-only at /usr and /etc, and the merged-/usr links
 * (tc_rootfs_links), nothing else. Paths below are as the tool sees them. */
#define TC_ROOTFS_N_FOLDERS 2 /* tc_rootfs_top[0..1]: usr and etc, real folders */
#define TC_ROOTFS_N_LINKS   4 /* bin, sbin, lib, lib64 */
/* the top's entries: usr, etc, then each link's name */
extern const char *const tc_rootfs_top[TC_ROOTFS_N_FOLDERS + TC_ROOTFS_N_LINKS];
/* the merged-/usr links: { name, target } */
extern const char *const tc_rootfs_links[TC_ROOTFS_N_LINKS][2];
#define TC_ROOTFS_PYTHON  "/usr/bin/python3"
#define TC_ROOTFS_HARNESS "/usr/lib/toolcell/harness.pyc" /* `call`'s harness, precompiled */
#define TC_ROOTFS_SESSION "/usr/lib/toolcell/session.pyc" /* `session`'s harness */
#define TC_ROOTFS_SERVE	  "/usr/lib/toolcell/serve.pyc"	  /* a `serve` pool entry's */
/* the tree PYTHONPYCACHEPREFIX=/tmp/pycache resolves into: hard links to
 * the precompiled standard library, bound at /tmp/pycache/usr */
#define TC_ROOTFS_PYCACHE "/usr/lib/toolcell/pycache/usr"

#define TC_ROOTFS_NAME_MAX    32 /* a variant's name: [a-z0-9][a-z0-9_-]* */
#define TC_MAX_ROOTFS_CHOICES 16 /* entries in a policy's allow.rootfs */
/* the manifest's path below the tree's top, and as the tool sees it */
#define TC_ROOTFS_MANIFEST_REL "usr/lib/toolcell/manifest.txt"
#define TC_ROOTFS_MANIFEST     "/" TC_ROOTFS_MANIFEST_REL
#define TC_ROOTFS_PACKAGES     "/usr/lib/toolcell/packages.txt"
#define TC_ROOTFS_HARNESS_ID   "/usr/lib/toolcell/harness.id" /* the builder's harness_id() */
#define TC_ROOTFS_MANIFEST_MAX (16u << 20) /* a manifest is ~200 KiB; hashed only this far */

struct tc_layout;
struct tc_policy;

/* True when name is "default" or a variant's name ([a-z0-9][a-z0-9_-]*,
 * at most TC_ROOTFS_NAME_MAX). Pure. */
bool tc_rootfs_name_valid(const char *name);

/* The rootfs a run uses: the policy's variant when asked is NULL, else the
 * caller's --rootfs value (a variant name, or a path), refused unless the
 * policy's allow.rootfs lists it. *ret is the tree's real path (heap). The
 * caller's choice must be a tree the builder made, its manifest matching its
 * digest; the host's / never is. -errno with err set. */
int tc_rootfs_choose(const struct tc_policy *p, const char *asked, const struct tc_layout *l,
		     char **ret, struct tc_error *err);

/* Whether dir looks like a tree the builder made: only usr, etc and the
 * merged-/usr links at its top, owned by root or us and writable by no one
 * else, with its manifest and digest; full also hashes the manifest and
 * compares. 0 or -errno with err naming what is wrong. */
int tc_rootfs_verify(const char *dir, bool full, struct tc_error *err);

/* Whether the tree at dir holds the harnesses this toolcell speaks to
 * (`call`, `session` and `serve` run them): its usr/lib/toolcell/harness.id,
 * written by the builder, against the identity compiled in. 0, or -EPROTO
 * (a tree without one, or from other harnesses: a rootfs left from another
 * toolcell, or whose rebuild failed) with err naming rebuild, the command
 * that rebuilds it. */
int tc_rootfs_check_harness(const char *dir, const char *rebuild, struct tc_error *err);

/* Take a shared flock on the tree at path (resolved), retrying when a
 * rebuild removed it meanwhile; *real is its real path (heap). The lock
 * lives as long as the returned descriptor (O_CLOEXEC): keep it open for
 * the whole run. A descriptor or -errno with err set. */
int tc_rootfs_hold(const char *path, char **real, struct tc_error *err);

/* `check`: print one line saying whether the Debian packages the rootfs at
 * dir was built from are still the installed versions (its packages.txt
 * against dpkg-query), naming the command that rebuilds it. Returns the
 * number of packages that changed (0 also when the host has no dpkg). */
int tc_rootfs_report_stale(FILE *out, const char *dir, const char *name);

/* `toolcell rootfs build ...` (argv[1] is "rootfs"): check the command line
 * and exec the builder found in the layout's libexec (layout.h). Returns an exit status only when
 * it did not exec: 0 after --help, 125 for a bad command line. */
int tc_rootfs_build_main(int argc, char **argv, const char *exe_dir);

/* The options of 'toolcell rootfs build', one row each: its parser and
 * --help (cli-help.c), and toolcell(1) and the bash completion
 * (tools/docgen.c) read this table, so they cannot drift. */
extern const struct tc_cli_subopt tc_rootfs_build_opts[];
extern const size_t tc_rootfs_build_n_opts;

#endif
