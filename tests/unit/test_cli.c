/* Unit tests for src/cli.c: command lines (and TOOLCELL_* environments) in,
 * struct tc_cli or an exact error message out; and the help texts checked
 * against the option tables they must document. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "cli.h"
#include "policy.h"
#include "serve.h"
#include "util.h"

#include "cli-internal.h"

/* A NULL-terminated argv starting with "toolcell", and its argc. */
#define ARGV(...)	     ((char *[]){ "toolcell", __VA_ARGS__, NULL })
#define ARGC(...)	     ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)) + 1)
#define PARSE(cli, err, ...) tc_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), NULL, cli, err)
#define PARSE_ENV(envp, cli, err, ...)                                                             \
	tc_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), envp, cli, err)
#define ENVP(...) ((char *const[]){ __VA_ARGS__, NULL })

static void expect_err(int r, const struct tc_cli *cli, const struct tc_error *err,
		       const char *message)
{
	assert_int_equal(r, -EINVAL);
	assert_int_equal(err->stage, TC_STAGE_CLI);
	assert_string_equal(err->message, message);
	assert_int_equal(cli->n_owned, 0); /* nothing left to free on failure */
}

#define EXPECT_ERR(message, ...)                                                                   \
	do {                                                                                       \
		struct tc_cli c_;                                                                  \
		struct tc_error e_ = { 0 };                                                        \
		expect_err(PARSE(&c_, &e_, __VA_ARGS__), &c_, &e_, message);                       \
		tc_cli_release(&c_);                                                               \
	} while (0)

#define EXPECT_ENV_ERR(envp, message, ...)                                                         \
	do {                                                                                       \
		struct tc_cli c_;                                                                  \
		struct tc_error e_ = { 0 };                                                        \
		expect_err(PARSE_ENV(envp, &c_, &e_, __VA_ARGS__), &c_, &e_, message);             \
		tc_cli_release(&c_);                                                               \
	} while (0)

static void expect_help(int r, const struct tc_cli *cli, enum tc_verb verb)
{
	assert_int_equal(r, 0);
	assert_int_equal(cli->verb, TC_VERB_HELP);
	assert_int_equal(cli->help_verb, verb);
}

#define EXPECT_HELP(verb, ...)                                                                     \
	do {                                                                                       \
		struct tc_cli c_;                                                                  \
		struct tc_error e_ = { 0 };                                                        \
		expect_help(PARSE(&c_, &e_, __VA_ARGS__), &c_, verb);                              \
		tc_cli_release(&c_);                                                               \
	} while (0)

static void test_no_command(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };
	char *argv[] = { "toolcell", NULL };

	expect_err(
		tc_cli_parse(1, argv, NULL, &cli, &err), &cli, &err,
		"no command given (commands: run, python, call, session, check, policy check, serve, rootfs build, "
		"version, help; see 'toolcell --help')");
	assert_int_equal(cli.verb, TC_VERB_NONE);
	assert_int_equal(cli.result_fd, -1);
	assert_int_equal(cli.script_index, -1);
}

static void test_unknown_command(void **state)
{
	EXPECT_ERR("unknown command 'rnu'; did you mean 'run'? (commands: run, python, call, "
		   "session, check, policy check, serve, rootfs build, version, help)",
		   "rnu");
	EXPECT_ERR("unknown command 'pyton'; did you mean 'python'? (commands: run, python, call, "
		   "session, check, policy check, serve, rootfs build, version, help)",
		   "pyton", "s.py");
	EXPECT_ERR("unknown command 'chek'; did you mean 'check'? (commands: run, python, call, "
		   "session, check, policy check, serve, rootfs build, version, help)",
		   "chek");
	EXPECT_ERR("unknown command 'frobnicate' (commands: run, python, call, session, check, "
		   "policy check, serve, rootfs build, version, help)",
		   "frobnicate");
	EXPECT_ERR("unknown option '--memory' before the command; options follow it, as in "
		   "'toolcell run --memory 256M PROGRAM' (commands: run, python, call, session, "
		   "check, policy check, serve, rootfs build, version, help)",
		   "--memory", "1G", "run", "ls");
}

static void test_version(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "version"), 0);
	assert_int_equal(cli.verb, TC_VERB_VERSION);
	assert_int_equal(cli.argc, 0);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "--version"), 0);
	assert_int_equal(cli.verb, TC_VERB_VERSION);
	assert_false(cli.paths);
	tc_cli_release(&cli);
	/* --paths: all of them, one NAME, or --json */
	assert_int_equal(PARSE(&cli, &err, "version", "--paths"), 0);
	assert_true(cli.paths);
	assert_false(cli.json);
	assert_int_equal(cli.argc, 0);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "version", "--paths", "state"), 0);
	assert_true(cli.paths);
	assert_int_equal(cli.argc, 1);
	assert_string_equal(cli.argv[0], "state");
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "version", "--paths", "--json"), 0);
	assert_true(cli.paths && cli.json);
	assert_int_equal(cli.argc, 0);
	tc_cli_release(&cli);
#define VERSION_USAGE " (usage: toolcell version [--paths [NAME | --json]])"
	EXPECT_ERR("version: unexpected argument 'x'" VERSION_USAGE, "version", "x");
	EXPECT_ERR("version: unexpected argument 'x'" VERSION_USAGE, "--version", "x");
	EXPECT_ERR("version: unexpected argument '--json'" VERSION_USAGE, "version", "--json");
	EXPECT_ERR("version: unexpected argument 'x'" VERSION_USAGE, "version", "--paths", "state",
		   "x");
	EXPECT_ERR("version: unexpected argument 'x'" VERSION_USAGE, "version", "--paths", "--json",
		   "x");
	EXPECT_HELP(TC_VERB_VERSION, "version", "--help");
	EXPECT_HELP(TC_VERB_VERSION, "--version", "-h");
}

static void test_help_verbs(void **state)
{
	EXPECT_HELP(TC_VERB_NONE, "help");
	EXPECT_HELP(TC_VERB_NONE, "--help");
	EXPECT_HELP(TC_VERB_NONE, "-h");
	EXPECT_HELP(TC_VERB_RUN, "help", "run");
	EXPECT_HELP(TC_VERB_PYTHON, "help", "python");
	EXPECT_HELP(TC_VERB_CALL, "--help", "call");
	EXPECT_HELP(TC_VERB_CHECK, "help", "check");
	EXPECT_HELP(TC_VERB_POLICY_CHECK, "help", "policy");
	EXPECT_HELP(TC_VERB_POLICY_CHECK, "help", "policy", "check");
	EXPECT_HELP(TC_VERB_VERSION, "help", "version");
	EXPECT_HELP(TC_VERB_HELP, "help", "help");
	EXPECT_HELP(TC_VERB_HELP, "help", "--help");
	EXPECT_HELP(TC_VERB_RUN, "run", "--help");
	EXPECT_HELP(TC_VERB_RUN, "run", "-h");
	EXPECT_HELP(TC_VERB_RUN, "run", "--memory", "64M", "--help", "ls");
	EXPECT_HELP(TC_VERB_PYTHON, "python", "--help");
	EXPECT_HELP(TC_VERB_CALL, "call", "-h");
	EXPECT_HELP(TC_VERB_CHECK, "check", "--help");
	EXPECT_HELP(TC_VERB_CHECK, "check", "-h");
	EXPECT_HELP(TC_VERB_POLICY_CHECK, "policy", "--help");
	EXPECT_HELP(TC_VERB_POLICY_CHECK, "policy", "check", "-h");
	EXPECT_ERR("unknown command 'rnu'; did you mean 'run'? (commands: run, python, call, "
		   "session, check, policy check, serve, rootfs build, version, help)",
		   "help", "rnu");
	EXPECT_ERR("help: unexpected argument 'x' (usage: toolcell help [COMMAND])", "help", "run",
		   "x");
}

static void test_run(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };
	char **argv = ARGV("run", "--memory", "64M", "--pids=16", "--quiet", "/bin/echo",
			   "--memory", "x", "--", "-h");

	assert_int_equal(tc_cli_parse(11, argv, NULL, &cli, &err), 0);
	assert_int_equal(cli.verb, TC_VERB_RUN);
	/* PROGRAM and everything after it is the program's, untouched */
	assert_ptr_equal(cli.argv, argv + 6);
	assert_int_equal(cli.argc, 5);
	assert_string_equal(cli.argv[0], "/bin/echo");
	assert_string_equal(cli.argv[4], "-h");
	assert_null(cli.argv[5]);
	assert_true(cli.quiet);
	assert_false(cli.verbose);
	assert_true(cli.overrides.has[TC_LIMIT_MEMORY]);
	assert_int_equal(cli.overrides.limit[TC_LIMIT_MEMORY], 64 << 20);
	assert_true(cli.overrides.has[TC_LIMIT_PIDS]);
	assert_int_equal(cli.overrides.limit[TC_LIMIT_PIDS], 16);
	assert_false(cli.overrides.has[TC_LIMIT_WALL]);
	assert_null(cli.policy_path);
	assert_null(cli.result_path);
	assert_int_equal(cli.result_fd, -1);
	assert_int_equal(cli.script_index, -1);
	assert_int_equal(cli.n_owned, 0);
	tc_cli_release(&cli);
}

