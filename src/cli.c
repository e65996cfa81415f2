/* The command line: argv, and for `python` the TOOLCELL_* variables, into a
 * struct tc_cli; and the --help texts, built from the same option tables so
 * the two cannot drift apart. Pure: runs in the parent before anything else,
 * prints nothing, opens nothing, exits nowhere; the only allocations are the
 * strings recorded in cli->owned (split binds and split TOOLCELL_* lists).
 * Messages go into struct tc_error (stage "cli"), one line, no prefix. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"

#include "cli-internal.h"

#define STAGE "cli"

/* Enough for any quoted value in a message; longer values are cut. */
#define SHOWN_MAX 72

/* A number in a description; clang-format is off around those lines, as
 * it cannot lay out a macro between string literals. */
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x)

const struct tc_cli_opt tc_cli_opts[] = {
	{ "--policy", "FILE", OPT_POLICY, VB_SANDBOX | VB(TC_VERB_CHECK),
	  "the policy: defaults and ceilings for every\n"
	  "setting. A path, or a name (production) found as\n"
	  "NAME.json in /etc/toolcell/policies, then among the\n"
	  "shipped ones (default: default.json, the same way)",
	  "the policy to check (default: the installed\n"
	  "default.json)",
	  "TOOLCELL_POLICY", NULL, "" },
	{ "--rootfs", "DIR", OPT_ROOTFS, VB_SANDBOX,
	  "the read-only root filesystem to run in: a variant's\n"
	  "NAME or a DIR the policy's allow.rootfs lists, made\n"
	  "by 'toolcell rootfs build' (default: the policy's)",
	  NULL, "TOOLCELL_ROOTFS", NULL, "" },
	{ "--cgroup-parent", "DIR", OPT_CGROUP_PARENT, VB_SANDBOX | VB(TC_VERB_CHECK),
	  "a cgroup v2 directory delegated to the caller;\n"
	  "each run gets a leaf under it with memory, pids\n"
	  "and cpu limits. Where allow.cgroup_parent says so,\n"
	  "at or below the policy's cgroup_parent (default:\n"
	  "that, else the parent of toolcell's own cgroup\n"
	  "when delegated, else rlimits)",
	  "the delegated cgroup v2 directory to check\n"
	  "(default: as for run)",
	  "TOOLCELL_CGROUP_PARENT", NULL, "" },
	{ "--ro-bind", "HOST[:INSIDE]", OPT_RO_BIND, VB_SANDBOX,
	  "show the host path HOST read-only at INSIDE (default:\n"
	  "the same path); both absolute. Split at the last\n"
	  "':' only when '/' follows it: /a:b:/c binds '/a:b'\n"
	  "at '/c', /a:b binds '/a:b' at '/a:b'. Opened with\n"
	  "the caller's rights (as root the caller's files\n"
	  "appear as the tool's); a source holding a socket\n"
	  "or another mount is refused. Repeatable",
	  NULL, "TOOLCELL_RO_BIND", "HOST[:INSIDE],...", ", comma-separated" },
	{ "--bind", "HOST[:INSIDE]", OPT_BIND, VB_SANDBOX,
	  /* clang-format off */
	  "the same, writable. Repeatable. At most " CLI_STR(TC_MAX_BINDS) " binds\n"
	  "in all (--ro-bind and --bind together)",
	  /* clang-format on */
	  NULL, "TOOLCELL_BIND", "HOST[:INSIDE],...", ", comma-separated" },
	{ "--workspace", "DIR[:INSIDE]", OPT_WORKSPACE, VB_SANDBOX,
	  "an absolute host directory, mounted writable at\n"
	  "INSIDE (default /workspace; see \"Working\n"
	  "directory\" below). The tool writes into a layer\n"
	  "(--workspace-size, --workspace-files); regular\n"
	  "files, folders and deletions reach DIR, as the\n"
	  "caller, when the run ends. Not /tmp, /var/tmp or\n"
	  "another shared system folder",
	  NULL, "TOOLCELL_WORKSPACE", NULL, "" },
	{ "--env", "NAME=VALUE", OPT_ENV, VB_SANDBOX,
	  "set NAME in the tool's environment, which is\n"
	  "otherwise only what the policy sets. Repeatable",
	  NULL, NULL, NULL, NULL },
	{ "--pass-env", "NAME", OPT_PASS_ENV, VB_SANDBOX,
	  "pass toolcell's own NAME on to the tool (TOOLCELL_*\n"
	  /* clang-format off */
	  "variables never pass). Repeatable. At most " CLI_STR(TC_MAX_ENV) "\n"
	  "--env and --pass-env together",
	  /* clang-format on */
	  NULL, "TOOLCELL_PASS_ENV", "NAME,...", ", comma-separated" },
	{ "--result", "FILE", OPT_RESULT, VB_RECORD, "write the result record to FILE (see below)",
	  NULL, "TOOLCELL_RESULT", NULL, " (unless --result-fd is given)" },
	{ "--result-fd", "N", OPT_RESULT_FD, VB_RECORD,
	  "write the result record to descriptor N, 3 or\n"
	  "above, inherited open; not with --result",
	  NULL, NULL, NULL, NULL },
	{ "--quiet", NULL, OPT_QUIET, VB_SANDBOX,
	  "no stderr notice of the limit that ended the tool;\n"
	  "why toolcell itself failed is still printed",
	  NULL, NULL, NULL, NULL },
	{ "--verbose", NULL, OPT_VERBOSE, VB_SANDBOX,
	  "print on stderr the time each set-up stage took", NULL, NULL, NULL, NULL },
	{ "--script-dir", NULL, OPT_SCRIPT_DIR, VB(TC_VERB_PYTHON),
	  "also bind the script's folder read-only, at its\n"
	  "absolute path",
	  NULL, "TOOLCELL_SCRIPT_DIR", "1", " (0: off)" },
	{ "--allow-import", "MODULE", OPT_ALLOW_IMPORT, VB(TC_VERB_SESSION),
	  "let the code import MODULE (and what is below it:\n"
	  "matplotlib.pyplot allows matplotlib.pyplot.*),\n"
	  "besides the policy's session.allowed_imports; only\n"
	  "within session.max_imports. Repeatable",
	  NULL, NULL, NULL, NULL },
	{ "--default-import", "ALIAS=MODULE", OPT_DEFAULT_IMPORT, VB(TC_VERB_SESSION),
	  "import MODULE as ALIAS before the first request\n"
	  "(np=numpy); within session.max_imports. Repeatable",
	  NULL, NULL, NULL, NULL },
	{ "--server", "SOCKET", OPT_SERVER, VB(TC_VERB_CALL),
	  "send the tool's source and the request to the\n"
	  "'toolcell serve' listening on SOCKET, and print\n"
	  "its answer's envelope; the server's policy and\n"
	  "limits apply, not this command line's",
	  NULL, NULL, NULL, NULL },
	{ "--help", NULL, OPT_HELP, VB_SANDBOX | VB(TC_VERB_CHECK), "this text", NULL, NULL, NULL,
	  NULL },
};

const size_t tc_cli_n_opts = TC_ARRAY_SIZE(tc_cli_opts);

/* python3's own long options (3.11): they start python3's command line. */
static const char *const python_long_opts[] = {
	"--version", "--check-hash-based-pycs", "--help-env", "--help-xoptions", "--help-all",
};

static const struct {
	const char *name;
	enum tc_verb verb;
} cli_verbs[] = {
	{ "run", TC_VERB_RUN },		{ "python", TC_VERB_PYTHON },
	{ "call", TC_VERB_CALL },	{ "session", TC_VERB_SESSION },
	{ "check", TC_VERB_CHECK },	{ "policy", TC_VERB_POLICY_CHECK },
	{ "version", TC_VERB_VERSION }, { "help", TC_VERB_HELP },
};

#define VERB_LIST "run, python, call, session, check, policy check, version, help"

struct opt_match {
	enum cli_opt_id id;
	enum tc_limit_id limit;
	const char *name;    /* canonical spelling */
	const char *metavar; /* NULL for a flag */
	unsigned verbs;
};

