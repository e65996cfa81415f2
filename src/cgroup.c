/* cgroup v2 limits (see cgroup.h). Runs in the parent: before clone (find, create), at a
 * warm call's begin (a new leaf) and after the sandbox ended (kill, stats, remove). Every
 * path is reached through the parent's directory fd, never rebuilt from strings. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "util.h"

#define STAGE	      TC_STAGE_CGROUP
#define LEAF_PREFIX   "toolcell-run-"
#define CPU_PERIOD    100000 /* cpu.max period, microseconds */
#define FILE_MAX      4096   /* bytes read of one cgroup file */
#define EMPTY_WAIT_MS 1000   /* for the leaf to empty after the sandbox ended */

static void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
#define _cleanup_fclose_ __attribute__((cleanup(fclosep)))

/* snprintf through a va_list: a message cut at the buffer's end is fine */
static void say(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

static const char *const controllers[] = { "memory", "pids", "cpu" };

void tc_cgroup_init(struct tc_cgroup *cg)
{
	memset(cg, 0, sizeof(*cg));
	cg->parent_fd = cg->leaf_fd = cg->pids_fd = -1;
}

const char *tc_cgroup_how_to_delegate(void)
{
	return "delegate a cgroup v2 subtree to toolcell: start toolcell-cgroup.service "
	       "(systemctl enable --now toolcell-cgroup.service; production.json's "
	       "cgroup_parent is its subtree), or run toolcell in a systemd unit or scope with "
	       "Delegate=yes (systemd 254 and later: with DelegateSubgroup=, so toolcell's own "
	       "cgroup is a child of the delegated one), or make a cgroup whose parent enables "
	       "memory, pids and cpu in cgroup.subtree_control, chown it and its cgroup.procs, "
	       "cgroup.subtree_control and cgroup.threads to the calling user, and pass it "
	       "with --cgroup-parent";
}

/* Read a small cgroup file at dirfd into buf (NUL-terminated); length or
 * -errno. */
static ssize_t read_at(int dirfd, const char *name, char *buf, size_t n)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = tc_read_full(fd, buf, n - 1);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return len;
}

static int write_at(int dirfd, const char *name, const char *value)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);

	if (fd < 0)
		return -errno;
	if (write(fd, value, len) != (ssize_t)len)
		return -errno;
	return 0;
}

/* word in a space-separated list such as cgroup.controllers */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The controllers of ours that list lacks, as " memory pids" (empty when
 * none is missing). */
static void missing_controllers(const char *list, char *out, size_t n)
{
	size_t off = 0;

	out[0] = '\0';
	for (size_t i = 0; i < TC_ARRAY_SIZE(controllers); i++)
		if (!has_word(list, controllers[i]))
			off += (size_t)snprintf(out + off, n > off ? n - off : 0, " %s",
						controllers[i]);
}

/* list (cgroup.controllers) has our controllers: true; else false, with
 * why saying "WHO lacks the ... controller(s)ADVICE" */
static bool has_controllers(const char *list, const char *who, const char *advice, char *why,
			    size_t n)
{
	char miss[64];

	missing_controllers(list, miss, sizeof(miss));
	if (miss[0])
		say(why, n, "%s lacks the%s controller(s)%s", who, miss, advice);
	return !miss[0];
}

/* "key N" on a line of a flat-keyed file (memory.events, cpu.stat). */
static bool key_value(const char *buf, const char *key, uint64_t *ret)
{
	size_t n = strlen(key);

	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ')
			return sscanf(p + n + 1, "%" SCNu64, ret) == 1;
	return false;
}

/* The cgroup2 mount (its mount point, and the root of the hierarchy it
 * shows) from mountinfo. */
static bool cgroup2_mount(char *mnt, size_t mnt_n, char *root, size_t root_n)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];

	while (f && fgets(line, sizeof(line), f)) {
		char r[TC_PATH_MAX], m[TC_PATH_MAX], *dash = strstr(line, " - ");
		if (!dash || strncmp(dash, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2)
			continue;
		say(mnt, mnt_n, "%s", m);
		say(root, root_n, "%s", r);
		return true;
	}
	return false;
}

