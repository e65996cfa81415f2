/* env.c: the one home of the tool's environment rules, which the command
 * line's --env/--pass-env and the policy's env/pass_env both use. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "toolcell/config.h"
#include "env.h"

static bool valid(const char *s)
{
	return tc_env_name_valid(s, strlen(s));
}

static void test_name_valid(void **state)
{
	(void)state;
	assert_true(valid("A"));
	assert_true(valid("_"));
	assert_true(valid("path_2"));
	assert_true(valid("TOOLCELL_MEMORY")); /* a name; whether it passes is another rule */
	assert_false(valid(""));
	assert_false(valid("2A"));
	assert_false(valid("A-B"));
	assert_false(valid("A=B"));
	assert_false(valid("A B"));
	assert_false(valid("\xc3\xa9"));
	/* only name[0..len) counts: "A=1" up to the '=' */
	assert_true(tc_env_name_valid("A=1", 1));
}

static void test_name_problem(void **state)
{
	(void)state;
	assert_null(tc_env_name_problem("HOME", 4));
	assert_string_equal(tc_env_name_problem("9X", 2),
			    "is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
	assert_string_equal(
		tc_env_name_problem("TOOLCELL_X", 10),
		"starts with TOOLCELL_: toolcell's own settings are never passed to the tool");
	assert_null(tc_env_name_problem("TOOLCELL", 8)); /* not the prefix itself */
	assert_null(tc_env_name_problem("toolcell_x", 10));
}

static void test_entry_find_get(void **state)
{
	char *env[3] = { NULL };
	char *long_value = malloc(TC_ENV_ENTRY_MAX);
	char *const envp[] = { "A=1", "AB=2", "E=", NULL };

	(void)state;
	env[0] = tc_env_entry("A", 1, "1");
	env[1] = tc_env_entry("BC=ignored", 2, "x=y");
	assert_string_equal(env[0], "A=1");
	assert_string_equal(env[1], "BC=x=y");
	assert_int_equal(tc_env_find(env, 2, "BC", 2), 1);
	assert_int_equal(tc_env_find(env, 2, "B", 1), 2); /* "BC" is not "B" */
	assert_non_null(long_value);
	memset(long_value, 'v', TC_ENV_ENTRY_MAX - 1);
	long_value[TC_ENV_ENTRY_MAX - 1] = '\0';
	errno = 0;
	assert_null(tc_env_entry("A", 1, long_value)); /* 1 + 1 + 32767 bytes */
	assert_int_equal(errno, E2BIG);
	long_value[TC_ENV_ENTRY_MAX - 2] = '\0';
	env[2] = tc_env_entry("A", 1, long_value); /* exactly TC_ENV_ENTRY_MAX */
	assert_non_null(env[2]);
	assert_string_equal(tc_env_get(envp, "A"), "1");
	assert_string_equal(tc_env_get(envp, "AB"), "2");
	assert_string_equal(tc_env_get(envp, "E"), "");
	assert_null(tc_env_get(envp, "B"));
	assert_null(tc_env_get(NULL, "A"));
	for (int i = 0; i < 3; i++)
		free(env[i]);
	free(long_value);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_name_valid), cmocka_unit_test(test_name_problem),
	     cmocka_unit_test(test_entry_find_get))