static void test_run_dashdash(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "run", "--verbose", "--", "--memory", "1G"), 0);
	assert_true(cli.verbose);
	assert_int_equal(cli.argc, 2);
	assert_string_equal(cli.argv[0], "--memory");
	assert_false(cli.overrides.has[TC_LIMIT_MEMORY]);
	tc_cli_release(&cli);

	/* only the first "--" is toolcell's */
	assert_int_equal(PARSE(&cli, &err, "run", "--", "--", "x"), 0);
	assert_int_equal(cli.argc, 2);
	assert_string_equal(cli.argv[0], "--");
	tc_cli_release(&cli);

	/* "-" alone is not an option */
	assert_int_equal(PARSE(&cli, &err, "run", "-"), 0);
	assert_string_equal(cli.argv[0], "-");
	tc_cli_release(&cli);

	EXPECT_ERR("run: missing PROGRAM (usage: toolcell run [OPTIONS] [--] PROGRAM "
		   "[ARGS...])",
		   "run");
	EXPECT_ERR("run: missing PROGRAM (usage: toolcell run [OPTIONS] [--] PROGRAM "
		   "[ARGS...])",
		   "run", "--quiet", "--");
	EXPECT_ERR("run: unknown option '-x' (see 'toolcell run --help')", "run", "-x", "ls");
}

static void test_too_many_args(void **state)
{
	int argc = 2 + TC_MAX_ARGS + 1;
	char **argv = calloc((size_t)argc + 1, sizeof(*argv));
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_non_null(argv);
	argv[0] = "toolcell";
	argv[1] = "run";
	for (int i = 2; i < argc; i++)
		argv[i] = "a";
	expect_err(tc_cli_parse(argc, argv, NULL, &cli, &err), &cli, &err,
		   "run: more than 4096 arguments for the tool");
	argv[argc - 1] = NULL;
	assert_int_equal(tc_cli_parse(argc - 1, argv, NULL, &cli, &err), 0);
	assert_int_equal(cli.argc, TC_MAX_ARGS);
	tc_cli_release(&cli);
	argv[1] = "python";
	argv[argc - 1] = "a";
	expect_err(tc_cli_parse(argc, argv, NULL, &cli, &err), &cli, &err,
		   "python: more than 4096 arguments for the tool");
	free(argv);
}

/* Every value option, as --opt VALUE and as --opt=VALUE. */
static void test_opt_value_forms(void **state)
{
	for (int form = 0; form < 2; form++) {
		struct tc_cli cli;
		struct tc_error err = { 0 };
		char **argv = form ? ARGV("python", "--policy=/p.json", "--rootfs=/rootfs",
					  "--ro-bind=/a", "--bind=/b:/c", "--workspace=/w",
					  "--env=A=1=2", "--pass-env=HOME", "--result=r.json",
					  "--timeout=1.5", "--script-dir", "s.py")
				   : ARGV("python", "--policy", "/p.json", "--rootfs", "/rootfs",
					  "--ro-bind", "/a", "--bind", "/b:/c", "--workspace", "/w",
					  "--env", "A=1=2", "--pass-env", "HOME", "--result",
					  "r.json", "--timeout", "1.5", "--script-dir", "s.py");
		int argc = 0;

		while (argv[argc])
			argc++;

		assert_int_equal(tc_cli_parse(argc, argv, NULL, &cli, &err), 0);
		assert_int_equal(cli.verb, TC_VERB_PYTHON);
		assert_string_equal(cli.policy_path, "/p.json");
		assert_string_equal(cli.overrides.rootfs, "/rootfs");
		assert_int_equal(cli.overrides.n_binds, 2);
		assert_string_equal(cli.overrides.binds[0].host, "/a");
		assert_string_equal(cli.overrides.binds[0].inside, "/a");
		assert_false(cli.overrides.binds[0].writable);
		assert_string_equal(cli.overrides.binds[1].host, "/b");
		assert_string_equal(cli.overrides.binds[1].inside, "/c");
		assert_true(cli.overrides.binds[1].writable);
		assert_string_equal(cli.overrides.workspace, "/w");
		assert_int_equal(cli.overrides.n_env, 1);
		assert_string_equal(cli.overrides.env[0], "A=1=2");
		assert_int_equal(cli.overrides.n_pass_env, 1);
		assert_string_equal(cli.overrides.pass_env[0], "HOME");
		assert_string_equal(cli.result_path, "r.json");
		assert_true(cli.overrides.has[TC_LIMIT_WALL]);
		assert_int_equal(cli.overrides.limit[TC_LIMIT_WALL], 1500);
		assert_true(cli.script_dir);
		assert_int_equal(cli.argc, 1);
		assert_int_equal(cli.script_index, 0);
		tc_cli_release(&cli);
	}
}

/* A limit value as a caller writes it, in the table's unit. */
static void limit_text(enum tc_unit unit, uint64_t v, char *buf, size_t n)
{
	switch (unit) {
	case TC_UNIT_BYTES:
	case TC_UNIT_COUNT:
		snprintf(buf, n, "%" PRIu64, v);
		return;
	case TC_UNIT_MS:
	case TC_UNIT_MILLICPU:
		snprintf(buf, n, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
		return;
	}
}

/* Every limit option of the table: min and max accepted both ways, one
 * past either end refused with a message naming the option. */
static void test_every_limit_option(void **state)
{
	int n_options = 0;

	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		const struct tc_limit_info *li = &tc_limit_info[l];
		uint64_t ends[2] = { li->min, li->max };
		char value[64], eq[128], prefix[96];
		struct tc_cli cli;
		struct tc_error err = { 0 };

		if (!li->option)
			continue;
		n_options++;
		for (int e = 0; e < 2; e++) {
			limit_text(li->unit, ends[e], value, sizeof(value));
			snprintf(eq, sizeof(eq), "%s=%s", li->option, value);
			assert_int_equal(PARSE(&cli, &err, "run", (char *)li->option, value, "x"),
					 0);
			assert_true(cli.overrides.has[l]);
			assert_int_equal(cli.overrides.limit[l], ends[e]);
			for (int o = 0; o < TC_LIMIT__MAX; o++)
				assert_true(o == l || !cli.overrides.has[o]);
			tc_cli_release(&cli);
			assert_int_equal(PARSE(&cli, &err, "call", eq, "t.py"), 0);
			assert_int_equal(cli.overrides.limit[l], ends[e]);
			tc_cli_release(&cli);
		}
		snprintf(prefix, sizeof(prefix), "%s: ", li->option);
		if (li->min > 0) {
			limit_text(li->unit, li->min - 1, value, sizeof(value));
			assert_int_equal(PARSE(&cli, &err, "run", (char *)li->option, value, "x"),
					 -EINVAL);
			assert_true(tc_startswith(err.message, prefix));
			assert_non_null(strstr(err.message, " is outside "));
			tc_cli_release(&cli);
		}
		limit_text(li->unit, li->max + 1, value, sizeof(value));
		assert_int_equal(PARSE(&cli, &err, "run", (char *)li->option, value, "x"), -EINVAL);
		assert_true(tc_startswith(err.message, prefix));
		assert_non_null(strstr(err.message, " is outside "));
		tc_cli_release(&cli);
		assert_int_equal(PARSE(&cli, &err, "run", (char *)li->option, "bogus", "x"),
				 -EINVAL);
		assert_true(tc_startswith(err.message, prefix));
		assert_non_null(strstr(err.message, "expected "));
		assert_non_null(strstr(err.message, ", got 'bogus'"));
		tc_cli_release(&cli);
	}
	assert_true(n_options >= 4);
}

/* Exact messages, for the ranges config.c defines today. */
static void test_limit_messages(void **state)
{
	EXPECT_ERR("--memory: expected a size such as 256M, got 'lots'", "run", "--memory", "lots",
		   "x");
	EXPECT_ERR("--memory: expected a size such as 256M, got ''", "run", "--memory=", "x");
	EXPECT_ERR("--memory: 1K is outside 4M..64G", "run", "--memory=1K", "x");
	EXPECT_ERR("--memory: 65G is outside 4M..64G", "run", "--memory", "65G", "x");
	EXPECT_ERR("--memory: 99999999999999999999999 is outside 4M..64G", "run", "--memory",
		   "99999999999999999999999", "x");
	EXPECT_ERR("--pids: 0 is outside 1..65536", "run", "--pids", "0", "x");
	EXPECT_ERR("--pids: 65537 is outside 1..65536", "run", "--pids=65537", "x");
	EXPECT_ERR("--pids: 99999999999999999999999 is outside 1..65536", "run", "--pids",
		   "99999999999999999999999", "x");
	EXPECT_ERR("--pids: expected a whole number such as 64, got '-1'", "run", "--pids", "-1",
		   "x");
	EXPECT_ERR("--pids: expected a whole number such as 64, got ' 5'", "run", "--pids", " 5",
		   "x");
	EXPECT_ERR("--pids: expected a whole number such as 64, got '1.5'", "run", "--pids", "1.5",
		   "x");
	EXPECT_ERR("--timeout: 0 is outside 0.001..86400 seconds", "run", "--timeout", "0", "x");
	EXPECT_ERR("--timeout: expected seconds such as 30 or 0.5, got 'soon'", "run", "--timeout",
		   "soon", "x");
	EXPECT_ERR("--cpus: 2000 is outside 0.01..1024 CPUs", "run", "--cpus", "2000", "x");
	EXPECT_ERR("--cpus: expected a number of CPUs such as 1 or 0.5, got 'many'", "run",
		   "--cpus", "many", "x");
	EXPECT_ERR("--memory: expected a size such as 256M after it", "run", "--memory");
	EXPECT_ERR("--tmp-inodes: 15 is outside 16..1048576", "call", "--tmp-inodes", "15", "t.py");
	EXPECT_ERR("--file-size: 2T is outside 4K..1T", "call", "--file-size=2T", "t.py");
	EXPECT_ERR("--memory: expected a size such as 256M, got '1.5'", "run", "--memory", "1.5",
		   "x");
}