/* fd is a cgroup v2 directory other than a hierarchy's root (the root
 * has no cgroup.type). */
static int is_cgroup2_dir(int fd, bool *is_root)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	if (sf.f_type != CGROUP2_SUPER_MAGIC)
		return -ENOTDIR;
	*is_root = faccessat(fd, "cgroup.type", F_OK, 0) < 0 && errno == ENOENT;
	return 0;
}

/* Delegated to us: marked by systemd (Delegate=yes sets trusted.delegate,
 * or user.delegate for a user manager), or, for a caller other than root,
 * owned by the caller. */
static bool delegate_mark(int fd)
{
	char v[8];

	for (int i = 0; i < 2; i++) {
		ssize_t n = fgetxattr(fd, i ? "user.delegate" : "trusted.delegate", v, sizeof(v));
		if (n == 1 && v[0] == '1')
			return true;
	}
	return false;
}

static bool delegated(int fd)
{
	struct stat st;

	return delegate_mark(fd) ||
	       (geteuid() != 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid());
}

/* The parent is usable when its subtree has our controllers, or it can
 * have them and we may enable them. Fills why when not. */
static bool usable(int fd, const char *path, char *why, size_t n)
{
	char sub[FILE_MAX], avail[FILE_MAX], miss[64];

	if (read_at(fd, "cgroup.subtree_control", sub, sizeof(sub)) < 0 ||
	    read_at(fd, "cgroup.controllers", avail, sizeof(avail)) < 0) {
		say(why, n, "cannot read %s/cgroup.controllers: %s", path, strerror(errno));
		return false;
	}
	if (!has_controllers(avail, path, ": its parent must enable them in cgroup.subtree_control",
			     why, n))
		return false;
	if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0 ||
	    faccessat(fd, "cgroup.procs", W_OK, AT_EACCESS) < 0) {
		say(why, n, "%s is not writable by uid %u (not delegated to it)", path,
		    (unsigned)geteuid());
		return false;
	}
	missing_controllers(sub, miss, sizeof(miss));
	if (miss[0] && faccessat(fd, "cgroup.subtree_control", W_OK, AT_EACCESS) < 0) {
		say(why, n,
		    "%s does not enable%s for its children and its cgroup.subtree_control "
		    "is not writable by uid %u",
		    path, miss, (unsigned)geteuid());
		return false;
	}
	return true;
}

static int find_explicit(const char *path, bool from_caller, struct tc_cgroup *cg,
			 struct tc_error *err)
{
	char why[TC_CGROUP_WHY_MAX];
	bool is_root = false;
	int fd, r;

