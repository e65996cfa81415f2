/* Unit tests for workspace mode's rules: listed programs by bare name, a
 * workspace required, no absolute or climbing arguments. */
#include <errno.h>
#include <string.h>

#include "tc-test.h"
#include "workspace-mode.h"

static struct tc_config config(void)
{
	static char git[] = "git", py[] = "python3", ls[] = "ls", ws[] = "/home/u/ws";
	struct tc_config cfg = { 0 };

	cfg.programs[0] = git;
	cfg.programs[1] = py;
	cfg.programs[2] = ls;
	cfg.n_programs = 3;
	cfg.workspace = ws;
	return cfg;
}

static int check(const struct tc_config *cfg, struct tc_error *e, int argc, ...)
{
	char *argv[8];
	va_list ap;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	memset(e, 0, sizeof(*e));
	return tc_workspace_mode_check(cfg, "ws.json", argc, argv, e);
}

static void test_programs(void **state)
{
	struct tc_config cfg = config();
	struct tc_error e;

	(void)state;
	assert_int_equal(check(&cfg, &e, 2, "git", "status"), 0);
	assert_int_equal(check(&cfg, &e, 3, "python3", "-c", "print(1)"), 0);
	assert_int_equal(check(&cfg, &e, 1, "rm"), -EPERM);
	assert_int_equal(e.stage, TC_STAGE_WORKSPACE);
	assert_string_equal(e.message, "'rm' is not one of the programs ws.json allows (python3, "
				       "git, ls)");
	assert_int_equal(check(&cfg, &e, 1, "/usr/bin/git"), -EINVAL);
	assert_string_equal(e.message, "'/usr/bin/git': in a workspace a program is run by its "
				       "name (one of: python3, git, ls), not by a path");
	/* python3 is always listed */
	cfg.n_programs = 1;
	assert_int_equal(check(&cfg, &e, 1, "python3"), 0);
	/* no programs: any program, any argument */
	cfg.n_programs = 0;
	assert_int_equal(check(&cfg, &e, 2, "/bin/rm", "/etc/passwd"), 0);
}

static void test_workspace_needed(void **state)
{
	struct tc_config cfg = config();
	struct tc_error e;

	(void)state;
	cfg.workspace = NULL;
	assert_int_equal(check(&cfg, &e, 1, "git"), -EINVAL);
	assert_string_equal(e.message, "ws.json is a workspace policy: give the run a workspace "
				       "(--workspace DIR)");
}

static void test_arguments(void **state)
{
	struct tc_config cfg = config();
	struct tc_error e;

	(void)state;
	assert_int_equal(check(&cfg, &e, 2, "ls", "/etc"), -EINVAL);
	assert_string_equal(e.message, "argument 1 ('/etc') is an absolute path; in a workspace "
				       "paths are relative to it");
	assert_int_equal(check(&cfg, &e, 3, "ls", "a", "src/../../x"), -EINVAL);
	assert_string_equal(e.message, "argument 2 ('src/../../x') climbs out with '..'; in a "
				       "workspace paths stay inside it");
	assert_int_equal(check(&cfg, &e, 2, "ls", ".."), -EINVAL);
	/* names that only start with dots are fine */
	assert_int_equal(check(&cfg, &e, 3, "ls", "..hidden", "a/...b"), 0);
	/* program text of several lines is not a path */
	assert_int_equal(check(&cfg, &e, 3, "python3", "-c", "import os\nos.listdir('/')"), 0);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_programs), cmocka_unit_test(test_workspace_needed),
	     cmocka_unit_test(test_arguments))
