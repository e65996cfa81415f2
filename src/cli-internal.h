/* The command line's one option table, shared by the parser and help texts
 * in cli.c and by the build-time documentation generator (tools/docgen.c:
 * the man page's option and environment parts, the bash completion), so
 * none of them can drift from the parser. Not part of toolcell's
 * interface. */
#ifndef TOOLCELL_CLI_INTERNAL_H
#define TOOLCELL_CLI_INTERNAL_H

#include <stddef.h>

#include "cli.h"
#include "policy.h"

/* Options that are not limits; limits come from tc_limit_info[]. */
enum cli_opt_id {
	OPT_POLICY,
	OPT_ROOTFS,
	OPT_CGROUP_PARENT,
	OPT_RO_BIND,
	OPT_BIND,
	OPT_WORKSPACE,
	OPT_ENV,
	OPT_PASS_ENV,
	OPT_RESULT,
	OPT_RESULT_FD,
	OPT_QUIET,
	OPT_VERBOSE,
	OPT_SCRIPT_DIR,
	OPT_ALLOW_IMPORT,
	OPT_DEFAULT_IMPORT,
	OPT_SERVER,
	OPT_HELP,
	OPT_LIMIT, /* one of tc_limit_info[] */
};

#define VB(v)	   (1u << (v))
#define VB_SANDBOX (VB(TC_VERB_RUN) | VB(TC_VERB_PYTHON) | VB(TC_VERB_CALL) | VB(TC_VERB_SESSION))
#define VB_RECORD  (VB_SANDBOX & ~VB(TC_VERB_SESSION)) /* verbs that write one record */

/* One row per option: the parser, --help, toolcell(1) and the bash
 * completion all read it. Descriptions are lines of at most 80 - 26
 * columns, '\n'-separated (help prints them as they are, the man page
 * joins them). */
struct tc_cli_opt {
	const char *name;
	const char *metavar; /* what the value looks like, or NULL for a flag */
	enum cli_opt_id id;
	unsigned verbs;		/* VB() mask of the verbs that accept it */
	const char *desc;	/* what it does, for run, python, call and session */
	const char *check_desc; /* what it does for check, when that differs */
	const char *env;	/* the TOOLCELL_* variable that stands for it, or NULL */
	const char *env_value;	/* the variable's value, when not metavar */
	const char *env_note;	/* appended to "as --option" in the variable's line */
};

extern const struct tc_cli_opt tc_cli_opts[];
extern const size_t tc_cli_n_opts;

/* The TOOLCELL_* variable of limit id (TOOLCELL_MEMORY, ...), or NULL. */
const char *tc_cli_limit_env(enum tc_limit_id id);
/* What limit id bounds, in help's '\n'-separated lines. */
const char *tc_cli_limit_desc(enum tc_limit_id id);
/* SIZE, SECONDS, CPUS or N. */
const char *tc_cli_unit_metavar(enum tc_unit unit);
/* "1M..16G", "0.001..86400 seconds", ... */
void tc_cli_limit_range(enum tc_limit_id id, char *buf, size_t n);
/* The shipped default.json's value of limit id as its file writes it, or "-". */
const char *tc_cli_default_limit(enum tc_limit_id id);

#endif