/* The parser's state for one command line. */
struct cli_parse {
	struct tc_cli *cli;
	struct tc_error *err;
	bool cli_ro_bind, cli_bind, cli_pass_env; /* lists given on the command line */
};

const char *tc_cli_verb_name(enum tc_verb v)
{
	switch (v) {
	case TC_VERB_NONE:
		return "";
	case TC_VERB_RUN:
		return "run";
	case TC_VERB_PYTHON:
		return "python";
	case TC_VERB_CALL:
		return "call";
	case TC_VERB_SESSION:
		return "session";
	case TC_VERB_CHECK:
		return "check";
	case TC_VERB_POLICY_CHECK:
		return "policy check";
	case TC_VERB_VERSION:
		return "version";
	case TC_VERB_HELP:
		return "help";
	}
	return "";
}

/* SHOWN(s): shown() into a buffer that lives as long as the enclosing block */
#define SHOWN(s) shown((s), (char[SHOWN_MAX]){ 0 })

/* A value made safe to quote in a one-line message: control characters
 * become '?', and long values are cut with "...". */
static const char *shown(const char *s, char buf[static SHOWN_MAX])
{
	size_t i;

	for (i = 0; i < SHOWN_MAX - 4 && s[i]; i++)
		buf[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	if (s[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

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

/* Keep the closest candidate within distance 2; a tie makes it ambiguous. */
struct suggest {
	const char *best;
	unsigned dist;
	bool tie;
};

static void suggest_try(struct suggest *s, const char *typed, size_t len, const char *candidate)
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

static const char *suggest_result(const struct suggest *s)
{
	return s->best && !s->tie ? s->best : NULL;
}

static const char *unit_expected(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_BYTES:
		return "a size such as 256M";
	case TC_UNIT_MS:
		return "seconds such as 30 or 0.5";
	case TC_UNIT_MILLICPU:
		return "a number of CPUs such as 1 or 0.5";
	case TC_UNIT_COUNT:
		return "a whole number such as 64";
	}
	return "";
}

/* Look up a long option (name[0..len)) among every option toolcell has. */
static bool opt_find(const char *name, size_t len, struct opt_match *ret)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		if (strlen(tc_cli_opts[i].name) == len && !memcmp(tc_cli_opts[i].name, name, len)) {
			*ret = (struct opt_match){ tc_cli_opts[i].id, 0, tc_cli_opts[i].name,
						   tc_cli_opts[i].metavar, tc_cli_opts[i].verbs };
			return true;
		}
	}
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const char *o = tc_limit_info[l].option;

		if (o && strlen(o) == len && !memcmp(o, name, len)) {
			*ret = (struct opt_match){ OPT_LIMIT, (enum tc_limit_id)l, o,
						   unit_expected(tc_limit_info[l].unit),
						   VB_SANDBOX };
			return true;
		}
	}
	return false;
}

/* The option of verb closest to the mistyped name[0..len), or NULL. */
static const char *opt_suggest(enum tc_verb verb, const char *name, size_t len)
{
	struct suggest s = { 0 };

	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].verbs & VB(verb))
			suggest_try(&s, name, len, tc_cli_opts[i].name);
	if (VB_SANDBOX & VB(verb))
		for (int l = 0; l < TC_LIMIT__MAX; l++)
			if (tc_limit_info[l].option)
				suggest_try(&s, name, len, tc_limit_info[l].option);
	return suggest_result(&s);
}

static int unknown_option(struct tc_error *err, enum tc_verb verb, const char *arg)
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

/* Plain decimal digits, no sign, no spaces; -ERANGE past UINT64_MAX. */
static int parse_u64(const char *s, uint64_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*ret = v;
	return 0;
}

/* Thousandths as a decimal: 1500 -> "1.5", 2000 -> "2". */
static void fmt_thousandths(uint64_t v, char *buf, size_t n)
{
	if (v % 1000 == 0)
		snprintf(buf, n, "%" PRIu64, v / 1000);
	else if (v % 100 == 0)
		snprintf(buf, n, "%" PRIu64 ".%" PRIu64, v / 1000, v % 1000 / 100);
	else if (v % 10 == 0)
		snprintf(buf, n, "%" PRIu64 ".%02" PRIu64, v / 1000, v % 1000 / 10);
	else
		snprintf(buf, n, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
}

/* A stored limit value the way a caller would write it. */
static void fmt_limit_value(enum tc_unit unit, uint64_t v, char *buf, size_t n)
{
	switch (unit) {
	case TC_UNIT_BYTES:
		if (v && v % (1ull << 40) == 0)
			snprintf(buf, n, "%" PRIu64 "T", v >> 40);
		else if (v && v % (1ull << 30) == 0)
			snprintf(buf, n, "%" PRIu64 "G", v >> 30);
		else if (v && v % (1ull << 20) == 0)
			snprintf(buf, n, "%" PRIu64 "M", v >> 20);
		else if (v && v % (1ull << 10) == 0)
			snprintf(buf, n, "%" PRIu64 "K", v >> 10);
		else
			snprintf(buf, n, "%" PRIu64, v);
		return;
	case TC_UNIT_MS:
	case TC_UNIT_MILLICPU:
		fmt_thousandths(v, buf, n);
		return;
	case TC_UNIT_COUNT:
		snprintf(buf, n, "%" PRIu64, v);
		return;
	}
}

/* "1M..16G", "0.001..86400 seconds", "0.01..64 CPUs", "1..65536" */
void tc_cli_limit_range(enum tc_limit_id id, char *buf, size_t n)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	char lo[32], hi[32];
	const char *unit = "";

	fmt_limit_value(li->unit, li->min, lo, sizeof(lo));
	fmt_limit_value(li->unit, li->max, hi, sizeof(hi));
	switch (li->unit) {
	case TC_UNIT_MS:
		unit = " seconds";
		break;
	case TC_UNIT_MILLICPU:
		unit = " CPUs";
		break;
	case TC_UNIT_BYTES:
	case TC_UNIT_COUNT:
		break;
	}
	snprintf(buf, n, "%s..%s%s", lo, hi, unit);
}

/* Parse s for limit id, as the option or variable who; range-checked. */
static int limit_parse(enum tc_limit_id id, const char *who, const char *s, uint64_t *ret,
		       struct tc_error *err)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	uint64_t v = 0;
	int r = -EINVAL;

	switch (li->unit) {
	case TC_UNIT_BYTES:
		r = tc_parse_size(s, &v);
		break;
	case TC_UNIT_MS:
		r = tc_parse_seconds_ms(s, &v);
		break;
	case TC_UNIT_MILLICPU:
		r = tc_parse_millicpus(s, &v);
		break;
	case TC_UNIT_COUNT:
		r = parse_u64(s, &v);
		break;
	}
	if (r == -ERANGE || (r >= 0 && (v < li->min || v > li->max))) {
		char range[80];

		tc_cli_limit_range(id, range, sizeof(range));
		return tc_error_set(err, STAGE, EINVAL, "%s: %s is outside %s", who, SHOWN(s),
				    range);
	}
	if (r < 0)
		return tc_error_set(err, STAGE, EINVAL, "%s: expected %s, got '%s'", who,
				    unit_expected(li->unit), SHOWN(s));
	*ret = v;
	return 0;
}

