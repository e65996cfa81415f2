/* The sandbox's file system, carried out: the parent checks and opens the
 * host side of each bind of the plan (mount-plan.c builds it), and the
 * child mounts it with plain syscalls on the prepared strings, allocating
 * nothing. */
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bind.h"
#include "bindsrc.h"
#include "child.h"
#include "mount.h"
#include "util.h"

/* tc_mount_check_source, keeping the source open (O_PATH) for what comes
 * next: one open for the check and the mount both. */
static int check_open_source(const char *path, bool *ret_is_dir, int *ret_fd, struct stat *ret_st,
			     struct tc_error *err)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (tc_bind_host_refused(path)) /* again, after resolution */
		return tc_error_set(err, TC_STAGE_MOUNT, EPERM,
				    "refusing to bind %s: it exposes the host's %s", path,
				    strcmp(path, "/") == 0 ? "whole file system" : "system state");
	r = tc_bindsrc_open(path, &fd, ret_st, err);
	if (r < 0)
		return r;
	if (S_ISDIR(ret_st->st_mode) || S_ISREG(ret_st->st_mode)) {
		*ret_is_dir = S_ISDIR(ret_st->st_mode);
		*ret_fd = TAKE_FD(fd);
		return 0;
	}
	return tc_error_set(err, TC_STAGE_MOUNT, EPERM,
			    "refusing to bind %s: only directories and regular files may be bound "
			    "(it is a %s)",
			    path,
			    S_ISSOCK(ret_st->st_mode)  ? "socket"
			    : S_ISCHR(ret_st->st_mode) ? "character device"
			    : S_ISBLK(ret_st->st_mode) ? "block device"
						       : "FIFO");
}

int tc_mount_check_source(const char *path, bool *ret_is_dir, struct tc_error *err)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	return check_open_source(path, ret_is_dir, &fd, &st, err);
}

static bool is_own_dev_node(const struct tc_mount_op *op)
{
	return tc_startswith(op->source, "/dev/") && strchr(op->source + 5, '/') == NULL &&
	       tc_startswith(op->target, TC_STAGING "/dev/");
}

/* The planned mount point was a directory before the source was known:
 * make it a file (or refuse a workspace that is not a directory). */
static int fix_kind(struct tc_mount_plan *plan, size_t i, bool is_dir, struct tc_error *err)
{
	struct tc_mount_op *op = &plan->ops[i], *mp = NULL;

	if (is_dir == op->is_dir)
		return 0;
	if (op->need_dir)
		return tc_error_set(err, TC_STAGE_MOUNT, ENOTDIR,
				    "cannot use %s as the workspace: it is not a directory",
				    op->source);
	for (size_t j = 0; j < i; j++)
		if ((plan->ops[j].step == TC_MS_MKDIR || plan->ops[j].step == TC_MS_MKFILE) &&
		    strcmp(plan->ops[j].target, op->target) == 0)
			mp = &plan->ops[j];
	if (!mp)
		return tc_error_set(err, TC_STAGE_MOUNT, EINVAL, "no mount point planned for %s",
				    op->target);
	mp->step = is_dir ? TC_MS_MKDIR : TC_MS_MKFILE;
	op->is_dir = is_dir;
	return 0;
}

static int check_trusted(struct tc_mount_op *op, struct tc_error *err)
{
	struct stat st;

	/* toolcell's own sources: only whether they exist */
	if (stat(op->source, &st) < 0) {
		if (errno == ENOENT && op->optional) {
			op->missing = true;
			return 0;
		}
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot bind %s", op->source);
	}
	if (is_own_dev_node(op) && !S_ISCHR(st.st_mode))
		return tc_error_set(err, TC_STAGE_MOUNT, ENODEV,
				    "the host's %s is not a character device", op->source);
	return 0;
}

/* The mount table's verdict on one source: a file on a plain file system
 * needs none (it is on no special one, and a file holds no submounts);
 * otherwise the table is read, once for all of a run's sources. */
static int check_mounts(int fd, const char *path, bool is_dir, char **mountinfo,
			struct tc_error *err)
{
	int r;

	if (!is_dir && tc_bindsrc_plain_fs(fd))
		return 0;
	if (!*mountinfo && (r = tc_bindsrc_read_mountinfo(mountinfo, err)) < 0)
		return r;
	return tc_bindsrc_check_mounts(*mountinfo, path, is_dir, err);
}

/* One source the caller named: opened here as the caller, checked, and
 * (where the caller may) copied into a detached mount for the child. */
