/* Unit tests for how the files a run names are seen inside: a script bound
 * at its own path (or its folder's), one a bind covers taken by its path
 * inside, py_compile's files, the files the tool could not read, and
 * paths that may not be shown. Real files in a temporary folder. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "script.h"

static char top[64], script[PATH_MAX], other[PATH_MAX], covered[PATH_MAX];

static int setup(void **state)
{
	char dir[PATH_MAX];

	(void)state;
	if (tc_test_tmpdir(top, sizeof(top), "script") < 0)
		return -1;
	snprintf(script, sizeof(script), "%s/t.py", top);
	snprintf(other, sizeof(other), "%s/u.py", top);
	snprintf(dir, sizeof(dir), "%s/data", top);
	snprintf(covered, sizeof(covered), "%s/data/c.py", top);
	return tc_test_write(script, "pass\n") | tc_test_write(other, "pass\n") | mkdir(dir, 0700) |
	       tc_test_write(covered, "pass\n");
}

static int teardown(void **state)
{
	(void)state;
	return tc_test_rmtree(top);
}

static struct tc_config config(void)
{
	static char host[PATH_MAX];
	struct tc_config cfg = { 0 };

	snprintf(host, sizeof(host), "%s/data", top);
	cfg.binds[0] = (struct tc_bind){ host, "/data", true };
	cfg.n_binds = 1;
	return cfg;
}

static void test_show(void **state)
{
	struct tc_config cfg = config();
	struct tc_bind bind = { 0 };
	struct tc_error e = { 0 };
	char dir[PATH_MAX], *inside;

	(void)state;
	/* not covered: bound read-only at its own path */
	inside = tc_script_show(&cfg, script, false, &bind, dir, &e);
	assert_string_equal(inside, script);
	assert_string_equal(bind.host, script);
	assert_string_equal(bind.inside, script);
	assert_false(bind.writable);
	free(inside);
	/* --script-dir: its folder */
	memset(&bind, 0, sizeof(bind));
	inside = tc_script_show(&cfg, script, true, &bind, dir, &e);
	assert_string_equal(inside, script);
	assert_string_equal(bind.host, top);
	free(inside);
	/* covered by a bind: its path there, no bind added */
	memset(&bind, 0, sizeof(bind));
	inside = tc_script_show(&cfg, covered, false, &bind, dir, &e);
	assert_string_equal(inside, "/data/c.py");
	assert_null(bind.host);
	free(inside);
	/* a path toolcell may not bind */
	assert_null(tc_script_show(&cfg, "/usr/lib/python3/x.py", false, &bind, dir, &e));
	assert_int_equal(e.stage, TC_STAGE_REQUEST);
	assert_int_equal(e.err, EINVAL);
	assert_non_null(strstr(e.message, "cannot show /usr/lib/python3/x.py inside the sandbox"));
}

static void test_plan_script(void **state)
{
	struct tc_config cfg = config();
	struct tc_script_plan p;
	struct tc_error e = { 0 };
	char *words[] = { "-u", script, "arg", NULL };

	(void)state;
	assert_int_equal(tc_script_plan_python(&cfg, 3, words, 1, false, &p, &e), 0);
	assert_int_equal(p.argc, 4);
	assert_string_equal(p.argv[0], "python3");
	assert_string_equal(p.argv[1], "-u");
	assert_string_equal(p.argv[2], script);
	assert_string_equal(p.argv[3], "arg");
	assert_null(p.argv[4]);
	assert_true(p.have_script);
	assert_string_equal(p.script, script);
	assert_int_equal(p.n_binds, 1);
	assert_string_equal(p.binds[0].host, script);
	tc_script_plan_release(&p);
	/* a script a bind covers: its path inside, no bind */
	words[1] = covered;
	assert_int_equal(tc_script_plan_python(&cfg, 3, words, 1, false, &p, &e), 0);
	assert_string_equal(p.argv[2], "/data/c.py");
	assert_int_equal(p.n_binds, 0);
	tc_script_plan_release(&p);
	/* no such file: left for python3 to report, by its absolute path */
	words[1] = "/nonexistent/x.py";
	assert_int_equal(tc_script_plan_python(&cfg, 3, words, 1, false, &p, &e), 0);
	assert_false(p.have_script);
	assert_string_equal(p.argv[2], "/nonexistent/x.py");
	assert_int_equal(p.n_binds, 0);
	tc_script_plan_release(&p);
}

static void test_plan_compile(void **state)
{
	struct tc_config cfg = config();
	struct tc_script_plan p;
	struct tc_error e = { 0 };
	char *words[] = { "-m", "py_compile", script, other, covered, "missing.py", NULL };
	char *joined[] = { "-mpy_compile", script, NULL };
	char *code[] = { "-c", "pass", script, NULL };

	(void)state;
	assert_int_equal(tc_script_plan_python(&cfg, 6, words, -1, false, &p, &e), 0);
	/* two binds at the most: the third file is covered, the fourth absent */
	assert_int_equal(p.n_binds, 2);
	assert_string_equal(p.binds[0].host, script);
	assert_string_equal(p.binds[1].host, other);
	assert_string_equal(p.argv[3], script);
	assert_string_equal(p.argv[4], other);
	assert_string_equal(p.argv[5], covered); /* no room left: as given */
	assert_string_equal(p.argv[6], "missing.py");
	tc_script_plan_release(&p);
	assert_int_equal(tc_script_plan_python(&cfg, 2, joined, -1, false, &p, &e), 0);
	assert_int_equal(p.n_binds, 1);
	tc_script_plan_release(&p);
	/* -c: nothing is compiled, nothing bound */
	assert_int_equal(tc_script_plan_python(&cfg, 3, code, -1, false, &p, &e), 0);
	assert_int_equal(p.n_binds, 0);
	tc_script_plan_release(&p);
}

TC_TEST_MAIN(setup, teardown, cmocka_unit_test(test_show), cmocka_unit_test(test_plan_script),
	     cmocka_unit_test(test_plan_compile))
