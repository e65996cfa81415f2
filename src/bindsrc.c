/* Bind sources (see bindsrc.h), all on the parent's side before clone and
 * all with the caller's own rights: the open that names the component
 * stopping the caller, the checks for submounts and sockets, the refusal of
 * shared system folders as writable places, and the detached, idmapped
 * copy the child attaches. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bindsrc.h"
#include "util.h"

static int open_nofollow(int dirfd, const char *path, int flags, unsigned long long resolve)
{
	struct open_how how = {
		.flags = (unsigned long long)flags | O_CLOEXEC | O_NOFOLLOW,
		.resolve = resolve | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/* After an EACCES on path: the first directory the caller cannot search. */
static int name_blocker(const char *path, struct tc_error *err)
{
	char buf[PATH_MAX], parent[PATH_MAX] = "/";
	size_t len = strlen(path);
	struct stat st;

	if (len >= sizeof(buf))
		return tc_error_errno(err, TC_STAGE_MOUNT, EACCES, "cannot bind %s", path);
	memcpy(buf, path, len + 1);
	for (char *s = buf + 1;; s++) {
		char *slash = strchr(s, '/');
		int fd;

		if (slash)
			*slash = '\0';
		fd = open_nofollow(AT_FDCWD, buf, O_PATH, 0);
		if (fd < 0 && errno == EACCES) {
			if (stat(parent, &st) < 0)
				break;
			return tc_error_set(
				err, TC_STAGE_MOUNT, EACCES,
				"cannot bind %s: the caller (uid %u) cannot search %s (mode %04o, "
				"owner uid %u); toolcell opens bind sources with the caller's own "
				"rights: hand over a path the caller can reach",
				path, (unsigned)geteuid(), parent, (unsigned)(st.st_mode & 07777),
				(unsigned)st.st_uid);
		}
		if (fd >= 0)
			close(fd);
		if (!slash)
			break;
		snprintf(parent, sizeof(parent), "%s", buf);
		*slash = '/';
		s = slash;
	}
	return tc_error_errno(err, TC_STAGE_MOUNT, EACCES, "cannot bind %s", path);
}

/* A symbolic link in the path (or at its end, last): refused, saying where
 * it leads. */
static int refuse_link(const char *path, bool last, struct tc_error *err)
{
	char resolved[PATH_MAX];

	if (!realpath(path, resolved))
		snprintf(resolved, sizeof(resolved), "nowhere");
	return tc_error_set(err, TC_STAGE_MOUNT, ELOOP,
			    "refusing to bind %s: %s %s); name the real path if that is meant",
			    path,
			    last ? "it is a symbolic link (to"
				 : "its path has a symbolic link in it (it leads to",
			    resolved);
}