static bool valid_env_name(const char *s, size_t len)
{
	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

static int path_check(const char *who, const char *what, const char *s, bool absolute,
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

/* --workspace or TOOLCELL_WORKSPACE: DIR[:INSIDE], split like a bind */
static int workspace_set(struct cli_parse *p, const char *who, const char *value)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *colon = strrchr(value, ':');
	int r = 0;

	if (colon && colon[1] == '/') {
		o->workspace_inside = colon + 1;
		value = own(p->cli, strndup(value, (size_t)(colon - value)));
		if (!value)
			return tc_error_set(p->err, STAGE, ENOMEM, "%s: out of memory", who);
		r = path_check(who, "INSIDE path", o->workspace_inside, true, p->err);
	}
	if (r >= 0)
		r = path_check(who, "DIR", value, true, p->err);
	if (r >= 0)
		o->workspace = value;
	return r;
}

/* HOST[:INSIDE]: split at the last ':' when what follows starts with '/'. */
static int bind_add(struct cli_parse *p, const char *who, const char *spec, bool writable)
{
	struct tc_overrides *o = &p->cli->overrides;
	const char *colon = strrchr(spec, ':');
	const char *host = spec, *inside = spec;
	int r;

	if (o->n_binds >= TC_MAX_BINDS)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: more than %d binds (--ro-bind and --bind count together)",
				    who, TC_MAX_BINDS);
	if (colon && colon[1] == '/') {
		inside = colon + 1;
		host = own(p->cli, strndup(spec, (size_t)(colon - spec)));
		if (!host)
			return tc_error_set(p->err, STAGE, ENOMEM, "%s: out of memory", who);
	}
	if (host[0] != '/')
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: expected HOST[:INSIDE] with absolute paths, got '%s'", who,
				    SHOWN(spec));
	r = path_check(who, "HOST path", host, true, p->err);
	if (r < 0)
		return r;
	r = path_check(who, "INSIDE path", inside, true, p->err);
	if (r < 0)
		return r;
	o->binds[o->n_binds++] = (struct tc_bind){ (char *)host, (char *)inside, writable };
	return 0;
}

static int env_room(struct cli_parse *p, const char *who)
{
	const struct tc_overrides *o = &p->cli->overrides;

	if (o->n_env + o->n_pass_env >= TC_MAX_ENV)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"%s: more than %d variables (--env and --pass-env count together)", who,
			TC_MAX_ENV);
	return 0;
}

static int pass_env_add(struct cli_parse *p, const char *who, const char *name)
{
	int r = env_room(p, who);

	if (r < 0)
		return r;
	if (!valid_env_name(name, strlen(name)))
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: expected a variable NAME (letters, digits, '_'), got '%s'",
				    who, SHOWN(name));
	p->cli->overrides.pass_env[p->cli->overrides.n_pass_env++] = name;
	return 0;
}

static int env_add(struct cli_parse *p, const char *who, const char *entry)
{
	const char *eq = strchr(entry, '=');
	int r = env_room(p, who);

	if (r < 0)
		return r;
	if (!eq || !valid_env_name(entry, (size_t)(eq - entry)))
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"%s: expected NAME=VALUE (NAME of letters, digits, '_'), got '%s'", who,
			SHOWN(entry));
	if (strlen(entry) >= TC_ENV_ENTRY_MAX)
		return tc_error_set(p->err, STAGE, EINVAL, "%s: longer than %d bytes", who,
				    TC_ENV_ENTRY_MAX - 1);
	p->cli->overrides.env[p->cli->overrides.n_env++] = entry;
	return 0;
}

static int result_fd_parse(const char *who, const char *s, int *ret, struct tc_error *err)
{
	static const char *const std_name[] = { "stdin", "stdout", "stderr" };
	uint64_t v;

	if (parse_u64(s, &v) < 0 || v > INT_MAX)
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

static int once(struct cli_parse *p, const char *name, bool seen)
{
	if (seen)
		return tc_error_set(p->err, STAGE, EINVAL, "%s: given more than once", name);
	return 0;
}

static int result_conflict(struct cli_parse *p, bool other)
{
	if (other)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"--result and --result-fd cannot be used together: the record goes to one place");
	return 0;
}