static void test_limit_last_wins(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "run", "--memory", "1G", "--memory=128M", "--cpus",
			       "0.5", "--cpus", "2", "x"),
			 0);
	assert_int_equal(cli.overrides.limit[TC_LIMIT_MEMORY], 128 << 20);
	assert_int_equal(cli.overrides.limit[TC_LIMIT_CPUS], 2000);
	tc_cli_release(&cli);
}

static void expect_bind(const char *spec, const char *host, const char *inside)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(
		PARSE(&cli, &err, "run", "--ro-bind", (char *)spec, "--bind", (char *)spec, "x"),
		0);
	assert_int_equal(cli.overrides.n_binds, 2);
	for (int i = 0; i < 2; i++) {
		assert_string_equal(cli.overrides.binds[i].host, host);
		assert_string_equal(cli.overrides.binds[i].inside, inside);
		assert_int_equal(cli.overrides.binds[i].writable, i == 1);
	}
	tc_cli_release(&cli);
}

static void test_bind_split(void **state)
{
	expect_bind("/a:/b", "/a", "/b");
	expect_bind("/a", "/a", "/a");
	expect_bind("/a:b:/c", "/a:b", "/c");
	expect_bind("/a:b", "/a:b", "/a:b");
	expect_bind("/a:/b:c", "/a:/b:c", "/a:/b:c"); /* the last ':' is not followed by '/' */
	expect_bind("/a:", "/a:", "/a:");
	expect_bind("/:/", "/", "/"); /* refusing / is the policy's job */
	EXPECT_ERR("--ro-bind: expected HOST[:INSIDE] with absolute paths, got 'data'", "run",
		   "--ro-bind", "data", "x");
	EXPECT_ERR("--bind: expected HOST[:INSIDE] with absolute paths, got 'data:/d'", "run",
		   "--bind", "data:/d", "x");
	EXPECT_ERR("--bind: expected HOST[:INSIDE] with absolute paths, got ':/d'", "run", "--bind",
		   ":/d", "x");
	EXPECT_ERR("--ro-bind: expected HOST[:INSIDE] with absolute paths, got ''", "run",
		   "--ro-bind=", "x");
	EXPECT_ERR("--ro-bind: expected HOST[:INSIDE] after it", "run", "--ro-bind");
}

static void test_max_binds(void **state)
{
	char *argv[2 + 2 * (TC_MAX_BINDS + 1) + 2];
	struct tc_cli cli;
	struct tc_error err = { 0 };
	int argc = 0;

	argv[argc++] = "toolcell";
	argv[argc++] = "run";
	for (int i = 0; i < TC_MAX_BINDS; i++) {
		argv[argc++] = i % 2 ? "--bind" : "--ro-bind";
		argv[argc++] = "/h:/i";
	}
	argv[argc++] = "x";
	argv[argc] = NULL;
	assert_int_equal(tc_cli_parse(argc, argv, NULL, &cli, &err), 0);
	assert_int_equal(cli.overrides.n_binds, TC_MAX_BINDS);
	assert_int_equal(cli.n_owned, TC_MAX_BINDS); /* each split host is a copy */
	tc_cli_release(&cli);
	argv[argc - 1] = "--bind";
	argv[argc++] = "/one-too-many";
	argv[argc++] = "x";
	argv[argc] = NULL;
	expect_err(tc_cli_parse(argc, argv, NULL, &cli, &err), &cli, &err,
		   "--bind: more than 32 binds (--ro-bind and --bind count together)");
}

static void test_max_env(void **state)
{
	char *argv[2 + 2 * (TC_MAX_ENV + 1) + 2];
	struct tc_cli cli;
	struct tc_error err = { 0 };
	int argc = 0;

	argv[argc++] = "toolcell";
	argv[argc++] = "call";
	for (int i = 0; i < TC_MAX_ENV; i++) {
		argv[argc++] = i % 2 ? "--pass-env" : "--env";
		argv[argc++] = i % 2 ? "HOME" : "A=b";
	}
	argv[argc++] = "t.py";
	argv[argc] = NULL;
	assert_int_equal(tc_cli_parse(argc, argv, NULL, &cli, &err), 0);
	assert_int_equal(cli.overrides.n_env, TC_MAX_ENV / 2);
	assert_int_equal(cli.overrides.n_pass_env, TC_MAX_ENV / 2);
	tc_cli_release(&cli);
	argv[argc - 1] = "--env";
	argv[argc++] = "B=c";
	argv[argc++] = "t.py";
	argv[argc] = NULL;
	expect_err(tc_cli_parse(argc, argv, NULL, &cli, &err), &cli, &err,
		   "--env: more than 64 variables (--env and --pass-env count together)");
	argv[argc - 3] = "--pass-env";
	expect_err(tc_cli_parse(argc, argv, NULL, &cli, &err), &cli, &err,
		   "--pass-env: more than 64 variables (--env and --pass-env count together)");
}

static void test_env_options(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "run", "--env", "A=", "--env", "_x1=a b", "--pass-env",
			       "LANG", "x"),
			 0);
	assert_int_equal(cli.overrides.n_env, 2);
	assert_string_equal(cli.overrides.env[0], "A=");
	assert_string_equal(cli.overrides.env[1], "_x1=a b");
	assert_string_equal(cli.overrides.pass_env[0], "LANG");
	tc_cli_release(&cli);
	EXPECT_ERR("--env: expected NAME=VALUE (NAME of letters, digits, '_'), got 'A'", "run",
		   "--env", "A", "x");
	EXPECT_ERR("--env: expected NAME=VALUE (NAME of letters, digits, '_'), got '=v'", "run",
		   "--env", "=v", "x");
	EXPECT_ERR("--env: expected NAME=VALUE (NAME of letters, digits, '_'), got '1A=v'", "run",
		   "--env", "1A=v", "x");
	EXPECT_ERR("--env: expected NAME=VALUE (NAME of letters, digits, '_'), got 'A-B=v'", "run",
		   "--env=A-B=v", "x");
	EXPECT_ERR("--pass-env: expected a variable NAME (letters, digits, '_'), got 'A=b'", "run",
		   "--pass-env", "A=b", "x");
	EXPECT_ERR("--pass-env: expected a variable NAME (letters, digits, '_'), got ''", "run",
		   "--pass-env=", "x");
}

static void test_env_entry_too_long(void **state)
{
	char *entry = malloc(TC_ENV_ENTRY_MAX + 1);

	assert_non_null(entry);
	memset(entry, 'v', TC_ENV_ENTRY_MAX);
	memcpy(entry, "A=", 2);
	entry[TC_ENV_ENTRY_MAX] = '\0';
	EXPECT_ERR("--env: longer than 32767 bytes", "run", "--env", entry, "x");
	entry[TC_ENV_ENTRY_MAX - 1] = '\0';
	{
		struct tc_cli cli;
		struct tc_error err = { 0 };

		assert_int_equal(PARSE(&cli, &err, "run", "--env", entry, "x"), 0);
		tc_cli_release(&cli);
	}
	free(entry);
}

static void test_paths(void **state)
{
	char *path = malloc(TC_PATH_MAX + 1);

	assert_non_null(path);
	memset(path, 'p', TC_PATH_MAX);
	path[0] = '/';
	path[TC_PATH_MAX] = '\0';
	EXPECT_ERR("--policy: path longer than 4095 bytes", "run", "--policy", path, "x");
	EXPECT_ERR("--ro-bind: path longer than 4095 bytes", "run", "--ro-bind", path, "x");
	free(path);
	EXPECT_ERR("--policy: expected a FILE, got ''", "run", "--policy=", "x");
	EXPECT_ERR("--rootfs: expected a DIR, got ''", "run", "--rootfs", "", "x");
	EXPECT_ERR("--workspace: expected an absolute DIR, got 'work'", "run", "--workspace",
		   "work", "x");
	EXPECT_ERR("--result: expected a FILE, got ''", "run", "--result=", "x");
}

static void test_duplicates(void **state)
{
	EXPECT_ERR("--policy: given more than once", "run", "--policy", "a", "--policy=b", "x");
	EXPECT_ERR("--policy: given more than once", "check", "--policy", "a", "--policy", "a");
	EXPECT_ERR("--rootfs: given more than once", "run", "--rootfs", "a", "--rootfs", "b", "x");
	EXPECT_ERR("--workspace: given more than once", "call", "--workspace", "/a", "--workspace",
		   "/b", "t.py");
	EXPECT_ERR("--result: given more than once", "run", "--result", "a", "--result", "b", "x");
	EXPECT_ERR("--result-fd: given more than once", "run", "--result-fd", "3", "--result-fd",
		   "4", "x");
}