	if (path[0] != '/')
		return tc_error_set(err, STAGE, EINVAL,
				    "--cgroup-parent %s: expected an absolute path", path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return tc_error_errno(err, STAGE, errno, "--cgroup-parent %s: cannot open it",
				      path);
	r = is_cgroup2_dir(fd, &is_root);
	if (r < 0 || is_root) {
		close(fd);
		if (r == -ENOTDIR)
			return tc_error_set(err, STAGE, ENOTDIR,
					    "--cgroup-parent %s: not in a cgroup v2 hierarchy",
					    path);
		if (r < 0)
			return tc_error_errno(err, STAGE, -r, "--cgroup-parent %s", path);
		return tc_error_set(err, STAGE, EPERM,
				    "--cgroup-parent %s: the root of the hierarchy; toolcell "
				    "never writes there: name a cgroup below it",
				    path);
	}
	if (from_caller && !delegated(fd)) {
		close(fd);
		return tc_error_set(err, STAGE, EPERM,
				    "--cgroup-parent %s: not delegated to uid %u (no systemd "
				    "trusted.delegate or user.delegate mark%s); %s",
				    path, (unsigned)geteuid(),
				    geteuid() ? ", and not owned by the caller" : "",
				    tc_cgroup_how_to_delegate());
	}
	if (!usable(fd, path, why, sizeof(why))) {
		close(fd);
		return tc_error_set(err, STAGE, EPERM, "--cgroup-parent: %s; %s", why,
				    tc_cgroup_how_to_delegate());
	}
	cg->parent_fd = fd;
	cg->has_swap = faccessat(fd, "memory.swap.max", F_OK, 0) == 0;
	say(cg->parent, sizeof(cg->parent), "%s", path);
	return 1;
}

/* toolcell's own cgroup, as a path under the cgroup v2 mount (which has
 * our controllers): true, or false with why filled. Reads only. */
static bool own_cgroup(char *path, size_t n, size_t *mnt_len, char *why, size_t wn)
{
	char mnt[TC_PATH_MAX], root[TC_PATH_MAX], line[TC_PATH_MAX], avail[FILE_MAX],
		who[TC_PATH_MAX + 32];
	const char *own = NULL, *rel;
	_cleanup_fclose_ FILE *f = NULL;
	_cleanup_close_ int mfd = -1;
	struct statfs sf;

	/* the common refusal first, in one call (every run asks): a v1/v2
	 * hybrid keeps a tmpfs of v1 hierarchies at /sys/fs/cgroup, and its
	 * memory, pids and cpu are v1's */
	if (statfs("/sys/fs/cgroup", &sf) == 0 && sf.f_type == TMPFS_MAGIC) {
		say(why, wn,
		    "/sys/fs/cgroup is a cgroup v1/v2 hybrid: memory, pids and cpu belong to "
		    "cgroup v1");
		return false;
	}
	if (!cgroup2_mount(mnt, sizeof(mnt), root, sizeof(root))) {
		say(why, wn, "no cgroup v2 hierarchy is mounted");
		return false;
	}
	mfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0 || read_at(mfd, "cgroup.controllers", avail, sizeof(avail)) < 0)
		avail[0] = '\0';
	say(who, sizeof(who), "the cgroup v2 hierarchy at %s", mnt);
	if (!has_controllers(avail, who, " (on a v1/v2 hybrid they belong to cgroup v1)", why, wn))
		return false;
	f = fopen("/proc/self/cgroup", "re");
	while (f && fgets(line, sizeof(line), f))
		if (tc_startswith(line, "0::")) {
			line[strcspn(line, "\n")] = '\0';
			own = line + 3;
			break;
		}
	rel = own && tc_startswith(own, root) ? own + (strcmp(root, "/") ? strlen(root) : 0) : NULL;
	if (!rel || rel[0] != '/') {
		say(why, wn, "toolcell's own cgroup is not visible under %s", mnt);
		return false;
	}
	say(path, n, "%s%s", mnt, rel);
	*mnt_len = strlen(mnt);
	return true;
}

/* No explicit parent: the parent of toolcell's own cgroup, when that is
 * delegated to us. */
static int find_own(struct tc_cgroup *cg)
{
	char path[2 * TC_PATH_MAX], *slash;
	size_t mnt_len;
	int fd;

	if (!own_cgroup(path, sizeof(path), &mnt_len, cg->why, sizeof(cg->why)))
		return 0;
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) <= mnt_len) {
		say(cg->why, sizeof(cg->why),
		    "toolcell's own cgroup (%s) has no delegated parent below the root of the "
		    "hierarchy",
		    path);
		return 0;
	}
	*slash = '\0';
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		say(cg->why, sizeof(cg->why), "cannot open %s: %s", path, strerror(errno));
		return 0;
	}
	if (!delegated(fd)) {
		say(cg->why, sizeof(cg->why),
		    "%s (the parent of toolcell's own cgroup) is not delegated to uid %u", path,
		    (unsigned)geteuid());
		close(fd);
		return 0;
	}
	if (!usable(fd, path, cg->why, sizeof(cg->why))) {
		close(fd);
		return 0;
	}
	cg->parent_fd = fd;
	cg->has_swap = faccessat(fd, "memory.swap.max", F_OK, 0) == 0;
	say(cg->parent, sizeof(cg->parent), "%s", path);
	return 1;
}

int tc_cgroup_find(const char *explicit, bool from_caller, struct tc_cgroup *cg,
		   struct tc_error *err)
{
	tc_cgroup_init(cg);
	return explicit ? find_explicit(explicit, from_caller, cg, err) : find_own(cg);
}

/* Enable our controllers in the parent's subtree_control, once: under a
 * lock on the parent, so concurrent toolcells never race on the file. */