/* Apply one option (value is NULL for a flag). */
static int opt_apply(struct cli_parse *p, const struct opt_match *m, const char *value)
{
	struct tc_cli *cli = p->cli;
	struct tc_overrides *o = &cli->overrides;
	const char *n = m->name;
	int r = 0;

	switch (m->id) {
	case OPT_POLICY:
		r = once(p, n, cli->policy_path);
		if (r >= 0)
			r = path_check(n, "FILE", value, false, p->err);
		if (r >= 0)
			cli->policy_path = value;
		return r;
	case OPT_ROOTFS:
		r = once(p, n, o->rootfs);
		if (r >= 0)
			r = path_check(n, "DIR", value, false, p->err);
		if (r >= 0)
			o->rootfs = value;
		return r;
	case OPT_CGROUP_PARENT:
		r = once(p, n, o->cgroup_parent);
		if (r >= 0)
			r = path_check(n, "DIR", value, false, p->err);
		if (r >= 0)
			o->cgroup_parent = value;
		return r;
	case OPT_RO_BIND:
	case OPT_BIND:
		if (m->id == OPT_BIND)
			p->cli_bind = true;
		else
			p->cli_ro_bind = true;
		return bind_add(p, n, value, m->id == OPT_BIND);
	case OPT_WORKSPACE:
		r = once(p, n, o->workspace);
		return r < 0 ? r : workspace_set(p, n, value);
	case OPT_ENV:
		return env_add(p, n, value);
	case OPT_PASS_ENV:
		p->cli_pass_env = true;
		return pass_env_add(p, n, value);
	case OPT_RESULT:
		r = once(p, n, cli->result_path);
		if (r >= 0)
			r = result_conflict(p, cli->result_fd >= 0);
		if (r >= 0)
			r = path_check(n, "FILE", value, false, p->err);
		if (r >= 0)
			cli->result_path = value;
		return r;
	case OPT_RESULT_FD:
		r = once(p, n, cli->result_fd >= 0);
		if (r >= 0)
			r = result_conflict(p, cli->result_path);
		if (r >= 0)
			r = result_fd_parse(n, value, &cli->result_fd, p->err);
		return r;
	case OPT_QUIET:
	case OPT_VERBOSE:
		if (m->id == OPT_QUIET)
			cli->quiet = true;
		else
			cli->verbose = true;
		if (cli->quiet && cli->verbose)
			return tc_error_set(p->err, STAGE, EINVAL,
					    "--quiet and --verbose cannot be used together");
		return 0;
	case OPT_SCRIPT_DIR:
		cli->script_dir = true;
		return 0;
	case OPT_SERVER:
		r = once(p, n, cli->server);
		if (r >= 0 && value[0] != '/')
			r = tc_error_set(
				p->err, STAGE, EINVAL,
				"--server expects the server's socket as an absolute path");
		if (r >= 0)
			cli->server = value;
		return r;
	case OPT_ALLOW_IMPORT:
	case OPT_DEFAULT_IMPORT: {
		/* checked against the policy's session.max_imports later */
		bool allow = m->id == OPT_ALLOW_IMPORT;
		size_t *count = allow ? &o->n_allow_import : &o->n_default_import;
		if (*count == TC_MAX_IMPORTS)
			return tc_error_set(p->err, STAGE, E2BIG, "%s: more than %d of them", n,
					    TC_MAX_IMPORTS);
		(allow ? o->allow_import : o->default_import)[(*count)++] = value;
		return 0;
	}
	case OPT_HELP:
		return 0; /* handled by the caller */
	case OPT_LIMIT:
		r = limit_parse(m->limit, n, value, &o->limit[m->limit], p->err);
		if (r >= 0)
			o->has[m->limit] = true; /* repeated: the last one wins */
		return r;
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

/* The options of run, python, call and check, from argv[*i] on. Stops at
 * the first argument that is not a toolcell option (after "--": the one
 * after it) and leaves *i there. Sets *ret_help on --help. */
static int parse_options(struct cli_parse *p, enum tc_verb verb, int argc, char **argv, int *i,
			 bool *ret_help)
{

	for (; *i < argc; (*i)++) {
		const char *arg = argv[*i], *eq, *value = NULL;
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
			return unknown_option(p->err, verb, arg);
		}
		eq = strchr(arg, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		if (!opt_find(arg, len, &m)) {
			/* python3 takes its own long options, and reports unknown ones
			 * itself; only a near miss of a toolcell option is caught here */
			if (verb == TC_VERB_PYTHON &&
			    (is_python_long(arg) || !opt_suggest(verb, arg, len)))
				return 0;
			return unknown_option(p->err, verb, arg);
		}
		if (!(m.verbs & VB(verb))) {
			if (m.verbs == VB(TC_VERB_PYTHON))
				return tc_error_set(
					p->err, STAGE, EINVAL,
					"%s: '%s' is an option of 'toolcell python' only",
					tc_cli_verb_name(verb), m.name);
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"%s: '%s' is not an option of this command (see 'toolcell %s --help')",
				tc_cli_verb_name(verb), m.name, tc_cli_verb_name(p->cli->verb));
		}
		if (m.id == OPT_HELP && !eq) {
			*ret_help = true;
			return 0;
		}
		if (!m.metavar && eq)
			return tc_error_set(p->err, STAGE, EINVAL, "%s: takes no value (got '%s')",
					    m.name, SHOWN(arg));
		if (m.metavar) {
			if (eq) {
				value = eq + 1;
			} else if (*i + 1 < argc) {
				value = argv[++(*i)];
			} else {
				return tc_error_set(p->err, STAGE, EINVAL,
						    "%s: expected %s after it", m.name, m.metavar);
			}
		}
		r = opt_apply(p, &m, value);
		if (r < 0)
			return r;
	}
	return 0;
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

static const char *env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return (*envp)[len + 1] ? *envp + len + 1 : NULL; /* empty: unset */
	return NULL;
}

/* A comma-separated TOOLCELL_* list, split in an owned copy. */
static int env_list(struct cli_parse *p, const char *var, const char *value, enum cli_opt_id id)
{
	char *copy = own(p->cli, strdup(value)), *s, *next;
	int r = 0;

	if (!copy)
		return tc_error_set(p->err, STAGE, ENOMEM, "%s: out of memory", var);
	for (s = copy; s && r >= 0; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = '\0';
		if (!*s)
			continue; /* ",," and a trailing ',' are harmless */
		if (id == OPT_PASS_ENV)
			r = pass_env_add(p, var, s);
		else
			r = bind_add(p, var, s, id == OPT_BIND);
	}
	return r;
}

/* The limits a TOOLCELL_* variable can set, in the order help lists them. */
static const struct {
	const char *var;
	enum tc_limit_id id;
} limit_vars[] = {
	{ "TOOLCELL_MEMORY", TC_LIMIT_MEMORY },
	{ "TOOLCELL_TIMEOUT", TC_LIMIT_WALL },
	{ "TOOLCELL_CPUS", TC_LIMIT_CPUS },
	{ "TOOLCELL_PIDS", TC_LIMIT_PIDS },
};

const char *tc_cli_limit_env(enum tc_limit_id id)
{
	for (size_t i = 0; i < TC_ARRAY_SIZE(limit_vars); i++)
		if (limit_vars[i].id == id)
			return limit_vars[i].var;
	return NULL;
}

/* Whether verb takes the option id (its row's verbs). */
static bool verb_takes(enum tc_verb verb, enum cli_opt_id id)
{
	for (size_t i = 0; i < tc_cli_n_opts; i++)
		if (tc_cli_opts[i].id == id)
			return tc_cli_opts[i].verbs & VB(verb);
	return (VB_SANDBOX & VB(verb)) && id == OPT_LIMIT;
}

/* The TOOLCELL_* settings, for what the command line left unset: each
 * means its option, for every verb that takes that option. */
static int env_settings(struct cli_parse *p, enum tc_verb verb, char *const *envp)
{
	struct tc_cli *cli = p->cli;
	struct tc_overrides *o = &cli->overrides;
	const char *v;
	int r = 0;

	for (size_t i = 0; i < TC_ARRAY_SIZE(limit_vars) && r >= 0 && verb_takes(verb, OPT_LIMIT);
	     i++) {
		enum tc_limit_id id = limit_vars[i].id;

		if (!o->has[id] && (v = env_get(envp, limit_vars[i].var))) {
			r = limit_parse(id, limit_vars[i].var, v, &o->limit[id], p->err);
			o->has[id] = r >= 0;
		}
	}
#define TAKES(id) (r >= 0 && verb_takes(verb, (id)))
	if (TAKES(OPT_POLICY) && !cli->policy_path && (v = env_get(envp, "TOOLCELL_POLICY")))
		r = path_check("TOOLCELL_POLICY", "FILE", cli->policy_path = v, false, p->err);
	if (TAKES(OPT_ROOTFS) && !o->rootfs && (v = env_get(envp, "TOOLCELL_ROOTFS")))
		r = path_check("TOOLCELL_ROOTFS", "DIR", o->rootfs = v, false, p->err);
	if (TAKES(OPT_CGROUP_PARENT) && !o->cgroup_parent &&
	    (v = env_get(envp, "TOOLCELL_CGROUP_PARENT")))
		r = path_check("TOOLCELL_CGROUP_PARENT", "DIR", o->cgroup_parent = v, false,
			       p->err);
	if (TAKES(OPT_WORKSPACE) && !o->workspace && (v = env_get(envp, "TOOLCELL_WORKSPACE")))
		r = workspace_set(p, "TOOLCELL_WORKSPACE", v);
	if (TAKES(OPT_RESULT) && !cli->result_path && cli->result_fd < 0 &&
	    (v = env_get(envp, "TOOLCELL_RESULT")))
		r = path_check("TOOLCELL_RESULT", "FILE", cli->result_path = v, false, p->err);
	if (TAKES(OPT_RO_BIND) && !p->cli_ro_bind && (v = env_get(envp, "TOOLCELL_RO_BIND")))
		r = env_list(p, "TOOLCELL_RO_BIND", v, OPT_RO_BIND);
	if (TAKES(OPT_BIND) && !p->cli_bind && (v = env_get(envp, "TOOLCELL_BIND")))
		r = env_list(p, "TOOLCELL_BIND", v, OPT_BIND);
	if (TAKES(OPT_PASS_ENV) && !p->cli_pass_env && (v = env_get(envp, "TOOLCELL_PASS_ENV")))
		r = env_list(p, "TOOLCELL_PASS_ENV", v, OPT_PASS_ENV);
	if (TAKES(OPT_SCRIPT_DIR) && !cli->script_dir &&
	    (v = env_get(envp, "TOOLCELL_SCRIPT_DIR"))) {
		if (strcmp(v, "1") && strcmp(v, "0"))
			return tc_error_set(p->err, STAGE, EINVAL,
					    "TOOLCELL_SCRIPT_DIR: expected 1 or 0, got '%s'",
					    SHOWN(v));
		cli->script_dir = !strcmp(v, "1");
	}
#undef TAKES
	return r;
}

static int too_many_args(struct cli_parse *p)
{
	if (p->cli->argc > TC_MAX_ARGS)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "%s: more than %d arguments for the tool",
				    tc_cli_verb_name(p->cli->verb), TC_MAX_ARGS);
	return 0;
}

/* run, python, call: options, then the program / python3's line / TOOL.py. */
static int parse_sandbox(struct cli_parse *p, enum tc_verb verb, int argc, char **argv,
			 char *const *envp)
{
	struct tc_cli *cli = p->cli;
	bool help = false;
	int i = 2, r;

	r = parse_options(p, verb, argc, argv, &i, &help);
	if (r < 0)
		return r;
	if (help) {
		cli->verb = TC_VERB_HELP;
		cli->help_verb = verb;
		return 0;
	}
	cli->argv = argv + i;
	cli->argc = argc - i;
	switch (verb) {
	case TC_VERB_RUN:
		if (cli->argc == 0)
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"run: missing PROGRAM (usage: toolcell run [OPTIONS] [--] PROGRAM [ARGS...])");
		r = too_many_args(p);
		return r < 0 ? r : env_settings(p, verb, envp);
	case TC_VERB_PYTHON:
		cli->script_index = python_script_index(cli->argc, cli->argv);
		r = too_many_args(p);
		return r < 0 ? r : env_settings(p, verb, envp);
	case TC_VERB_CALL:
		if (cli->argc == 0)
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"call: missing TOOL.py (usage: toolcell call [OPTIONS] TOOL.py < request.json)");
		if (cli->argc > 1)
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"call: unexpected argument '%s' after TOOL.py; the request comes on stdin",
				SHOWN(cli->argv[1]));
		return env_settings(p, verb, envp);
	case TC_VERB_SESSION:
		if (cli->argc > 0)
			return tc_error_set(
				p->err, STAGE, EINVAL,
				"session: unexpected argument '%s'; requests come on stdin, "
				"one JSON object per line",
				SHOWN(cli->argv[0]));
		return env_settings(p, verb, envp);
	case TC_VERB_NONE:
	case TC_VERB_CHECK:
	case TC_VERB_POLICY_CHECK:
	case TC_VERB_VERSION:
	case TC_VERB_HELP:
		break;
	}
	return 0;
}

