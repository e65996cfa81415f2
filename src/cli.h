/* The command line: argv (and the TOOLCELL_* variables) into a struct
 * tc_cli, and the --help texts. Pure: no I/O beyond what the caller passes
 * in, nothing printed. The parser (cli.c, cli-opts.c) and the help
 * (cli-help.c) read one set of tables (cli-table.c), so they cannot drift
 * apart. Runs in the parent before anything else. */
#ifndef TOOLCELL_CLI_H
#define TOOLCELL_CLI_H

#include <stdbool.h>

#include "toolcell/config.h"
#include "toolcell/error.h"

enum tc_verb {
	TC_VERB_NONE, /* no verb: print usage, exit 125 */
	TC_VERB_RUN,
	TC_VERB_PYTHON,
	TC_VERB_CALL,
	TC_VERB_SESSION,
	TC_VERB_CHECK,
	TC_VERB_POLICY_CHECK,
	TC_VERB_SERVE,	      /* its own command line: serve-cli.c */
	TC_VERB_ROOTFS_BUILD, /* its own command line: rootfs-verb.c */
	TC_VERB_VERSION,
	/* `toolcell help [VERB]`, `toolcell --help`, `toolcell VERB --help`; stays
	 * last: the help texts are indexed up to it. A new command is a value
	 * above, a row in tc_cli_verbs (cli-table.c) and a case in main.c's
	 * dispatch; its help, toolcell(1) and the completion follow. */
	TC_VERB_HELP,
};

struct tc_cli {
	enum tc_verb verb;
	enum tc_verb help_verb; /* with TC_VERB_HELP: which verb's help, or TC_VERB_NONE */
	struct tc_overrides overrides;
	const char *policy_path; /* --policy, or NULL for the default */
	const char *result_path; /* --result FILE, or NULL */
	int result_fd;		 /* --result-fd N, or -1 */
	bool quiet, verbose;
	bool script_dir;    /* python: --script-dir, bind the script's folder read-only */
	const char *server; /* call: --server SOCKET, or NULL (serve.h's client) */
	bool paths, json;   /* version: --paths (argv[0]: the one NAME, if given), --json */
	/* run: the program and its arguments; python: python3's own command
	 * line (everything after toolcell's options); call: argv[0] is TOOL.py;
	 * policy check: argv[0] is FILE; serve and rootfs build: the whole
	 * command line (argv[1] is "serve" or "rootfs"), which their own
	 * parsers read. Points into the caller's argv. */
	char **argv;
	int argc;
	/* python only: index into argv of the script path (the first
	 * python3 argument that is a script file), or -1 when python3 reads
	 * its program from -c, -m, - or stdin, or only prints (--version). */
	int script_index;
	/* strings the parser had to allocate (split TOOLCELL_* lists); freed
	 * by tc_cli_release */
	char *owned[2 * TC_MAX_BINDS + TC_MAX_ENV];
	size_t n_owned;
};

/* Parse argc/argv (argv[0] is "toolcell"). envp is the environment: each
 * TOOLCELL_* variable (TOOLCELL_POLICY, TOOLCELL_MEMORY, ...: the option
 * table's) stands for its option in every verb that takes that option, the
 * command line taking precedence. On a bad command line returns -EINVAL
 * with err naming the option and what was expected. */
int tc_cli_parse(int argc, char **argv, char *const *envp, struct tc_cli *ret,
		 struct tc_error *err);

/* Free what tc_cli_parse allocated. Accepts a zeroed struct. */
void tc_cli_release(struct tc_cli *cli);

/* "run", "policy check", ... ("" for TC_VERB_NONE). */
const char *tc_cli_verb_name(enum tc_verb v);

/* The full --help text for a verb (TC_VERB_NONE: the overview). Static. */
const char *tc_cli_help(enum tc_verb verb);

/* An option of a command with a small command line of its own (serve,
 * rootfs build, version): its parser, its --help, toolcell(1) and the bash
 * completion read one table of these. desc: '\n'-separated lines of at
 * most 80 - 26 columns. */
struct tc_cli_subopt {
	const char *name;
	const char *metavar; /* what the value looks like, or NULL for a flag */
	const char *desc;
	unsigned max;	   /* a number's largest value, or 0 */
	bool optional;	   /* the value may be left out: --paths [NAME] */
	const char *words; /* the values the completion offers, ' '-separated */
};

#endif