static void test_result(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "run", "--result-fd", "3", "x"), 0);
	assert_int_equal(cli.result_fd, 3);
	assert_null(cli.result_path);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "run", "--result-fd=2147483647", "x"), 0);
	assert_int_equal(cli.result_fd, 2147483647);
	tc_cli_release(&cli);
	EXPECT_ERR("--result and --result-fd cannot be used together: the record goes to one place",
		   "run", "--result", "r.json", "--result-fd", "3", "x");
	EXPECT_ERR("--result and --result-fd cannot be used together: the record goes to one place",
		   "run", "--result-fd=3", "--result=r.json", "x");
	EXPECT_ERR("--result-fd: 0 is toolcell's own stdin; use 3 or above", "run", "--result-fd",
		   "0", "x");
	EXPECT_ERR("--result-fd: 1 is toolcell's own stdout; use 3 or above", "run", "--result-fd",
		   "1", "x");
	EXPECT_ERR("--result-fd: 2 is toolcell's own stderr; use 3 or above", "call",
		   "--result-fd=2", "t.py");
	EXPECT_ERR("--result-fd: expected a descriptor number such as 3, got 'x'", "run",
		   "--result-fd", "x", "x");
	EXPECT_ERR("--result-fd: expected a descriptor number such as 3, got '-1'", "run",
		   "--result-fd", "-1", "x");
	EXPECT_ERR("--result-fd: expected a descriptor number such as 3, got '2147483648'", "run",
		   "--result-fd", "2147483648", "x");
}

static void test_flags(void **state)
{
	EXPECT_ERR("--quiet and --verbose cannot be used together", "run", "--quiet", "--verbose",
		   "x");
	EXPECT_ERR("--quiet: takes no value (got '--quiet=1')", "run", "--quiet=1", "x");
	EXPECT_ERR("--help: takes no value (got '--help=run')", "run", "--help=run", "x");
	EXPECT_ERR("run: '--script-dir' is an option of 'toolcell python' only", "run",
		   "--script-dir", "x");
	EXPECT_ERR("call: '--script-dir' is an option of 'toolcell python' only", "call",
		   "--script-dir", "t.py");
}

static void test_did_you_mean(void **state)
{
	EXPECT_ERR("run: unknown option '--memroy'; did you mean '--memory'? (see "
		   "'toolcell run --help')",
		   "run", "--memroy", "1G", "x");
	EXPECT_ERR("run: unknown option '--memroy=1G'; did you mean '--memory'? (see "
		   "'toolcell run --help')",
		   "run", "--memroy=1G", "x");
	EXPECT_ERR("call: unknown option '--polcy'; did you mean '--policy'? (see "
		   "'toolcell call --help')",
		   "call", "--polcy", "p", "t.py");
	EXPECT_ERR("run: unknown option '--ro-bnd'; did you mean '--ro-bind'? (see "
		   "'toolcell run --help')",
		   "run", "--ro-bnd", "/a", "x");
	EXPECT_ERR("run: unknown option '--pid'; did you mean '--pids'? (see 'toolcell run "
		   "--help')",
		   "run", "--pid", "3", "x");
	EXPECT_ERR("run: unknown option '--xyzzy' (see 'toolcell run --help')", "run", "--xyzzy",
		   "x");
	EXPECT_ERR("run: unknown option '--version' (see 'toolcell run --help')", "run",
		   "--version", "x");
	/* --script-dir is no option of run, so it is not suggested there */
	EXPECT_ERR("run: unknown option '--script-di' (see 'toolcell run --help')", "run",
		   "--script-di", "x");
	EXPECT_ERR("python: unknown option '--script-di'; did you mean '--script-dir'? (see "
		   "'toolcell python --help')",
		   "python", "--script-di", "s.py");
	EXPECT_ERR("check: unknown option '--polcy'; did you mean '--policy'? (see "
		   "'toolcell check --help')",
		   "check", "--polcy", "p");
}

static void test_message_quoting(void **state)
{
	char long_value[200];

	EXPECT_ERR("--memory: expected a size such as 256M, got '1G?x'", "run", "--memory", "1G\nx",
		   "x");
	memset(long_value, 'z', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	EXPECT_ERR("--pids: expected a whole number such as 64, got "
		   "'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...'",
		   "run", "--pids", long_value, "x");
}

static void test_call(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "call", "--memory", "64M", "tool.py"), 0);
	assert_int_equal(cli.verb, TC_VERB_CALL);
	assert_int_equal(cli.argc, 1);
	assert_string_equal(cli.argv[0], "tool.py");
	assert_int_equal(cli.script_index, -1);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "call", "--", "-tool.py"), 0);
	assert_string_equal(cli.argv[0], "-tool.py");
	tc_cli_release(&cli);
	EXPECT_ERR("call: missing TOOL.py (usage: toolcell call [OPTIONS] [--] TOOL.py < "
		   "request.json)",
		   "call", "--quiet");
	EXPECT_ERR("call: unexpected argument 'in.json' after TOOL.py; the request comes on "
		   "stdin",
		   "call", "t.py", "in.json");
	EXPECT_ERR("call: unexpected argument '--memory' after TOOL.py; the request comes "
		   "on stdin",
		   "call", "t.py", "--memory", "1G");
	/* a failed parse keeps the verb, so main can still print an envelope */
	{
		struct tc_cli c;

		assert_int_equal(PARSE(&c, &err, "call", "--memory", "x", "t.py"), -EINVAL);
		assert_int_equal(c.verb, TC_VERB_CALL);
		tc_cli_release(&c);
	}
}

static void test_check(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "check", "--policy", "p.json"), 0);
	assert_int_equal(cli.verb, TC_VERB_CHECK);
	assert_string_equal(cli.policy_path, "p.json");
	assert_int_equal(cli.argc, 0);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "check", "--policy=p.json"), 0);
	assert_string_equal(cli.policy_path, "p.json");
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "check"), 0);
	assert_int_equal(cli.verb, TC_VERB_CHECK);
	assert_null(cli.policy_path);
	tc_cli_release(&cli);
	EXPECT_ERR("check: '--memory' is not an option of this command (see 'toolcell "
		   "check --help')",
		   "check", "--memory", "1G");
	EXPECT_ERR("check: '--result' is not an option of this command (see 'toolcell "
		   "check --help')",
		   "check", "--result=r");
	EXPECT_ERR("check: unexpected argument 'p.json' (usage: toolcell check [--policy "
		   "FILE] [--cgroup-parent DIR])",
		   "check", "p.json");
	EXPECT_ERR("check: unknown option '-x' (see 'toolcell check --help')", "check", "-x");
}

static void test_policy_check(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "policy", "check", "p.json"), 0);
	assert_int_equal(cli.verb, TC_VERB_POLICY_CHECK);
	assert_int_equal(cli.argc, 1);
	assert_string_equal(cli.argv[0], "p.json");
	assert_null(cli.policy_path);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "policy", "check", "--", "-p.json"), 0);
	assert_string_equal(cli.argv[0], "-p.json");
	tc_cli_release(&cli);
	EXPECT_ERR("policy: expected 'check FILE' (usage: toolcell policy check FILE)", "policy");
	EXPECT_ERR("policy: unknown subcommand 'chek' (usage: toolcell policy check FILE)",
		   "policy", "chek", "p.json");
	EXPECT_ERR("policy check: missing FILE (usage: toolcell policy check FILE)", "policy",
		   "check");
	EXPECT_ERR("policy check: unexpected argument 'q.json' after FILE", "policy", "check",
		   "p.json", "q.json");
	EXPECT_ERR("policy check: unknown option '--polcy' (see 'toolcell policy check "
		   "--help')",
		   "policy", "check", "--polcy", "p.json");
	EXPECT_ERR("policy check: expected a FILE, got ''", "policy", "check", "");
}