static int parse_check(struct cli_parse *p, int argc, char **argv, char *const *envp)
{
	bool help = false;
	int i = 2, r;

	r = parse_options(p, TC_VERB_CHECK, argc, argv, &i, &help);
	if (r < 0)
		return r;
	if (help) {
		p->cli->verb = TC_VERB_HELP;
		p->cli->help_verb = TC_VERB_CHECK;
		return 0;
	}
	if (i < argc)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"check: unexpected argument '%s' (usage: toolcell check [--policy FILE])",
			SHOWN(argv[i]));
	return env_settings(p, TC_VERB_CHECK, envp);
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
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"policy: expected 'check FILE' (usage: toolcell policy check FILE)");
	if (strcmp(argv[2], "check"))
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"policy: unknown subcommand '%s' (usage: toolcell policy check FILE)",
			SHOWN(argv[2]));
	if (i < argc && is_help(argv[i]))
		goto help;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	else if (i < argc && argv[i][0] == '-' && argv[i][1])
		return unknown_option(p->err, TC_VERB_POLICY_CHECK, argv[i]);
	if (i >= argc)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"policy check: missing FILE (usage: toolcell policy check FILE)");
	if (i + 1 < argc)
		return tc_error_set(p->err, STAGE, EINVAL,
				    "policy check: unexpected argument '%s' after FILE",
				    SHOWN(argv[i + 1]));
	cli->argv = argv + i;
	cli->argc = 1;
	return path_check("policy check", "FILE", argv[i], false, p->err);
help:
	cli->verb = TC_VERB_HELP;
	cli->help_verb = TC_VERB_POLICY_CHECK;
	return 0;
}

static int unknown_verb(struct tc_error *err, const char *arg)
{
	struct suggest s = { 0 };
	const char *hint;

	if (arg[0] == '-')
		return tc_error_set(
			err, STAGE, EINVAL,
			"unknown option '%s' before the command; options follow it, as in 'toolcell run --memory 256M PROGRAM' (commands: " VERB_LIST
			")",
			SHOWN(arg));
	for (size_t i = 0; i < TC_ARRAY_SIZE(cli_verbs); i++)
		suggest_try(&s, arg, strlen(arg), cli_verbs[i].name);
	hint = suggest_result(&s);
	if (hint)
		return tc_error_set(err, STAGE, EINVAL,
				    "unknown command '%s'; did you mean '%s'? (commands: " VERB_LIST
				    ")",
				    SHOWN(arg), hint);
	return tc_error_set(err, STAGE, EINVAL, "unknown command '%s' (commands: " VERB_LIST ")",
			    SHOWN(arg));
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
		size_t v;

		for (v = 0; v < TC_ARRAY_SIZE(cli_verbs); v++)
			if (!strcmp(argv[i], cli_verbs[v].name))
				break;
		if (v == TC_ARRAY_SIZE(cli_verbs))
			return unknown_verb(p->err, argv[i]);
		p->cli->help_verb = cli_verbs[v].verb;
		i++;
		if (cli_verbs[v].verb == TC_VERB_POLICY_CHECK && i < argc &&
		    !strcmp(argv[i], "check"))
			i++;
	}
	if (i < argc)
		return tc_error_set(
			p->err, STAGE, EINVAL,
			"help: unexpected argument '%s' (usage: toolcell help [COMMAND])",
			SHOWN(argv[i]));
	return 0;
}

static int parse_version(struct cli_parse *p, int argc, char **argv)
{

	if (argc > 2 && is_help(argv[2]) && argc == 3) {
		p->cli->verb = TC_VERB_HELP;
		p->cli->help_verb = TC_VERB_VERSION;
		return 0;
	}
	if (argc > 2)
		return tc_error_set(p->err, STAGE, EINVAL, "version: unexpected argument '%s'",
				    SHOWN(argv[2]));
	return 0;
}

