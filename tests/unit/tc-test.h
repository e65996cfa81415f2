/* What every unit test program shares: cmocka's headers in the order it
 * needs them, the program's main, and a private temporary folder with
 * files in it. Header only, since each test_MODULE.c is a program of its
 * own (tests/CMakeLists.txt). */
#ifndef TOOLCELL_TC_TEST_H
#define TOOLCELL_TC_TEST_H

/* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The program's main: the tests given, with the group's setup and
 * teardown (NULL for none). */
#define TC_TEST_MAIN(group_setup, group_teardown, ...)                                             \
	int main(void)                                                                             \
	{                                                                                          \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };                                 \
                                                                                                   \
		return cmocka_run_group_tests(tests, group_setup, group_teardown);                 \
	}

/* A private folder /tmp/tc-test-NAME-XXXXXX, its path into top[size]:
 * 0, or -1 when it cannot be made. */
static inline int tc_test_tmpdir(char *top, size_t size, const char *name)
{
	int n = snprintf(top, size, "/tmp/tc-test-%s-XXXXXX", name);

	return n > 0 && (size_t)n < size && mkdtemp(top) ? 0 : -1;
}

static inline int tc_test_remove_one(const char *path, const struct stat *st, int type,
				     struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* top and everything below it removed (links not followed): 0 or -1. */
static inline int tc_test_rmtree(const char *top)
{
	return nftw(top, tc_test_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The file path made (or truncated) holding text: 0 or -1. */
static inline int tc_test_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	return (fputs(text, f) >= 0) + (fclose(f) == 0) == 2 ? 0 : -1;
}

/* How many descriptors this process has open, or -1: a test compares
 * the count before and after to show nothing leaked. */
static inline int tc_test_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3; /* ., .. and the directory's own */
}

/* One message of len bytes on sock with n (1 to 8) new descriptors of
 * /dev/null in one SCM_RIGHTS, ours closed after: what sendmsg returned,
 * or -1. */
static inline ssize_t tc_test_send_fds(int sock, size_t n, const void *bytes, size_t len)
{
	union {
		char buf[CMSG_SPACE(8 * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { (void *)bytes, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	int fds[8];
	size_t k = 0;
	ssize_t r = -1;

	if (n < 1 || n > 8)
		return -1;
	memset(&u, 0, sizeof(u));
	mh.msg_control = u.buf;
	mh.msg_controllen = CMSG_SPACE(n * sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	while (k < n && (fds[k] = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
		k++;
	if (k == n) {
		memcpy(CMSG_DATA(c), fds, n * sizeof(int));
		r = sendmsg(sock, &mh, 0);
	}
	while (k > 0)
		close(fds[--k]);
	return r;
}

#endif