/* python3's command line after toolcell's options, and where the script is. */
static void test_python_script_index(void **state)
{
	static const struct {
		const char *args[6];
		int argc;
		int script_index;
	} cases[] = {
		{ { NULL }, 0, -1 }, /* interactive, program on stdin */
		{ { "s.py" }, 1, 0 },
		{ { "s.py", "-c", "x" }, 3, 0 },
		{ { "-c", "x" }, 2, -1 },
		{ { "-c", "x", "s.py" }, 3, -1 },
		{ { "-cprint(1)" }, 1, -1 },
		{ { "-m", "m" }, 2, -1 },
		{ { "-mjson.tool", "f" }, 2, -1 },
		{ { "-" }, 1, -1 },
		{ { "-", "s.py" }, 2, -1 },
		{ { "-uB", "s.py", "a" }, 3, 1 },
		{ { "-uc", "x" }, 2, -1 },
		{ { "-W", "ignore", "s.py" }, 3, 2 },
		{ { "-Wignore", "s.py" }, 2, 1 },
		{ { "-uWignore", "s.py" }, 2, 1 },
		{ { "-X", "dev", "s.py" }, 3, 2 },
		{ { "-Xfrozen_modules=off", "s.py" }, 2, 1 },
		{ { "-X", "dev" }, 2, -1 },
		{ { "-W" }, 1, -1 },
		{ { "--check-hash-based-pycs", "never", "s.py" }, 3, 2 },
		{ { "--check-hash-based-pycs" }, 1, -1 },
		{ { "--", "s.py" }, 2, 1 },
		{ { "--", "-" }, 2, -1 },
		{ { "--" }, 1, -1 },
		{ { "--", "--help" }, 2, 1 },
		{ { "-u", "--", "s.py" }, 3, 2 },
		{ { "-I", "-c", "x" }, 3, -1 },
		{ { "-I", "-S", "-E", "-s", "s.py" }, 5, 4 },
		{ { "-bbdEiIOPqRsStuvx", "s.py" }, 2, 1 },
		{ { "-OO", "s.py" }, 2, 1 },
		{ { "-i", "s.py" }, 2, 1 },
		{ { "--version" }, 1, -1 },
		{ { "-V" }, 1, -1 },
		{ { "-VV", "s.py" }, 2, -1 },
		{ { "-h" }, 1, -1 },
		{ { "-?" }, 1, -1 },
		{ { "--help-env" }, 1, -1 },
		{ { "--help-all", "s.py" }, 2, -1 },
		{ { "-J", "s.py" }, 2, -1 },	/* python3: "-J is reserved for Jython" */
		{ { "--foo", "s.py" }, 2, -1 }, /* python3: "unknown option --foo" */
		{ { "-Z", "s.py" }, 2, -1 },
	};

	for (size_t i = 0; i < TC_ARRAY_SIZE(cases); i++) {
		/* toolcell's own "--" first, so the case is python3's line exactly */
		char *argv[12] = { "toolcell", "python", "--quiet", "--" };
		struct tc_cli cli;
		struct tc_error err = { 0 };
		int argc = 4;

		for (int a = 0; a < cases[i].argc; a++)
			argv[argc++] = (char *)cases[i].args[a];
		argv[argc] = NULL;
		assert_int_equal(tc_cli_parse(argc, argv, NULL, &cli, &err), 0);
		assert_int_equal(cli.verb, TC_VERB_PYTHON);
		assert_true(cli.quiet);
		assert_ptr_equal(cli.argv, argv + 4);
		assert_int_equal(cli.argc, cases[i].argc);
		if (cli.script_index != cases[i].script_index)
			fail_msg("case %zu (%s ...): script_index %d, expected %d", i,
				 cases[i].args[0] ? cases[i].args[0] : "(empty)", cli.script_index,
				 cases[i].script_index);
		tc_cli_release(&cli);
	}
}

static void test_python_command_line(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };

	/* toolcell's "--": python3's line starts after it */
	assert_int_equal(PARSE(&cli, &err, "python", "--", "s.py", "--memory", "1G"), 0);
	assert_int_equal(cli.argc, 3);
	assert_int_equal(cli.script_index, 0);
	assert_false(cli.overrides.has[TC_LIMIT_MEMORY]);
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "python", "--", "--memory"), 0);
	assert_int_equal(cli.argc, 1);
	assert_string_equal(cli.argv[0], "--memory");
	assert_int_equal(cli.script_index, -1); /* python3 refuses --memory */
	tc_cli_release(&cli);
	/* nothing at all: interactive python3 on stdin */
	assert_int_equal(PARSE(&cli, &err, "python", "--pids", "8"), 0);
	assert_int_equal(cli.argc, 0);
	assert_non_null(cli.argv);
	assert_null(cli.argv[0]);
	assert_int_equal(cli.script_index, -1);
	tc_cli_release(&cli);
	/* python3's own options start its line, toolcell's stop there */
	assert_int_equal(
		PARSE(&cli, &err, "python", "--memory", "64M", "-u", "s.py", "--pids", "3"), 0);
	assert_int_equal(cli.argc, 4);
	assert_string_equal(cli.argv[0], "-u");
	assert_true(cli.overrides.has[TC_LIMIT_MEMORY]);
	assert_false(cli.overrides.has[TC_LIMIT_PIDS]);
	assert_int_equal(cli.script_index, 1);
	tc_cli_release(&cli);
	/* python3 itself refuses --pids after -u: no script runs */
	assert_int_equal(PARSE(&cli, &err, "python", "-u", "--pids", "3"), 0);
	assert_int_equal(cli.argc, 3);
	assert_int_equal(cli.script_index, -1);
	tc_cli_release(&cli);
	/* --help is toolcell's, -h and --version are python3's */
	EXPECT_HELP(TC_VERB_PYTHON, "python", "--help");
	EXPECT_HELP(TC_VERB_PYTHON, "python", "--quiet", "--help", "s.py");
	assert_int_equal(PARSE(&cli, &err, "python", "-h"), 0);
	assert_int_equal(cli.verb, TC_VERB_PYTHON);
	assert_string_equal(cli.argv[0], "-h");
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "python", "--version"), 0);
	assert_int_equal(cli.verb, TC_VERB_PYTHON);
	assert_int_equal(cli.argc, 1);
	assert_string_equal(cli.argv[0], "--version");
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "python", "--", "--help"), 0);
	assert_int_equal(cli.verb, TC_VERB_PYTHON);
	assert_string_equal(cli.argv[0], "--help");
	tc_cli_release(&cli);
	/* an unknown long option far from toolcell's is python3's to refuse */
	assert_int_equal(PARSE(&cli, &err, "python", "--frobnicate", "s.py"), 0);
	assert_int_equal(cli.argc, 2);
	assert_int_equal(cli.script_index, -1);
	tc_cli_release(&cli);
	/* a near miss of a toolcell option is refused, not handed to python3 */
	EXPECT_ERR("python: unknown option '--memroy'; did you mean '--memory'? (see "
		   "'toolcell python --help')",
		   "python", "--memroy", "1G", "s.py");
	EXPECT_ERR("python: unknown option '--verbos'; did you mean '--verbose'? (see "
		   "'toolcell python --help')",
		   "python", "--verbos", "s.py");
}

static void test_python_env(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };
	char *const *envp =
		ENVP("PATH=/bin", "TOOLCELL_POLICY=/p.json", "TOOLCELL_ROOTFS=/rootfs",
		     "TOOLCELL_MEMORY=128M", "TOOLCELL_TIMEOUT=2.5", "TOOLCELL_CPUS=0.5",
		     "TOOLCELL_PIDS=10", "TOOLCELL_RO_BIND=/a,/b:/c,,/d:e:/f,", "TOOLCELL_BIND=/rw",
		     "TOOLCELL_WORKSPACE=/w", "TOOLCELL_PASS_ENV=HOME,LANG",
		     "TOOLCELL_RESULT=/r.json", "TOOLCELL_SCRIPT_DIR=1");
	const struct tc_overrides *o = &cli.overrides;

	assert_int_equal(PARSE_ENV(envp, &cli, &err, "python", "s.py"), 0);
	assert_string_equal(cli.policy_path, "/p.json");
	assert_string_equal(o->rootfs, "/rootfs");
	assert_int_equal(o->limit[TC_LIMIT_MEMORY], 128 << 20);
	assert_int_equal(o->limit[TC_LIMIT_WALL], 2500);
	assert_int_equal(o->limit[TC_LIMIT_CPUS], 500);
	assert_int_equal(o->limit[TC_LIMIT_PIDS], 10);
	for (int l = 0; l < TC_LIMIT__MAX; l++)
		assert_int_equal(o->has[l], l == TC_LIMIT_MEMORY || l == TC_LIMIT_WALL ||
						    l == TC_LIMIT_CPUS || l == TC_LIMIT_PIDS);
	assert_int_equal(o->n_binds, 4);
	assert_string_equal(o->binds[0].host, "/a");
	assert_string_equal(o->binds[0].inside, "/a");
	assert_string_equal(o->binds[1].host, "/b");
	assert_string_equal(o->binds[1].inside, "/c");
	assert_string_equal(o->binds[2].host, "/d:e");
	assert_string_equal(o->binds[2].inside, "/f");
	assert_false(o->binds[2].writable);
	assert_string_equal(o->binds[3].host, "/rw");
	assert_true(o->binds[3].writable);
	assert_string_equal(o->workspace, "/w");
	assert_int_equal(o->n_pass_env, 2);
	assert_string_equal(o->pass_env[0], "HOME");
	assert_string_equal(o->pass_env[1], "LANG");
	assert_string_equal(cli.result_path, "/r.json");
	assert_true(cli.script_dir);
	assert_true(cli.n_owned > 0);
	tc_cli_release(&cli); /* ASan: every split list freed */
	assert_int_equal(cli.n_owned, 0);

	/* every TOOLCELL_* variable means its option for every verb that
	 * takes the option, and nothing for one that does not */
	assert_int_equal(PARSE_ENV(envp, &cli, &err, "run", "x"), 0);
	assert_string_equal(cli.policy_path, "/p.json");
	assert_int_equal(cli.overrides.limit[TC_LIMIT_MEMORY], 128 << 20);
	assert_int_equal(cli.overrides.n_binds, 4);
	assert_string_equal(cli.result_path, "/r.json");
	assert_false(cli.script_dir); /* --script-dir is python's */
	tc_cli_release(&cli);
	assert_int_equal(PARSE_ENV(envp, &cli, &err, "call", "t.py"), 0);
	assert_string_equal(cli.result_path, "/r.json");
	assert_string_equal(cli.overrides.workspace, "/w");
	tc_cli_release(&cli);
	assert_int_equal(PARSE_ENV(envp, &cli, &err, "session"), 0);
	assert_null(cli.result_path); /* a session writes no record */
	assert_int_equal(cli.overrides.limit[TC_LIMIT_WALL], 2500);
	tc_cli_release(&cli);
	assert_int_equal(PARSE_ENV(envp, &cli, &err, "check"), 0);
	assert_string_equal(cli.policy_path, "/p.json");
	assert_null(cli.overrides.rootfs); /* check takes only --policy, --cgroup-parent */
	assert_false(cli.overrides.has[TC_LIMIT_MEMORY]);
	tc_cli_release(&cli);
	/* and a bad one is refused whatever the verb */
	EXPECT_ENV_ERR(ENVP("TOOLCELL_MEMORY=x"),
		       "TOOLCELL_MEMORY: expected a size such as 256M, got 'x'", "run", "ls");
}