int tc_bindsrc_open(const char *path, int *ret_fd, struct stat *ret_st, struct tc_error *err)
{
	_cleanup_close_ int fd = -1;
	int mode;

	fd = open_nofollow(AT_FDCWD, path, O_PATH, 0);
	if (fd < 0 && errno == ELOOP)
		return refuse_link(path, false, err);
	if (fd < 0 && errno == EACCES)
		return name_blocker(path, err);
	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot bind %s", path);
	if (fstat(fd, ret_st) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot bind %s", path);
	/* O_PATH | O_NOFOLLOW opened a link at the end of the path itself */
	if (S_ISLNK(ret_st->st_mode))
		return refuse_link(path, true, err);
	mode = S_ISDIR(ret_st->st_mode) ? R_OK | X_OK : R_OK;
	/* the caller's effective ids, as the kernel checks an open */
	if ((S_ISDIR(ret_st->st_mode) || S_ISREG(ret_st->st_mode)) &&
	    syscall(SYS_faccessat2, fd, "", mode, AT_EMPTY_PATH | AT_EACCESS) < 0)
		return tc_error_errno(
			err, TC_STAGE_MOUNT, errno,
			"cannot bind %s: the caller (uid %u) cannot %s it (mode %04o, "
			"owner uid %u); toolcell hands the sandbox only what the "
			"caller can read",
			path, (unsigned)geteuid(),
			S_ISDIR(ret_st->st_mode) ? "list and search" : "read",
			(unsigned)(ret_st->st_mode & 07777), (unsigned)ret_st->st_uid);
	*ret_fd = TAKE_FD(fd);
	return 0;
}

bool tc_bindsrc_special_fs(const char *fstype)
{
	static const char *const special[] = {
		"proc",	  "sysfs",     "cgroup",     "cgroup2",	    "devtmpfs",	 "devpts",
		"mqueue", "debugfs",   "tracefs",    "securityfs",  "pstore",	 "efivarfs",
		"bpf",	  "configfs",  "fusectl",    "binfmt_misc", "hugetlbfs", "autofs",
		"nsfs",	  "selinuxfs", "rpc_pipefs", "nfsd",	    "kernfs",
	};

	for (size_t i = 0; i < TC_ARRAY_SIZE(special); i++)
		if (strcmp(fstype, special[i]) == 0)
			return true;
	return false;
}

bool tc_bindsrc_plain_fs(int fd)
{
	/* tmpfs is not among them: devtmpfs reports tmpfs's magic number */
	static const unsigned long plain[] = {
		EXT4_SUPER_MAGIC,      XFS_SUPER_MAGIC,	 BTRFS_SUPER_MAGIC,
		OVERLAYFS_SUPER_MAGIC, F2FS_SUPER_MAGIC,
	};
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return false;
	for (size_t i = 0; i < TC_ARRAY_SIZE(plain); i++)
		if ((unsigned long)sf.f_type == plain[i])
			return true;
	return false;
}

/* Copy one space-separated mountinfo field, decoding \ooo escapes. */
static const char *field(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s && *s != ' ' && *s != '\n') {
		char c = *s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 >= size)
			return NULL;
		out[n++] = c;
	}
	out[n] = '\0';
	return s;
}

bool tc_bindsrc_parse_mountinfo(const char *line, char *ret_point, size_t point_size,
				char *ret_fstype, size_t fstype_size)
{
	const char *s = line, *sep;
	char skip[PATH_MAX];

	/* id, parent id, major:minor, root: skipped; the mount point is 5th */
	for (int i = 0; i < 4; i++) {
		s = field(s, skip, sizeof(skip));
		if (!s || *s != ' ')
			return false;
		s++;
	}
	s = field(s, ret_point, point_size);
	if (!s || ret_point[0] != '/')
		return false;
	sep = strstr(s, " - ");
	if (!sep || (strchr(s, '\n') && strchr(s, '\n') < sep))
		return false;
	return field(sep + 3, ret_fstype, fstype_size) != NULL && ret_fstype[0];
}

/* true when p is dir or lies beneath it */
static bool at_or_under(const char *p, const char *dir, bool *ret_under)
{
	size_t n = strlen(dir);

	if (n == 1) /* "/" */
		n = 0;
	if (strncmp(p, dir, n) != 0 || (p[n] != '\0' && p[n] != '/'))
		return false;
	*ret_under = p[n] == '/';
	return true;
}

int tc_bindsrc_read_mountinfo(char **ret_text, struct tc_error *err)
{
	_cleanup_close_ int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno,
				      "cannot read /proc/self/mountinfo");
	r = tc_read_fd(fd, TC_MOUNTINFO_MAX, ret_text, NULL);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, -r, "cannot read /proc/self/mountinfo");
	return 0;
}

int tc_bindsrc_check_mounts(const char *mountinfo, const char *path, bool is_dir,
			    struct tc_error *err)
{
	char point[PATH_MAX], fstype[64], owner_fs[64] = "";
	size_t owner_len = 0;

