/* The command line's tables (cli-table.c) and what the parser's two files
 * (cli.c: commands; cli-opts.c: options and TOOLCELL_* variables) share.
 * The tables feed the parser, the --help texts (cli-help.c) and the
 * build-time documentation generator (tools/docgen.c: the man page's
 * option and environment parts, the bash completion), so none of them can
 * drift from the parser. Not part of toolcell's interface. */
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
	const char *env_note;	/* appended to "as --option" in the variable's line, or NULL */
	/* a path option given once: offsetof(struct tc_cli, ...) of where its
	 * value goes (0: not such an option); its metavar names the path */
	size_t slot;
};

extern const struct tc_cli_opt tc_cli_opts[];
extern const size_t tc_cli_n_opts;

/* The command line's side of each limit (the rest is tc_limit_info[]). */
struct tc_cli_limit {
	const char *env;  /* the TOOLCELL_* variable that sets it, or NULL */
	const char *desc; /* what it bounds, in help's '\n'-separated lines */
};

/* Indexed by enum tc_limit_id. */
extern const struct tc_cli_limit tc_cli_limits[TC_LIMIT__MAX];

/* One row per command: the parser finds it by its word; the overview's
 * Usage and Commands, each command's Usage line, toolcell(1)'s SYNOPSIS
 * and COMMANDS and the completion's command words all come from it. */
struct tc_cli_verb {
	enum tc_verb verb;
	const char *word; /* argv[1]: "policy" for `policy check` */
	const char *name; /* in messages and help: "policy check" */
	/* its synopsis lines, each after "toolcell ", '\n'-separated; in a
	 * command with few options (check, serve, rootfs build), "[OPTIONS]"
	 * stands for each of them: "[--policy FILE] [--cgroup-parent DIR]" */
	const char *usage;
	const char *summary; /* what it does: lines of at most 80 - 16 columns */
	/* serve, rootfs build: the options of its own command line (every
	 * one takes a value), else NULL: tc_cli_opts[] has them */
	const struct tc_cli_subopt *subopts;
	const size_t *n_subopts;
};

extern const struct tc_cli_verb tc_cli_verbs[];
extern const size_t tc_cli_n_verbs;

/* The row of verb (NULL for TC_VERB_NONE). */
const struct tc_cli_verb *tc_cli_verb_row(enum tc_verb verb);

/* Synopsis line number line of verb, after "toolcell ", with "[OPTIONS]"
 * spelled out where the row says so; false past its last line. */
bool tc_cli_usage_line(enum tc_verb verb, unsigned line, char *buf, size_t n);

/* The "Exit status: ..." paragraph of verb's --help ("" for none). */
const char *tc_cli_exit_status(enum tc_verb verb);

/* "run, python, ..., help": every command's name, for messages. Static. */
const char *tc_cli_verb_list(void);

/* ---- the parser's own (cli.c, cli-opts.c) ---------------------------- */

#define TC_CLI_STAGE	 TC_STAGE_CLI
#define TC_CLI_SHOWN_MAX 72 /* enough for any quoted value in a message */

/* A value made safe to quote in a one-line message: control characters
 * become '?', and long values are cut with "...". */
const char *tc_cli_shown(const char *s, char buf[static TC_CLI_SHOWN_MAX]);
/* tc_cli_shown() into a buffer that lives as long as the enclosing block */
#define SHOWN(s) tc_cli_shown((s), (char[TC_CLI_SHOWN_MAX]){ 0 })

/* The parser's state for one command line. */
struct cli_parse {
	struct tc_cli *cli;
	struct tc_error *err;
	bool given[OPT_LIMIT]; /* options given on the command line */
};

/* The closest candidate to a mistyped word, within distance 2. */
struct tc_cli_suggest {
	const char *best;
	unsigned dist;
	bool tie;
};

/* Weigh candidate against typed[0..len). */
void tc_cli_suggest_try(struct tc_cli_suggest *s, const char *typed, size_t len,
			const char *candidate);
/* The closest candidate, or NULL (none close, or a tie). */
const char *tc_cli_suggest_result(const struct tc_cli_suggest *s);

/* Refuse arg as an unknown option of verb, suggesting the closest one. */
int tc_cli_unknown_option(struct tc_error *err, enum tc_verb verb, const char *arg);

/* s is a path (absolute when asked) of at most TC_PATH_MAX - 1 bytes; else
 * "WHO: expected [an absolute] WHAT, got 'S'". */
int tc_cli_path_check(const char *who, const char *what, const char *s, bool absolute,
		      struct tc_error *err);

/* The options of verb, from argv[*i] on. Stops at the first argument that
 * is not a toolcell option (after "--": the one after it) and leaves *i
 * there. Sets *ret_help on --help. */
int tc_cli_parse_options(struct cli_parse *p, enum tc_verb verb, int argc, char **argv, int *i,
			 bool *ret_help);

/* The TOOLCELL_* settings, for what the command line left unset: each
 * means its option, for every verb that takes that option. */
int tc_cli_env_settings(struct cli_parse *p, enum tc_verb verb, char *const *envp);

#endif