static int prepare_source(struct tc_mount_plan *plan, size_t i, int idmap_fd, bool need_detach,
			  char **mountinfo, struct tc_error *err)
{
	struct tc_mount_op *op = &plan->ops[i];
	_cleanup_close_ int fd = -1;
	unsigned long long attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	struct stat st;
	bool is_dir, ro;
	int r;

	r = check_open_source(op->source, &is_dir, &fd, &st, err);
	if (r >= 0)
		r = fix_kind(plan, i, is_dir, err);
	if (r >= 0 && op->writable)
		r = tc_bindsrc_check_shared(
			op->source, &st, op->need_dir ? "the workspace" : "a writable bind", err);
	if (r >= 0)
		r = check_mounts(fd, op->source, is_dir, mountinfo, err);
	if (r >= 0 && is_dir)
		r = tc_bindsrc_check_sockets(fd, op->source, err);
	if (r < 0)
		return r;
	op->dev = st.st_dev;
	op->ino = st.st_ino;
	/* the workspace's host folder is only the lower layer: read-only */
	ro = !op->writable || op->overlay;
	if (ro)
		attrs |= MOUNT_ATTR_RDONLY;
	/* idmapped: the caller's files appear as the tool's, so it reads what
	 * the caller handed it, and what it creates in a live (writable) bind
	 * lands owned by the caller; a live bind that cannot be idmapped is
	 * refused (bindsrc.c) */
	r = tc_bindsrc_detach(fd, op->source, attrs, idmap_fd, &op->tree, err);
	if (r == -EPERM && !need_detach)
		return 0; /* unprivileged: the child, with the caller's rights, opens it */
	if (r == -EPERM)
		return tc_error_errno(err, TC_STAGE_MOUNT, EPERM, "cannot copy the mount of %s",
				      op->source);
	return r;
}

static bool is_callers_bind(const struct tc_mount_op *op)
{
	return op->step == TC_MS_BIND && !op->trusted;
}

bool tc_mount_plan_idmaps(const struct tc_mount_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (is_callers_bind(&plan->ops[i]))
			return true;
	return false;
}

int tc_mount_prepare(struct tc_mount_plan *plan, int idmap_fd, bool need_detach,
		     struct tc_error *err)
{
	_cleanup_free_ char *mountinfo = NULL;

