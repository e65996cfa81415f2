/* The sandbox's file system. tc_mount_plan_build (parent, pure) turns the
 * configuration into a list of steps with every path computed;
 * tc_mount_prepare (parent) resolves and checks the host side of each bind;
 * tc_mount_enter (child, after clone) carries the plan out with plain
 * syscalls and no allocation, ending in pivot_root. */
#ifndef TOOLCELL_MOUNT_H
#define TOOLCELL_MOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "klimits.h"

/* Where the child builds the new root, inside its private mount namespace. */
#define TC_STAGING "/tmp"

/* Where the child stages the workspace's two layers for the overlay mount,
 * in the sandbox's own /tmp; both are detached and removed right after. */
#define TC_WS_LOWER TC_STAGING "/tmp/.toolcell-ws-lower"
#define TC_WS_LAYER TC_STAGING "/tmp/.toolcell-ws-layer"

enum tc_mount_step {
	TC_MS_MKDIR,   /* create directory `target` (mode) */
	TC_MS_MKFILE,  /* create an empty file `target` as a mount point */
	TC_MS_SYMLINK, /* create symlink `target` -> `source` */
	TC_MS_BIND,    /* bind source (opened as fd in phase one) onto target, then set attrs */
	TC_MS_TMPFS,   /* mount a tmpfs on target with options `data`, then set attrs */
	TC_MS_PROC,    /* mount a fresh proc on target with options `data` */
	TC_MS_MASK,    /* hide target (under /proc) if it exists: the empty mount point
			* file of /dev/null on a file, an empty tmpfs on a directory */
	TC_MS_STAGE,   /* mount the staging tmpfs on TC_STAGING itself */
	TC_MS_LOCK,    /* read-only, nosuid, nodev on every mount so far (AT_RECURSIVE) */
	TC_MS_PIVOT,   /* pivot_root into the staging root and detach the old root */
};

/* attribute bits of a step, applied with mount_setattr after the mount */
#define TC_MA_RDONLY (1u << 0)
#define TC_MA_NOSUID (1u << 1)
#define TC_MA_NODEV  (1u << 2)
#define TC_MA_NOEXEC (1u << 3)

struct tc_mount_op {
	enum tc_mount_step step;
	char *source;	/* BIND: host path; SYMLINK: link text */
	char *target;	/* full path while staging, e.g. "/tmp/usr" */
	char *data;	/* TMPFS / PROC / STAGE: mount options */
	unsigned attrs; /* TC_MA_* set after the mount */
	unsigned mode;	/* MKDIR / MKFILE */
	bool is_dir;	/* BIND: the source is a directory */
	bool optional;	/* BIND: skip when the source does not exist */
	bool need_dir;	/* BIND: the source must be a directory (the workspace) */
	bool trusted;	/* BIND: toolcell's own source (rootfs, /dev node): not re-checked */
	bool writable;	/* BIND: the tool may write (a --bind, the workspace) */
	bool overlay;	/* BIND: the workspace: the source is the lower layer of an
			 * overlay whose upper layer is a tmpfs (data: the options) */
	/* filled by tc_mount_prepare: what the host path was when checked */
	dev_t dev;
	ino_t ino;
	bool missing;
	int tree; /* the detached copy of the source for move_mount, or -1 */
	/* filled in the child */
	int fd;
};

struct tc_mount_plan {
	struct tc_mount_op *ops;
	size_t n, cap;
	/* the IPC namespace's sysctls, written through the fresh /proc before
	 * the lock makes it read-only (klimits.h); or NULL */
	const struct tc_klimits *klimits;
	char *cwd; /* working directory after pivot_root */
	/* the workspace's layer: its tmpfs limits; the child sends it to the
	 * parent on sync_fd (TC_MSG_WORKSPACE) so the parent can apply it */
	unsigned long long ws_size, ws_inodes;
	int sync_fd;
};

/* Build the plan for cfg plus toolcell's extra read-only binds (the script).
 * Pure: no file access; bind sources must already be absolute. kinds[i]
 * says whether extra bind i is a directory. */
int tc_mount_plan_build(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
			const bool *extra_is_dir, const char *cwd, struct tc_mount_plan *ret,
			struct tc_error *err);

/* Parent: true when the plan binds a source of the caller's (a bind, live
 * or read-only, the workspace's lower layer), which as root is idmapped. */
bool tc_mount_plan_idmaps(const struct tc_mount_plan *plan);

/* Parent, before clone: open every bind source the caller named with the
 * caller's own rights (a directory or regular file; no symlink anywhere in
 * the path; nothing mounted inside it; no socket below it; a writable one
 * not a shared system folder, see bindsrc.h) and copy it into a detached,
 * non-recursive mount (op->tree), idmapped through idmap_fd when it is
 * >= 0 (a live bind that cannot be idmapped is refused). Where the caller may not make detached
 * mounts (unprivileged) and need_detach is false, the child opens the source instead, with the same
 * rights, and compares device and inode. */
int tc_mount_prepare(struct tc_mount_plan *plan, int idmap_fd, bool need_detach,
		     struct tc_error *err);

/* Child: carry out the plan. Opens every bind source first (before the
 * staging tmpfs can shadow it), then mounts in order and pivots. Needs
 * CAP_SYS_ADMIN in the mount namespace's owning user namespace. */
int tc_mount_enter(struct tc_mount_plan *plan, struct tc_error *err);

void tc_mount_plan_release(struct tc_mount_plan *plan);

/* The workspace's step of the plan (its source's device and inode, after
 * tc_mount_prepare), or NULL when the run has none. */
const struct tc_mount_op *tc_mount_plan_workspace(const struct tc_mount_plan *plan);

/* Classify a host path for a bind: 0 when it may be bound, with *ret_is_dir;
 * -errno with err naming the path and the reason otherwise. Resolves nothing:
 * callers pass realpath()-ed paths. */
int tc_mount_check_source(const char *path, bool *ret_is_dir, struct tc_error *err);

#endif
