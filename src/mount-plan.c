/* The mount plan (see mount.h): the sandbox's file system as a list of
 * steps with every path computed, built in the parent before clone from
 * the configuration, the rootfs layout (rootfs.h) and the places the tool
 * may write (writable.h). Pure: allocation and strings, no file access. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mount.h"
#include "rootfs.h"
#include "util.h"
#include "writable.h"

static const char *const dev_nodes[] = { "null", "zero", "full", "random", "urandom" };

static const char *const dev_links[][2] = {
	{ "fd", "/proc/self/fd" },
	{ "stdin", "/proc/self/fd/0" },
	{ "stdout", "/proc/self/fd/1" },
	{ "stderr", "/proc/self/fd/2" },
};

/* What the tool's /proc hides: at least what Docker masks (its masked paths;
 * the whole /proc is read-only here), what tells one sandbox about the
 * others or about the host (file locks of every sandbox with their host
 * uids, the kernel's command line, build and configuration, interrupt and
 * I/O memory maps, key counts per host uid, the boot id). The rest of
 * Docker's list (bus, fs, irq, sys, sysrq-trigger read-only) is read-only
 * here with the whole /proc. A directory gets an empty read-only tmpfs. */
static const struct {
	const char *path;
	bool dir;
} proc_masked[] = {
	{ "/proc/locks" },	 { "/proc/cmdline" },	    { "/proc/version" },
	{ "/proc/config.gz" },	 { "/proc/interrupts" },    { "/proc/softirqs" },
	{ "/proc/iomem" },	 { "/proc/key-users" },	    { "/proc/keys" },
	{ "/proc/kcore" },	 { "/proc/latency_stats" }, { "/proc/timer_list" },
	{ "/proc/timer_stats" }, { "/proc/sched_debug" },   { "/proc/sys/kernel/random/boot_id" },
	{ "/proc/acpi", true },	 { "/proc/asound", true },  { "/proc/scsi", true },
};

static char *staged(const char *inside)
{
	char *s;

	if (asprintf(&s, "%s%s", TC_STAGING, strcmp(inside, "/") == 0 ? "" : inside) < 0)
		return NULL;
	return s;
}

static struct tc_mount_op *plan_add(struct tc_mount_plan *p, enum tc_mount_step step,
				    const char *source, const char *target_inside, const char *data)
{
	struct tc_mount_op *op;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct tc_mount_op *n = realloc(p->ops, cap * sizeof(*n));
		if (!n)
			return NULL;
		p->ops = n;
		p->cap = cap;
	}
	op = &p->ops[p->n];
	memset(op, 0, sizeof(*op));
	op->step = step;
	op->fd = -1;
	op->tree = -1;
	op->mode = 0755;
	if ((source && !(op->source = strdup(source))) ||
	    (target_inside && !(op->target = staged(target_inside))) ||
	    (data && !(op->data = strdup(data)))) {
		free(op->source);
		free(op->target);
		free(op->data);
		return NULL;
	}
	p->n++;
	return op;
}

static bool plan_has_dir(const struct tc_mount_plan *p, const char *target)
{
	for (size_t i = 0; i < p->n; i++)
		if ((p->ops[i].step == TC_MS_MKDIR || p->ops[i].step == TC_MS_MKFILE) &&
		    strcmp(p->ops[i].target, target) == 0)
			return true;
	return false;
}

/* mkdir -p for the parents of inside (not inside itself), skipping ones
 * the plan already creates. */
static int plan_parents(struct tc_mount_plan *p, const char *inside)
{
	char buf[TC_PATH_MAX];
	size_t len = strlen(inside);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, inside, len + 1);
	for (char *s = buf + 1; (s = strchr(s, '/')); s++) {
		_cleanup_free_ char *t = NULL;

		*s = '\0';
		t = staged(buf);
		if (!t)
			return -ENOMEM;
		if (!plan_has_dir(p, t) && !plan_add(p, TC_MS_MKDIR, NULL, buf, NULL))
			return -ENOMEM;
		*s = '/';
	}
	return 0;
}

static int plan_bind(struct tc_mount_plan *p, const char *host, const char *inside, bool is_dir,
		     unsigned attrs, bool writable)
{
	struct tc_mount_op *op;
	int r = plan_parents(p, inside);

	if (r < 0)
		return r;
	if (!plan_add(p, is_dir ? TC_MS_MKDIR : TC_MS_MKFILE, NULL, inside, NULL))
		return -ENOMEM;
	op = plan_add(p, TC_MS_BIND, host, inside, NULL);
	if (!op)
		return -ENOMEM;
	op->is_dir = is_dir;
	op->attrs = attrs;
	op->writable = writable;
	return 0;
}