static int enable_controllers(struct tc_cgroup *cg, struct tc_error *err)
{
	char sub[FILE_MAX], miss[64], add[64];
	size_t off = 0;
	int r = 0;

	if (read_at(cg->parent_fd, "cgroup.subtree_control", sub, sizeof(sub)) < 0)
		return tc_error_errno(err, STAGE, errno, "cannot read %s/cgroup.subtree_control",
				      cg->parent);
	missing_controllers(sub, miss, sizeof(miss));
	if (!miss[0])
		return 0;
	if (flock(cg->parent_fd, LOCK_EX) < 0)
		return tc_error_errno(err, STAGE, errno, "cannot lock %s", cg->parent);
	if (read_at(cg->parent_fd, "cgroup.subtree_control", sub, sizeof(sub)) >= 0) {
		missing_controllers(sub, miss, sizeof(miss));
		for (char *tok = strtok(miss, " "); tok; tok = strtok(NULL, " "))
			off += (size_t)snprintf(add + off, sizeof(add) - off, "%s+%s",
						off ? " " : "", tok);
		if (off)
			r = write_at(cg->parent_fd, "cgroup.subtree_control", add);
	}
	flock(cg->parent_fd, LOCK_UN);
	if (r == -EBUSY)
		return tc_error_set(err, STAGE, EBUSY,
				    "cannot enable %s in %s/cgroup.subtree_control: the cgroup "
				    "holds processes of its own (a cgroup with controllers for "
				    "its children may not); move them into a child cgroup",
				    add, cg->parent);
	if (r < 0)
		return tc_error_errno(err, STAGE, -r,
				      "cannot enable %s in %s/cgroup.subtree_control", add,
				      cg->parent);
	return 0;
}

/* Leaves of toolcells that died without removing them: the owner's pid
 * gone, unlocked and empty. */
static void remove_stale(int parent_fd)
{
	int dfd = openat(parent_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		char events[FILE_MAX];
		uint64_t populated = 1;
		long owner;
		int fd;

		if (!tc_startswith(de->d_name, LEAF_PREFIX))
			continue;
		owner = strtol(de->d_name + strlen(LEAF_PREFIX), NULL, 10);
		if (owner > 0 && owner != getpid() && kill((pid_t)owner, 0) == 0)
			continue; /* its toolcell (or a pid's new owner) lives */
		fd = openat(parent_fd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 &&
		    read_at(fd, "cgroup.events", events, sizeof(events)) >= 0 &&
		    key_value(events, "populated", &populated) && populated == 0)
			unlinkat(parent_fd, de->d_name, AT_REMOVEDIR);
		close(fd);
	}
	closedir(d);
}

static int set_limit(struct tc_cgroup *cg, const char *file, const char *value,
		     struct tc_error *err)
{
	int r = write_at(cg->leaf_fd, file, value);

	if (r < 0)
		return tc_error_errno(err, STAGE, -r, "cannot write %s to %s/%s", value, cg->leaf,
				      file);
	return 0;
}

static int write_limits(struct tc_cgroup *cg, const uint64_t *limit, struct tc_error *err)
{
	char v[64];
	int r;

	snprintf(v, sizeof(v), "%" PRIu64, limit[TC_LIMIT_MEMORY]);
	r = set_limit(cg, "memory.max", v, err);
	if (r >= 0) {
		int s = write_at(cg->leaf_fd, "memory.swap.max", "0");
		cg->has_swap = s == 0;
		if (s < 0 && s != -ENOENT)
			r = tc_error_errno(err, STAGE, -s, "cannot write 0 to %s/memory.swap.max",
					   cg->leaf);
	}
	if (r >= 0)
		r = set_limit(cg, "memory.oom.group", "1", err);
	/* the sandbox's init is a task of the leaf too */
	snprintf(v, sizeof(v), "%" PRIu64, limit[TC_LIMIT_PIDS] + 1);
	if (r >= 0)
		r = set_limit(cg, "pids.max", v, err);
	/* thousandths of a CPU: quota per 100 ms period, at least 1 ms */
	snprintf(v, sizeof(v), "%" PRIu64 " %d",
		 limit[TC_LIMIT_CPUS] * (CPU_PERIOD / 1000) < 1000
			 ? 1000
			 : limit[TC_LIMIT_CPUS] * (CPU_PERIOD / 1000),
		 CPU_PERIOD);
	if (r >= 0)
		r = set_limit(cg, "cpu.max", v, err);
	return r;
}