static void test_python_env_precedence(void **state)
{
	struct tc_cli cli;
	struct tc_error err = { 0 };
	char *const *envp =
		ENVP("TOOLCELL_POLICY=/env.json", "TOOLCELL_MEMORY=bad", "TOOLCELL_PIDS=10",
		     "TOOLCELL_RO_BIND=/env-ro", "TOOLCELL_BIND=/env-rw", "TOOLCELL_PASS_ENV=HOME",
		     "TOOLCELL_RESULT=/env.json", "TOOLCELL_WORKSPACE=relative");
	const struct tc_overrides *o = &cli.overrides;

	/* an option wins, and a bad variable it overrides is never read */
	assert_int_equal(PARSE_ENV(envp, &cli, &err, "python", "--policy", "/cli.json", "--memory",
				   "64M", "--ro-bind", "/cli-ro", "--pass-env", "LANG",
				   "--result-fd", "3", "--workspace", "/cli-ws", "s.py"),
			 0);
	assert_string_equal(cli.policy_path, "/cli.json");
	assert_int_equal(o->limit[TC_LIMIT_MEMORY], 64 << 20);
	assert_int_equal(o->limit[TC_LIMIT_PIDS], 10); /* not on the command line */
	/* --ro-bind replaced TOOLCELL_RO_BIND; TOOLCELL_BIND still applies */
	assert_int_equal(o->n_binds, 2);
	assert_string_equal(o->binds[0].host, "/cli-ro");
	assert_string_equal(o->binds[1].host, "/env-rw");
	assert_true(o->binds[1].writable);
	assert_int_equal(o->n_pass_env, 1);
	assert_string_equal(o->pass_env[0], "LANG");
	assert_null(cli.result_path); /* --result-fd beats TOOLCELL_RESULT */
	assert_int_equal(cli.result_fd, 3);
	assert_string_equal(o->workspace, "/cli-ws");
	tc_cli_release(&cli);

	/* an empty variable counts as unset */
	assert_int_equal(PARSE_ENV(ENVP("TOOLCELL_MEMORY=", "TOOLCELL_POLICY=",
					"TOOLCELL_SCRIPT_DIR=", "TOOLCELL_RO_BIND="),
				   &cli, &err, "python", "s.py"),
			 0);
	assert_false(cli.overrides.has[TC_LIMIT_MEMORY]);
	assert_null(cli.policy_path);
	assert_false(cli.script_dir);
	assert_int_equal(cli.overrides.n_binds, 0);
	tc_cli_release(&cli);
	assert_int_equal(PARSE_ENV(ENVP("TOOLCELL_SCRIPT_DIR=0"), &cli, &err, "python", "s.py"), 0);
	assert_false(cli.script_dir);
	tc_cli_release(&cli);
	/* a name that merely starts like one is not the variable */
	assert_int_equal(PARSE_ENV(ENVP("TOOLCELL_MEMORYX=bad", "TOOLCELL_PIDS_=0"), &cli, &err,
				   "python", "s.py"),
			 0);
	assert_false(cli.overrides.has[TC_LIMIT_MEMORY]);
	assert_false(cli.overrides.has[TC_LIMIT_PIDS]);
	tc_cli_release(&cli);
	/* the first of two definitions counts, as with getenv */
	assert_int_equal(PARSE_ENV(ENVP("TOOLCELL_PIDS=5", "TOOLCELL_PIDS=bad"), &cli, &err,
				   "python", "s.py"),
			 0);
	assert_int_equal(cli.overrides.limit[TC_LIMIT_PIDS], 5);
	tc_cli_release(&cli);
}

static void test_python_env_errors(void **state)
{
	EXPECT_ENV_ERR(ENVP("TOOLCELL_MEMORY=x"),
		       "TOOLCELL_MEMORY: expected a size such as 256M, got 'x'", "python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_MEMORY=1K"), "TOOLCELL_MEMORY: 1K is outside 4M..64G",
		       "python");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_TIMEOUT=later"),
		       "TOOLCELL_TIMEOUT: expected seconds such as 30 or 0.5, got 'later'",
		       "python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_CPUS=all"),
		       "TOOLCELL_CPUS: expected a number of CPUs such as 1 or 0.5, got 'all'",
		       "python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_PIDS=0"), "TOOLCELL_PIDS: 0 is outside 1..65536", "python",
		       "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_SCRIPT_DIR=yes"),
		       "TOOLCELL_SCRIPT_DIR: expected 1 or 0, got 'yes'", "python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_RO_BIND=/ok,rel"),
		       "TOOLCELL_RO_BIND: expected HOST[:INSIDE] with absolute paths, got 'rel'",
		       "python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_BIND=/a:rel:/b,x:/y"),
		       "TOOLCELL_BIND: expected HOST[:INSIDE] with absolute paths, got 'x:/y'",
		       "python", "s.py");
	EXPECT_ENV_ERR(
		ENVP("TOOLCELL_PASS_ENV=HOME,A=B"),
		"TOOLCELL_PASS_ENV: expected a variable NAME (letters, digits, '_'), got 'A=B'",
		"python", "s.py");
	EXPECT_ENV_ERR(ENVP("TOOLCELL_WORKSPACE=work"),
		       "TOOLCELL_WORKSPACE: expected an absolute DIR, got 'work'", "python",
		       "s.py");
}

static void test_python_env_max_binds(void **state)
{
	char var[32 + (TC_MAX_BINDS + 1) * 4];
	size_t n = (size_t)snprintf(var, sizeof(var), "TOOLCELL_RO_BIND=");
	struct tc_cli cli;
	struct tc_error err = { 0 };

	for (int i = 0; i < TC_MAX_BINDS; i++)
		n += (size_t)snprintf(var + n, sizeof(var) - n, "/a,");
	assert_int_equal(PARSE_ENV(ENVP(var), &cli, &err, "python", "s.py"), 0);
	assert_int_equal(cli.overrides.n_binds, TC_MAX_BINDS);
	tc_cli_release(&cli);
	/* one more from TOOLCELL_BIND is one too many */
	EXPECT_ENV_ERR(ENVP(var, "TOOLCELL_BIND=/b"),
		       "TOOLCELL_BIND: more than 32 binds (--ro-bind and --bind count together)",
		       "python", "s.py");
	snprintf(var + n, sizeof(var) - n, "/z");
	EXPECT_ENV_ERR(ENVP(var),
		       "TOOLCELL_RO_BIND: more than 32 binds (--ro-bind and --bind count together)",
		       "python", "s.py");
}

static void test_release(void **state)
{
	struct tc_cli cli;

	memset(&cli, 0, sizeof(cli));
	tc_cli_release(&cli);
	assert_int_equal(cli.result_fd, -1);
	assert_int_equal(cli.script_index, -1);
	tc_cli_release(&cli);
}

/* Lines of at most 80 columns, ending in a newline. */
static void expect_tidy(const char *text)
{
	const char *line = text;

	assert_true(strlen(text) > 0);
	assert_int_equal(text[strlen(text) - 1], '\n');
	while (*line) {
		const char *nl = strchr(line, '\n');

		assert_non_null(nl);
		if (nl - line > 80)
			fail_msg("help line longer than 80 columns: %.*s", (int)(nl - line), line);
		line = nl + 1;
	}
}

static void expect_mentions(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("help does not mention '%s'", what);
}

