/* The command line: argv, and the TOOLCELL_* variables, into a struct
 * tc_cli (see cli.h): which command, then its options (cli-opts.c) and its
 * arguments. Pure: runs in the parent before anything else, prints
 * nothing, opens nothing, exits nowhere; the only allocations are the
 * strings recorded in cli->owned. Messages go into struct tc_error (stage
 * "cli"), one line, no prefix. The --help texts are cli-help.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"

#include "cli-internal.h"

#define STAGE TC_CLI_STAGE

#define USAGE_MAX 256 /* one synopsis line, spelled out */

const struct tc_cli_verb *tc_cli_verb_row(enum tc_verb v)
{
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		if (tc_cli_verbs[i].verb == v)
			return &tc_cli_verbs[i];
	return NULL;
}

const char *tc_cli_verb_name(enum tc_verb v)
{
	const struct tc_cli_verb *row = tc_cli_verb_row(v);

	return row ? row->name : "";
}

const char *tc_cli_verb_list(void)
{
	static char list[256];
	size_t n = 0;

	if (list[0])
		return list;
	for (size_t i = 0; i < tc_cli_n_verbs && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
				      tc_cli_verbs[i].name);
	return list;
}

/* "[--opt METAVAR] ..." for each option of a command with few (not --help) */
static void spell_options(const struct tc_cli_verb *row, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; row->subopts && i < *row->n_subopts && len < n; i++) {
		const struct tc_cli_subopt *o = &row->subopts[i];

		len += (size_t)snprintf(buf + len, n - len, "%s[%s%s%s%s%s]", len ? " " : "",
					o->name, o->metavar ? " " : "", o->optional ? "[" : "",
					o->metavar ? o->metavar : "", o->optional ? "]" : "");
	}
	for (size_t i = 0; !row->subopts && i < tc_cli_n_opts && len < n; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		if (!(o->verbs & VB(row->verb)) || o->id == OPT_HELP)
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s[%s%s%s]", len ? " " : "", o->name,
					o->metavar ? " " : "", o->metavar ? o->metavar : "");
	}
}

bool tc_cli_usage_line(enum tc_verb verb, unsigned line, char *buf, size_t n)
{
	const struct tc_cli_verb *row = tc_cli_verb_row(verb);
	const char *s = row ? row->usage : NULL, *nl, *opts;
	char spelled[USAGE_MAX];
	int len, at;

	for (; s && line > 0; line--)
		s = (nl = strchr(s, '\n')) ? nl + 1 : NULL;
	if (!s)
		return false;
	nl = strchr(s, '\n');
	len = nl ? (int)(nl - s) : (int)strlen(s);
	opts = strstr(s, "[OPTIONS]");
	/* a sandbox command's options are too many to spell out */
	if (!opts || (nl && opts > nl) || (VB_SANDBOX & VB(verb))) {
		snprintf(buf, n, "%.*s", len, s);
		return true;
	}
	at = (int)(opts - s);
	spell_options(row, spelled, sizeof(spelled));
	snprintf(buf, n, "%.*s%s%.*s", at, s, spelled, len - at - (int)strlen("[OPTIONS]"),
		 opts + strlen("[OPTIONS]"));
	return true;
}

/* "toolcell " and verb's first synopsis line, for a message */
static const char *usage_of(enum tc_verb verb, char buf[static USAGE_MAX])
{
	char line[USAGE_MAX - 16];

	if (!tc_cli_usage_line(verb, 0, line, sizeof(line)))
		line[0] = '\0';
	snprintf(buf, USAGE_MAX, "toolcell %s", line);
	return buf;
}
#define USAGE(v) usage_of((v), (char[USAGE_MAX]){ 0 })

