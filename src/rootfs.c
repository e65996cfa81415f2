/* The rootfs a run uses: the policy's variant, or the caller's --rootfs
 * where the policy's allow.rootfs lists it; only a tree rootfs/build-rootfs
 * made (only usr, etc and the merged-/usr links at its top, its manifest
 * and digest present, and for a caller's choice matching), never the host's
 * /. The tree is held with a shared flock for the run: the builder removes
 * an old tree only when it can take the lock exclusively. And `check`'s
 * staleness line: the Debian packages the tree was built from against the
 * installed ones. Runs in the parent before clone. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "layout.h"
#include "policy.h"
#include "toolcell/record.h"
#include "rootfs.h"
#include "sha256.h"
#include "util.h"

#define STAGE		  TC_STAGE_ROOTFS
#define HOLD_TRIES	  8	     /* a rebuild swapped the tree away meanwhile: look again */
#define PACKAGES_MAX	  (1u << 20) /* packages.txt: ~40 lines today */
#define PACKAGES_NAME_MAX 512	     /* packages a rootfs may record */
#define DPKG_OUT_MAX	  (1u << 20)

/* What a tree's top may hold: the two trees the launcher binds and the
 * merged-/usr links the builder adds for `chroot` (rootfs.h) */
const char *const tc_rootfs_top[TC_ROOTFS_N_FOLDERS + TC_ROOTFS_N_LINKS] = {
	"usr", "etc", "bin", "sbin", "lib", "lib64",
};
const char *const tc_rootfs_links[TC_ROOTFS_N_LINKS][2] = {
	{ "bin", "usr/bin" },
	{ "sbin", "usr/sbin" },
	{ "lib", "usr/lib" },
	{ "lib64", "usr/lib64" },
};

bool tc_rootfs_name_valid(const char *name)
{
	size_t len = strlen(name);

	return len > 0 && len <= TC_ROOTFS_NAME_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len && name[0] != '-' &&
	       name[0] != '_';
}

/* owned by root or by us, writable by nobody else */
static bool safe_owner(const struct stat *st)
{
	return (st->st_uid == 0 || st->st_uid == geteuid()) && !(st->st_mode & 022);
}

