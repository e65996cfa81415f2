/* Unit tests for the namespaces' own sysctls a sandbox gets. */
#include <string.h>

#include "tc-test.h"
#include "klimits.h"

static const char *value(const struct tc_klimits *k, const char *path)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->set[i].path, path))
			return k->set[i].value;
	return NULL;
}

static void test_counts_and_buffers(void **state)
{
	struct tc_klimits k;

	(void)state;
	tc_klimits_plan(64ull << 20, false, &k);
	assert_string_equal(value(&k, "user/max_inotify_instances"), "4");
	assert_string_equal(value(&k, "user/max_inotify_watches"), "512");
	assert_string_equal(value(&k, "user/max_fanotify_groups"), "0");
	assert_string_equal(value(&k, "user/max_user_namespaces"), "0");
	assert_string_equal(value(&k, "user/max_net_namespaces"), "0");
	assert_string_equal(value(&k, "user/max_time_namespaces"), "0");
	assert_string_equal(value(&k, "net/ipv4/tcp_rmem"), "4096 65536 262144");
	assert_string_equal(value(&k, "net/ipv4/tcp_wmem"), "4096 16384 262144");
	/* System V IPC off the filter: its sysctls are left alone */
	assert_null(value(&k, "kernel/shmall"));
	assert_int_equal(k.n, 15);
}

static void test_sysv_within_memory(void **state)
{
	struct tc_klimits k;

	(void)state;
	tc_klimits_plan(64ull << 20, true, &k);
	/* a quarter of the memory limit, in bytes and in pages */
	assert_string_equal(value(&k, "kernel/shmmax"), "16777216");
	assert_string_equal(value(&k, "kernel/shmall"), "4096");
	assert_string_equal(value(&k, "kernel/msgmni"), "16");
	assert_string_equal(value(&k, "kernel/sem"), "32 256 32 16");
	assert_true(k.n <= TC_KLIMITS_MAX);
}

/* Who writes what: the network helper only the network namespace's and
 * max_net_namespaces (its own unshare of that namespace must come first:
 * written by the child beside it, 0 could refuse that unshare), the child
 * every other one, through its fresh /proc, off the helper's longer path. */
static void test_writers(void **state)
{
	struct tc_klimits k;
	size_t helper = 0;

	(void)state;
	tc_klimits_plan(64ull << 20, true, &k);
	for (size_t i = 0; i < k.n; i++) {
		bool net = strncmp(k.set[i].path, "net/", 4) == 0 ||
			   strcmp(k.set[i].path, "user/max_net_namespaces") == 0;

		assert_int_equal(k.set[i].helper, net);
		helper += k.set[i].helper;
	}
	assert_int_equal(helper, 4);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_counts_and_buffers),
	     cmocka_unit_test(test_sysv_within_memory), cmocka_unit_test(test_writers))
