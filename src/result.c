/* The result record's file (result.h): its place, its opening before the
 * sandbox exists, its writing after. Parent side. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "paths.h"
#include "result.h"
#include "util.h"
#include "writable.h"

#define STAGE TC_STAGE_CLI

int tc_result_check_place(const struct tc_config *cfg, const char *path, struct tc_error *err)
{
	char abs[PATH_MAX], dir[PATH_MAX];
	const char *holder;

	if (!tc_path_absolute(path, NULL, abs))
		return tc_error_set(err, STAGE, ENAMETOOLONG, "cannot use the result file %s",
				    path);
	snprintf(dir, sizeof(dir), "%s", abs);
	if (!realpath(dirname(dir), dir))
		return tc_error_set(err, STAGE, errno, "cannot use the result file %s: %s", path,
				    strerror(errno));
	/* a host folder that does not resolve: its bind fails with its own
	 * message */
	holder = tc_writable_holding(cfg, dir);
	if (holder)
		return tc_error_set(err, STAGE, EPERM,
				    "refusing the result file %s: it lies in %s, which the "
				    "tool can write, so the tool could replace the record; "
				    "put it elsewhere",
				    path, holder);
	return 0;
}

/* The file path, opened before the sandbox exists through no symbolic link
 * anywhere in its path (a tool may have planted one where a later run's
 * record goes), never blocking (a FIFO left there would hang us), a
 * regular file, truncated. */
static int open_file(const char *path, struct tc_error *err)
{
	struct open_how how = {
		.flags = O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
		.mode = 0644,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	_cleanup_close_ int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	struct stat st;

	if (fd < 0 && errno == ELOOP)
		return tc_error_set(err, STAGE, ELOOP,
				    "refusing the result file %s: its path has a symbolic link in "
				    "it; name the real path",
				    path);
	if (fd < 0)
		return tc_error_set(err, STAGE, errno, "cannot open the result file %s: %s", path,
				    strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return tc_error_set(err, STAGE, EINVAL,
				    "the result file %s is not a regular file; use --result-fd for "
				    "a pipe or a terminal",
				    path);
	if (ftruncate(fd, 0) < 0)
		return tc_error_set(err, STAGE, errno, "cannot truncate the result file %s: %s",
				    path, strerror(errno));
	return TAKE_FD(fd);
}

int tc_result_open(const struct tc_config *cfg, const char *path, int fd, int *ret_fd,
		   struct tc_error *err)
{
	int r;

	*ret_fd = -1;
	if (path) {
		r = tc_result_check_place(cfg, path, err);
		if (r < 0)
			return r;
		r = open_file(path, err);
		if (r < 0)
			return r;
		*ret_fd = r;
	} else if (fd >= 0) {
		if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
			return tc_error_set(err, STAGE, errno,
					    "--result-fd %d is not an open descriptor: %s", fd,
					    strerror(errno));
		*ret_fd = fd;
	}
	return 0;
}

int tc_result_write(int fd, bool close_it, const struct tc_outcome *o)
{
	_cleanup_free_ char *json = tc_record_to_json(o);
	int e = 0;

	if (!json)
		e = ENOMEM;
	else if (tc_write_all(fd, json, strlen(json)) < 0)
		e = errno;
	if (close_it && close(fd) < 0 && !e)
		e = errno;
	return -e;
}
