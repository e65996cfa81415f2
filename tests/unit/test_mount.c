/* Unit tests for the mount plan: the order of the steps (the property that
 * makes the root read-only before anything writable joins) and the checks
 * on bind sources. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "tc-test.h"
#include "bindsrc.h"
#include "mount.h"

static struct tc_config base_config(void)
{
	struct tc_config cfg = { 0 };

	cfg.rootfs = "/opt/rootfs";
	cfg.limit[TC_LIMIT_TMP] = 64 << 20;
	cfg.limit[TC_LIMIT_TMP_INODES] = 4096;
	cfg.limit[TC_LIMIT_SHM] = 16 << 20;
	return cfg;
}

/* index of the first step with this kind and staged target, or -1 */
static int find(const struct tc_mount_plan *p, enum tc_mount_step step, const char *target)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->ops[i].step == step &&
		    (!target || (p->ops[i].target && strcmp(p->ops[i].target, target) == 0)))
			return (int)i;
	return -1;
}

static void test_order(void **state)
{
	struct tc_config cfg = base_config();
	struct tc_mount_plan p;
	struct tc_error e = { 0 };
	int lock, tmp;

	(void)state;
	cfg.binds[0] = (struct tc_bind){ "/srv/data", "/data", false };
	cfg.binds[1] = (struct tc_bind){ "/srv/out", "/out", true };
	cfg.n_binds = 2;
	cfg.workspace = "/srv/ws";
	cfg.workspace_inside = "/workspace";
	assert_int_equal(tc_mount_plan_build(&cfg, NULL, 0, NULL, "/workspace", &p, &e), 0);
	assert_int_equal(p.ops[0].step, TC_MS_STAGE);
	assert_int_equal(p.ops[p.n - 1].step, TC_MS_PIVOT);
	assert_string_equal(p.cwd, "/workspace");
	lock = find(&p, TC_MS_LOCK, NULL);
	tmp = find(&p, TC_MS_TMPFS, TC_STAGING "/tmp");
	assert_true(lock > 0);
	/* read-only content and /proc come before the lock ... */
	assert_in_range(find(&p, TC_MS_BIND, TC_STAGING "/usr"), 1, lock - 1);
	assert_in_range(find(&p, TC_MS_BIND, TC_STAGING "/etc"), 1, lock - 1);
	assert_in_range(find(&p, TC_MS_BIND, TC_STAGING "/data"), 1, lock - 1);
	assert_in_range(find(&p, TC_MS_PROC, TC_STAGING "/proc"), 1, lock - 1);
	/* ... every mount point exists before it ... */
	assert_in_range(find(&p, TC_MS_MKDIR, TC_STAGING "/out"), 1, lock - 1);
	assert_in_range(find(&p, TC_MS_MKDIR, TC_STAGING "/workspace"), 1, lock - 1);
	assert_in_range(find(&p, TC_MS_MKFILE, TC_STAGING "/dev/null"), 1, lock - 1);
	/* ... and everything writable comes after it */
	assert_true(tmp > lock);
	assert_true(find(&p, TC_MS_BIND, TC_STAGING "/out") > lock);
	assert_true(find(&p, TC_MS_BIND, TC_STAGING "/workspace") > lock);
	assert_true(find(&p, TC_MS_TMPFS, TC_STAGING "/dev/shm") > lock);
	tc_mount_plan_release(&p);
}

static void test_attrs(void **state)
{
	struct tc_config cfg = base_config();
	struct tc_mount_plan p;
	struct tc_error e = { 0 };
	const struct tc_mount_op *op;

	(void)state;
	cfg.binds[0] = (struct tc_bind){ "/srv/out", "/out", true };
	cfg.n_binds = 1;
	assert_int_equal(tc_mount_plan_build(&cfg, NULL, 0, NULL, "/", &p, &e), 0);
	op = &p.ops[find(&p, TC_MS_TMPFS, TC_STAGING "/tmp")];
	assert_int_equal(op->attrs, TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC);
	assert_string_equal(op->data, "mode=1777,size=67108864,nr_inodes=4096");
	op = &p.ops[find(&p, TC_MS_BIND, TC_STAGING "/out")];
	assert_int_equal(op->attrs, TC_MA_NOSUID | TC_MA_NODEV); /* writable */
	op = &p.ops[find(&p, TC_MS_BIND, TC_STAGING "/dev/null")];
	/* a device node keeps dev, and nothing else */
	assert_int_equal(op->attrs, TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NOEXEC);
	op = &p.ops[find(&p, TC_MS_PROC, NULL)];
	assert_string_equal(op->data, "hidepid=invisible");
	assert_int_equal(op->attrs, TC_MA_NOSUID | TC_MA_NODEV | TC_MA_NOEXEC);
	op = &p.ops[find(&p, TC_MS_BIND, TC_STAGING "/tmp/pycache/usr")];
	assert_string_equal(op->source, "/opt/rootfs/usr/lib/toolcell/pycache/usr");
	assert_true(op->optional);
	assert_true(op->attrs & TC_MA_RDONLY);
	tc_mount_plan_release(&p);
}