static int parse_verb(struct cli_parse *p, int argc, char **argv, char *const *envp)
{
	const char *arg = argv[1];

	if (!strcmp(arg, "help") || is_help(arg))
		return parse_help(p, argc, argv);
	if (!strcmp(arg, "--version")) {
		p->cli->verb = TC_VERB_VERSION;
		return parse_version(p, argc, argv);
	}
	for (size_t v = 0; v < TC_ARRAY_SIZE(cli_verbs); v++) {
		if (strcmp(arg, cli_verbs[v].name))
			continue;
		p->cli->verb = cli_verbs[v].verb;
		switch (cli_verbs[v].verb) {
		case TC_VERB_RUN:
		case TC_VERB_PYTHON:
		case TC_VERB_CALL:
		case TC_VERB_SESSION:
			return parse_sandbox(p, cli_verbs[v].verb, argc, argv, envp);
		case TC_VERB_CHECK:
			return parse_check(p, argc, argv, envp);
		case TC_VERB_POLICY_CHECK:
			return parse_policy(p, argc, argv);
		case TC_VERB_VERSION:
			return parse_version(p, argc, argv);
		case TC_VERB_NONE:
		case TC_VERB_HELP:
			break;
		}
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
				    "no command given (commands: " VERB_LIST
				    "; see 'toolcell --help')");
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

/* ---- help texts ------------------------------------------------------- */

/* Built once per verb into a static buffer (toolcell is single-threaded):
 * the limit options come from tc_limit_info[], so help cannot disagree
 * with the parser or the table. */
#define HELP_MAX 16384
#define HELP_COL 26 /* where option descriptions start */

struct help_buf {
	char *buf;
	size_t len;
};

static void hb_printf(struct help_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hb_printf(struct help_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= HELP_MAX - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, HELP_MAX - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < HELP_MAX - 1 ? b->len + (size_t)n : HELP_MAX - 1;
}

/* "  LEFT      first line of desc", further lines at HELP_COL. */
static void hb_opt(struct help_buf *b, const char *left, const char *desc)
{
	const char *line = desc, *nl;
	int width = (int)strlen(left) + 2;

	if (width > HELP_COL - 1) {
		hb_printf(b, "  %s\n", left);
		width = 0;
	} else {
		hb_printf(b, "  %s", left);
	}
	do {
		nl = strchr(line, '\n');
		hb_printf(b, "%*s%.*s\n", HELP_COL - width, "",
			  nl ? (int)(nl - line) : (int)strlen(line), line);
		width = 0;
		line = nl + 1;
	} while (nl);
}

const char *tc_cli_unit_metavar(enum tc_unit unit)
{
	switch (unit) {
	case TC_UNIT_BYTES:
		return "SIZE";
	case TC_UNIT_MS:
		return "SECONDS";
	case TC_UNIT_MILLICPU:
		return "CPUS";
	case TC_UNIT_COUNT:
		return "N";
	}
	return "";
}

/* What each limit bounds; lines of at most 80 - HELP_COL columns. */
const char *tc_cli_limit_desc(enum tc_limit_id id)
{
	switch (id) {
	case TC_LIMIT_MEMORY:
		return "memory of the whole sandbox: memory.max with cgroup\n"
		       "v2, else each process's address-space rlimit\n"
		       "(approximate: the record says which)";
	case TC_LIMIT_CPUS:
		return "CPUs, fractional (cpu.max); needs cgroup v2, else\n"
		       "not enforced and the record says \"none\"";
	case TC_LIMIT_PIDS:
		return "processes and threads, together";
	case TC_LIMIT_WALL:
		return "wall-clock time; then the sandbox is killed and\n"
		       "toolcell exits 124 (status \"timeout\"); the\n"
		       "sandbox's init kills it 1 s later if toolcell cannot";
	case TC_LIMIT_CPU_TIME:
		return "CPU time of each process (RLIMIT_CPU, whole\n"
		       "seconds); then SIGXCPU ends it, exit 124";
	case TC_LIMIT_TMP:
		return "size of the private /tmp";
	case TC_LIMIT_TMP_INODES:
		return "number of files in the private /tmp";
	case TC_LIMIT_SHM:
		return "size of the private /dev/shm";
	case TC_LIMIT_FILE_SIZE:
		return "largest file the tool may write (RLIMIT_FSIZE)";
	case TC_LIMIT_OPEN_FILES:
		return "open descriptors per process (RLIMIT_NOFILE)";
	case TC_LIMIT_REQUEST:
		return "bytes of a call request, and of the tool's\n"
		       "response";
	case TC_LIMIT_STDOUT:
		return "bytes of stdout; one more ends the tool (status\n"
		       "\"output_limit\"), what came before is delivered";
	case TC_LIMIT_STDERR:
		return "bytes of stderr; one more ends the tool (status\n"
		       "\"output_limit\", stderr_truncated), what came\n"
		       "before is delivered";
	case TC_LIMIT_WORKSPACE:
		return "bytes the tool may write into the workspace\n"
		       "(its layer); then ENOSPC";
	case TC_LIMIT_WORKSPACE_FILES:
		return "files and folders the tool may make in the\n"
		       "workspace; then ENOSPC";
	case TC_LIMIT__MAX:
		break;
	}
	return "";
}

/* The shipped policies/default.json's limits, as its file writes them
 * (test_cli checks them against the file). */
static const char *const default_json_limit[TC_LIMIT__MAX] = {
	[TC_LIMIT_MEMORY] = "256M",
	[TC_LIMIT_CPUS] = "1",
	[TC_LIMIT_PIDS] = "64",
	[TC_LIMIT_WALL] = "30",
	[TC_LIMIT_CPU_TIME] = "30",
	[TC_LIMIT_TMP] = "64M",
	[TC_LIMIT_TMP_INODES] = "4096",
	[TC_LIMIT_SHM] = "16M",
	[TC_LIMIT_FILE_SIZE] = "64M",
	[TC_LIMIT_OPEN_FILES] = "256",
	[TC_LIMIT_REQUEST] = "1M",
	[TC_LIMIT_STDOUT] = "1M",
	[TC_LIMIT_STDERR] = "64K",
	[TC_LIMIT_WORKSPACE] = "64M",
	[TC_LIMIT_WORKSPACE_FILES] = "4096",
};

const char *tc_cli_default_limit(enum tc_limit_id id)
{
	return default_json_limit[id] ? default_json_limit[id] : "-";
}

static const char help_values[] =
	"Values: SIZE is whole bytes, or a number with K, M, G or T (binary:\n"
	"1K = 1024; KiB, MiB, GiB, TiB too; with a unit, fractions such as 1.5G).\n"
	"SECONDS may be fractional and end in s (30, 0.25, 1.5s); CPUS may be\n"
	"fractional (0.5 is half a CPU); N is a whole number. --opt VALUE and\n"
	"--opt=VALUE are the same; a limit given twice takes the last value.\n";

static const char help_policy_rule[] =
	"The policy is the operator's ceiling. A caller may tighten any limit;\n"
	"raising one above the policy's value, or adding binds, a workspace,\n"
	"--env or --pass-env, needs the policy's allow/max for that key and stays\n"
	"within it. The shipped default.json allows tightening any limit,\n"
	"read-only binds, one writable workspace, --env and --pass-env, but no\n"
	"raise and no writable --bind; production.json is stricter. Binds of /,\n"
	"/proc, /sys, /dev, /run, a home directory root, sockets and device\n"
	"nodes are always refused. Whatever is refused ends toolcell with 125\n"
	"before anything runs.\n";

static const char help_record[] =
	"The result record: one JSON object written by toolcell, never by the\n"
	"tool, after the tool ended, to --result FILE (opened before the sandbox\n"
	"starts, through no symlink anywhere in its path, and refused inside the\n"
	"workspace or a writable bind, where the tool could replace it) or\n"
	"--result-fd N; with neither, none is written.\n"
	"It holds the status (ok, exit_nonzero, signaled, timeout,\n"
	"memory_limit, pids_limit, output_limit, syscall_denied, rejected,\n"
	"sandbox_error), the exit code or signal, times, peaks, output sizes, each\n"
	"limit and what enforced it, the isolation in force, and sha256 of the\n"
	"policy, the tool and the rootfs manifest. A missing or partial record\n"
	"means toolcell itself failed.\n";

static const char help_exit_relay[] =
	"Exit status:\n"
	"  0-255     the tool's own exit status, passed through unchanged\n"
	"  124       a toolcell time limit ended the tool (wall clock, or CPU\n"
	"            time via SIGXCPU)\n"
	"  125       toolcell refused or failed: bad option, bad policy, bad\n"
	"            request, sandbox set-up failed, the result record could\n"
	"            not be written whole (reason on stderr)\n"
	"  126, 127  (run) PROGRAM not executable / not found inside the sandbox\n"
	"  signal N  the tool was killed by signal N: toolcell writes the record,\n"
	"            then ends itself by the same signal (no core dump), so a\n"
	"            shell sees 128+N and Python's subprocess sees -N; a memory\n"
	"            limit kill shows as SIGKILL and the record says why; a\n"
	"            forbidden system call as SIGSYS (159, -31)\n"
	"A tool may itself exit 124-127: the record, not the code, is the\n"
	"authority on what happened.\n";

static const char help_exit_call[] =
	"Exit status (call): 0 when the envelope says \"ok\": true; 1 when the\n"
	"tool failed in any way (its error, a limit, a bad response); 125 when\n"
	"the request was refused, the sandbox could not be built or the result\n"
	"record could not be written. An envelope is printed in every case.\n";

/* The table's rows for verb, in table order. */
static void help_opt_rows(struct help_buf *b, enum tc_verb verb)
{
	char left[64];

	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];
		const char *desc = verb == TC_VERB_CHECK && o->check_desc ? o->check_desc : o->desc;

		if (!(o->verbs & VB(verb)))
			continue;
		if (o->id == OPT_HELP && verb == TC_VERB_PYTHON)
			/* python3 has -h of its own */
			snprintf(left, sizeof(left), "%s", o->name);
		else if (o->id == OPT_HELP)
			snprintf(left, sizeof(left), "-h, %s", o->name);
		else
			snprintf(left, sizeof(left), "%s%s%s", o->name, o->metavar ? " " : "",
				 o->metavar ? o->metavar : "");
		if (o->id == OPT_HELP && verb == TC_VERB_PYTHON)
			desc = "this text (-h is python3's: see above)";
		hb_opt(b, left, desc);
	}
}

static void help_options(struct help_buf *b, enum tc_verb verb)
{
	char range[96], left[64], desc[512];

	hb_printf(b, "Options:\n");
	help_opt_rows(b, verb);
	hb_printf(b, "\nLimits. Each defaults to the policy's value (the shipped default.json's\n"
		     "is shown; 'toolcell policy check FILE' prints a policy's); a value\n"
		     "outside the range is refused:\n");
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const struct tc_limit_info *li = &tc_limit_info[l];

		if (!li->option)
			continue;
		tc_cli_limit_range((enum tc_limit_id)l, range, sizeof(range));
		snprintf(left, sizeof(left), "%s %s", li->option, tc_cli_unit_metavar(li->unit));
		snprintf(desc, sizeof(desc), "%s\ndefault.json: %s; range %s\n(policy key \"%s\")",
			 tc_cli_limit_desc((enum tc_limit_id)l),
			 tc_cli_default_limit((enum tc_limit_id)l), range, li->name);
		hb_opt(b, left, desc);
	}
	hb_printf(b, "\n%s\n", help_values);
	if (verb == TC_VERB_SESSION) {
		hb_printf(b, "Working directory: /workspace with --workspace, else /tmp.\n\n%s",
			  help_policy_rule);
		return;
	}
	if (verb == TC_VERB_CALL)
		hb_printf(b, "Working directory: /workspace with --workspace, else /.\n\n");
	else
		hb_printf(b,
			  "Working directory: the caller's own (at its place inside) when it lies\n"
			  "inside a bound path; else /workspace with --workspace; else /.\n\n");
	hb_printf(b, "%s\n%s", help_policy_rule, help_record);
}