const char *tc_cli_shown(const char *s, char buf[static TC_CLI_SHOWN_MAX])
{
	size_t i;

	for (i = 0; i < TC_CLI_SHOWN_MAX - 4 && s[i]; i++)
		buf[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	if (s[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

/* Index in argv (python3's command line) of the script python3 would run,
 * or -1 when it runs -c, -m, stdin, or only prints (help, version, usage
 * errors). Follows python3's getopt: combined flags, -c/-m end the
 * options, -W/-X take an argument, attached or separate. */
static int python_script_index(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return i + 1 < argc && strcmp(argv[i + 1], "-") ? i + 1 : -1;
		if (a[0] != '-')
			return i;
		if (a[1] == '\0')
			return -1; /* "-": the program comes on stdin */
		if (a[1] == '-') {
			if (strcmp(a, "--check-hash-based-pycs"))
				return -1; /* --help*, --version, or python3's usage error */
			if (++i >= argc)
				return -1;
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			if (*c == 'c' || *c == 'm')
				return -1;
			if (*c == 'W' || *c == 'X') {
				if (c[1] == '\0' && ++i >= argc)
					return -1;
				break;
			}
			if (!strchr("bBdEiIOPqRsStuvx", *c))
				return -1; /* -h, -?, -V, or python3's usage error */
		}
	}
	return -1;
}

static int too_many_args(struct cli_parse *p)
{
	if (p->cli->argc > TC_MAX_ARGS)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: more than %d arguments for the tool",
				    tc_cli_verb_name(p->cli->verb), TC_MAX_ARGS);
	return 0;
}

/* "VERB: unexpected argument 'ARG'WHY" */
static int unexpected(struct cli_parse *p, enum tc_verb verb, const char *arg, const char *why)
{
	return tc_error_set(p->err, STAGE, EINVAL, "%s: unexpected argument '%s'%s",
			    tc_cli_verb_name(verb), SHOWN(arg), why);
}

/* Whatever follows the options of run, python, call, session or check. */
static int parse_arguments(struct cli_parse *p, enum tc_verb verb)
{
	struct tc_cli *cli = p->cli;

	switch (verb) {
	case TC_VERB_RUN:
		if (cli->argc == 0)
			return tc_error_set(p->err, STAGE, EINVAL,
					    "run: missing PROGRAM (usage: %s)", USAGE(verb));
		return too_many_args(p);
	case TC_VERB_PYTHON:
		cli->script_index = python_script_index(cli->argc, cli->argv);
		return too_many_args(p);
	case TC_VERB_CALL:
		if (cli->argc == 0)
			return tc_error_set(p->err, STAGE, EINVAL,
					    "call: missing TOOL.py (usage: %s)", USAGE(verb));
		return cli->argc > 1 ? unexpected(p, verb, cli->argv[1],
						  " after TOOL.py; the request comes on stdin")
				     : 0;
	case TC_VERB_SESSION:
		return cli->argc > 0
			       ? unexpected(p, verb, cli->argv[0],
					    "; requests come on stdin, one JSON object per line")
			       : 0;
	case TC_VERB_CHECK:
		if (cli->argc > 0)
			return tc_error_set(p->err, STAGE, EINVAL,
					    "check: unexpected argument '%s' (usage: %s)",
					    SHOWN(cli->argv[0]), USAGE(verb));
		cli->argv = NULL;
		return 0;
	case TC_VERB_NONE:
	case TC_VERB_POLICY_CHECK:
	case TC_VERB_SERVE:
	case TC_VERB_ROOTFS_BUILD:
	case TC_VERB_VERSION:
	case TC_VERB_HELP:
		break;
	}
	return 0;
}

/* run, python, call, session, check: options, then the program, python3's
 * line, TOOL.py or nothing, then the TOOLCELL_* variables. */
static int parse_with_options(struct cli_parse *p, enum tc_verb verb, int argc, char **argv,
			      char *const *envp)
{
	struct tc_cli *cli = p->cli;
	bool help = false;
	int i = 2, r;

	r = tc_cli_parse_options(p, verb, argc, argv, &i, &help);
	if (r < 0)
		return r;
	if (help) {
		cli->verb = TC_VERB_HELP;
		cli->help_verb = verb;
		return 0;
	}
	cli->argv = argv + i;
	cli->argc = argc - i;
	r = parse_arguments(p, verb);
	return r < 0 ? r : tc_cli_env_settings(p, verb, envp);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

/* toolcell policy check [--] FILE */
static int parse_policy(struct cli_parse *p, int argc, char **argv)
{
	struct tc_cli *cli = p->cli;
	int i = 3;

	if (argc > 2 && is_help(argv[2]))
		goto help;
	if (argc < 3)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "policy: expected 'check FILE' (usage: %s)",
				    USAGE(TC_VERB_POLICY_CHECK));
	if (strcmp(argv[2], "check"))
		return tc_error_set(p->err, STAGE, EINVAL,
				    "policy: unknown subcommand '%s' (usage: %s)", SHOWN(argv[2]),
				    USAGE(TC_VERB_POLICY_CHECK));
	if (i < argc && is_help(argv[i]))
		goto help;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	else if (i < argc && argv[i][0] == '-' && argv[i][1])
		return tc_cli_unknown_option(p->err, TC_VERB_POLICY_CHECK, argv[i]);
	if (i >= argc)
		return tc_error_set(p->err, STAGE, EINVAL, "policy check: missing FILE (usage: %s)",
				    USAGE(TC_VERB_POLICY_CHECK));
	if (i + 1 < argc)
		return unexpected(p, TC_VERB_POLICY_CHECK, argv[i + 1], " after FILE");
	cli->argv = argv + i;
	cli->argc = 1;
	return tc_cli_path_check("policy check", "FILE", argv[i], false, p->err);
help:
	cli->verb = TC_VERB_HELP;
	cli->help_verb = TC_VERB_POLICY_CHECK;
	return 0;
}

static int unknown_verb(struct tc_error *err, const char *arg)
{
	struct tc_cli_suggest s = { 0 };
	const char *hint;

	if (arg[0] == '-')
		return tc_error_set(
			err, STAGE, EINVAL,
			"unknown option '%s' before the command; options follow it, as in "
			"'toolcell run --memory 256M PROGRAM' (commands: %s)",
			SHOWN(arg), tc_cli_verb_list());
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		tc_cli_suggest_try(&s, arg, strlen(arg), tc_cli_verbs[i].word);
	hint = tc_cli_suggest_result(&s);
	if (hint)
		return tc_error_set(err, STAGE, EINVAL,
				    "unknown command '%s'; did you mean '%s'? (commands: %s)",
				    SHOWN(arg), hint, tc_cli_verb_list());
	return tc_error_set(err, STAGE, EINVAL, "unknown command '%s' (commands: %s)", SHOWN(arg),
			    tc_cli_verb_list());
}

/* The command argv's word names ("policy" for `policy check`), or NULL. */
static const struct tc_cli_verb *verb_of_word(const char *word)
{
	for (size_t i = 0; i < tc_cli_n_verbs; i++)
		if (!strcmp(word, tc_cli_verbs[i].word))
			return &tc_cli_verbs[i];
	return NULL;
}

/* toolcell help [VERB], toolcell --help [VERB] */
static int parse_help(struct cli_parse *p, int argc, char **argv)
{
	int i = 2;

	p->cli->verb = TC_VERB_HELP;
	p->cli->help_verb = TC_VERB_NONE;
	if (i >= argc)
		return 0;
	if (is_help(argv[i])) {
		p->cli->help_verb = TC_VERB_HELP;
		i++;
	} else {
		const struct tc_cli_verb *v = verb_of_word(argv[i]);

		if (!v)
			return unknown_verb(p->err, argv[i]);
		p->cli->help_verb = v->verb;
		i++;
		/* `help policy check`, `help rootfs build`: the name's second word */
		if (i < argc && strchr(v->name, ' ') && !strcmp(argv[i], strchr(v->name, ' ') + 1))
			i++;
	}
	if (i < argc)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "help: unexpected argument '%s' (usage: %s)", SHOWN(argv[i]),
				    USAGE(TC_VERB_HELP));
	return 0;
}

/* toolcell version [--paths [NAME | --json]] */
static int parse_version(struct cli_parse *p, int argc, char **argv)
{
	int i = 2;

	if (argc > 2 && is_help(argv[2]) && argc == 3) {
		p->cli->verb = TC_VERB_HELP;
		p->cli->help_verb = TC_VERB_VERSION;
		return 0;
	}
	if (i < argc && !strcmp(argv[i], "--paths")) {
		p->cli->paths = true;
		if (++i < argc && !strcmp(argv[i], "--json")) {
			p->cli->json = true;
			i++;
		} else if (i < argc && argv[i][0] != '-') {
			p->cli->argv = argv + i++;
			p->cli->argc = 1;
		}
	}
	if (i < argc)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "version: unexpected argument '%s' (usage: %s)", SHOWN(argv[i]),
				    USAGE(TC_VERB_VERSION));
	return 0;
}