static void test_help_texts(void **state)
{
	static const char *const sandbox_opts[] = {
		"--policy FILE",
		"--rootfs DIR",
		"--cgroup-parent DIR",
		"--ro-bind HOST[:INSIDE]",
		"--bind HOST[:INSIDE]",
		"--workspace DIR",
		"--env NAME=VALUE",
		"--pass-env NAME",
		"--result FILE",
		"--result-fd N",
		"--quiet",
		"--verbose",
		"--help",
	};
	static const char *const python_vars[] = {
		"TOOLCELL_POLICY",	  "TOOLCELL_ROOTFS", "TOOLCELL_MEMORY",
		"TOOLCELL_TIMEOUT",	  "TOOLCELL_CPUS",   "TOOLCELL_PIDS",
		"TOOLCELL_RO_BIND",	  "TOOLCELL_BIND",   "TOOLCELL_WORKSPACE",
		"TOOLCELL_PASS_ENV",	  "TOOLCELL_RESULT", "TOOLCELL_SCRIPT_DIR",
		"TOOLCELL_CGROUP_PARENT",
	};
	static const enum tc_verb sandbox[] = { TC_VERB_RUN, TC_VERB_PYTHON, TC_VERB_CALL,
						TC_VERB_SESSION };
	static const char *const usage[] = {
		[TC_VERB_RUN] = "Usage: toolcell run ",
		[TC_VERB_PYTHON] = "Usage: toolcell python ",
		[TC_VERB_CALL] = "Usage: toolcell call ",
		[TC_VERB_SESSION] = "Usage: toolcell session ",
		[TC_VERB_CHECK] = "Usage: toolcell check ",
		[TC_VERB_POLICY_CHECK] = "Usage: toolcell policy check FILE",
		[TC_VERB_SERVE] = "Usage: toolcell serve [--socket PATH] ",
		[TC_VERB_ROOTFS_BUILD] =
			"Usage: toolcell rootfs build [--name NAME] [--with PKG,...] [--dest DIR]\n",
		[TC_VERB_VERSION] = "Usage: toolcell version",
		[TC_VERB_HELP] = "Usage: toolcell help ",
	};
	const char *overview = tc_cli_help(TC_VERB_NONE);

	for (int v = TC_VERB_NONE; v <= TC_VERB_HELP; v++) {
		expect_tidy(tc_cli_help(v));
		if (v != TC_VERB_NONE)
			assert_true(tc_startswith(tc_cli_help(v), usage[v]));
		/* static: the same text every time */
		assert_ptr_equal(tc_cli_help(v), tc_cli_help(v));
	}
	static const char *const overview_has[] = {
		"toolcell run ",
		"toolcell python ",
		"toolcell call ",
		"toolcell session ",
		"toolcell check ",
		"toolcell policy check FILE",
		"toolcell serve [--socket PATH]",
		"toolcell rootfs build [--name NAME]",
		"toolcell version",
		"toolcell help",
		"--version",
		"--help",
		"0-255",
		"124",
		"125",
		"126",
		"127",
		"128+N",
		"-N",
		"Exit status (call): 0",
		"1 when",
		"ceiling",
	};
	for (size_t i = 0; i < TC_ARRAY_SIZE(overview_has); i++)
		expect_mentions(overview, overview_has[i]);
	/* the policy's rule is said once, not twice */
	const char *rule = strstr(overview, "The policy is the operator's ceiling");
	assert_non_null(rule);
	assert_null(strstr(rule + 1, "The policy is the operator's ceiling"));

	for (size_t s = 0; s < TC_ARRAY_SIZE(sandbox); s++) {
		const char *h = tc_cli_help(sandbox[s]);

		for (size_t i = 0; i < TC_ARRAY_SIZE(sandbox_opts); i++) {
			/* a session writes no record */
			if (sandbox[s] == TC_VERB_SESSION && strstr(sandbox_opts[i], "--result"))
				assert_null(strstr(h, sandbox_opts[i]));
			else
				expect_mentions(h, sandbox_opts[i]);
		}
		for (int l = 0; l < TC_LIMIT__MAX; l++) {
			char want[64];

			if (!tc_limit_info[l].option)
				continue;
			snprintf(want, sizeof(want), "  %s ", tc_limit_info[l].option);
			expect_mentions(h, want);
			snprintf(want, sizeof(want), "policy key \"%s\"", tc_limit_info[l].name);
			expect_mentions(h, want);
		}
		expect_mentions(h, "default.json");
		expect_mentions(h, "ceiling");
		if (sandbox[s] != TC_VERB_SESSION)
			expect_mentions(h, "result record");
		if (sandbox[s] == TC_VERB_PYTHON) {
			expect_mentions(h, "--script-dir");
		} else {
			assert_null(strstr(h, "--script-dir"));
			expect_mentions(h, "-h, --help");
		}
	}
	for (size_t i = 0; i < TC_ARRAY_SIZE(python_vars); i++)
		expect_mentions(tc_cli_help(TC_VERB_PYTHON), python_vars[i]);
	expect_mentions(tc_cli_help(TC_VERB_PYTHON), "PYTHONPYCACHEPREFIX");
	expect_mentions(tc_cli_help(TC_VERB_PYTHON), "absolute path");
	expect_mentions(tc_cli_help(TC_VERB_PYTHON), "working directory");
	expect_mentions(tc_cli_help(TC_VERB_PYTHON), "python --version");
	expect_mentions(tc_cli_help(TC_VERB_PYTHON), "python -h");
	expect_mentions(tc_cli_help(TC_VERB_RUN), "126, 127");
	expect_mentions(tc_cli_help(TC_VERB_CALL), "\"ok\": true");
	expect_mentions(tc_cli_help(TC_VERB_CALL), "BadRequest");
	expect_mentions(tc_cli_help(TC_VERB_CALL), "125");
	expect_mentions(tc_cli_help(TC_VERB_CHECK), "--policy FILE");
	expect_mentions(tc_cli_help(TC_VERB_CHECK), "-h, --help");
	assert_null(strstr(tc_cli_help(TC_VERB_CHECK), "--memory"));
	expect_mentions(tc_cli_help(TC_VERB_POLICY_CHECK), "JSON");
	/* an out-of-range verb gets the overview */
	assert_ptr_equal(tc_cli_help((enum tc_verb)99), overview);
}

/* The first line of text with the lines that continue it (indented) joined
 * by one space: a wrapped synopsis as one line. */
static const char *unwrapped(const char *text, char *buf, size_t n)
{
	size_t k = 0;

	for (const char *s = text; *s && *s != '\n' && k + 1 < n; s++) {
		buf[k++] = *s;
		if (s[1] == '\n' && s[2] == ' ' && s[3] == ' ' && s[4] == ' ') {
			s += 1 + strspn(s + 2, " ");
			buf[k++] = ' ';
		}
	}
	buf[k] = '\0';
	return buf;
}

/* The command table: one row per command, each found by its word, each
 * with a synopsis, a summary and a help that starts with that synopsis and
 * ends with its exit status; serve and rootfs build reach their own
 * parsers with the whole command line. */
static void test_verb_table(void **state)
{
	(void)state;
	for (int v = TC_VERB_RUN; v <= TC_VERB_HELP; v++) {
		const struct tc_cli_verb *row = tc_cli_verb_row((enum tc_verb)v);
		size_t rows = 0;
		char line[256], want[300], usage[512];

		for (size_t i = 0; i < tc_cli_n_verbs; i++)
			rows += tc_cli_verbs[i].verb == (enum tc_verb)v;
		if (rows != 1 || !row)
			fail_msg("command %d has %zu rows in tc_cli_verbs", v, rows);
		assert_non_null(row->usage);
		assert_non_null(row->summary);
		for (const char *l = row->summary, *nl; l; l = nl ? nl + 1 : NULL) {
			nl = strchr(l, '\n');
			if ((nl ? (size_t)(nl - l) : strlen(l)) > 80 - 16)
				fail_msg("%s: summary line over 64 columns", row->name);
		}
		/* its help starts with its synopsis and ends with its exit status */
		assert_true(tc_cli_usage_line((enum tc_verb)v, 0, line, sizeof(line)));
		snprintf(want, sizeof(want), "Usage: toolcell %s", line);
		if (!tc_startswith(unwrapped(tc_cli_help((enum tc_verb)v), usage, sizeof(usage)),
				   want))
			fail_msg("'toolcell help %s' does not start with '%s'", row->name, want);
		assert_non_null(strstr(tc_cli_help((enum tc_verb)v), tc_cli_exit_status(v)));
		assert_true(tc_startswith(tc_cli_exit_status(v), "Exit status"));
		/* the overview names it, with its summary's first line */
		snprintf(want, sizeof(want), "\n  %-14s%.*s", row->name,
			 (int)strcspn(row->summary, "\n"), row->summary);
		if (!strstr(tc_cli_help(TC_VERB_NONE), want))
			fail_msg("the overview has no line '%s'", want + 1);
		/* its own options, each in its help */
		for (size_t i = 0; row->subopts && i < *row->n_subopts; i++) {
			const struct tc_cli_subopt *o = &row->subopts[i];

			/* "--pool N", "--paths [NAME]", "--json" (a flag) */
			snprintf(want, sizeof(want), "\n  %s%s%s%s%s ", o->name,
				 o->metavar ? " " : "", o->optional ? "[" : "",
				 o->metavar ? o->metavar : "", o->optional ? "]" : "");
			expect_mentions(tc_cli_help((enum tc_verb)v), want);
			expect_mentions(line, o->name);
		}
	}
	EXPECT_HELP(TC_VERB_SERVE, "help", "serve");
	EXPECT_HELP(TC_VERB_ROOTFS_BUILD, "help", "rootfs");
	EXPECT_HELP(TC_VERB_ROOTFS_BUILD, "help", "rootfs", "build");
	EXPECT_ERR("help: unexpected argument 'x' (usage: toolcell help [COMMAND])", "help",
		   "rootfs", "x");
	struct tc_cli cli;
	struct tc_error err = { 0 };

	assert_int_equal(PARSE(&cli, &err, "serve", "--pool", "3"), 0);
	assert_int_equal(cli.verb, TC_VERB_SERVE);
	assert_int_equal(cli.argc, 4);
	assert_string_equal(cli.argv[1], "serve");
	assert_string_equal(cli.argv[3], "3");
	tc_cli_release(&cli);
	assert_int_equal(PARSE(&cli, &err, "rootfs", "build", "--name", "x"), 0);
	assert_int_equal(cli.verb, TC_VERB_ROOTFS_BUILD);
	assert_int_equal(cli.argc, 5);
	assert_string_equal(cli.argv[1], "rootfs");
	tc_cli_release(&cli);
	assert_string_equal(tc_cli_verb_list(), "run, python, call, session, check, policy check, "
						"serve, rootfs build, version, help");
}

