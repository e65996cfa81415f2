/* Host paths as toolcell reasons about them before clone: a path the caller
 * gave made absolute by its text alone, the path inside the sandbox at which
 * a bind shows a host path, the working directory a run starts in. Pure
 * but for getcwd where a cwd is not given; parent side, before clone. */
#ifndef TOOLCELL_PATHS_H
#define TOOLCELL_PATHS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "toolcell/config.h"

/* given as an absolute path in out, with ".", ".." and "//" folded away by
 * text alone and symbolic links left in place (a bind refuses any, so a
 * tool cannot aim a later run's script at another file by planting one). A
 * relative given is taken from cwd (NULL: the process's). false when the
 * result would not fit PATH_MAX or cwd is unknown. */
bool tc_path_absolute(const char *given, const char *cwd, char out[PATH_MAX]);

/* The path inside of host path p (absolute, normalized) when one of the
 * config's binds, the n_extra extra binds or the workspace covers it (the
 * first that does, in that order); NULL when none does or on ENOMEM. Heap. */
char *tc_path_inside(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
		     const char *p);

/* The working directory inside for a run started in host folder here (NULL:
 * the process's): here as a bind shows it, else the workspace, else "/".
 * Heap; NULL on ENOMEM. */
char *tc_path_choose_cwd(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
			 const char *here);

/* true when p is dir or lies below it (both absolute, normalized). */
bool tc_path_beneath(const char *p, const char *dir);

#endif