	for (size_t i = 0; i < plan->n; i++) {
		int r;

		if (plan->ops[i].step != TC_MS_BIND)
			continue;
		r = plan->ops[i].trusted
			    ? check_trusted(&plan->ops[i], err)
			    : prepare_source(plan, i, idmap_fd, need_detach, &mountinfo, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* ---- child side: plain syscalls on prepared strings, no allocation ---- */

/* would the staging tmpfs hide this host path? */
static bool shadowed(const char *path)
{
	size_t n = strlen(TC_STAGING);

	return strncmp(path, TC_STAGING, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int open_source(struct tc_mount_op *op, struct tc_error *err)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd;

	fd = (int)syscall(SYS_openat2, AT_FDCWD, op->source, &how, sizeof(how));
	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot open bind source %s",
				      op->source);
	if (!op->trusted && (fstat(fd, &st) < 0 || st.st_dev != op->dev || st.st_ino != op->ino)) {
		close(fd);
		return tc_error_set(err, TC_STAGE_MOUNT, ESTALE,
				    "bind source %s changed between the check and the mount",
				    op->source);
	}
	op->fd = fd;
	return 0;
}

static unsigned long ms_flags(unsigned attrs)
{
	return ((attrs & TC_MA_RDONLY) ? MS_RDONLY : 0) | ((attrs & TC_MA_NOSUID) ? MS_NOSUID : 0) |
	       ((attrs & TC_MA_NODEV) ? MS_NODEV : 0) | ((attrs & TC_MA_NOEXEC) ? MS_NOEXEC : 0);
}

static int set_attrs(const char *target, unsigned attrs, bool recursive, struct tc_error *err)
{
	struct mount_attr a = { 0 };

	if (!attrs)
		return 0;
	a.attr_set = ((attrs & TC_MA_RDONLY) ? MOUNT_ATTR_RDONLY : 0) |
		     ((attrs & TC_MA_NOSUID) ? MOUNT_ATTR_NOSUID : 0) |
		     ((attrs & TC_MA_NODEV) ? MOUNT_ATTR_NODEV : 0) |
		     ((attrs & TC_MA_NOEXEC) ? MOUNT_ATTR_NOEXEC : 0);
	if (mount_setattr(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW | (recursive ? AT_RECURSIVE : 0),
			  &a, sizeof(a)) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot restrict the mount at %s",
				      target + strlen(TC_STAGING));
	return 0;
}

static int do_bind(const struct tc_mount_op *op, struct tc_error *err)
{
	char fdpath[64];
	const char *src = op->source; /* a trusted source nothing can shadow */

	if (op->tree >= 0) {
		/* the parent's detached copy: no host path resolved here */
		if (move_mount(op->tree, "", AT_FDCWD, op->target, MOVE_MOUNT_F_EMPTY_PATH) < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot attach the bind of %s", op->source);
		return set_attrs(op->target, op->attrs, true, err);
	}
	if (op->fd >= 0) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", op->fd);
		src = fdpath;
	}
	/* a caller's source comes without submounts (a proc mounted inside
	 * would show the host); one made since the parent's check is locked
	 * in our namespace, so the bind fails rather than show it */
	if (mount(src, op->target, NULL, MS_BIND | (op->trusted ? MS_REC : 0), NULL) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot bind %s", op->source);
	/* a bind ignores the flags of mount(2): set them on the new mount */
	return set_attrs(op->target, op->attrs, true, err);
}

/* The workspace's layer: a tmpfs of its own size and inode limits, made
 * here so that it belongs to the sandbox's user namespace, with "upper"
 * owned like the host folder appears (so the tool may write where the
 * folder lets it) and overlayfs's "work". A copy goes to the parent. */
static int make_layer(const struct tc_mount_plan *plan, struct tc_error *err)
{
	char data[96];
	struct stat st;
	int fd = -1, r = 0;

	/* mount(2), not fsmount: a detached mount needs a namespace of its
	 * own, and the sandbox's user namespace may make none by now */
	snprintf(data, sizeof(data), "mode=0700,size=%llu,nr_inodes=%llu", plan->ws_size,
		 plan->ws_inodes);
	if (mount("tmpfs", TC_WS_LAYER, "tmpfs", MS_NOSUID | MS_NODEV, data) < 0)
		return tc_error_errno(err, TC_STAGE_WORKSPACE, errno,
				      "cannot make the workspace's layer");
	fd = open(TC_WS_LAYER, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || mkdirat(fd, "upper", 0755) < 0 || mkdirat(fd, "work", 0700) < 0)
		r = -errno;
	/* the merged root takes the upper root's owner and mode */
	if (r >= 0 && stat(TC_WS_LOWER, &st) == 0) {
		if (fchownat(fd, "upper", st.st_uid, st.st_gid, 0) < 0 && errno != EINVAL)
			r = -errno;
		if (r >= 0 && fchmodat(fd, "upper", st.st_mode & 0777, 0) < 0)
			r = -errno;
	}
	/* the parent reads the layer through this descriptor once the
	 * sandbox is gone, with its mount long detached */
	if (r >= 0 && plan->sync_fd >= 0) {
		struct tc_msg m = { .type = TC_MSG_WORKSPACE };

		r = tc_msg_send(plan->sync_fd, &m, fd);
	}
	if (fd >= 0)
		close(fd);
	return r < 0 ? tc_error_errno(err, TC_STAGE_WORKSPACE, -r,
				      "cannot make the workspace's layer")
		     : 0;
}

static int do_overlay(const struct tc_mount_plan *plan, const struct tc_mount_op *op,
		      struct tc_error *err)
{
	struct tc_mount_op lower = *op;
	int r;

	if (mkdir(TC_WS_LOWER, 0700) < 0 || mkdir(TC_WS_LAYER, 0700) < 0)
		return tc_error_errno(err, TC_STAGE_WORKSPACE, errno, "cannot stage the workspace");
	lower.target = (char *)TC_WS_LOWER;
	lower.overlay = false;
	lower.attrs = TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NODEV;
	r = do_bind(&lower, err);
	if (r >= 0)
		r = make_layer(plan, err);
	if (r >= 0 && mount("overlay", op->target, "overlay", MS_NOSUID | MS_NODEV, op->data) < 0)
		r = tc_error_errno(err, TC_STAGE_WORKSPACE, errno,
				   "cannot mount the workspace's layer over %s", op->source);
	if (r < 0)
		return r;
	/* the overlay holds both layers: the tool sees neither in its /tmp */
	if (umount2(TC_WS_LOWER, MNT_DETACH) < 0 || umount2(TC_WS_LAYER, MNT_DETACH) < 0 ||
	    rmdir(TC_WS_LOWER) < 0 || rmdir(TC_WS_LAYER) < 0)
		return tc_error_errno(err, TC_STAGE_WORKSPACE, errno,
				      "cannot unstage the workspace");
	return set_attrs(op->target, op->attrs, true, err);
}

static int do_step(const struct tc_mount_plan *plan, struct tc_mount_op *op, struct tc_error *err)
{
	switch (op->step) {
	case TC_MS_STAGE:
		if (mount("tmpfs", TC_STAGING, "tmpfs", MS_NOSUID | MS_NODEV, op->data) < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot mount the root tmpfs");
		return 0;
	case TC_MS_MKDIR:
		if (mkdir(op->target, op->mode) < 0 && errno != EEXIST)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot create %s",
					      op->target + strlen(TC_STAGING));
		/* mkdir honours the umask; 01777 must be exact */
		if (op->mode & 01000)
			chmod(op->target, op->mode);
		return 0;
	case TC_MS_MKFILE:
		/* an empty regular file in one call */
		if (mknod(op->target, S_IFREG | 0444, 0) < 0 && errno != EEXIST)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot create %s",
					      op->target + strlen(TC_STAGING));
		return 0;
	case TC_MS_SYMLINK:
		if (symlink(op->source, op->target) < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot create %s",
					      op->target + strlen(TC_STAGING));
		return 0;
	case TC_MS_BIND:
		if (op->missing)
			return 0;
		return op->overlay ? do_overlay(plan, op, err) : do_bind(op, err);
	case TC_MS_TMPFS:
		if (mount("tmpfs", op->target, "tmpfs", ms_flags(op->attrs), op->data) < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot mount a tmpfs on %s",
					      op->target + strlen(TC_STAGING));
		return 0;
	case TC_MS_PROC:
		if (mount("proc", op->target, "proc", ms_flags(op->attrs), op->data) < 0)
			/* stage "proc": the parent names a masked host /proc (hint.h) */
			return tc_error_errno(err, TC_STAGE_PROC, errno,
					      "cannot mount /proc for the new PID namespace");
		return 0;
	case TC_MS_MASK:
		/* made read-only by the lock that follows; a kernel without
		 * the file has nothing to hide */
		if ((op->is_dir ? mount("tmpfs", op->target, "tmpfs", MS_RDONLY,
					"size=4k,nr_inodes=2,mode=0555")
				: mount(TC_STAGING "/dev/null", op->target, NULL, MS_BIND, NULL)) <
			    0 &&
		    errno != ENOENT)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot hide %s",
					      op->target + strlen(TC_STAGING));
		return 0;
	case TC_MS_LOCK:
		return set_attrs(TC_STAGING, TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NODEV, true, err);
	case TC_MS_PIVOT:
		/* pivot_root(".", ".") stacks the old root on the new one;
		 * detaching "." then drops every host mount from view. */
		if (chdir(TC_STAGING) < 0 || syscall(SYS_pivot_root, ".", ".") < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot pivot_root");
		if (umount2(".", MNT_DETACH) < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot detach the old root");
		if (chdir("/") < 0)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot enter the new root");
		return 0;
	}
	return tc_error_set(err, TC_STAGE_MOUNT, EINVAL, "unknown mount step");
}

/* The user and IPC namespaces' sysctls, through our fresh /proc, still
 * writable here (the lock comes later); the network ones are the network
 * helper's (klimits.h). */
static int write_limits(const struct tc_mount_plan *plan, const struct tc_mount_op *proc,
			struct tc_error *err)
{
	char sys[TC_PATH_MAX];
	_cleanup_close_ int fd = -1;
	bool any = false;

	for (size_t i = 0; plan->klimits && i < plan->klimits->n; i++)
		any |= !plan->klimits->set[i].helper;
	if (!any)
		return 0;
	snprintf(sys, sizeof(sys), "%s/sys", proc->target);
	fd = open(sys, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_KLIMITS, errno, "cannot open the sandbox's %s",
				      sys + strlen(TC_STAGING));
	return tc_klimits_write(plan->klimits, false, fd, err);
}

int tc_mount_enter(struct tc_mount_plan *plan, struct tc_error *err)
{
	int r = 0;

	/* Keep our mounts out of the host and the host's out of ours. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot make the mounts private");
	/* Phase one: open every bind source before the staging tmpfs can
	 * shadow it (a source may live under TC_STAGING on the host). */
	for (size_t i = 0; i < plan->n && r >= 0; i++)
		if (plan->ops[i].step == TC_MS_BIND && !plan->ops[i].missing &&
		    plan->ops[i].tree < 0 &&
		    (!plan->ops[i].trusted || shadowed(plan->ops[i].source)))
			r = open_source(&plan->ops[i], err);
	for (size_t i = 0; i < plan->n && r >= 0; i++) {
		r = do_step(plan, &plan->ops[i], err);
		if (r >= 0 && plan->ops[i].step == TC_MS_PROC)
			r = write_limits(plan, &plan->ops[i], err);
	}
	for (size_t i = 0; i < plan->n; i++) {
		tc_closep(&plan->ops[i].fd);
		tc_closep(&plan->ops[i].tree);
		plan->ops[i].fd = plan->ops[i].tree = -1;
	}
	if (r < 0)
		return r;
	if (chdir(plan->cwd) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno,
				      "cannot enter the working directory %s", plan->cwd);
	return 0;
}
