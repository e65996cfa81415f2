/* Unit tests for the install layout: a build tree beside the binary, an
 * install's compiled-in dirs, the rootfs variants' places, the names
 * `toolcell version --paths` prints. Real folders in a temporary one. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "layout.h"
#include "util.h"

static char top[64]; /* /tmp/tc-test-layout-XXXXXX */

static int setup(void **state)
{
	(void)state;
	return tc_test_tmpdir(top, sizeof(top), "layout");
}

static int teardown(void **state)
{
	(void)state;
	return tc_test_rmtree(top);
}

/* top/rel made: a folder, or with text a file */
static void make(const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(text ? tc_test_write(path, text) : mkdir(path, 0755), 0);
}

static void expect_path(const struct tc_layout *l, enum tc_layout_path p, const char *rel)
{
	char want[PATH_MAX];

	snprintf(want, sizeof(want), "%s%s%s", top, rel[0] ? "/" : "", rel);
	assert_string_equal(l->path[p], want);
}

static void test_names(void **state)
{
	static const char *const names[] = { "libexec", "policies", "site", "state", "rootfs" };

	(void)state;
	assert_int_equal(TC_ARRAY_SIZE(names), TC_LAYOUT__MAX);
	for (int p = 0; p < TC_LAYOUT__MAX; p++) {
		assert_string_equal(tc_layout_name(p), names[p]);
		assert_int_equal(tc_layout_by_name(names[p]), p);
	}
	assert_null(tc_layout_name(TC_LAYOUT__MAX));
	assert_int_equal(tc_layout_by_name("rootf"), TC_LAYOUT__MAX);
	assert_int_equal(tc_layout_by_name(""), TC_LAYOUT__MAX);
}

/* An install: nothing of toolcell's beside the binary, so the compiled-in
 * dirs; the rootfs where the install's trees are. */
static void test_install(void **state)
{
	struct tc_layout l;
	_cleanup_free_ char *data = NULL;
	char want[PATH_MAX];

	(void)state;
	tc_layout_find(top, NULL, &l);
	assert_false(l.build_tree);
	assert_false(l.builder_beside);
	assert_string_equal(l.path[TC_LAYOUT_STATE], TC_LAYOUT_STATE_DIR);
	snprintf(want, sizeof(want), "%s/rootfs", TC_LAYOUT_STATE_DIR);
	assert_string_equal(l.path[TC_LAYOUT_ROOTFS], want);
	data = tc_layout_rootfs(&l, "data");
	snprintf(want, sizeof(want), "%s/rootfs-data", TC_LAYOUT_STATE_DIR);
	assert_string_equal(data, want);
	/* the install dirs relative to the binary: beside its folder, as
	 * written when they are not there */
	for (int p = TC_LAYOUT_LIBEXEC; p <= TC_LAYOUT_POLICIES; p++) {
		assert_memory_equal(l.path[p], top, strlen(top));
		assert_memory_equal(l.path[p] + strlen(top), "/../", 4);
	}
	assert_non_null(strstr(l.path[TC_LAYOUT_POLICIES], "toolcell/policies"));
}

/* A build tree: policies/, etc/, rootfs*, the builder beside the binary. */
static void test_build_tree(void **state)
{
	struct tc_layout l;
	_cleanup_free_ char *ws = NULL, *none = NULL;
	char want[PATH_MAX];

	(void)state;
	make("policies", NULL);
	make("policies/default.json", "{\"version\": 1}\n");
	make("build-rootfs", "#!/bin/sh\n");
	make("rootfs.d", NULL);
	make("rootfs.d/v1", NULL);
	make("rootfs-workspace", NULL);
	snprintf(want, sizeof(want), "%s/rootfs", top);
	assert_int_equal(symlink("rootfs.d/v1", want), 0); /* a variant is a link */
	tc_layout_find(top, NULL, &l);
	assert_true(l.build_tree);
	assert_true(l.builder_beside);
	expect_path(&l, TC_LAYOUT_LIBEXEC, "");
	expect_path(&l, TC_LAYOUT_POLICIES, "policies");
	expect_path(&l, TC_LAYOUT_SITE, "etc"); /* as written, made or not */
	expect_path(&l, TC_LAYOUT_STATE, "");
	expect_path(&l, TC_LAYOUT_ROOTFS, "rootfs");
	ws = tc_layout_rootfs(&l, "workspace");
	snprintf(want, sizeof(want), "%s/rootfs-workspace", top);
	assert_string_equal(ws, want);
	/* a variant built nowhere: where an install would build it */
	none = tc_layout_rootfs(&l, "nosuch");
	snprintf(want, sizeof(want), "%s/rootfs-nosuch", TC_LAYOUT_STATE_DIR);
	assert_string_equal(none, want);
	/* TOOLCELL_ROOTFS: a name where a run looks for it, a path as given */
	tc_layout_find(top, "workspace", &l);
	expect_path(&l, TC_LAYOUT_ROOTFS, "rootfs-workspace");
	snprintf(want, sizeof(want), "%s/rootfs-workspace/", top);
	tc_layout_find(top, want, &l);
	expect_path(&l, TC_LAYOUT_ROOTFS, "rootfs-workspace");
}

TC_TEST_MAIN(setup, teardown, cmocka_unit_test(test_names), cmocka_unit_test(test_install),
	     cmocka_unit_test(test_build_tree))