static void test_script_under_tmp(void **state)
{
	struct tc_config cfg = base_config();
	struct tc_bind extra[1] = { { "/tmp/job/tool.py", "/tmp/job/tool.py", false } };
	bool is_dir[1] = { false };
	struct tc_mount_plan p;
	struct tc_error e = { 0 };
	int tmp, bind, parent;

	(void)state;
	cfg.binds[0] = (struct tc_bind){ "/srv/a", "/tmp/a", false };
	cfg.binds[1] = (struct tc_bind){ "/srv/b", "/tmp/b", true };
	cfg.n_binds = 2;
	assert_int_equal(tc_mount_plan_build(&cfg, extra, 1, is_dir, "/", &p, &e), 0);
	tmp = find(&p, TC_MS_TMPFS, TC_STAGING "/tmp");
	/* caller binds below /tmp too: after it, read-only or writable */
	assert_true(find(&p, TC_MS_BIND, TC_STAGING "/tmp/a") > tmp);
	assert_int_equal(p.ops[find(&p, TC_MS_BIND, TC_STAGING "/tmp/a")].attrs,
			 TC_MA_RDONLY | TC_MA_NOSUID | TC_MA_NODEV);
	assert_true(find(&p, TC_MS_BIND, TC_STAGING "/tmp/b") > tmp);
	assert_int_equal(p.ops[find(&p, TC_MS_BIND, TC_STAGING "/tmp/b")].attrs,
			 TC_MA_NOSUID | TC_MA_NODEV);
	assert_int_equal(find(&p, TC_MS_MKDIR, TC_STAGING "/tmp/b"),
			 find(&p, TC_MS_BIND, TC_STAGING "/tmp/b") - 1);
	bind = find(&p, TC_MS_BIND, TC_STAGING "/tmp/job/tool.py");
	parent = find(&p, TC_MS_MKDIR, TC_STAGING "/tmp/job");
	/* the sandbox's own /tmp would hide it: bound after, read-only */
	assert_true(bind > tmp);
	assert_true(parent > tmp && parent < bind);
	assert_int_equal(p.ops[bind - 1].step, TC_MS_MKFILE);
	assert_true(p.ops[bind].attrs & TC_MA_RDONLY);
	tc_mount_plan_release(&p);
}

static void test_parents_once(void **state)
{
	struct tc_config cfg = base_config();
	struct tc_mount_plan p;
	struct tc_error e = { 0 };
	int count = 0;

	(void)state;
	cfg.binds[0] = (struct tc_bind){ "/a", "/srv/x/a", false };
	cfg.binds[1] = (struct tc_bind){ "/b", "/srv/x/b", false };
	cfg.n_binds = 2;
	assert_int_equal(tc_mount_plan_build(&cfg, NULL, 0, NULL, "/", &p, &e), 0);
	for (size_t i = 0; i < p.n; i++)
		if (p.ops[i].step == TC_MS_MKDIR &&
		    strcmp(p.ops[i].target, TC_STAGING "/srv/x") == 0)
			count++;
	assert_int_equal(count, 1);
	assert_true(find(&p, TC_MS_MKDIR, TC_STAGING "/srv") <
		    find(&p, TC_MS_MKDIR, TC_STAGING "/srv/x"));
	tc_mount_plan_release(&p);
}

static void test_relative_rootfs(void **state)
{
	struct tc_config cfg = base_config();
	struct tc_mount_plan p;
	struct tc_error e = { 0 };

	(void)state;
	cfg.rootfs = "build/rootfs";
	assert_int_equal(tc_mount_plan_build(&cfg, NULL, 0, NULL, "/", &p, &e), -EINVAL);
	assert_string_equal(e.message, "the rootfs path must be absolute");
}

