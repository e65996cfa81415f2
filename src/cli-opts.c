/* The command line's options (see cli-internal.h): each long option found
 * in the option table (or the limit table), its value checked and stored
 * in struct tc_cli, and then the TOOLCELL_* variables for what the command
 * line left unset. Pure, like cli.c: prints nothing, opens nothing; the
 * only allocations are the strings recorded in cli->owned. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "env.h"
#include "util.h"

#include "cli-internal.h"

#define STAGE TC_CLI_STAGE

/* python3's own long options (3.11): they start python3's command line. */
static const char *const python_long_opts[] = {
	"--version", "--check-hash-based-pycs", "--help-env", "--help-xoptions", "--help-all",
};

/* An option found: its row, or for a limit none and its id. */
struct opt_match {
	const struct tc_cli_opt *row; /* NULL for a limit */
	enum tc_limit_id limit;
	const char *name;    /* canonical spelling */
	const char *metavar; /* NULL for a flag */
	unsigned verbs;
};

/* Optimal string alignment distance of a[0..la) and b, capped at 3. */
static unsigned edit_distance(const char *a, size_t la, const char *b)
{
	unsigned d[3][65];
	size_t lb = strlen(b);

	if (la > 64 || lb > 64)
		return 3;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *row = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			row[j] = v;
		}
	}
	return d[la % 3][lb] < 3 ? d[la % 3][lb] : 3;
}

void tc_cli_suggest_try(struct tc_cli_suggest *s, const char *typed, size_t len,
			const char *candidate)
{
	unsigned d = edit_distance(typed, len, candidate);

	if (d > 2)
		return;
	if (!s->best || d < s->dist) {
		s->best = candidate;
		s->dist = d;
		s->tie = false;
	} else if (d == s->dist && strcmp(s->best, candidate) != 0) {
		s->tie = true;
	}
}

const char *tc_cli_suggest_result(const struct tc_cli_suggest *s)
{
	return s->best && !s->tie ? s->best : NULL;
}

/* Look up a long option (name[0..len)) among every option toolcell has. */
static bool opt_find(const char *name, size_t len, struct opt_match *ret)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		if (strlen(o->name) == len && !memcmp(o->name, name, len)) {
			*ret = (struct opt_match){ o, 0, o->name, o->metavar, o->verbs };
			return true;
		}
	}
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const char *o = tc_limit_info[l].option;

		if (o && strlen(o) == len && !memcmp(o, name, len)) {
			*ret = (struct opt_match){ NULL, (enum tc_limit_id)l, o,
						   tc_unit_info[tc_limit_info[l].unit].expected,
						   VB_SANDBOX };
			return true;
		}
	}
	return false;
}

/* The option of verb closest to the mistyped name[0..len), or NULL. */
static const char *opt_suggest(enum tc_verb verb, const char *name, size_t len)
{
	const struct tc_cli_verb *row = tc_cli_verb_row(verb);
	struct tc_cli_suggest s = { 0 };

	for (size_t i = 0; row && row->subopts && i < *row->n_subopts; i++)
		tc_cli_suggest_try(&s, name, len, row->subopts[i].name);
	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].verbs & VB(verb))
			tc_cli_suggest_try(&s, name, len, tc_cli_opts[i].name);
	if (VB_SANDBOX & VB(verb))
		for (int l = 0; l < TC_LIMIT__MAX; l++)
			if (tc_limit_info[l].option)
				tc_cli_suggest_try(&s, name, len, tc_limit_info[l].option);
	return tc_cli_suggest_result(&s);
}

int tc_cli_unknown_option(struct tc_error *err, enum tc_verb verb, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq && tc_startswith(arg, "--") ? (size_t)(eq - arg) : strlen(arg);
	const char *hint = tc_startswith(arg, "--") ? opt_suggest(verb, arg, len) : NULL;

	if (hint)
		return tc_error_set(
			err, STAGE, EINVAL,
			"%s: unknown option '%s'; did you mean '%s'? (see 'toolcell %s --help')",
			tc_cli_verb_name(verb), SHOWN(arg), hint, tc_cli_verb_name(verb));
	return tc_error_set(err, STAGE, EINVAL,
			    "%s: unknown option '%s' (see 'toolcell %s --help')",
			    tc_cli_verb_name(verb), SHOWN(arg), tc_cli_verb_name(verb));
}

