/* Applying the workspace's layer to the host folder (see workspace.h), in
 * the parent after the sandbox is gone, so nothing of the tool runs while
 * its layer is read. Every host path is opened beneath the folder's own
 * descriptor with no symlink and no mount crossing; the layer is walked
 * breadth-first with a queue of relative paths, never by recursion. */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "bindsrc.h"
#include "util.h"
#include "workspace.h"

/* How many host entries one apply may remove (a deleted folder's contents);
 * the layer itself is bounded by its inode limit. */
#define TC_WORKSPACE_REMOVE_MAX (4 * TC_BIND_SCAN_MAX)

static int open_beneath(int root, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)flags | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};

	return (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));
}

static void note_error(struct tc_workspace_stats *st, const char *rel, const char *name, int e)
{
	if (!st->errors++)
		snprintf(st->first_error, sizeof(st->first_error), "%s/%s: %s", rel, name,
			 strerror(e));
}

/* Remove name (a file, or a folder and all it holds) from the host folder
 * hd, depth-first without recursion: descend into the first entry of a
 * folder that is not empty, remove what has nothing in it, climb back. */
static int remove_tree(int hd, const char *name, uint64_t *budget)
{
	char path[PATH_MAX];
	int r;

	if (snprintf(path, sizeof(path), "%s", name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (;;) {
		_cleanup_close_ int dfd = -1;
		char *slash = strrchr(path, '/');
		const char *last = slash ? slash + 1 : path;
		struct dirent *e;
		DIR *d;

		if (*budget == 0)
			return -E2BIG;
		(*budget)--;
		if (slash) {
			*slash = '\0';
			dfd = open_beneath(hd, path, O_RDONLY | O_DIRECTORY);
			*slash = '/';
		} else {
			dfd = fcntl(hd, F_DUPFD_CLOEXEC, 3);
		}
		if (dfd < 0)
			return -errno;
		if (unlinkat(dfd, last, 0) == 0 || errno == ENOENT ||
		    (errno == EISDIR && unlinkat(dfd, last, AT_REMOVEDIR) == 0)) {
			if (!slash)
				return 0;
			*slash = '\0'; /* climb back to the parent */
			continue;
		}
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -errno;
		/* descend into the first entry of the folder */
		d = fdopendir(open_beneath(dfd, last, O_RDONLY | O_DIRECTORY));
		if (!d)
			return -errno;
		while ((e = readdir(d)) && (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")))
			;
		/* a path too long to name: refused at once, not tried again
		 * until the budget runs out */
		if (!e)
			r = -ENOTEMPTY;
		else if (strlen(path) + 1 + strlen(e->d_name) >= sizeof(path))
			r = -ENAMETOOLONG;
		else
			r = 0;
		if (r == 0) {
			strcat(path, "/");
			strcat(path, e->d_name);
		}
		closedir(d);
		if (r < 0)
			return r;
	}
}

/* An opaque folder of the layer hides everything the host folder held. */
static int clear_dir(int hd, uint64_t *budget)
{
	DIR *d = fdopendir(fcntl(hd, F_DUPFD_CLOEXEC, 3));
	int r = 0;

	if (!d)
		return -errno;
	for (struct dirent *e; r == 0 && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			r = remove_tree(hd, e->d_name, budget);
	closedir(d);
	return r;
}

static bool is_opaque(int fd)
{
	char v[2];

	return fgetxattr(fd, "user.overlay.opaque", v, sizeof(v)) == 1 && v[0] == 'y';
}

static int copy_bytes(int from, int to, uint64_t *ret_bytes)
{
	char buf[65536];

	for (;;) {
		ssize_t n = copy_file_range(from, NULL, to, NULL, 1 << 30, 0);

		if (n == 0)
			return 0;
		if (n > 0) {
			*ret_bytes += (uint64_t)n;
			continue;
		}
		if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
			return -errno;
		break;
	}
	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));

		if (n == 0)
			return 0;
		if (n < 0)
			return -errno;
		if (tc_write_all(to, buf, (size_t)n) < 0)
			return -errno;
		*ret_bytes += (uint64_t)n;
	}
}

struct walk {
	struct tc_pathq dirs; /* the layer's folders still to apply */
	uint64_t budget;
	int root; /* the host folder: every temporary file is written here */
};

/* Write the layer's file under a temporary name in the host folder's top,
 * then rename it into place: a kill mid-apply never leaves half a file
 * under the final name, and what it leaves the next apply finds in the
 * one place it looks (renameat crosses folders: no level is on another
 * mount, RESOLVE_NO_XDEV). */
static int apply_file(struct walk *w, int ud, int hd, const char *name, mode_t mode,
		      uint64_t *ret_bytes)
{
	static unsigned long counter;
	_cleanup_close_ int from = -1, to = -1;
	char tmp[64];
	struct stat hs;
	int r;

	/* a session applies while the sandbox lives: what opens must still be
	 * a plain file (a FIFO swapped in would block the read) */
	from = openat(ud, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (from < 0)
		return -errno;
	if (fstat(from, &hs) < 0 || !S_ISREG(hs.st_mode))
		return -EINVAL;
	for (int tries = 0; to < 0 && tries < 100; tries++) {
		snprintf(tmp, sizeof(tmp), TC_WORKSPACE_TMP_PREFIX "%d.%lu", (int)getpid(),
			 counter++);
		to = openat(w->root, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (to < 0 && errno != EEXIST)
			return -errno;
	}
	if (to < 0)
		return -EEXIST;
	r = copy_bytes(from, to, ret_bytes);
	if (r >= 0 && fchmod(to, mode & 0777) < 0)
		r = -errno;
	/* a folder where the file goes: the tool replaced it */
	if (r >= 0 && fstatat(hd, name, &hs, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(hs.st_mode))
		r = remove_tree(hd, name, &w->budget);
	if (r >= 0 && renameat(w->root, tmp, hd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(w->root, tmp, 0);
	return r;
}

static int apply_dir(int hd, const char *name, mode_t mode, uint64_t *budget)
{
	struct stat hs;
	int r;

	if (fstatat(hd, name, &hs, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(hs.st_mode))
			return 0;
		r = remove_tree(hd, name, budget); /* a file the tool replaced */
		if (r < 0)
			return r;
	}
	if (mkdirat(hd, name, 0700) < 0)
		return -errno;
	/* mkdir honours the umask: the mode the tool gave, less set-id bits,
	 * through a descriptor (someone else who can write the host folder
	 * may have swapped the new folder for a link meanwhile) */
	_cleanup_close_ int fd = open_beneath(hd, name, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return -errno;
	return fchmod(fd, mode & 0777) < 0 ? -errno : 0;
}

static int walk_push(struct walk *w, const char *rel, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s%s%s", rel ? rel : "", rel ? "/" : "", name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return tc_pathq_push(&w->dirs, path);
}

/* One entry of a layer folder onto the matching host folder. */
static void apply_entry(struct walk *w, int ud, int hd, const char *rel, const char *name,
			struct tc_workspace_stats *st)
{
	struct stat s;
	int r = 0;

	if (fstatat(ud, name, &s, AT_SYMLINK_NOFOLLOW) < 0) {
		note_error(st, rel, name, errno);
		return;
	}
	if (s.st_mode & (S_ISUID | S_ISGID))
		st->setid_stripped++;
	if (S_ISCHR(s.st_mode) && s.st_rdev == makedev(0, 0)) {
		/* a whiteout: the tool deleted what the host folder holds */
		r = remove_tree(hd, name, &w->budget);
		st->deleted += r >= 0;
	} else if (S_ISDIR(s.st_mode)) {
		r = apply_dir(hd, name, s.st_mode, &w->budget);
		if (r >= 0)
			r = walk_push(w, rel, name);
		st->dirs += r >= 0;
	} else if (S_ISREG(s.st_mode) && s.st_nlink > 1) {
		st->hard_links++;
	} else if (S_ISREG(s.st_mode)) {
		r = apply_file(w, ud, hd, name, s.st_mode, &st->bytes);
		st->files += r >= 0;
	} else {
		/* what cannot reach the host still replaced the name: the host
		 * folder's entry of that name goes, as it went for the tool */
		st->symlinks += S_ISLNK(s.st_mode);
		st->fifos += S_ISFIFO(s.st_mode);
		st->sockets += S_ISSOCK(s.st_mode);
		st->devices += !S_ISLNK(s.st_mode) && !S_ISFIFO(s.st_mode) && !S_ISSOCK(s.st_mode);
		r = remove_tree(hd, name, &w->budget);
	}
	if (r < 0)
		note_error(st, rel, name, -r);
}

static void apply_level(struct walk *w, int up, int host, const char *rel,
			struct tc_workspace_stats *st)
{
	_cleanup_close_ int hd = open_beneath(host, rel, O_RDONLY | O_DIRECTORY);
	int ud = open_beneath(up, rel, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (ud < 0 || hd < 0) {
		note_error(st, rel, ".", ud < 0 ? errno : EBADF);
		if (ud >= 0)
			close(ud);
		return;
	}
	if (strcmp(rel, ".") != 0 && is_opaque(ud)) {
		int r = clear_dir(hd, &w->budget);

		if (r < 0)
			note_error(st, rel, ".", -r);
	}
	d = fdopendir(ud);
	if (!d) {
		close(ud);
		note_error(st, rel, ".", ENOMEM);
		return;
	}
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			apply_entry(w, dirfd(d), hd, rel, e->d_name, st);
	closedir(d);
}

/* Leftovers of an apply that was killed: written, never renamed (always in
 * the host folder's top, see apply_file). */
static void remove_leftovers(int host)
{
	DIR *d = fdopendir(fcntl(host, F_DUPFD_CLOEXEC, 3));

	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (tc_startswith(e->d_name, TC_WORKSPACE_TMP_PREFIX) && e->d_type == DT_REG)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

int tc_workspace_apply(int layer_fd, const char *host, dev_t dev, ino_t ino,
		       struct tc_workspace_stats *st)
{
	_cleanup_close_ int up = -1, root = -1;
	struct walk w = { .budget = TC_WORKSPACE_REMOVE_MAX };
	struct open_how root_how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct statfs sf;
	struct stat hs;

	up = openat(layer_fd, "upper", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (up < 0)
		return -errno;
	if (fstatfs(up, &sf) == 0) {
		st->used_bytes = (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_bsize;
		st->used_files = (uint64_t)(sf.f_files - sf.f_ffree);
		st->full = sf.f_bavail == 0 || sf.f_ffree == 0;
	}
	root = (int)syscall(SYS_openat2, AT_FDCWD, host, &root_how, sizeof(root_how));
	if (root < 0)
		return -errno;
	if (fstat(root, &hs) < 0 || hs.st_dev != dev || hs.st_ino != ino)
		return -ESTALE;
	remove_leftovers(root);
	w.root = root;
	if (walk_push(&w, NULL, ".") < 0)
		return -ENOMEM;
	for (; w.dirs.head < w.dirs.n; w.dirs.head++)
		apply_level(&w, up, root, w.dirs.v[w.dirs.head], st);
	tc_pathq_free(&w.dirs);
	st->applied = true;
	return 0;
}