static int parse_verb(struct cli_parse *p, int argc, char **argv, char *const *envp)
{
	const char *arg = argv[1];
	const struct tc_cli_verb *v;

	if (!strcmp(arg, "help") || is_help(arg))
		return parse_help(p, argc, argv);
	if (!strcmp(arg, "--version")) {
		p->cli->verb = TC_VERB_VERSION;
		return parse_version(p, argc, argv);
	}
	v = verb_of_word(arg);
	if (!v)
		return unknown_verb(p->err, arg);
	p->cli->verb = v->verb;
	switch (v->verb) {
	case TC_VERB_RUN:
	case TC_VERB_PYTHON:
	case TC_VERB_CALL:
	case TC_VERB_SESSION:
	case TC_VERB_CHECK:
		return parse_with_options(p, v->verb, argc, argv, envp);
	case TC_VERB_POLICY_CHECK:
		return parse_policy(p, argc, argv);
	case TC_VERB_VERSION:
		return parse_version(p, argc, argv);
	case TC_VERB_SERVE:
	case TC_VERB_ROOTFS_BUILD:
		/* a command line of its own (serve-cli.c, rootfs-verb.c) */
		p->cli->argv = argv;
		p->cli->argc = argc;
		return 0;
	case TC_VERB_NONE:
	case TC_VERB_HELP:
		break;
	}
	return unknown_verb(p->err, arg);
}

int tc_cli_parse(int argc, char **argv, char *const *envp, struct tc_cli *ret, struct tc_error *err)
{
	struct cli_parse p = { .cli = ret, .err = err };
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->result_fd = -1;
	ret->script_index = -1;
	if (argc < 2 || !argv || !argv[1])
		return tc_error_set(err, STAGE, EINVAL,
				    "no command given (commands: %s; see 'toolcell --help')",
				    tc_cli_verb_list());
	r = parse_verb(&p, argc, argv, envp);
	if (r < 0) {
		/* keep the verb, so `call` can still answer with an envelope */
		enum tc_verb verb = ret->verb, help_verb = ret->help_verb;

		tc_cli_release(ret);
		ret->verb = verb;
		ret->help_verb = help_verb;
	}
	return r;
}

void tc_cli_release(struct tc_cli *cli)
{
	for (size_t i = 0; i < cli->n_owned && i < TC_ARRAY_SIZE(cli->owned); i++)
		free(cli->owned[i]);
	memset(cli, 0, sizeof(*cli));
	cli->result_fd = -1;
	cli->script_index = -1;
}