/* "as --memory", for the TOOLCELL_* variable of limit id */
static const char *opt_or(enum tc_limit_id id)
{
	static char buf[TC_LIMIT__MAX][48];

	snprintf(buf[id], sizeof(buf[id]), "as %s",
		 tc_limit_info[id].option ? tc_limit_info[id].option : tc_limit_info[id].name);
	return buf[id];
}

/* The TOOLCELL_* variables of the options verb takes. */
static void help_env(struct help_buf *b, enum tc_verb verb)
{
	char left[80], desc[96];

	hb_printf(b, "Settings from the environment, for a caller that cannot pass options\n"
		     "(tools/toolcell-python as an interpreter path): each means its option,\n"
		     "for every command that takes the option. An option on the command line\n"
		     "wins over its variable; a list option given at all replaces its\n"
		     "variable's whole list; an empty variable counts as unset; no TOOLCELL_*\n"
		     "variable reaches the tool:\n");
	for (size_t i = 0; i < tc_cli_n_opts; i++) {
		const struct tc_cli_opt *o = &tc_cli_opts[i];

		if (!o->env || !(o->verbs & VB(verb)))
			continue;
		snprintf(left, sizeof(left), "%s=%s", o->env,
			 o->env_value ? o->env_value : o->metavar);
		snprintf(desc, sizeof(desc), "as %s%s", o->name, o->env_note);
		hb_opt(b, left, desc);
	}
	for (size_t i = 0; i < TC_ARRAY_SIZE(limit_vars) && (VB_SANDBOX & VB(verb)); i++) {
		const struct tc_limit_info *li = &tc_limit_info[limit_vars[i].id];

		snprintf(left, sizeof(left), "%s=%s", limit_vars[i].var,
			 tc_cli_unit_metavar(li->unit));
		hb_opt(b, left, opt_or(limit_vars[i].id));
	}
	if (VB_SANDBOX & VB(verb))
		hb_printf(b, "A path in a comma-separated list cannot itself contain ','.\n");
	hb_printf(b, "\n");
}

static void help_overview(struct help_buf *b)
{
	hb_printf(b, "toolcell: run untrusted code in a sandbox with no network, no view of\n"
		     "the host, and hard limits on memory, CPU, processes, time and output.\n"
		     "\n"
		     "Usage:\n"
		     "  toolcell run    [OPTIONS] [--] PROGRAM [ARGS...]\n"
		     "  toolcell python [OPTIONS] [--] [PYTHON3-ARGS...]\n"
		     "  toolcell call   [OPTIONS] [--] TOOL.py  < request.json\n"
		     "  toolcell session [OPTIONS]  < requests.jsonl\n"
		     "  toolcell check  [--policy FILE] [--cgroup-parent DIR]\n"
		     "  toolcell policy check FILE\n"
		     "  toolcell rootfs build [--name NAME] [--with PKG,...] [--dest DIR]\n"
		     "  toolcell version            (also: toolcell --version)\n"
		     "  toolcell help [COMMAND]     (also: --help, -h, COMMAND --help)\n"
		     "\n"
		     "Commands:\n"
		     "  run           run PROGRAM in the sandbox, relaying its stdio\n"
		     "  python        a drop-in for python3: same command line, output and\n"
		     "                exit codes, inside the sandbox\n"
		     "  call          one JSON request on stdin, one JSON envelope on stdout\n"
		     "  session       one long-lived sandbox with Python state; JSON lines\n"
		     "                in, JSON lines out\n"
		     "  check         what isolation this host can give; exit 0 if the\n"
		     "                policy can run here, 125 if not\n"
		     "  policy check  validate a policy file, print the effective policy as\n"
		     "                JSON\n"
		     "  rootfs build  build or update a rootfs from this host's Debian\n"
		     "                packages (see 'toolcell rootfs build --help')\n"
		     "  version       print toolcell's version\n"
		     "  help          this text, or a command's: toolcell help COMMAND\n"
		     "\n"
		     "In run and python, toolcell prints nothing of its own on stdout, which\n"
		     "belongs to the tool; its diagnostics go to stderr, one line each,\n"
		     "prefixed \"toolcell: \".\n"
		     "\n"
		     "run, python, call and session take these options (python also\n"
		     "takes --script-dir; session takes no --result or --result-fd; see\n"
		     "'toolcell help COMMAND'):\n");
	help_options(b, TC_VERB_RUN);
	hb_printf(b,
		  "\n%s\n%s"
		  "Exit status (check, policy check, version, help): 0 on success, 125\n"
		  "otherwise; a command line toolcell cannot parse: 125.\n",
		  help_exit_relay, help_exit_call);
}

static void help_run(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell run [OPTIONS] [--] PROGRAM [ARGS...]\n"
		     "\n"
		     "Run PROGRAM in a new sandbox as if it were run directly: its stdin,\n"
		     "stdout and stderr are relayed (stdout and stderr with size caps) and its\n"
		     "exit status is toolcell's. PROGRAM is looked up inside the sandbox (the\n"
		     "rootfs), not on the host. The first argument that is not an option, or\n"
		     "whatever follows \"--\", is PROGRAM; everything after it goes to PROGRAM\n"
		     "untouched. toolcell prints nothing of its own on stdout.\n"
		     "\n");
	help_env(b, TC_VERB_RUN);
	help_options(b, TC_VERB_RUN);
	hb_printf(b, "\n%s", help_exit_relay);
}

static void help_python(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell python [OPTIONS] [--] [PYTHON3-ARGS...]\n"
		     "\n"
		     "A drop-in for python3: 'toolcell python SCRIPT.py ARGS' behaves as\n"
		     "'python3 SCRIPT.py ARGS' would, inside the sandbox, with the same\n"
		     "output and exit codes (a missing script is python's own message and exit\n"
		     "2). toolcell's options come first; the first argument that is not one of\n"
		     "them (SCRIPT.py, -c, -m, -u, -, --version, ...), or whatever follows\n"
		     "\"--\", starts python3's command line, passed on untouched. With nothing\n"
		     "after the options, python3 reads its program from stdin.\n"
		     "  toolcell python --help      this text\n"
		     "  toolcell python -h          python3's help (so is: -- --help)\n"
		     "  toolcell python --version   python3's version ('toolcell version' for\n"
		     "                              toolcell's)\n"
		     "A mistyped toolcell option (--memroy) is refused, not given to python3.\n"
		     "\n"
		     "The script (the first python3 argument that names a file; none with -c,\n"
		     "-m or -) is seen through a bind that already covers it, else bound\n"
		     "read-only at its absolute path (its folder with --script-dir). A path\n"
		     "with a symbolic link in it, or inside /usr, /etc or the sandbox's own\n"
		     "/tmp itself, is refused (exit 125). The working directory stays the\n"
		     "caller's when it lies inside a bound path (see below).\n"
		     "PYTHONPYCACHEPREFIX points into /tmp, so bytecode never lands next to\n"
		     "the script and -m py_compile works on a read-only bind. toolcell prints\n"
		     "nothing of its own on stdout.\n"
		     "\n");
	help_env(b, TC_VERB_PYTHON);
	help_options(b, TC_VERB_PYTHON);
	hb_printf(b, "\n%s", help_exit_relay);
}