/* Parse s for limit id, as the option or variable who; range-checked. */
static int limit_parse(enum tc_limit_id id, const char *who, const char *s, uint64_t *ret,
		       struct tc_error *err)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	uint64_t v = 0;
	int r = tc_unit_info[li->unit].parse(s, &v);

	if (r == -ERANGE || (r >= 0 && (v < li->min || v > li->max))) {
		char range[80];

		tc_limit_range(id, range, sizeof(range));
		return tc_error_set(err, STAGE, EINVAL, "%s: %s is outside %s", who, SHOWN(s),
				    range);
	}
	if (r < 0)
		return tc_error_set(err, STAGE, EINVAL, "%s: expected %s, got '%s'", who,
				    tc_unit_info[li->unit].expected, SHOWN(s));
	*ret = v;
	return 0;
}

int tc_cli_path_check(const char *who, const char *what, const char *s, bool absolute,
		      struct tc_error *err)
{
	if (!*s || (absolute && s[0] != '/'))
		return tc_error_set(err, STAGE, EINVAL, "%s: expected %s%s, got '%s'", who,
				    absolute ? "an absolute " : "a ", what, SHOWN(s));
	if (strlen(s) >= TC_PATH_MAX)
		return tc_error_set(err, STAGE, EINVAL, "%s: path longer than %d bytes", who,
				    TC_PATH_MAX - 1);
	return 0;
}

/* Keep a heap string for tc_cli_release; frees it and fails when full. */
static char *own(struct tc_cli *cli, char *s)
{
	if (!s)
		return NULL;
	if (cli->n_owned >= TC_ARRAY_SIZE(cli->owned)) {
		free(s);
		return NULL;
	}
	cli->owned[cli->n_owned++] = s;
	return s;
}

/* HOST[:INSIDE] (and a workspace's DIR[:INSIDE]): split at the last ':'
 * when what follows starts with '/'; *ret_host is spec or an owned copy. */
static int split_inside(struct cli_parse *p, const char *who, const char *spec,
			const char **ret_host, const char **ret_inside)
{
	const char *colon = strrchr(spec, ':');

	*ret_host = spec;
	*ret_inside = NULL;
	if (!colon || colon[1] != '/')
		return 0;
	*ret_inside = colon + 1;
	*ret_host = own(p->cli, strndup(spec, (size_t)(colon - spec)));
	if (!*ret_host)
		return tc_error_set(p->err, STAGE, ENOMEM, "%s: out of memory", who);
	return 0;
}

/* --workspace or TOOLCELL_WORKSPACE: DIR[:INSIDE], split like a bind */
static int workspace_set(struct cli_parse *p, const char *who, const char *value)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *dir, *inside;
	int r = split_inside(p, who, value, &dir, &inside);

	if (r >= 0 && inside)
		r = tc_cli_path_check(who, "INSIDE path", inside, true, p->err);
	if (r >= 0)
		r = tc_cli_path_check(who, "DIR", dir, true, p->err);
	if (r >= 0) {
		o->workspace = dir;
		o->workspace_inside = inside ? inside : o->workspace_inside;
	}
	return r;
}

static int bind_add(struct cli_parse *p, const char *who, const char *spec, bool writable)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *host, *inside;
	int r;

	if (o->n_binds >= TC_MAX_BINDS)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: more than %d binds (--ro-bind and --bind count together)",
				    who, TC_MAX_BINDS);
	r = split_inside(p, who, spec, &host, &inside);
	if (r < 0)
		return r;
	if (!inside)
		inside = spec;
	if (host[0] != '/')
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: expected HOST[:INSIDE] with absolute paths, got '%s'", who,
				    SHOWN(spec));
	r = tc_cli_path_check(who, "HOST path", host, true, p->err);
	if (r >= 0)
		r = tc_cli_path_check(who, "INSIDE path", inside, true, p->err);
	if (r >= 0)
		o->binds[o->n_binds++] = (struct tc_bind){ (char *)host, (char *)inside, writable };
	return r;
}

