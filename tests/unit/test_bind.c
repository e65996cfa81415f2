/* bind.c: the one table of host paths never bound and inside paths the
 * launcher owns, read by the policy's and the caller's binds (by text) and
 * by mount.c's source check (after resolution). */
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tc-test.h"
#include "bind.h"
#include "bindsrc.h"

static void refused(const char *path, bool inside, const char *why)
{
	char buf[128] = "";

	assert_int_equal(tc_bind_path_check(path, inside, buf, sizeof(buf)), -EINVAL);
	assert_string_equal(buf, why);
}

static void allowed(const char *path, bool inside)
{
	char buf[128] = "";

	assert_int_equal(tc_bind_path_check(path, inside, buf, sizeof(buf)), 0);
}

static void test_host_paths(void **state)
{
	(void)state;
	allowed("/srv/data", false);
	allowed("/home/ann", false);
	allowed("/runner", false); /* not beneath /run */
	refused("/", false, "is the host's root");
	refused("/proc", false, "is at or beneath /proc, which is never bound");
	refused("/run/docker.sock", false, "is at or beneath /run, which is never bound");
	refused("/sys/fs", false, "is at or beneath /sys, which is never bound");
	refused("/dev", false, "is at or beneath /dev, which is never bound");
	refused("/home", false, "is a home directory root; bind a folder in it");
	refused("/root", false, "is a home directory root; bind a folder in it");
	refused("srv", false, "is not an absolute path");
	refused("/a//b", false,
		"is not normalized (no \".\" or \"..\" components, no \"//\", no trailing \"/\")");
	refused("/a/../b", false,
		"is not normalized (no \".\" or \"..\" components, no \"//\", no trailing \"/\")");
	refused("/a\nb", false, "contains a control character");
}

static void test_inside_paths(void **state)
{
	(void)state;
	allowed("/data", true);
	allowed("/tmp/in", true);
	allowed("/proc2", true);
	refused("/", true, "is the sandbox's root, which the launcher owns");
	refused("/usr/lib", true, "is at or beneath /usr, which the launcher owns");
	refused("/workspace", true, "is at or beneath /workspace, which the launcher owns");
	refused("/tmp/pycache/x", true, "is at or beneath /tmp/pycache, which the launcher owns");
	refused("/tmp", true, "is /tmp itself, which the launcher owns; bind below it");
}

static void test_too_long(void **state)
{
	char path[TC_PATH_MAX + 1], why[64];

	(void)state;
	path[0] = '/';
	memset(path + 1, 'a', TC_PATH_MAX - 1);
	path[TC_PATH_MAX] = '\0';
	assert_int_equal(tc_bind_path_check(path, false, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "is longer than 4095 bytes");
	path[TC_PATH_MAX - 1] = '\0';
	assert_int_equal(tc_bind_path_check(path, false, why, sizeof(why)), 0);
}

/* The source check after resolution reads the same host list. */
static void test_host_refused(void **state)
{
	(void)state;
	assert_true(tc_bind_host_refused("/"));
	assert_true(tc_bind_host_refused("/proc/self"));
	assert_true(tc_bind_host_refused("/run"));
	assert_true(tc_bind_host_refused("/home"));
	assert_false(tc_bind_host_refused("/home/ann"));
	assert_false(tc_bind_host_refused("/srv"));
	assert_true(tc_path_at_or_beneath("/a/b", "/a"));
	assert_false(tc_path_at_or_beneath("/ab", "/a"));
}

static void test_live(void **state)
{
	struct tc_config cfg = { 0 };

	(void)state;
	cfg.binds[0] = (struct tc_bind){ "/srv/in", "/in", false };
	cfg.n_binds = 1;
	assert_false(tc_binds_live(&cfg)); /* read-only binds only */
	cfg.binds[1] = (struct tc_bind){ "/srv/out", "/out", true };
	cfg.n_binds = 2;
	assert_true(tc_binds_live(&cfg));
}

/* A live bind the kernel will not idmap is refused; a read-only one is
 * bound unmapped. The initial user namespace, which no mount can be
 * idmapped to (EPERM), stands in for a file system that cannot be. */
static void test_detach_unmappable(void **state)
{
	const unsigned long long live = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;
	struct tc_error e = { 0 };
	int dir = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int ns = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	int tree = -1;

	(void)state;
	assert_true(dir >= 0 && ns >= 0);
	/* unprivileged: no detached mounts at all (the child opens it) */
	assert_int_equal(tc_bindsrc_detach(dir, "/tmp", live, ns, &tree, &e), -EPERM);
	assert_int_equal(tree, -1);
	if (geteuid() == 0) {
		assert_non_null(strstr(e.message, "cannot idmap the writable bind of /tmp"));
		assert_int_equal(
			tc_bindsrc_detach(dir, "/tmp", live | MOUNT_ATTR_RDONLY, ns, &tree, &e), 0);
		assert_true(tree >= 0);
		close(tree);
	}
	close(ns);
	close(dir);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_host_paths), cmocka_unit_test(test_inside_paths),
	     cmocka_unit_test(test_too_long), cmocka_unit_test(test_host_refused),
	     cmocka_unit_test(test_live), cmocka_unit_test(test_detach_unmappable))