static bool under_tmp(const char *inside)
{
	return tc_startswith(inside, "/tmp/");
}

/* 1. The staging root: only directories, symlinks and mount points,
 * locked read-only before the tool exists. */
static int plan_skeleton(struct tc_mount_plan *p)
{
	static const char *const dirs[] = { "/usr", "/etc", "/proc", "/tmp", "/dev", "/dev/shm" };
	char buf[64];

	if (!plan_add(p, TC_MS_STAGE, NULL, "/", "mode=0755,size=1m,nr_inodes=4096"))
		return -ENOMEM;
	for (size_t i = 0; i < TC_ROOTFS_N_LINKS; i++) {
		snprintf(buf, sizeof(buf), "/%s", tc_rootfs_links[i][0]);
		if (!plan_add(p, TC_MS_SYMLINK, tc_rootfs_links[i][1], buf, NULL))
			return -ENOMEM;
	}
	for (size_t i = 0; i < TC_ARRAY_SIZE(dirs); i++)
		if (!plan_add(p, TC_MS_MKDIR, NULL, dirs[i], NULL))
			return -ENOMEM;
	for (size_t i = 0; i < TC_ARRAY_SIZE(dev_links); i++) {
		snprintf(buf, sizeof(buf), "/dev/%s", dev_links[i][0]);
		if (!plan_add(p, TC_MS_SYMLINK, dev_links[i][1], buf, NULL))
			return -ENOMEM;
	}
	return 0;
}

/* toolcell's own read-only source inside the rootfs at rel, bound at inside */
static struct tc_mount_op *plan_rootfs(struct tc_mount_plan *p, const struct tc_config *cfg,
				       const char *rel, const char *inside)
{
	char buf[TC_PATH_MAX + 64];
	struct tc_mount_op *op;

	snprintf(buf, sizeof(buf), "%s%s", cfg->rootfs, rel);
	op = plan_add(p, TC_MS_BIND, buf, inside, NULL);
	if (op)
		op->is_dir = op->trusted = true;
	return op;
}

/* 2. Read-only content: the rootfs, read-only binds, the tool file (those
 * below /tmp come after /tmp exists), and a fresh proc for the new PID
 * namespace, before the old root goes. */
static int plan_readonly(struct tc_mount_plan *p, const struct tc_config *cfg,
			 const struct tc_bind *extra, size_t n_extra, const bool *extra_is_dir)
{
	struct tc_mount_op *op;
	int r;

	if (!plan_rootfs(p, cfg, "/usr", "/usr") || !plan_rootfs(p, cfg, "/etc", "/etc"))
		return -ENOMEM;
	for (size_t i = 0; i < cfg->n_binds; i++) {
		/* kinds are unknown until tc_mount_prepare stats the host:
		 * plan a directory and let prepare switch it to a file. */
		if (cfg->binds[i].writable || under_tmp(cfg->binds[i].inside))
			continue;
		r = plan_bind(p, cfg->binds[i].host, cfg->binds[i].inside, true, 0, false);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < n_extra; i++) {
		if (under_tmp(extra[i].inside))
			continue;
		r = plan_bind(p, extra[i].host, extra[i].inside, extra_is_dir[i], 0, false);
		if (r < 0)
			return r;
	}
	op = plan_add(p, TC_MS_PROC, NULL, "/proc", "hidepid=invisible");
	if (!op)
		return -ENOMEM;
	op->attrs = TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC;
	return 0;
}

/* 2b. What must exist before the lock: the writable binds' and the
 * workspace's mount points, the /dev nodes' mount points, and the masks
 * over /proc (after the /dev nodes' files: an empty file of theirs is what
 * a masked /proc file shows). */
static int plan_mount_points(struct tc_mount_plan *p, const struct tc_writable *w, size_t n_w)
{
	char buf[64];
	int r;

	for (size_t i = 0; i < n_w; i++) {
		if (w[i].kind != TC_WRITABLE_WORKSPACE &&
		    (w[i].kind != TC_WRITABLE_BIND || under_tmp(w[i].inside)))
			continue;
		r = plan_parents(p, w[i].inside);
		if (r < 0)
			return r;
		if (!plan_add(p, TC_MS_MKDIR, NULL, w[i].inside, NULL))
			return -ENOMEM;
	}
	for (size_t i = 0; i < TC_ARRAY_SIZE(dev_nodes); i++) {
		snprintf(buf, sizeof(buf), "/dev/%s", dev_nodes[i]);
		if (!plan_add(p, TC_MS_MKFILE, NULL, buf, NULL))
			return -ENOMEM;
	}
	for (size_t i = 0; i < TC_ARRAY_SIZE(proc_masked); i++) {
		struct tc_mount_op *op =
			plan_add(p, TC_MS_MASK, proc_masked[i].dir ? NULL : "/dev/null",
				 proc_masked[i].path, NULL);
		if (!op)
			return -ENOMEM;
		op->is_dir = proc_masked[i].dir;
	}
	return 0;
}