int tc_cgroup_enter_subgroup(const char *name, char *where, size_t n, char *why, size_t wn)
{
	char path[2 * TC_PATH_MAX], pid[24];
	_cleanup_close_ int fd = -1, sub = -1;
	size_t mnt_len;
	int r;

	if (!own_cgroup(path, sizeof(path), &mnt_len, why, wn))
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !delegate_mark(fd)) {
		say(why, wn, "toolcell's own cgroup %s is not delegated by systemd (Delegate=yes)",
		    path);
		return 0;
	}
	/* the leaves of a server that was killed, empty by now (its runners
	 * and their sandboxes died with it) */
	remove_stale(fd);
	if (mkdirat(fd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0)
		return -errno;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	r = write_at(sub, "cgroup.procs", pid);
	if (r < 0)
		return r;
	say(where, n, "%s/%s", path, name);
	return 1;
}

/* mkdir a new leaf under the parent, lock it, write limit[] into it and
 * open its pids.current; on failure nothing is left. */
static int make_leaf(struct tc_cgroup *cg, const uint64_t *limit, struct tc_error *err)
{
	static unsigned counter;
	int r = 0;

	for (int tries = 0;; tries++) {
		snprintf(cg->name, sizeof(cg->name), LEAF_PREFIX "%d-%u", (int)getpid(), counter++);
		if (mkdirat(cg->parent_fd, cg->name, 0755) == 0)
			break;
		if (errno != EEXIST || tries >= 100)
			return tc_error_errno(err, STAGE, errno, "cannot create a cgroup in %s",
					      cg->parent);
	}
	say(cg->leaf, sizeof(cg->leaf), "%s/%s", cg->parent, cg->name);
	cg->leaf_fd = openat(cg->parent_fd, cg->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->leaf_fd < 0 || flock(cg->leaf_fd, LOCK_EX | LOCK_NB) < 0)
		r = tc_error_errno(err, STAGE, errno, "cannot open and lock %s", cg->leaf);
	if (r >= 0)
		r = write_limits(cg, limit, err);
	if (r >= 0) {
		cg->pids_fd = openat(cg->leaf_fd, "pids.current", O_RDONLY | O_CLOEXEC);
		if (cg->pids_fd < 0)
			r = tc_error_errno(err, STAGE, errno, "cannot open %s/pids.current",
					   cg->leaf);
	}
	if (r < 0) {
		unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR);
		tc_closep(&cg->leaf_fd);
		cg->name[0] = '\0';
	}
	return r;
}

int tc_cgroup_create(struct tc_cgroup *cg, const uint64_t *limit, struct tc_error *err)
{
	int r = enable_controllers(cg, err);

	if (r < 0)
		return r;
	remove_stale(cg->parent_fd);
	return make_leaf(cg, limit, err);
}

/* Every process of the leaf at from into the leaf at to (cgroup.procs
 * takes one pid a write, with all its threads); a second pass for one
 * that forked meanwhile. 0 once from is empty, or -errno. */
static int move_procs(int from, int to)
{
	char buf[FILE_MAX], *save = NULL;

	for (int pass = 0; pass < 4; pass++) {
		ssize_t n = read_at(from, "cgroup.procs", buf, sizeof(buf));
		if (n <= 0)
			return (int)n;
		for (char *p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			int r = write_at(to, "cgroup.procs", p);
			if (r < 0 && r != -ESRCH) /* ESRCH: it exited */
				return r;
		}
	}
	return -EBUSY;
}