/* --env NAME=VALUE (name_only false) or --pass-env NAME (true) */
static int env_add(struct cli_parse *p, const char *who, const char *s, bool name_only)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *eq = name_only ? NULL : strchr(s, '=');

	if (o->n_env + o->n_pass_env >= TC_MAX_ENV)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"%s: more than %d variables (--env and --pass-env count together)", who,
			TC_MAX_ENV);
	if (name_only && !tc_env_name_valid(s, strlen(s)))
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: expected a variable NAME (letters, digits, '_'), got '%s'",
				    who, SHOWN(s));
	if (!name_only && (!eq || !tc_env_name_valid(s, (size_t)(eq - s))))
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"%s: expected NAME=VALUE (NAME of letters, digits, '_'), got '%s'", who,
			SHOWN(s));
	if (!name_only && strlen(s) >= TC_ENV_ENTRY_MAX)
		return tc_error_set(p->err, STAGE, EINVAL, "%s: longer than %d bytes", who,
				    TC_ENV_ENTRY_MAX - 1);
	if (name_only)
		o->pass_env[o->n_pass_env++] = s;
	else
		o->env[o->n_env++] = s;
	return 0;
}

static int result_fd_parse(const char *who, const char *s, int *ret, struct tc_error *err)
{
	static const char *const std_name[] = { "stdin", "stdout", "stderr" };
	uint64_t v;

	if (tc_parse_count(s, &v) < 0 || v > INT_MAX)
		return tc_error_set(err, STAGE, EINVAL,
				    "%s: expected a descriptor number such as 3, got '%s'", who,
				    SHOWN(s));
	if (v < 3)
		return tc_error_set(err, STAGE, EINVAL,
				    "%s: %d is toolcell's own %s; use 3 or above", who, (int)v,
				    std_name[v]);
	*ret = (int)v;
	return 0;
}

static int twice(struct cli_parse *p, const char *who)
{
	return tc_error_set(p->err, STAGE, EINVAL, "%s: given more than once", who);
}

static int result_conflict(struct cli_parse *p)
{
	return tc_error_set(
		p->err, STAGE, EINVAL,
		"--result and --result-fd cannot be used together: the record goes to one place");
}

/* A path option's one value (the row's slot), given at most once. */
static int path_set(struct cli_parse *p, const struct tc_cli_opt *row, const char *who,
		    const char *value)
{
	const char **slot = (const char **)((char *)p->cli + row->slot);
	int r;

	if (*slot)
		return twice(p, who);
	if (row->id == OPT_RESULT && p->cli->result_fd >= 0)
		return result_conflict(p);
	r = tc_cli_path_check(who, row->metavar, value, false, p->err);
	if (r >= 0)
		*slot = value;
	return r;
}

/* --allow-import MODULE, --default-import ALIAS=MODULE: checked against
 * the policy's session.max_imports later */
static int import_add(struct cli_parse *p, const char *who, const char *value, bool allow)
{
	struct tc_overrides *o = &p->cli->overrides;
	size_t *count = allow ? &o->n_allow_import : &o->n_default_import;

	if (*count == TC_MAX_IMPORTS)
		return tc_error_set(p->err, STAGE, E2BIG, "%s: more than %d of them", who,
				    TC_MAX_IMPORTS);
	(allow ? o->allow_import : o->default_import)[(*count)++] = value;
	return 0;
}

/* Apply one option of the table (value is NULL for a flag), given as who:
 * the option, or the TOOLCELL_* variable that stands for it. */