/* /tmp, the bytecode cache in it, and the binds below it: their mount
 * points live in our /tmp, so they come after it, each with its own
 * attributes since the lock is behind us. */
static int plan_tmp(struct tc_mount_plan *p, const struct tc_config *cfg,
		    const struct tc_bind *extra, size_t n_extra, const bool *extra_is_dir)
{
	char buf[128];
	struct tc_mount_op *op;
	int r = 0;

	snprintf(buf, sizeof(buf), "mode=1777,size=%llu,nr_inodes=%llu",
		 (unsigned long long)cfg->limit[TC_LIMIT_TMP],
		 (unsigned long long)cfg->limit[TC_LIMIT_TMP_INODES]);
	op = plan_add(p, TC_MS_TMPFS, NULL, "/tmp", buf);
	if (!op)
		return -ENOMEM;
	op->attrs = TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC;
	/* PYTHONPYCACHEPREFIX=/tmp/pycache: the tool may write its own
	 * modules' bytecode there; the standard library's is bound in. */
	op = plan_add(p, TC_MS_MKDIR, NULL, "/tmp/pycache", NULL);
	if (!op)
		return -ENOMEM;
	op->mode = 01777;
	if (!plan_add(p, TC_MS_MKDIR, NULL, "/tmp/pycache/usr", NULL))
		return -ENOMEM;
	op = plan_rootfs(p, cfg, TC_ROOTFS_PYCACHE, "/tmp/pycache/usr");
	if (!op)
		return -ENOMEM;
	op->optional = true;
	op->attrs = TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC;
	for (size_t i = 0; i < cfg->n_binds && r >= 0; i++)
		if (under_tmp(cfg->binds[i].inside))
			r = plan_bind(p, cfg->binds[i].host, cfg->binds[i].inside, true,
				      TC_MA_NOSUID | TC_MA_NODEV |
					      (cfg->binds[i].writable ? 0 : TC_MA_RDONLY),
				      cfg->binds[i].writable);
	for (size_t i = 0; i < n_extra && r >= 0; i++)
		if (under_tmp(extra[i].inside))
			r = plan_bind(p, extra[i].host, extra[i].inside, extra_is_dir[i],
				      TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NODEV, false);
	return r;
}

/* /dev/shm and the device nodes */
static int plan_shm(struct tc_mount_plan *p, const struct tc_config *cfg)
{
	char buf[128];
	struct tc_mount_op *op;

	snprintf(buf, sizeof(buf), "mode=1777,size=%llu,nr_inodes=1024",
		 (unsigned long long)cfg->limit[TC_LIMIT_SHM]);
	op = plan_add(p, TC_MS_TMPFS, NULL, "/dev/shm", buf);
	if (!op)
		return -ENOMEM;
	op->attrs = TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC;
	for (size_t i = 0; i < TC_ARRAY_SIZE(dev_nodes); i++) {
		snprintf(buf, sizeof(buf), "/dev/%s", dev_nodes[i]);
		op = plan_add(p, TC_MS_BIND, buf, buf, NULL);
		if (!op)
			return -ENOMEM;
		op->trusted = true;
		/* devices stay usable: no nodev; writes to a device are not
		 * blocked by a read-only mount */
		op->attrs = TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NOEXEC;
	}
	return 0;
}

/* the host folder under a layer the tool writes into; the parent applies
 * the layer to the folder when the run ends */
static int plan_workspace(struct tc_mount_plan *p, const struct tc_config *cfg)
{
	char buf[256];
	struct tc_mount_op *op;

	snprintf(buf, sizeof(buf),
		 "lowerdir=%s,upperdir=%s/upper,workdir=%s/work,userxattr,index=off,xino=off",
		 TC_WS_LOWER, TC_WS_LAYER, TC_WS_LAYER);
	op = plan_add(p, TC_MS_BIND, cfg->workspace, cfg->workspace_inside, buf);
	if (!op)
		return -ENOMEM;
	op->is_dir = op->need_dir = op->writable = op->overlay = true;
	op->attrs = TC_MA_NOSUID | TC_MA_NODEV;
	p->ws_size = cfg->limit[TC_LIMIT_WORKSPACE];
	p->ws_inodes = cfg->limit[TC_LIMIT_WORKSPACE_FILES];
	return 0;
}