static int open_inside(int dirfd, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOCTTY,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

static int check_top(int dirfd, const char *dir, struct tc_error *err)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int r = 0;

	if (!d) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return tc_error_errno(err, STAGE, -r, "cannot read the rootfs %s", dir);
	}
	while (r == 0 && (de = readdir(d))) {
		bool known = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");

		for (size_t i = 0; !known && i < TC_ARRAY_SIZE(tc_rootfs_top); i++)
			known = !strcmp(de->d_name, tc_rootfs_top[i]);
		if (!known)
			r = tc_error_set(
				err, STAGE, EPERM,
				"%s is not a rootfs made by toolcell's builder: it holds "
				"'%.64s' (a rootfs holds only usr and etc); build one with "
				"'toolcell rootfs build'",
				dir, de->d_name);
	}
	closedir(d);
	/* usr and etc are bound into the sandbox as they are: real folders,
	 * never links (a link to / or /proc would bind the host's) */
	for (size_t i = 0; r == 0 && i < TC_ROOTFS_N_FOLDERS; i++) {
		struct stat st;

		if (fstatat(dirfd, tc_rootfs_top[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			r = tc_error_set(err, STAGE, EPERM,
					 "%s is not a rootfs made by toolcell's builder: its %s is "
					 "not a folder; build one with 'toolcell rootfs build'",
					 dir, tc_rootfs_top[i]);
	}
	return r;
}

/* The digest file: 64 lower-case hex digits and a newline. */
static int read_digest(int fd, char hex[65])
{
	char buf[66];

	if (tc_read_full(fd, buf, sizeof(buf)) != 65 || buf[64] != '\n')
		return -EINVAL;
	for (int i = 0; i < 64; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
			return -EINVAL;
	memcpy(hex, buf, 64);
	hex[64] = '\0';
	return 0;
}

static int check_manifest(int dirfd, const char *dir, bool full, struct tc_error *err)
{
	_cleanup_close_ int mfd = open_inside(dirfd, TC_ROOTFS_MANIFEST_REL);
	_cleanup_close_ int dfd = open_inside(dirfd, TC_ROOTFS_MANIFEST_REL ".sha256");
	unsigned char d[TC_SHA256_DIGEST_SIZE];
	char want[65], got[65];
	struct stat ms, ds;

	if (mfd < 0 || dfd < 0)
		return tc_error_set(err, STAGE, EPERM,
				    "%s is not a rootfs made by toolcell's builder: no %s%s (%s); "
				    "build one with 'toolcell rootfs build'",
				    dir, TC_ROOTFS_MANIFEST_REL, mfd < 0 ? "" : ".sha256",
				    strerror(-(mfd < 0 ? mfd : dfd)));
	if (fstat(mfd, &ms) < 0 || fstat(dfd, &ds) < 0 || !S_ISREG(ms.st_mode) ||
	    !S_ISREG(ds.st_mode) || !safe_owner(&ms) || !safe_owner(&ds))
		return tc_error_set(err, STAGE, EPERM,
				    "refusing the rootfs %s: its manifest is not a regular file "
				    "owned by root (or you) and writable by no one else",
				    dir);
	if (read_digest(dfd, want) < 0)
		return tc_error_set(err, STAGE, EPERM,
				    "refusing the rootfs %s: %s.sha256 is not a sha256 digest", dir,
				    TC_ROOTFS_MANIFEST_REL);
	if (!full)
		return 0;
	if (tc_sha256_file(mfd, TC_ROOTFS_MANIFEST_MAX, d) < 0)
		return tc_error_errno(err, STAGE, errno, "cannot read %s%s", dir,
				      TC_ROOTFS_MANIFEST);
	tc_hex_sha256(d, got);
	if (strcmp(want, got))
		return tc_error_set(
			err, STAGE, EPERM,
			"refusing the rootfs %s: its manifest does not match its digest "
			"(changed after the build); rebuild it with 'toolcell rootfs "
			"build'",
			dir);
	return 0;
}

int tc_rootfs_check_harness(const char *dir, const char *rebuild, struct tc_error *err)
{
	char path[PATH_MAX + 64], id[65];
	_cleanup_close_ int fd = -1;
	int r;

	snprintf(path, sizeof(path), "%s%s", dir, TC_ROOTFS_HARNESS_ID);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	r = fd < 0 ? -errno : read_digest(fd, id);
	if (r == -ENOENT)
		return tc_error_set(
			err, STAGE, EPROTO,
			"the rootfs %s has no %s (built by an older toolcell, or from a "
			"manifest without the harnesses), so its harnesses may not speak "
			"this toolcell's protocol; rebuild it with %s",
			dir, TC_ROOTFS_HARNESS_ID, rebuild);
	if (r < 0 && r != -EINVAL)
		return tc_error_errno(err, STAGE, -r, "cannot read %s%s", dir,
				      TC_ROOTFS_HARNESS_ID);
	if (r < 0 || strcmp(id, TOOLCELL_HARNESS_ID))
		return tc_error_set(
			err, STAGE, EPROTO,
			"the rootfs %s holds other harnesses than this toolcell speaks to "
			"(harness id %.12s, this toolcell's %.12s: a rootfs left from "
			"another toolcell version, or whose rebuild failed); rebuild it "
			"with %s",
			dir, r < 0 ? "unreadable" : id, TOOLCELL_HARNESS_ID, rebuild);
	return 0;
}

int tc_rootfs_verify(const char *dir, bool full, struct tc_error *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	int r;

	if (!strcmp(dir, "/"))
		return tc_error_set(err, STAGE, EPERM,
				    "refusing the rootfs /: the host's own root is never a rootfs "
				    "(the tool would see the host's /etc and /usr)");
	if (fd < 0)
		return tc_error_errno(err, STAGE, errno, "cannot use the rootfs %s", dir);
	if (fstat(fd, &st) < 0 || !safe_owner(&st))
		return tc_error_set(err, STAGE, EPERM,
				    "refusing the rootfs %s: it is not owned by root (or you) or "
				    "others can write to it",
				    dir);
	r = check_top(fd, dir, err);
	return r < 0 ? r : check_manifest(fd, dir, full, err);
}

/* A --rootfs value matches an allow.rootfs entry: the same name, or the
 * same real path. */
static bool listed(const struct tc_policy *p, const char *asked, const char *real)
{
	char buf[PATH_MAX];

	for (size_t i = 0; i < p->n_allow_rootfs; i++) {
		const char *e = p->allow_rootfs[i];

		if (e[0] != '/' ? (!real && !strcmp(e, asked))
				: (real && realpath(e, buf) && !strcmp(buf, real)))
			return true;
	}
	return false;
}

int tc_rootfs_choose(const struct tc_policy *p, const char *asked, const struct tc_layout *l,
		     char **ret, struct tc_error *err)
{
	const char *origin = p->origin ? p->origin : "the policy";
	_cleanup_free_ char *real = NULL;
	bool by_name = asked && !strchr(asked, '/');
	int r;

	*ret = NULL;
	if (!asked) {
		*ret = tc_layout_rootfs(l, p->rootfs_name);
		return *ret ? 0 : tc_error_set(err, STAGE, ENOMEM, "out of memory");
	}
	if (by_name && !tc_rootfs_name_valid(asked))
		return tc_error_set(err, TC_STAGE_CLI, EINVAL,
				    "--rootfs: expected a variant name ([a-z0-9][a-z0-9_-]*, at "
				    "most %d) or a path with a '/', got '%.64s'",
				    TC_ROOTFS_NAME_MAX, asked);
	if (!by_name) {
		real = realpath(asked, NULL);
		if (!real)
			return tc_error_errno(err, STAGE, errno, "cannot use the rootfs %.200s",
					      asked);
		if (!strcmp(real, "/"))
			return tc_rootfs_verify("/", true, err);
	}
	if (!p->n_allow_rootfs)
		return tc_error_set(
			err, TC_STAGE_POLICY, EPERM,
			"--rootfs %.200s is not allowed by the policy (%s: allow.rootfs "
			"lists the variants and paths a caller may choose, and lists "
			"none)",
			asked, origin);
	if (!listed(p, asked, real))
		return tc_error_set(err, TC_STAGE_POLICY, EPERM,
				    "--rootfs %.200s is not allowed by the policy (%s: not in "
				    "allow.rootfs)",
				    asked, origin);
	if (by_name) {
		_cleanup_free_ char *where = tc_layout_rootfs(l, asked);

		if (!where)
			return tc_error_set(err, STAGE, ENOMEM, "out of memory");
		/* a variant is a link to its current version */
		real = realpath(where, NULL);
		if (!real)
			return tc_error_errno(err, STAGE, errno, "cannot use the rootfs %s", where);
	}
	r = tc_rootfs_verify(real, true, err);
	if (r < 0)
		return r;
	*ret = real;
	real = NULL;
	return 0;
}

int tc_rootfs_hold(const char *path, char **real, struct tc_error *err)
{
	for (int i = 0; i < HOLD_TRIES; i++) {
		_cleanup_free_ char *r = realpath(path, NULL);
		_cleanup_close_ int fd = -1;
		struct stat a, b;

		if (!r)
			return tc_error_errno(err, STAGE, errno, "cannot use the rootfs %s", path);
		fd = open(r, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue; /* removed since realpath: the link names a newer tree */
		/* shared: any number of runs; the builder's exclusive try fails */
		if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK)
				return tc_error_errno(err, STAGE, errno,
						      "cannot lock the rootfs %s", r);
			continue; /* being removed right now */
		}
		/* still under its name: not already moved aside for removal */
		if (stat(r, &a) < 0 || fstat(fd, &b) < 0 || a.st_dev != b.st_dev ||
		    a.st_ino != b.st_ino)
			continue;
		*real = r;
		r = NULL;
		i = fd;
		fd = -1;
		return i;
	}
	return tc_error_set(err, STAGE, EAGAIN,
			    "cannot hold the rootfs %s: it was replaced %d times while starting; "
			    "try again",
			    path, HOLD_TRIES);
}

/* Run dpkg-query for the names (argv already holds its options) and read
 * its stdout into a heap buffer; NULL when it cannot run. */
static char *dpkg_query(char **argv, size_t *len)
{
	posix_spawn_file_actions_t fa;
	_cleanup_close_ int rd = -1;
	int p[2], status;
	char *buf = NULL;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return NULL;
	rd = p[0];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	/* a fixed path and environment: the answer must come from the host's dpkg */
	status = posix_spawn(&pid, "/usr/bin/dpkg-query", &fa, NULL, argv,
			     (char *[]){ "PATH=/usr/bin:/bin", "LC_ALL=C", NULL });
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (status != 0)
		return NULL;
	if (tc_read_fd(rd, DPKG_OUT_MAX, &buf, len) < 0)
		buf = NULL;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return buf;
}

/* The installed version of pkg in dpkg-query's "NAME VERSION" lines, or
 * NULL; writes a NUL after it in place. */
static const char *installed_version(char *out, const char *pkg)
{
	size_t pl = strlen(pkg);

	for (char *line = out; line && *line;) {
		char *nl = strchr(line, '\n');

		if (!strncmp(line, pkg, pl) && line[pl] == ' ') {
			if (nl)
				*nl = '\0';
			return line + pl + 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static void print_rebuild(FILE *out, const char *name)
{
	fprintf(out, "; rebuild it with 'toolcell rootfs build%s%s'\n", name ? " --name " : "",
		name ? name : "");
}

int tc_rootfs_report_stale(FILE *out, const char *dir, const char *name)
{
	char path[PATH_MAX + 64], *names[PACKAGES_NAME_MAX + 8], *vers[PACKAGES_NAME_MAX];
	_cleanup_free_ char *list = NULL, *dq = NULL;
	size_t len = 0, n = 0, dql = 0;
	int changed = 0;

	name = name && strcmp(name, "default") ? name : NULL;
	snprintf(path, sizeof(path), "%s%s", dir, TC_ROOTFS_PACKAGES);
	if (tc_read_file(path, PACKAGES_MAX, true, &list, &len) < 0) {
		fprintf(out,
			"rootfs packages: unknown (%s has no packages.txt: built before "
			"toolcell recorded packages)",
			dir);
		print_rebuild(out, name);
		return 0;
	}
	names[n++] = "dpkg-query";
	names[n++] = "-W";
	names[n++] = "--showformat=${binary:Package} ${Version}\\n";
	names[n++] = "--";
	/* one "PACKAGE VERSION" per line; '#' starts a comment */
	for (char *save = NULL, *line = strtok_r(list, "\n", &save);
	     line && n - 4 < PACKAGES_NAME_MAX; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (line[0] == '#' || !sp || sp == line)
			continue;
		*sp = '\0';
		vers[n - 4] = sp + 1;
		names[n++] = line;
	}
	names[n] = NULL;
	if (n == 4) {
		fprintf(out, "rootfs packages: %s records none\n", dir);
		return 0;
	}
	dq = dpkg_query(names, &dql);
	if (!dq) {
		fprintf(out, "rootfs packages: not checked (no dpkg-query on this host)\n");
		return 0;
	}
	for (size_t i = 4; i < n; i++) {
		_cleanup_free_ char *copy = strdup(dq);
		const char *now = copy ? installed_version(copy, names[i]) : NULL;

		if (now && !strcmp(now, vers[i - 4]))
			continue;
		if (changed++ < 8)
			fprintf(out, "rootfs packages: STALE: %s holds %s %s, the host has %s%s\n",
				dir, names[i], vers[i - 4], now ? now : "none installed",
				now ? "" : " (removed)");
	}
	if (changed) {
		fprintf(out, "rootfs packages: %d of %zu changed since the build", changed, n - 4);
		print_rebuild(out, name);
	} else {
		fprintf(out, "rootfs packages: %zu, all as installed on the host\n", n - 4);
	}
	return changed;
}
