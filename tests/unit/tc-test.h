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

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

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

#endif
