/* Unit tests for host paths before clone: text normalization, which bind
 * shows a host path inside, the run's working directory, writable binds. */
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "paths.h"

static void test_absolute(void **state)
{
	char out[PATH_MAX], long_name[PATH_MAX];

	(void)state;
	assert_true(tc_path_absolute("/a/./b//c/", NULL, out));
	assert_string_equal(out, "/a/b/c");
	assert_true(tc_path_absolute("x/../y", "/home/u", out));
	assert_string_equal(out, "/home/u/y");
	assert_true(tc_path_absolute("../../../..", "/home/u", out));
	assert_string_equal(out, "/");
	assert_true(tc_path_absolute("/", NULL, out));
	assert_string_equal(out, "/");
	/* by text alone: a symbolic link is left in place */
	assert_true(tc_path_absolute("/proc/self/../1", NULL, out));
	assert_string_equal(out, "/proc/1");
	/* too long for PATH_MAX */
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_false(tc_path_absolute(long_name, "/", out));
}

static struct tc_config config(void)
{
	static char ro_host[] = "/srv/data", ro_in[] = "/data", rw_host[] = "/srv/out",
		    rw_in[] = "/out", ws[] = "/home/u/ws", ws_in[] = "/workspace";
	struct tc_config cfg = { 0 };

	cfg.binds[0] = (struct tc_bind){ ro_host, ro_in, false };
	cfg.binds[1] = (struct tc_bind){ rw_host, rw_in, true };
	cfg.n_binds = 2;
	cfg.workspace = ws;
	cfg.workspace_inside = ws_in;
	return cfg;
}

static void expect_inside(const struct tc_config *cfg, const struct tc_bind *extra, size_t n,
			  const char *host, const char *inside)
{
	char *r = tc_path_inside(cfg, extra, n, host);

	if (!inside) {
		assert_null(r);
		return;
	}
	assert_non_null(r);
	assert_string_equal(r, inside);
	free(r);
}

static void test_inside(void **state)
{
	struct tc_config cfg = config();
	struct tc_bind script = { "/opt/tools", "/opt/tools", false };

	(void)state;
	expect_inside(&cfg, NULL, 0, "/srv/data", "/data");
	expect_inside(&cfg, NULL, 0, "/srv/data/a/b.py", "/data/a/b.py");
	expect_inside(&cfg, NULL, 0, "/srv/database", NULL); /* a prefix, not a folder */
	expect_inside(&cfg, NULL, 0, "/home/u/ws/src", "/workspace/src");
	expect_inside(&cfg, NULL, 0, "/opt/tools/t.py", NULL);
	expect_inside(&cfg, &script, 1, "/opt/tools/t.py", "/opt/tools/t.py");
	cfg.workspace = NULL;
	expect_inside(&cfg, NULL, 0, "/home/u/ws/src", NULL);
}

static void test_cwd(void **state)
{
	struct tc_config cfg = config();
	char *r;

	(void)state;
	/* the caller's folder as a bind shows it */
	r = tc_path_choose_cwd(&cfg, NULL, 0, "/srv/out/run1");
	assert_string_equal(r, "/out/run1");
	free(r);
	/* not shown: the workspace */
	r = tc_path_choose_cwd(&cfg, NULL, 0, "/etc");
	assert_string_equal(r, "/workspace");
	free(r);
	/* neither: / */
	cfg.workspace = NULL;
	r = tc_path_choose_cwd(&cfg, NULL, 0, "/etc");
	assert_string_equal(r, "/");
	free(r);
}

static void test_beneath(void **state)
{
	(void)state;
	assert_true(tc_path_beneath("/a/b", "/a"));
	assert_true(tc_path_beneath("/a", "/a"));
	assert_false(tc_path_beneath("/ab", "/a"));
	assert_true(tc_path_beneath("/anything", "/"));
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_absolute), cmocka_unit_test(test_inside),
	     cmocka_unit_test(test_cwd), cmocka_unit_test(test_beneath))
