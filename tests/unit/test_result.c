/* Unit tests for the result record's file: never where the tool can write,
 * opened through no symbolic link, a regular file, truncated; the caller's
 * descriptor made close-on-exec. Real files in a private temporary folder. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "result.h"

static char top[64], ws[PATH_MAX], rw[PATH_MAX], out[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	if (tc_test_tmpdir(top, sizeof(top), "result") < 0)
		return -1;
	snprintf(ws, sizeof(ws), "%s/ws", top);
	snprintf(rw, sizeof(rw), "%s/rw", top);
	snprintf(out, sizeof(out), "%s/out", top);
	return mkdir(ws, 0700) | mkdir(rw, 0700) | mkdir(out, 0700);
}

static int teardown(void **state)
{
	(void)state;
	return tc_test_rmtree(top);
}

static struct tc_config config(void)
{
	struct tc_config cfg = { 0 };

	cfg.workspace = ws;
	cfg.binds[0] = (struct tc_bind){ rw, "/rw", true };
	cfg.binds[1] = (struct tc_bind){ out, "/out", false };
	cfg.n_binds = 2;
	return cfg;
}

static void expect_place(const char *rel, int want)
{
	struct tc_config cfg = config();
	struct tc_error e = { 0 };
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	assert_int_equal(tc_result_check_place(&cfg, path, &e), want);
	if (want == -EPERM)
		assert_non_null(strstr(e.message, "which the tool can write"));
}

static void test_place(void **state)
{
	(void)state;
	expect_place("record.json", 0);
	expect_place("out/record.json", 0); /* a read-only bind */
	expect_place("ws/record.json", -EPERM);
	expect_place("rw/record.json", -EPERM);
	expect_place("ws/../rw/record.json", -EPERM); /* by text first */
	expect_place("out/../ws/record.json", -EPERM);
	expect_place("missing/record.json", -ENOENT);
}

static void test_place_through_link(void **state)
{
	char link[256], path[PATH_MAX];
	struct tc_config cfg = config();
	struct tc_error e = { 0 };
	int fd = -1;

	(void)state;
	/* a folder that is a link into the workspace is the workspace */
	snprintf(link, sizeof(link), "%s/to-ws", top);
	assert_int_equal(symlink(ws, link), 0);
	snprintf(path, sizeof(path), "%s/record.json", link);
	assert_int_equal(tc_result_check_place(&cfg, path, &e), -EPERM);
	/* and opening through a link is refused whatever it points at */
	snprintf(link, sizeof(link), "%s/to-out", top);
	assert_int_equal(symlink(out, link), 0);
	snprintf(path, sizeof(path), "%s/record.json", link);
	assert_int_equal(tc_result_open(&cfg, path, -1, &fd, &e), -ELOOP);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(e.message, "symbolic link"));
}

static void test_open(void **state)
{
	struct tc_config cfg = config();
	struct tc_error e = { 0 };
	char path[PATH_MAX];
	struct stat st;
	int fd = -1, pfd[2];

	(void)state;
	snprintf(path, sizeof(path), "%s/record.json", top);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("old contents", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(tc_result_open(&cfg, path, -1, &fd, &e), 0);
	assert_true(fd > 2);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 0); /* truncated */
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
	/* a FIFO with no reader is refused by the open itself, which did not
	 * block; a folder by the open too */
	snprintf(path, sizeof(path), "%s/fifo", top);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(tc_result_open(&cfg, path, -1, &fd, &e), -ENXIO);
	assert_non_null(strstr(e.message, "cannot open the result file"));
	assert_int_equal(tc_result_open(&cfg, top, -1, &fd, &e), -EISDIR);
	/* a device is opened, then refused */
	assert_int_equal(tc_result_open(&cfg, "/dev/null", -1, &fd, &e), -EINVAL);
	assert_non_null(strstr(e.message, "is not a regular file; use --result-fd"));
	assert_int_equal(fd, -1);
	/* no file: the caller's descriptor, made close-on-exec */
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(tc_result_open(&cfg, NULL, pfd[1], &fd, &e), 0);
	assert_int_equal(fd, pfd[1]);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(pfd[0]);
	close(pfd[1]);
	assert_int_equal(tc_result_open(&cfg, NULL, pfd[1], &fd, &e), -EBADF);
	/* neither: no record */
	assert_int_equal(tc_result_open(&cfg, NULL, -1, &fd, &e), 0);
	assert_int_equal(fd, -1);
}

TC_TEST_MAIN(setup, teardown, cmocka_unit_test(test_place),
	     cmocka_unit_test(test_place_through_link), cmocka_unit_test(test_open))