/* serve's own command line: its table's options, each number's range,
 * refusals that name the option, and --help. */
static void test_serve_cli(void **state)
{
	struct tc_serve_options o;
	struct tc_error err = { 0 };
	bool help;

	(void)state;
#define SERVE(...) tc_serve_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &o, &help, &err)
	assert_int_equal(SERVE("serve"), 0);
	assert_false(help);
	assert_int_equal(o.pool, 2);
	assert_int_equal(o.max_sandboxes, 16);
	assert_int_equal(o.queue, 64);
	assert_int_equal(o.max_sessions, 8); /* half of --max-sandboxes */
	assert_null(o.socket_path);
	assert_null(o.policy_path);
	assert_int_equal(SERVE("serve", "--pool", "3", "--queue=5", "--socket", "/run/x.sock",
			       "--policy", "p.json", "--max-sandboxes=1024"),
			 0);
	assert_int_equal(o.pool, 3);
	assert_int_equal(o.queue, 5);
	assert_int_equal(o.max_sandboxes, 1024);
	assert_string_equal(o.socket_path, "/run/x.sock");
	assert_string_equal(o.policy_path, "p.json");
	assert_int_equal(o.max_sessions, 512);
	assert_int_equal(SERVE("serve", "--pool", "1", "--max-sandboxes", "1"), 0);
	assert_int_equal(o.max_sessions, 1); /* at least one */
	assert_int_equal(SERVE("serve", "--max-sandboxes", "3", "--max-sessions", "3"), 0);
	assert_int_equal(o.max_sessions, 3);
	assert_int_equal(SERVE("serve", "--pool", "1", "--help"), 0);
	assert_true(help);
	assert_int_equal(SERVE("serve", "-h"), 0);
	assert_true(help);
	static const struct {
		char *arg, *value;
		const char *message;
	} bad[] = {
		{ "--pool", "0", "serve: --pool expects a number from 1 to 64" },
		{ "--pool", "65", "serve: --pool expects a number from 1 to 64" },
		{ "--pool", "-1", "serve: --pool expects a number from 1 to 64" },
		{ "--queue", "4097", "serve: --queue expects a number from 1 to 4096" },
		{ "--max-sandboxes", "1x",
		  "serve: --max-sandboxes expects a number from 1 to 1024" },
		{ "--socket", "rel.sock", "serve: --socket expects an absolute path" },
		{ "--poll", "3",
		  "serve: unknown option '--poll'; did you mean '--pool'? (see 'toolcell serve "
		  "--help')" },
		{ "--frobnicate", "3",
		  "serve: unknown option '--frobnicate' (see 'toolcell serve --help')" },
		{ "extra", "3",
		  "serve: unexpected argument 'extra'; serve takes only options (see 'toolcell serve "
		  "--help')" },
		{ "--max-sandboxes", "1", "serve: --pool 2 is above --max-sandboxes 1" },
		{ "--max-sessions", "17", "serve: --max-sessions 17 is above --max-sandboxes 16" },
		{ "--max-sessions", "0", "serve: --max-sessions expects a number from 1 to 1024" },
	};
	for (size_t i = 0; i < TC_ARRAY_SIZE(bad); i++) {
		assert_int_equal(SERVE("serve", bad[i].arg, bad[i].value), -EINVAL);
		assert_string_equal(err.message, bad[i].message);
	}
	assert_int_equal(SERVE("serve", "--pool"), -EINVAL);
	assert_string_equal(err.message, "serve: --pool expects a number from 1 to 64");
#undef SERVE
}

/* The policy's "serve" section: the session bounds' defaults, values and
 * refusals (the other keys: serve.bats, fuzz_serve) */
static void test_serve_policy(void **state)
{
	struct tc_serve_policy p;
	struct tc_error err = { 0 };

	(void)state;
	assert_int_equal(tc_serve_policy_parse(NULL, "p.json", &p, &err), 0);
	assert_int_equal(p.sessions_per_uid, 4);
	assert_int_equal(p.session_idle_s, 1800);
	assert_int_equal(tc_serve_policy_parse("{\"preimport\":[]}", "p.json", &p, &err), 0);
	assert_int_equal(p.sessions_per_uid, 4);
	assert_int_equal(p.session_idle_s, 1800);
	assert_int_equal(tc_serve_policy_parse("{\"sessions_per_uid\":0,\"session_idle_s\":86400}",
					       "p.json", &p, &err),
			 0);
	assert_int_equal(p.sessions_per_uid, 0);
	assert_int_equal(p.session_idle_s, 86400);
	static const struct {
		const char *json, *message;
	} bad[] = {
		{ "{\"session_idle_s\":0}",
		  "p.json: serve.session_idle_s: expected a whole number from 1 to 86400" },
		{ "{\"session_idle_s\":86401}",
		  "p.json: serve.session_idle_s: expected a whole number from 1 to 86400" },
		{ "{\"session_idle_s\":1.5}",
		  "p.json: serve.session_idle_s: expected a whole number from 1 to 86400" },
		{ "{\"sessions_per_uid\":\"4\"}",
		  "p.json: serve.sessions_per_uid: expected a whole number from 0 to 1024" },
		{ "{\"sessions_per_uid\":-1}",
		  "p.json: serve.sessions_per_uid: expected a whole number from 0 to 1024" },
		{ "{\"session_idle\":5}",
		  "p.json: serve.session_idle: unknown key (known: allow_uids, allow_gids, "
		  "preimport, sessions_per_uid, session_idle_s)" },
	};
	for (size_t i = 0; i < TC_ARRAY_SIZE(bad); i++) {
		assert_int_equal(tc_serve_policy_parse(bad[i].json, "p.json", &p, &err), -EINVAL);
		assert_string_equal(err.message, bad[i].message);
	}
}

/* A stored value as a policy file would write it: 256M, 0.5, 30. */
static void policy_text(enum tc_unit unit, uint64_t v, char *buf, size_t n)
{
	static const char suffix[] = "KMGT";

	switch (unit) {
	case TC_UNIT_BYTES:
		for (int i = 3; i >= 0; i--) {
			uint64_t mult = UINT64_C(1) << (10 * (i + 1));

			if (v && v % mult == 0) {
				snprintf(buf, n, "%" PRIu64 "%c", v / mult, suffix[i]);
				return;
			}
		}
		snprintf(buf, n, "%" PRIu64, v);
		return;
	case TC_UNIT_MS:
	case TC_UNIT_MILLICPU: {
		size_t len;

		snprintf(buf, n, "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
		len = strlen(buf);
		while (buf[len - 1] == '0')
			buf[--len] = '\0';
		if (buf[len - 1] == '.')
			buf[--len] = '\0';
		return;
	}
	case TC_UNIT_COUNT:
		snprintf(buf, n, "%" PRIu64, v);
		return;
	}
}

/* The defaults the help shows are the shipped default.json's. */
static void test_help_default_json(void **state)
{
	struct tc_policy policy = { 0 };
	struct tc_error err = { 0 };

	if (tc_policy_load(TC_SOURCE_DIR "/policies/default.json", &policy, &err) < 0)
		fail_msg("policies/default.json: %s", err.message);
	for (int l = 0; l < TC_LIMIT__MAX; l++) {
		char value[64], want[128];

		if (!tc_limit_info[l].option)
			continue;
		policy_text(tc_limit_info[l].unit, policy.limit[l], value, sizeof(value));
		snprintf(want, sizeof(want), "default.json: %s; range ", value);
		for (int v = TC_VERB_RUN; v <= TC_VERB_SESSION; v++)
			expect_mentions(tc_cli_help(v), want);
	}
	tc_policy_release(&policy);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_no_command), cmocka_unit_test(test_unknown_command),
	     cmocka_unit_test(test_version), cmocka_unit_test(test_help_verbs),
	     cmocka_unit_test(test_verb_table), cmocka_unit_test(test_serve_cli),
	     cmocka_unit_test(test_serve_policy), cmocka_unit_test(test_run),
	     cmocka_unit_test(test_run_dashdash), cmocka_unit_test(test_too_many_args),
	     cmocka_unit_test(test_opt_value_forms), cmocka_unit_test(test_every_limit_option),
	     cmocka_unit_test(test_limit_messages), cmocka_unit_test(test_limit_last_wins),
	     cmocka_unit_test(test_bind_split), cmocka_unit_test(test_max_binds),
	     cmocka_unit_test(test_max_env), cmocka_unit_test(test_env_options),
	     cmocka_unit_test(test_env_entry_too_long), cmocka_unit_test(test_paths),
	     cmocka_unit_test(test_duplicates), cmocka_unit_test(test_result),
	     cmocka_unit_test(test_flags), cmocka_unit_test(test_did_you_mean),
	     cmocka_unit_test(test_message_quoting), cmocka_unit_test(test_call),
	     cmocka_unit_test(test_check), cmocka_unit_test(test_policy_check),
	     cmocka_unit_test(test_python_script_index), cmocka_unit_test(test_python_command_line),
	     cmocka_unit_test(test_python_env), cmocka_unit_test(test_python_env_precedence),
	     cmocka_unit_test(test_python_env_errors), cmocka_unit_test(test_python_env_max_binds),
	     cmocka_unit_test(test_release), cmocka_unit_test(test_help_texts),
	     cmocka_unit_test(test_help_default_json))
