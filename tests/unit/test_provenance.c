/* Unit tests for the record's provenance: the builder's digest of the
 * rootfs manifest when it is well formed, else the manifest hashed; the
 * tool's digest; links never followed. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "provenance.h"

/* sha256("abc") */
#define ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static char top[64]; /* /tmp/tc-test-NAME-XXXXXX */

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", top, rel);
	assert_int_equal(tc_test_write(path, text), 0);
}

static int setup(void **state)
{
	static const char *const dirs[] = { "/usr", "/usr/lib", "/usr/lib/toolcell" };
	char dir[PATH_MAX];

	(void)state;
	if (tc_test_tmpdir(top, sizeof(top), "provenance") < 0)
		return -1;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", top, dirs[i]);
		if (mkdir(dir, 0755) < 0)
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tc_test_rmtree(top);
}

static void test_rootfs(void **state)
{
	unsigned char policy[32] = { 0xab };
	struct tc_outcome o;
	char digest[70];

	(void)state;
	tc_outcome_init(&o);
	put(TC_PROVENANCE_MANIFEST, "abc");
	/* no digest file: the manifest hashed */
	tc_provenance_run(&o, policy, "/etc/p.json", top);
	assert_string_equal(o.rootfs_sha256, ABC);
	assert_string_equal(o.policy_path, "/etc/p.json");
	assert_memory_equal(o.policy_sha256, "ab00", 4);
	assert_int_equal(strlen(o.policy_sha256), 64);
	/* the builder's digest is taken as written */
	snprintf(digest, sizeof(digest), "%064d\n", 7);
	put(TC_PROVENANCE_DIGEST, digest);
	tc_provenance_run(&o, policy, "/etc/p.json", top);
	digest[64] = '\0';
	assert_string_equal(o.rootfs_sha256, digest);
	/* a malformed one (upper case, short, no newline) is not */
	put(TC_PROVENANCE_DIGEST,
	    "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD\n");
	tc_provenance_run(&o, policy, "/etc/p.json", top);
	assert_string_equal(o.rootfs_sha256, ABC);
	put(TC_PROVENANCE_DIGEST, "0123\n");
	tc_provenance_run(&o, policy, "/etc/p.json", top);
	assert_string_equal(o.rootfs_sha256, ABC);
	/* neither readable: "" */
	tc_provenance_run(&o, policy, "/etc/p.json", "/nonexistent");
	assert_string_equal(o.rootfs_sha256, "");
}

static void test_tool(void **state)
{
	char tool[PATH_MAX], link[PATH_MAX];
	struct tc_outcome o;

	(void)state;
	tc_outcome_init(&o);
	put("/t.py", "abc");
	snprintf(tool, sizeof(tool), "%s/t.py", top);
	tc_provenance_tool(&o, tool);
	assert_string_equal(o.tool_sha256, ABC);
	assert_ptr_equal(o.tool_path, tool);
	/* a link is not followed */
	snprintf(link, sizeof(link), "%s/l.py", top);
	assert_int_equal(symlink(tool, link), 0);
	tc_provenance_tool(&o, link);
	assert_string_equal(o.tool_sha256, "");
}

TC_TEST_MAIN(setup, teardown, cmocka_unit_test(test_rootfs), cmocka_unit_test(test_tool))