static void help_call(struct help_buf *b)
{
	hb_printf(b,
		  "Usage: toolcell call [OPTIONS] [--] TOOL.py  < request.json\n"
		  "\n"
		  "Run the Python tool TOOL.py once on one JSON request and print one JSON\n"
		  "envelope on stdout. Nothing follows TOOL.py: the request comes on stdin.\n"
		  "\n"
		  "The request: exactly one JSON value, at most the %s limit in\n"
		  "bytes, nested at most %d deep, valid UTF-8, no duplicate keys; anything\n"
		  "else is refused before a sandbox is built.\n"
		  "\n"
		  "The tool: if TOOL.py defines a top-level run(args), or else default(args)\n"
		  "(found by reading its source, not by importing it), it is imported and\n"
		  "that function is called with the request; a return value that is not\n"
		  "already {\"ok\": ...} becomes \"data\", an exception becomes an error\n"
		  "named by its Python type with its message, and a stray print() goes to\n"
		  "stderr. Otherwise TOOL.py runs as a script that reads the request on\n"
		  "stdin and prints one JSON document. A SyntaxError in TOOL.py is an\n"
		  "error of type SyntaxError whose message names the line.\n"
		  "\n"
		  "The envelope, always exactly one JSON document:\n"
		  "  {\"ok\": true, \"data\": ..., \"meta\": {...}}\n"
		  "  {\"ok\": false, \"error\": {\"type\": \"...\", \"message\": \"...\",\n"
		  "   \"source\": \"tool\" or \"toolcell\"}, \"meta\": {...}}\n"
		  "toolcell builds \"meta\" (a subset of the record) and every \"source\":\n"
		  "\"toolcell\" error (BadRequest, Timeout, MemoryLimit, OutputLimit,\n"
		  "InvalidResponse, SyscallDenied, SandboxError) from its own observations;\n"
		  "whatever the tool claims is \"source\": \"tool\". The tool's response is\n"
		  "held to the request's limits, and \"data\" is passed on byte for byte.\n"
		  "\n",
		  tc_limit_info[TC_LIMIT_REQUEST].option ? tc_limit_info[TC_LIMIT_REQUEST].option
							 : "request",
		  TC_JSON_DEPTH_MAX);
	help_env(b, TC_VERB_CALL);
	help_options(b, TC_VERB_CALL);
	hb_printf(b, "\n%s", help_exit_call);
}

static void help_session(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell session [OPTIONS] < requests.jsonl\n"
		     "\n"
		     "One long-lived sandbox for an agent: Python state (variables,\n"
		     "functions, classes, imports) lives from one request to the next. One\n"
		     "JSON object per line on stdin, one answer per line on stdout, in order:\n"
		     "  {\"id\": ID, \"code\": \"...\", \"globals\": {...}, \"return_globals\":\n"
		     "   [\"name\"], \"timeout_s\": S, \"input_files\": {\"name\": \"BASE64\"},\n"
		     "   \"output_files\": [\"name\"]}   run code (only \"code\" is needed)\n"
		     "  {\"id\": ID, \"op\": \"reset\"}     a fresh sandbox, state cleared\n"
		     "  {\"id\": ID, \"op\": \"shutdown\"}  end the session (so does EOF)\n"
		     "An answer: {\"id\", \"success\", \"stdout\", \"stderr\", \"globals\",\n"
		     "\"exception\": {\"type\", \"message\", \"traceback\"} or null,\n"
		     "\"output_files\": {\"name\": \"BASE64\" or null}, \"timed_out\",\n"
		     "\"duration_s\", \"state_lost\"}. toolcell, not the code, sets \"id\" (the\n"
		     "request's, byte for byte), \"timed_out\", \"duration_s\" and\n"
		     "\"state_lost\", and passes on only the answer to the request it sent.\n"
		     "\n"
		     "--timeout is each request's limit (\"timeout_s\" may lower it). A\n"
		     "request past it ends the sandbox: the answer says \"timed_out\": true and\n"
		     "the next request runs in a fresh sandbox with \"state_lost\": true (so\n"
		     "after a memory limit or any other end). The other limits hold for the\n"
		     "whole session; the sandbox itself ends after 24 hours. Files are read\n"
		     "and written in the working directory (/workspace, else /tmp). Imports:\n"
		     "only the policy's session.allowed_imports and --allow-import (none by\n"
		     "default); session.default_imports and --default-import are imported\n"
		     "before the first request, and one that fails (ModuleNotFoundError)\n"
		     "answers every request with that exception. A \"timeout_s\" above\n"
		     "--timeout runs with --timeout, and the answer says\n"
		     "\"timeout_clamped_to\": SECONDS. A bad\n"
		     "request is answered with exception type \"BadRequest\"; toolcell's own\n"
		     "types: Timeout, MemoryLimit, PidsLimit, OutputLimit, SyscallDenied,\n"
		     "SandboxExited, SandboxError, InvalidResponse.\n"
		     "\n");
	help_env(b, TC_VERB_SESSION);
	help_options(b, TC_VERB_SESSION);
	hb_printf(b, "\nExit status: 0 when the session ended (shutdown or EOF); 125 when an\n"
		     "option or the policy is refused (before any request is read).\n");
}

static void help_check(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell check [--policy FILE] [--cgroup-parent DIR]\n"
		     "\n"
		     "Report what isolation this host can give (namespaces, seccomp,\n"
		     "landlock, cgroup v2 delegation), one line each; whether the host\n"
		     "meets the policy's \"require\" (cgroup v2, a Landlock ABI); then run\n"
		     "python3 in a real sandbox under the policy, and give a verdict.\n"
		     "\n"
		     "Options:\n");
	help_opt_rows(b, TC_VERB_CHECK);
	hb_printf(b, "\n");
	help_env(b, TC_VERB_CHECK);
	hb_printf(b, "Exit status: 0 when the policy can run on this host; 125 when it\n"
		     "cannot, or the policy is invalid (the reason on stderr).\n");
}

static void help_policy_check(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell policy check FILE\n"
		     "\n"
		     "Validate the policy FILE (unknown keys, wrong types and out-of-range\n"
		     "values are refused) and print the effective policy, every default\n"
		     "filled in, as JSON on stdout: itself a policy file that means the\n"
		     "same. Its \"seccomp\" lists every system call the tool may make\n"
		     "(\"allow\") and every one that ends it (\"kill\"). Each dangerous call\n"
		     "the policy allows (one toolcell's default kills for) gets a warning\n"
		     "line on stderr. The schema: policies/README.md.\n"
		     "\n"
		     "Exit status: 0 when the policy is valid, warnings or not; 125 when\n"
		     "it is not (the reason, naming the key, on stderr).\n");
}

static void help_version(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell version\n"
		     "       toolcell --version\n"
		     "\n"
		     "Print toolcell's version on stdout. Exit status 0.\n");
}

static void help_help(struct help_buf *b)
{
	hb_printf(b, "Usage: toolcell help [COMMAND]\n"
		     "       toolcell --help | -h\n"
		     "       toolcell COMMAND --help\n"
		     "\n"
		     "Print the overview, or the help of COMMAND (run, python, call,\n"
		     "session, check, policy check, version, help), on stdout. Exit\n"
		     "status 0.\n");
}

static void help_build(struct help_buf *b, enum tc_verb verb)
{
	switch (verb) {
	case TC_VERB_NONE:
		help_overview(b);
		return;
	case TC_VERB_RUN:
		help_run(b);
		return;
	case TC_VERB_PYTHON:
		help_python(b);
		return;
	case TC_VERB_CALL:
		help_call(b);
		return;
	case TC_VERB_SESSION:
		help_session(b);
		return;
	case TC_VERB_CHECK:
		help_check(b);
		return;
	case TC_VERB_POLICY_CHECK:
		help_policy_check(b);
		return;
	case TC_VERB_VERSION:
		help_version(b);
		return;
	case TC_VERB_HELP:
		help_help(b);
		return;
	}
}

const char *tc_cli_help(enum tc_verb verb)
{
	static char bufs[TC_VERB_HELP + 1][HELP_MAX];
	struct help_buf b;

	if ((unsigned)verb > TC_VERB_HELP)
		verb = TC_VERB_NONE;
	if (!bufs[verb][0]) {
		b = (struct help_buf){ bufs[verb], 0 };
		help_build(&b, verb);
	}
	return bufs[verb];
}