static int opt_apply(struct cli_parse *p, const struct tc_cli_opt *row, const char *who,
		     const char *value)
{
	struct tc_cli *cli = p->cli;

	if (row->slot)
		return path_set(p, row, who, value);
	switch (row->id) {
	case OPT_RO_BIND:
	case OPT_BIND:
		return bind_add(p, who, value, row->id == OPT_BIND);
	case OPT_WORKSPACE:
		return cli->overrides.workspace ? twice(p, who) : workspace_set(p, who, value);
	case OPT_ENV:
	case OPT_PASS_ENV:
		return env_add(p, who, value, row->id == OPT_PASS_ENV);
	case OPT_RESULT_FD:
		if (cli->result_fd >= 0)
			return twice(p, who);
		if (cli->result_path)
			return result_conflict(p);
		return result_fd_parse(who, value, &cli->result_fd, p->err);
	case OPT_QUIET:
	case OPT_VERBOSE:
		*(row->id == OPT_QUIET ? &cli->quiet : &cli->verbose) = true;
		if (cli->quiet && cli->verbose)
			return tc_error_set(p->err, STAGE, EINVAL,
					    "--quiet and --verbose cannot be used together");
		return 0;
	case OPT_SCRIPT_DIR:
		cli->script_dir = true;
		return 0;
	case OPT_SERVER:
		if (cli->server)
			return twice(p, who);
		if (value[0] != '/' && (value[0] || cli->verb != TC_VERB_SESSION))
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"--server expects the server's socket as an absolute path");
		cli->server = value;
		return 0;
	case OPT_ALLOW_IMPORT:
	case OPT_DEFAULT_IMPORT:
		return import_add(p, who, value, row->id == OPT_ALLOW_IMPORT);
	case OPT_POLICY:
	case OPT_ROOTFS:
	case OPT_CGROUP_PARENT:
	case OPT_RESULT: /* path options: their slot, above */
	case OPT_HELP:	 /* handled by the caller */
	case OPT_LIMIT:	 /* not a row */
		break;
	}
	return 0;
}

static bool is_python_long(const char *arg)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(python_long_opts); i++)
		if (!strcmp(arg, python_long_opts[i]))
			return true;
	return false;
}

/* An option verb does not take. */
static int not_of_verb(struct cli_parse *p, enum tc_verb verb, const struct opt_match *m)
{
	if (m->verbs == VB(TC_VERB_PYTHON))
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: '%s' is an option of 'toolcell python' only",
				    tc_cli_verb_name(verb), m->name);
	return tc_error_set(p->err, STAGE, EINVAL,
			    "%s: '%s' is not an option of this command (see 'toolcell %s --help')",
			    tc_cli_verb_name(verb), m->name, tc_cli_verb_name(p->cli->verb));
}

/* One "--name[=value]" argument at argv[*i], found as m; takes the next
 * argument as its value when it needs one. */
static int opt_take(struct cli_parse *p, const struct opt_match *m, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *eq = strchr(arg, '='), *value = NULL;
	struct tc_overrides *o = &p->cli->overrides;
	/* session's --server may leave SOCKET out (no argument of its own is a path) */
	bool bare = m->row && m->row->id == OPT_SERVER && p->cli->verb == TC_VERB_SESSION && !eq &&
		    (*i + 1 >= argc || argv[*i + 1][0] != '/');
	int r;

	if (!m->metavar && eq)
		return tc_error_set(p->err, STAGE, EINVAL, "%s: takes no value (got '%s')", m->name,
				    SHOWN(arg));
	if (m->metavar && eq)
		value = eq + 1;
	else if (bare)
		value = ""; /* the default socket */
	else if (m->metavar && *i + 1 < argc)
		value = argv[++(*i)];
	else if (m->metavar)
		return tc_error_set(p->err, STAGE, EINVAL, "%s: expected %s after it", m->name,
				    m->metavar);
	if (!m->row) {
		r = limit_parse(m->limit, m->name, value, &o->limit[m->limit], p->err);
		if (r >= 0)
			o->has[m->limit] = true; /* repeated: the last one wins */
		return r;
	}
	p->given[m->row->id] = true;
	return opt_apply(p, m->row, m->name, value);
}