static void test_check_source(void **state)
{
	char dir[] = "/tmp/tc-unit-XXXXXX", path[64];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct tc_error e = { 0 };
	bool is_dir = false;
	int fd;

	(void)state;
	assert_int_equal(tc_mount_check_source("/", &is_dir, &e), -EPERM);
	assert_string_equal(e.message,
			    "refusing to bind /: it exposes the host's whole file system");
	assert_int_equal(tc_mount_check_source("/proc/self", &is_dir, &e), -EPERM);
	assert_int_equal(tc_mount_check_source("/run", &is_dir, &e), -EPERM);
	assert_int_equal(tc_mount_check_source("/home", &is_dir, &e), -EPERM);
	assert_int_equal(tc_mount_check_source("/sysx", &is_dir, &e), -ENOENT);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(tc_mount_check_source(dir, &is_dir, &e), 0);
	assert_true(is_dir);
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
	assert_int_equal(tc_mount_check_source(path, &is_dir, &e), 0);
	assert_false(is_dir);
	unlink(path);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/s", dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(tc_mount_check_source(sa.sun_path, &is_dir, &e), -EPERM);
	assert_non_null(strstr(e.message, "(it is a socket)"));
	close(fd);
	unlink(sa.sun_path);
	snprintf(path, sizeof(path), "%s/l", dir);
	assert_int_equal(symlink("/", path), 0);
	assert_int_equal(tc_mount_check_source(path, &is_dir, &e), -ELOOP);
	assert_non_null(strstr(e.message, "it is a symbolic link (to /)"));
	unlink(path);
	rmdir(dir);
}

/* mountinfo lines: the mount point decoded, the type after " - " */
static void test_mountinfo(void **state)
{
	char point[64], fs[16];

	(void)state;
	assert_true(tc_bindsrc_parse_mountinfo(
		"36 35 98:0 / /mnt/a\\040b rw,noatime shared:1 - ext4 /dev/sda1 rw\n", point,
		sizeof(point), fs, sizeof(fs)));
	assert_string_equal(point, "/mnt/a b");
	assert_string_equal(fs, "ext4");
	assert_true(tc_bindsrc_parse_mountinfo("1 2 0:5 / /x/p rw - proc proc rw", point,
					       sizeof(point), fs, sizeof(fs)));
	assert_string_equal(point, "/x/p");
	assert_true(tc_bindsrc_special_fs(fs));
	assert_false(tc_bindsrc_special_fs("tmpfs"));
	assert_false(tc_bindsrc_special_fs("ext4"));
	assert_true(tc_bindsrc_special_fs("cgroup2"));
	/* no separator, a relative point, too long a type: not a line */
	assert_false(tc_bindsrc_parse_mountinfo("1 2 0:5 / /x rw proc", point, sizeof(point), fs,
						sizeof(fs)));
	assert_false(tc_bindsrc_parse_mountinfo("1 2 0:5 / x rw - proc p rw", point, sizeof(point),
						fs, sizeof(fs)));
	assert_false(tc_bindsrc_parse_mountinfo("1 2 0:5 / /x rw - averyveryverylongtype p", point,
						sizeof(point), fs, sizeof(fs)));
	assert_false(tc_bindsrc_parse_mountinfo("", point, sizeof(point), fs, sizeof(fs)));
}

/* the special file systems are never plain: their files go to the mount
 * table (the kernel's own, and devtmpfs, which has tmpfs's magic) */
static void test_plain_fs(void **state)
{
	static const char *const special[] = { "/proc/self/status", "/proc", "/sys/kernel",
					       "/dev/null" };

	(void)state;
	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		int fd = open(special[i], O_PATH | O_CLOEXEC);

		assert_true(fd >= 0);
		assert_false(tc_bindsrc_plain_fs(fd));
		close(fd);
	}
	assert_false(tc_bindsrc_plain_fs(-1));
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_order), cmocka_unit_test(test_attrs),
	     cmocka_unit_test(test_script_under_tmp), cmocka_unit_test(test_parents_once),
	     cmocka_unit_test(test_relative_rootfs), cmocka_unit_test(test_check_source),
	     cmocka_unit_test(test_mountinfo), cmocka_unit_test(test_plain_fs))