/* 4. The places the tool may write, each with its own attributes. */
static int plan_writable(struct tc_mount_plan *p, const struct tc_config *cfg,
			 const struct tc_writable *w, size_t n_w, const struct tc_bind *extra,
			 size_t n_extra, const bool *extra_is_dir)
{
	struct tc_mount_op *op;
	int r = 0;

	for (size_t i = 0; i < n_w && r >= 0; i++)
		switch (w[i].kind) {
		case TC_WRITABLE_TMP:
			r = plan_tmp(p, cfg, extra, n_extra, extra_is_dir);
			break;
		case TC_WRITABLE_SHM:
			r = plan_shm(p, cfg);
			break;
		case TC_WRITABLE_BIND:
			if (under_tmp(w[i].inside))
				break; /* with /tmp */
			op = plan_add(p, TC_MS_BIND, w[i].host, w[i].inside, NULL);
			if (!op)
				return -ENOMEM;
			op->is_dir = op->writable = true;
			op->attrs = TC_MA_NOSUID | TC_MA_NODEV;
			break;
		case TC_WRITABLE_WORKSPACE:
			r = plan_workspace(p, cfg);
			break;
		}
	return r;
}

static int plan_build(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
		      const bool *extra_is_dir, struct tc_mount_plan *p)
{
	struct tc_writable w[TC_WRITABLE_MAX];
	size_t n_w = tc_writable_places(cfg, w);
	int r = plan_skeleton(p);

	if (r >= 0)
		r = plan_readonly(p, cfg, extra, n_extra, extra_is_dir);
	if (r >= 0)
		r = plan_mount_points(p, w, n_w);
	/* 3. Lock: a bind ignores MS_RDONLY, so set read-only, nosuid and
	 * nodev on the whole tree at once, before anything writable joins. */
	if (r >= 0 && !plan_add(p, TC_MS_LOCK, NULL, NULL, NULL))
		r = -ENOMEM;
	if (r >= 0)
		r = plan_writable(p, cfg, w, n_w, extra, n_extra, extra_is_dir);
	/* 5. Into the new root. */
	if (r >= 0 && !plan_add(p, TC_MS_PIVOT, NULL, NULL, NULL))
		r = -ENOMEM;
	return r;
}

/* true when inside lies strictly beneath dir */
static bool beneath(const char *inside, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(inside, dir, n) == 0 && inside[n] == '/';
}

/* A bind inside another would need its mount point made in the outer
 * bind's host folder: refuse it rather than write there. */
static int check_nesting(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
			 struct tc_error *err)
{
	const char *in[TC_MAX_BINDS + 3];
	size_t n = 0;

	for (size_t i = 0; i < cfg->n_binds; i++)
		in[n++] = cfg->binds[i].inside;
	for (size_t i = 0; i < n_extra && n < TC_ARRAY_SIZE(in) - 1; i++)
		in[n++] = extra[i].inside;
	if (cfg->workspace)
		in[n++] = cfg->workspace_inside;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (i != j && (beneath(in[i], in[j]) || (i > j && !strcmp(in[i], in[j]))))
				return tc_error_set(
					err, TC_STAGE_MOUNT, EINVAL,
					"cannot bind %s inside the bind at %s (its mount "
					"point would be made in that host folder)",
					in[i], in[j]);
	return 0;
}

int tc_mount_plan_build(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
			const bool *extra_is_dir, const char *cwd, struct tc_mount_plan *ret,
			struct tc_error *err)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->sync_fd = -1;
	if (!cfg->rootfs || cfg->rootfs[0] != '/')
		return tc_error_set(err, TC_STAGE_MOUNT, EINVAL,
				    "the rootfs path must be absolute");
	r = check_nesting(cfg, extra, n_extra, err);
	if (r < 0)
		return r;
	r = plan_build(cfg, extra, n_extra, extra_is_dir, ret);
	if (r >= 0 && !(ret->cwd = strdup(cwd ? cwd : "/")))
		r = -ENOMEM;
	if (r < 0) {
		tc_mount_plan_release(ret);
		return tc_error_errno(err, TC_STAGE_MOUNT, -r, "cannot plan the sandbox's mounts");
	}
	return 0;
}

const struct tc_mount_op *tc_mount_plan_workspace(const struct tc_mount_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		if (plan->ops[i].step == TC_MS_BIND && plan->ops[i].overlay)
			return &plan->ops[i];
	return NULL;
}

void tc_mount_plan_release(struct tc_mount_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->ops[i].tree >= 0)
			close(plan->ops[i].tree);
		free(plan->ops[i].source);
		free(plan->ops[i].target);
		free(plan->ops[i].data);
	}
	free(plan->ops);
	free(plan->cwd);
	memset(plan, 0, sizeof(*plan));
}