int tc_cli_parse_options(struct cli_parse *p, enum tc_verb verb, int argc, char **argv, int *i,
			 bool *ret_help)
{
	for (; *i < argc; (*i)++) {
		const char *arg = argv[*i], *eq;
		struct opt_match m;
		size_t len;
		int r;

		if (!strcmp(arg, "--")) {
			(*i)++;
			return 0;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			return 0; /* PROGRAM, TOOL.py, python3's script, or "-" */
		if (arg[1] != '-') {
			/* python3's short options (-c, -m, -u, -h) start its command line */
			if (verb == TC_VERB_PYTHON)
				return 0;
			if (!strcmp(arg, "-h")) {
				*ret_help = true;
				return 0;
			}
			return tc_cli_unknown_option(p->err, verb, arg);
		}
		eq = strchr(arg, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		if (!opt_find(arg, len, &m)) {
			/* python3 takes its own long options, and reports unknown ones
			 * itself; only a near miss of a toolcell option is caught here */
			if (verb == TC_VERB_PYTHON &&
			    (is_python_long(arg) || !opt_suggest(verb, arg, len)))
				return 0;
			return tc_cli_unknown_option(p->err, verb, arg);
		}
		if (!(m.verbs & VB(verb)))
			return not_of_verb(p, verb, &m);
		if (m.row && m.row->id == OPT_HELP && !eq) {
			*ret_help = true;
			return 0;
		}
		r = opt_take(p, &m, argc, argv, i);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A variable's value, NULL when unset or empty (an empty one counts as unset). */
static const char *env_value(char *const *envp, const char *name)
{
	const char *v = tc_env_get(envp, name);

	return v && *v ? v : NULL;
}

/* A comma-separated TOOLCELL_* list, split in an owned copy: each item as
 * its option. */
static int env_list(struct cli_parse *p, const struct tc_cli_opt *row, const char *value)
{
	char *copy = own(p->cli, strdup(value)), *s, *next;
	int r = 0;

	if (!copy)
		return tc_error_set(p->err, STAGE, ENOMEM, "%s: out of memory", row->env);
	for (s = copy; s && r >= 0; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		if (*s) /* ",," and a trailing ',' are harmless */
			r = opt_apply(p, row, row->env, s);
	}
	return r;
}

/* The variable of the option row, whose value is v. */
static int env_option(struct cli_parse *p, const struct tc_cli_opt *row, const char *v)
{
	if (row->id == OPT_RO_BIND || row->id == OPT_BIND || row->id == OPT_PASS_ENV)
		return env_list(p, row, v);
	if (row->id != OPT_SCRIPT_DIR)
		return opt_apply(p, row, row->env, v);
	if (strcmp(v, "1") && strcmp(v, "0"))
		return tc_error_set(p->err, STAGE, EINVAL, "%s: expected 1 or 0, got '%s'",
				    row->env, SHOWN(v));
	p->cli->script_dir = !strcmp(v, "1");
	return 0;
}

int tc_cli_env_settings(struct cli_parse *p, enum tc_verb verb, char *const *envp)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *v;
	int r = 0;

	for (int l = 0; l < TC_LIMIT__MAX && r >= 0 && (VB_SANDBOX & VB(verb)); l++) {
		const char *var = tc_cli_limits[l].env;

		if (var && !o->has[l] && (v = env_value(envp, var))) {
			r = limit_parse((enum tc_limit_id)l, var, v, &o->limit[l], p->err);
			o->has[l] = r >= 0;
		}
	}
	for (size_t i = 0; i < tc_cli_n_opts && r >= 0; i++) {
		const struct tc_cli_opt *row = &tc_cli_opts[i];

		if (!row->env || !(row->verbs & VB(verb)) || p->given[row->id])
			continue;
		if (row->id == OPT_RESULT && p->given[OPT_RESULT_FD])
			continue; /* the record goes where the command line says */
		if ((v = env_value(envp, row->env)))
			r = env_option(p, row, v);
	}
	return r;
}
