/* Unit tests for a policy's requirements against this host: none asked is
 * met; a Landlock ABI no kernel has, or a cgroup parent that does not
 * exist, is not, with the policy named and the fix said. */
#include <string.h>

#include "tc-test.h"
#include "require.h"

static void test_none(void **state)
{
	struct tc_config cfg = { 0 };
	char why[1024] = "untouched";

	(void)state;
	assert_false(tc_require_unmet(&cfg, "p.json", why, sizeof(why)));
	assert_string_equal(why, "untouched");
}

static void test_landlock(void **state)
{
	struct tc_config cfg = { .require_landlock = 999 };
	char why[1024];

	(void)state;
	assert_true(tc_require_unmet(&cfg, "p.json", why, sizeof(why)));
	assert_true(strncmp(why, "p.json requires Landlock ABI 999 or later; this kernel has ",
			    59) == 0);
}

static void test_cgroup(void **state)
{
	static char parent[] = "/nonexistent/toolcell";
	struct tc_config cfg = { .require_cgroup2 = true, .cgroup_parent = parent };
	char why[1024];

	(void)state;
	/* the policy's own parent: the message names the policy and how to delegate */
	assert_true(tc_require_unmet(&cfg, "p.json", why, sizeof(why)));
	assert_true(strncmp(why, "p.json requires cgroup v2 limits in its cgroup_parent: ", 55) ==
		    0);
	/* the caller's: the cgroup module's own message */
	cfg.cgroup_parent_from_caller = true;
	assert_true(tc_require_unmet(&cfg, "p.json", why, sizeof(why)));
	assert_null(strstr(why, "p.json"));
	assert_non_null(strstr(why, parent));
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_none), cmocka_unit_test(test_landlock),
	     cmocka_unit_test(test_cgroup))
