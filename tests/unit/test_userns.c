/* Unit tests for the uid/gid maps, the /etc/subuid overlap check and the
 * release of a run's ids. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tc-test.h"
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

/* A run that fails before tc_userns_prepare releases zeroed ids: fd 0 is
 * the caller's, never closed by that. */
static void test_release_zeroed(void **state)
{
	struct tc_ids ids = { 0 };

	(void)state;
	assert_int_equal(dup2(open("/dev/null", O_RDONLY), 0), 0);
	tc_userns_release(&ids);
	assert_int_not_equal(fcntl(0, F_GETFD), -1);
	assert_int_equal(ids.lock_fd, -1);
	tc_userns_release(&ids); /* twice: nothing to do */
	assert_int_not_equal(fcntl(0, F_GETFD), -1);
}

/* The idmap helper is not waited for when it is made (it ends on its own)
 * but reaped by release: no zombie stays behind in a long-lived caller.
 * As root the maps are written; unprivileged they are refused, and the
 * helper must be reaped all the same. */
static void test_idmap_helper_reaped(void **state)
{
	struct tc_ids ids = {
		.pool = true, .lock_fd = -1, .tool_host_uid = getuid(), .tool_host_gid = getgid()
	};
	struct tc_error err = { 0 };
	int fd = -1, r;
	pid_t pid;

	(void)state;
	r = tc_userns_idmap_open(&ids, &fd, &err);
	pid = ids.idmap_helper;
	assert_true(pid > 0);
	assert_true(geteuid() == 0 ? r == 0 && fd >= 0 : r < 0);
	if (fd >= 0)
		close(fd);
	tc_userns_release(&ids);
	assert_int_equal(ids.idmap_helper, 0);
	assert_int_equal(waitpid(pid, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_pool_maps), cmocka_unit_test(test_caller_maps),
	     cmocka_unit_test(test_overlaps), cmocka_unit_test(test_release_zeroed),
	     cmocka_unit_test(test_idmap_helper_reaped))
