/* How a file the caller names is seen inside the sandbox: a `python`
 * script, a `call` tool, each FILE of `python -m py_compile FILE...` (how
 * PyRunner-style engines validate a tool). Through a bind that already
 * covers it, else bound read-only at its own host path (or its folder's,
 * with --script-dir), checked like any bind; python3 gets it by its path
 * inside. Parent side, before clone; stats the files, reads none. */
#ifndef TOOLCELL_SCRIPT_H
#define TOOLCELL_SCRIPT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "toolcell/config.h"
#include "toolcell/error.h"

#define TC_SCRIPT_BINDS 2 /* read-only binds a run adds: as many as the spec holds */

/* How the file at absolute host path abs is seen inside: the path inside
 * (heap) of a bind that covers it (bind->host left NULL), else *bind is
 * filled to bind it read-only at its own path (dir: its folder, with
 * dirbuf as the folder's storage) and abs is the path inside. NULL with
 * err set (stage "request") when that path may not be bound, or on
 * ENOMEM. */
char *tc_script_show(const struct tc_config *cfg, const char *abs, bool dir, struct tc_bind *bind,
		     char dirbuf[PATH_MAX], struct tc_error *err);

/* The `python` verb's plan: python3's command line as the sandbox sees it,
 * and the read-only binds that show its script and py_compile files. */
struct tc_script_plan {
	char **argv;			       /* "python3", then the caller's words; heap */
	int argc;			       /* words in argv */
	struct tc_bind binds[TC_SCRIPT_BINDS]; /* host paths point into this struct */
	size_t n_binds;
	bool have_script;		       /* the script is a regular file, shown inside */
	char script[PATH_MAX];		       /* its absolute host path, for provenance */
	char dir[PATH_MAX];		       /* --script-dir: the script's folder */
	char paths[TC_SCRIPT_BINDS][PATH_MAX]; /* py_compile files bound */
	char **owned;			       /* heap paths argv points at */
	size_t n_owned;
};

/* Plan `python` for the caller's argc words (python3's command line after
 * toolcell's options); script_index is the script's word (-1: none, as for
 * -c or -m), script_dir binds its folder. argv[0] becomes "python3" so
 * python3's own messages read as they do bare. Only a regular file is
 * shown; anything else is left for python3 to report as it would. -errno
 * with err set; release p either way. */
int tc_script_plan_python(const struct tc_config *cfg, int argc, char *const words[],
			  int script_index, bool script_dir, struct tc_script_plan *p,
			  struct tc_error *err);

void tc_script_plan_release(struct tc_script_plan *p);

#endif
