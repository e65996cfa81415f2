/* Unit tests for the one list of places the tool may write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc-test.h"
#include "writable.h"

static void test_places(void **state)
{
	struct tc_config cfg;
	struct tc_writable w[TC_WRITABLE_MAX];
	size_t n;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	n = tc_writable_places(&cfg, w);
	assert_int_equal(n, 2);
	assert_int_equal(w[0].kind, TC_WRITABLE_TMP);
	assert_string_equal(w[0].inside, "/tmp");
	assert_null(w[0].host);
	assert_int_equal(w[1].kind, TC_WRITABLE_SHM);
	assert_string_equal(w[1].inside, "/dev/shm");

	cfg.binds[0] = (struct tc_bind){ .host = "/srv/ro", .inside = "/ro" };
	cfg.binds[1] = (struct tc_bind){ .host = "/srv/out", .inside = "/out", .writable = true };
	cfg.n_binds = 2;
	cfg.workspace = "/srv/ws";
	cfg.workspace_inside = "/workspace";
	n = tc_writable_places(&cfg, w);
	/* a read-only bind is no place to write; the workspace comes last */
	assert_int_equal(n, 4);
	assert_int_equal(w[2].kind, TC_WRITABLE_BIND);
	assert_string_equal(w[2].inside, "/out");
	assert_string_equal(w[2].host, "/srv/out");
	assert_int_equal(w[2].bind, 1);
	assert_int_equal(w[3].kind, TC_WRITABLE_WORKSPACE);
	assert_string_equal(w[3].inside, "/workspace");
	assert_string_equal(w[3].host, "/srv/ws");

	/* every bind writable, and a workspace: the list's bound holds */
	for (size_t i = 0; i < TC_MAX_BINDS; i++)
		cfg.binds[i] = (struct tc_bind){ .host = "/srv", .inside = "/x", .writable = true };
	cfg.n_binds = TC_MAX_BINDS;
	assert_int_equal(tc_writable_places(&cfg, w), TC_WRITABLE_MAX);
}

static void test_holding(void **state)
{
	char tmpl[] = "/tmp/tc-writable.XXXXXX";
	char *dir = mkdtemp(tmpl), real[4096], sub[4200];
	struct tc_config cfg;

	(void)state;
	assert_non_null(dir);
	assert_non_null(realpath(dir, real));
	memset(&cfg, 0, sizeof(cfg));
	cfg.binds[0] = (struct tc_bind){ .host = dir, .inside = "/out", .writable = true };
	cfg.binds[1] =
		(struct tc_bind){ .host = "/nonexistent/x", .inside = "/y", .writable = true };
	cfg.n_binds = 2;
	assert_ptr_equal(tc_writable_holding(&cfg, real), dir);
	snprintf(sub, sizeof(sub), "%s/deeper", real);
	assert_ptr_equal(tc_writable_holding(&cfg, sub), dir);
	/* a sibling that only starts with the same letters is not inside */
	snprintf(sub, sizeof(sub), "%sx", real);
	assert_null(tc_writable_holding(&cfg, sub));
	/* read-only: no place to write */
	cfg.binds[0].writable = false;
	assert_null(tc_writable_holding(&cfg, real));
	/* the workspace's host folder counts */
	cfg.workspace = dir;
	cfg.workspace_inside = "/workspace";
	assert_ptr_equal(tc_writable_holding(&cfg, real), dir);
	rmdir(dir);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_places), cmocka_unit_test(test_holding))