	for (const char *line = mountinfo; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		bool under = false;

		if (!tc_bindsrc_parse_mountinfo(line, point, sizeof(point), fstype, sizeof(fstype)))
			continue;
		if (at_or_under(path, point, &under) && strlen(point) >= owner_len) {
			/* the mount the source itself lives on (the longest
			 * mount point above it; a later one on the same point
			 * covers an earlier) */
			owner_len = strlen(point);
			snprintf(owner_fs, sizeof(owner_fs), "%s", fstype);
		}
		if (is_dir && at_or_under(point, path, &under) && under)
			return tc_error_set(
				err, TC_STAGE_MOUNT, EPERM,
				"refusing to bind %s: %s %s file system is mounted inside it, at "
				"%s (binds carry no submounts%s); bind a folder without mounts",
				path, tc_bindsrc_special_fs(fstype) ? "a special" : "a", fstype,
				point,
				tc_bindsrc_special_fs(fstype) ? ", and this one shows host state"
							      : "");
	}
	if (tc_bindsrc_special_fs(owner_fs))
		return tc_error_set(err, TC_STAGE_MOUNT, EPERM,
				    "refusing to bind %s: it is on a %s file system, which shows "
				    "the host's state",
				    path, owner_fs);
	return 0;
}

struct scan {
	struct tc_pathq dirs; /* relative paths of directories still to read */
	size_t entries;
};

static int depth_of(const char *rel)
{
	int d = strcmp(rel, ".") != 0;

	for (; *rel; rel++)
		d += *rel == '/';
	return d;
}

/* The caller may enter rel (search permission, as the tool would be
 * checked), though it may not list it. */
static bool can_enter(int root, const char *rel)
{
	_cleanup_close_ int fd =
		open_nofollow(root, rel, O_PATH | O_DIRECTORY, RESOLVE_BENEATH | RESOLVE_NO_XDEV);

	return fd >= 0 && syscall(SYS_faccessat2, fd, "", X_OK, AT_EMPTY_PATH | AT_EACCESS) == 0;
}

/* Read one directory of the scan: 1 when a socket was found (*ret_name). */
static int scan_dir(struct scan *s, int root, const char *rel, char *ret_name, size_t size)
{
	int fd =
		open_nofollow(root, rel, O_RDONLY | O_DIRECTORY, RESOLVE_BENEATH | RESOLVE_NO_XDEV);
	DIR *d;
	int r = 0;

	if (fd < 0 && errno != EACCES)
		return -errno;
	if (fd < 0 && !can_enter(root, rel))
		return 0; /* what the caller cannot enter, the tool cannot either */
	if (fd < 0) {
		/* it can be entered but not listed (mode 0311): it may hold a
		 * socket the tool reaches by its name, unchecked, so refused */
		snprintf(ret_name, size, "%s", strncmp(rel, "./", 2) ? rel : rel + 2);
		return -EACCES;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	for (struct dirent *e; r == 0 && (e = readdir(d));) {
		char child[PATH_MAX];
		unsigned char type = e->d_type;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (++s->entries > TC_BIND_SCAN_MAX)
			r = -E2BIG;
		else if (snprintf(child, sizeof(child), "%s/%s", rel, e->d_name) >=
			 (int)sizeof(child))
			r = -ENAMETOOLONG;
		if (r < 0)
			break;
		if (type == DT_UNKNOWN)
			type = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ? DT_REG
			       : S_ISDIR(st.st_mode)					  ? DT_DIR
			       : S_ISSOCK(st.st_mode)					  ? DT_SOCK
											  : DT_REG;
		if (type == DT_SOCK) {
			snprintf(ret_name, size, "%s", child + 2); /* past "./" */
			r = 1;
		} else if (type == DT_DIR) {
			r = depth_of(child) > TC_BIND_SCAN_DEPTH ? -ELOOP
								 : tc_pathq_push(&s->dirs, child);
		}
	}
	closedir(d);
	return r;
}

#define SCAN_STR(n)    #n
#define SCAN_NUMBER(n) SCAN_STR(n)

/* Why a scan refuses a bind source, by what scan_dir returned: head, then
 * its limit (number) or else SOURCE/NAME, then tail. */
static const struct scan_refusal {
	int r, code;
	const char *head, *number, *tail;
} scan_refusals[] = {
	{ 1, EPERM, "it holds a socket, ", NULL,
	  ", which the tool could connect to even through a read-only bind; bind a folder "
	  "without sockets" },
	{ -EACCES, EACCES, "its folder ", NULL,
	  " can be entered but not listed, so it cannot be checked for sockets; make it listable "
	  "(chmod u+r) or bind a folder without it" },
	{ -E2BIG, E2BIG, "it holds more than ", SCAN_NUMBER(TC_BIND_SCAN_MAX),
	  " entries, too many to check for sockets; bind a smaller folder" },
	{ -ELOOP, ELOOP, "its folders nest deeper than ", SCAN_NUMBER(TC_BIND_SCAN_DEPTH),
	  ", too deep to check for sockets; bind a shallower folder" },
};

int tc_bindsrc_check_sockets(int dir_fd, const char *path, struct tc_error *err)
{
	struct scan s = { 0 };
	char name[PATH_MAX];
	int r = tc_pathq_push(&s.dirs, ".");

	while (r == 0 && s.dirs.head < s.dirs.n) {
		r = scan_dir(&s, dir_fd, s.dirs.v[s.dirs.head], name, sizeof(name));
		s.dirs.head++;
	}
	tc_pathq_free(&s.dirs);
	for (size_t i = 0; i < TC_ARRAY_SIZE(scan_refusals); i++) {
		const struct scan_refusal *f = &scan_refusals[i];
		if (r == f->r)
			return tc_error_set(err, TC_STAGE_MOUNT, f->code,
					    "refusing to bind %s: %s%s%s%s%s", path, f->head,
					    f->number ? f->number : path, f->number ? "" : "/",
					    f->number ? "" : name, f->tail);
	}
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, -r, "cannot check %s for sockets", path);
	return 0;
}