int tc_cgroup_begin(struct tc_cgroup *cg, const uint64_t *limit, bool move, struct tc_error *err)
{
	struct tc_cgroup warm = *cg; /* its fds and names; the parent's fd is shared */
	int r;

	if (cg->leaf_fd < 0 || !move)
		return cg->leaf_fd < 0 ? 0 : write_limits(cg, limit, err);
	cg->leaf_fd = cg->pids_fd = -1;
	r = make_leaf(cg, limit, err);
	if (r < 0) {
		*cg = warm;
		return r;
	}
	/* the sandbox is idle, blocked reading its call: nothing forks now */
	r = move_procs(warm.leaf_fd, cg->leaf_fd);
	if (r < 0)
		tc_cgroup_kill(cg);
	/* the warm leaf goes; its charges stay with it, counted in the parent */
	tc_cgroup_finish(&warm, NULL);
	return r < 0 ? tc_error_errno(err, STAGE, -r, "cannot move the sandbox into %s", cg->leaf)
		     : 0;
}

void tc_cgroup_kill(const struct tc_cgroup *cg)
{
	if (cg->leaf_fd >= 0)
		write_at(cg->leaf_fd, "cgroup.kill", "1"); /* Linux 5.14+; else the init's death */
}

int tc_cgroup_pids_current(const struct tc_cgroup *cg, uint64_t *ret)
{
	char buf[32];
	ssize_t n;

	if (cg->pids_fd < 0)
		return -EBADF;
	n = pread(cg->pids_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	return sscanf(buf, "%" SCNu64, ret) == 1 ? 0 : -EIO;
}

static bool read_number(int dirfd, const char *file, uint64_t *ret)
{
	char buf[64];

	return read_at(dirfd, file, buf, sizeof(buf)) > 0 && sscanf(buf, "%" SCNu64, ret) == 1;
}

void tc_cgroup_read_stats(const struct tc_cgroup *cg, struct tc_cgroup_stats *ret)
{
	char buf[FILE_MAX];

	memset(ret, 0, sizeof(*ret));
	if (cg->leaf_fd < 0)
		return;
	ret->memory_peak_known = read_number(cg->leaf_fd, "memory.peak", &ret->memory_peak);
	ret->pids_peak_known = read_number(cg->leaf_fd, "pids.peak", &ret->pids_peak);
	if (read_at(cg->leaf_fd, "memory.events", buf, sizeof(buf)) > 0)
		ret->oom_known = key_value(buf, "oom_kill", &ret->oom_kills);
	if (read_at(cg->leaf_fd, "pids.events", buf, sizeof(buf)) > 0)
		ret->pids_events_known = key_value(buf, "max", &ret->pids_max_events);
	if (read_at(cg->leaf_fd, "cpu.stat", buf, sizeof(buf)) > 0)
		ret->cpu_known = key_value(buf, "user_usec", &ret->user_usec) &&
				 key_value(buf, "system_usec", &ret->system_usec);
}

int tc_cgroup_finish(struct tc_cgroup *cg, struct tc_cgroup_stats *stats)
{
	_cleanup_close_ int ev = -1;
	uint64_t deadline = tc_now_ns() + EMPTY_WAIT_MS * 1000000ull;
	char buf[FILE_MAX];
	int r = 0;

	if (cg->leaf_fd < 0)
		return 0;
	tc_cgroup_kill(cg);
	ev = openat(cg->leaf_fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	for (;;) {
		uint64_t populated = 1;
		ssize_t n = ev >= 0 ? pread(ev, buf, sizeof(buf) - 1, 0) : -1;
		if (n > 0) {
			buf[n] = '\0';
			key_value(buf, "populated", &populated);
		}
		if (populated == 0 || tc_now_ns() >= deadline)
			break;
		/* cgroup.events signals a change with POLLPRI */
		struct pollfd p = { .fd = ev, .events = POLLPRI };
		if (poll(&p, 1, 10) < 0 && errno != EINTR)
			break;
	}
	if (stats)
		tc_cgroup_read_stats(cg, stats);
	for (int tries = 0; tries < 100; tries++) {
		r = unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR) < 0 ? -errno : 0;
		if (r != -EBUSY)
			break;
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	tc_closep(&cg->pids_fd);
	tc_closep(&cg->leaf_fd);
	return r;
}

void tc_cgroup_release(struct tc_cgroup *cg)
{
	tc_closep(&cg->pids_fd);
	tc_closep(&cg->leaf_fd);
	tc_closep(&cg->parent_fd);
}
