/* The result record's file: where it may lie (never where the tool can
 * write, or the tool could replace the record), opened before the sandbox
 * exists through no symbolic link, and written whole after the tool ended.
 * Parent side. */
#ifndef TOOLCELL_RESULT_H
#define TOOLCELL_RESULT_H

#include <stdbool.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "toolcell/record.h"

/* 0 when the result file path (as given; relative to the working
 * directory) lies outside the workspace and every writable bind of cfg;
 * -EPERM naming the place otherwise, or -errno when its folder cannot be
 * resolved. Stage "cli". */
int tc_result_check_place(const struct tc_config *cfg, const char *path, struct tc_error *err);

/* The record's descriptor in *ret_fd: the file path (when not NULL: checked
 * with tc_result_check_place, opened with no symbolic link in its path,
 * a regular file, truncated), else the caller's descriptor fd made
 * close-on-exec (fd < 0: no record, *ret_fd -1). -errno with err set
 * (stage "cli"). */
int tc_result_open(const struct tc_config *cfg, const char *path, int fd, int *ret_fd,
		   struct tc_error *err);

/* Write the record of o whole to fd, and close fd when close_it (a file:
 * an error the file system keeps for close() is seen too). 0 or -errno. */
int tc_result_write(int fd, bool close_it, const struct tc_outcome *o);

#endif