int tc_bindsrc_check_shared(const char *path, const struct stat *st, const char *what,
			    struct tc_error *err)
{
	static const char *const shared[] = { "/tmp",  "/var/tmp", "/dev/shm", "/var",
					      "/home", "/root",	   "/usr",     "/etc",
					      "/opt",  "/srv",	   "/mnt",     "/media",
					      "/boot", "/var/lib", "/var/log", "/var/cache" };
	struct stat s;

	for (size_t i = 0; i < TC_ARRAY_SIZE(shared); i++)
		if (stat(shared[i], &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return tc_error_set(err, TC_STAGE_MOUNT, EPERM,
					    "refusing %s as %s: it is the host's shared %s, which "
					    "other users and services write too; make a folder "
					    "of its own (mkdir %s/NAME) and use that",
					    path, what, shared[i], shared[i]);
	return 0;
}

int tc_bindsrc_detach(int fd, const char *path, unsigned long long attrs, int userns_fd,
		      int *ret_tree, struct tc_error *err)
{
	struct mount_attr a = { .attr_set = attrs };
	_cleanup_close_ int tree = -1;

	/* no AT_RECURSIVE: nothing mounted inside the source comes along */
	tree = open_tree(fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (tree < 0 && errno == EPERM)
		return -EPERM;
	if (tree < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot copy the mount of %s",
				      path);
	if (userns_fd >= 0) {
		a.attr_set |= MOUNT_ATTR_IDMAP;
		a.userns_fd = (uint64_t)userns_fd;
		if (mount_setattr(tree, "", AT_EMPTY_PATH, &a, sizeof(a)) == 0) {
			*ret_tree = TAKE_FD(tree);
			return 0;
		}
		/* a file system that cannot be idmapped: the tool sees a
		 * read-only source as before, through its "other" permission
		 * bits; a live one is refused, since what the tool wrote would
		 * land owned by a pool uid instead of the caller */
		if (errno != EINVAL && errno != EPERM && errno != EOPNOTSUPP)
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot idmap the bind of %s", path);
		if (!(attrs & MOUNT_ATTR_RDONLY))
			return tc_error_errno(err, TC_STAGE_MOUNT, errno,
					      "cannot idmap the writable bind of %s, so files the "
					      "tool writes would not be yours (its file system "
					      "cannot be idmapped; use --workspace)",
					      path);
		a.attr_set &= ~(unsigned long long)MOUNT_ATTR_IDMAP;
		a.userns_fd = 0;
	}
	if (mount_setattr(tree, "", AT_EMPTY_PATH, &a, sizeof(a)) < 0)
		return tc_error_errno(err, TC_STAGE_MOUNT, errno, "cannot restrict the bind of %s",
				      path);
	*ret_tree = TAKE_FD(tree);
	return 0;
}
