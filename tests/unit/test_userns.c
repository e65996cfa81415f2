/* Unit tests for the uid/gid maps and the /etc/subuid overlap check. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "userns.h"

static void test_pool_maps(void **state)
{
	struct tc_ids ids = { .pool = true,
			      .root_host = 1879048192,
			      .tool_host_uid = 1879048193,
			      .tool_host_gid = 1879048193 };

	(void)state;
	tc_userns_format_maps(&ids);
	/* namespace root and the tool each map to one unprivileged host id */
	assert_string_equal(ids.uid_map, "0 1879048192 1\n1000 1879048193 1\n");
	assert_string_equal(ids.gid_map, "0 1879048192 1\n1000 1879048193 1\n");
}

static void test_caller_maps(void **state)
{
	struct tc_ids ids = { .pool = false, .tool_host_uid = 4242, .tool_host_gid = 77 };

	(void)state;
	tc_userns_format_maps(&ids);
	assert_string_equal(ids.uid_map, "1000 4242 1\n");
	assert_string_equal(ids.gid_map, "1000 77 1\n");
}

static void test_overlaps(void **state)
{
	const char *subuid = "alice:100000:65536\n"
			     "# a comment\n"
			     "junk line\n"
			     "bob:165536:65536\n";

	(void)state;
	assert_false(tc_userns_overlaps_subids(subuid, 1879048192, 65536));
	assert_false(tc_userns_overlaps_subids(subuid, 0, 100000));	  /* ends just before */
	assert_false(tc_userns_overlaps_subids(subuid, 231072, 10));	  /* starts just after */
	assert_true(tc_userns_overlaps_subids(subuid, 99999, 2));	  /* touches the first */
	assert_true(tc_userns_overlaps_subids(subuid, 231071, 1));	  /* last id of bob */
	assert_true(tc_userns_overlaps_subids(subuid, 150000, 1));	  /* inside */
	assert_true(tc_userns_overlaps_subids(subuid, 0, 4000000000ull)); /* covers all */
	assert_false(tc_userns_overlaps_subids("", 0, 10));
	assert_false(tc_userns_overlaps_subids("x:5:0\n", 0, 10)); /* empty range */
	assert_true(tc_userns_overlaps_subids("x:5:1", 5, 1));	   /* no final newline */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_maps),
		cmocka_unit_test(test_caller_maps),
		cmocka_unit_test(test_overlaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
