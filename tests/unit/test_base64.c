/* Unit tests for base64.c: RFC 4648's test vectors both ways, every byte
 * value round trip, and the decoder's refusals (length, alphabet, padding
 * in the wrong place, non-canonical last group). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"

static void test_rfc4648_vectors(void **state)
{
	static const char *const v[][2] = { { "", "" },
					    { "f", "Zg==" },
					    { "fo", "Zm8=" },
					    { "foo", "Zm9v" },
					    { "foob", "Zm9vYg==" },
					    { "fooba", "Zm9vYmE=" },
					    { "foobar", "Zm9vYmFy" } };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *enc = tc_base64_encode(v[i][0], strlen(v[i][0])), *dec = NULL;
		size_t n = 99;

		assert_string_equal(enc, v[i][1]);
		assert_int_equal(tc_base64_decode(enc, strlen(enc), &dec, &n), 0);
		assert_int_equal(n, strlen(v[i][0]));
		assert_memory_equal(dec, v[i][0], n);
		assert_int_equal(dec[n], '\0');
		free(enc);
		free(dec);
	}
}

static void test_every_byte_round_trips(void **state)
{
	unsigned char all[256];
	char *enc, *dec;
	size_t n;

	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	for (size_t len = 250; len <= 256; len++) {
		enc = tc_base64_encode(all, len);
		assert_int_equal(tc_base64_decode(enc, strlen(enc), &dec, &n), 0);
		assert_int_equal(n, len);
		assert_memory_equal(dec, all, len);
		free(enc);
		free(dec);
	}
}

static void test_refusals(void **state)
{
	static const char *const bad[] = { "Zg=",  "Zg",   "Zm9",      "Zm9v\n", "Zm 9",
					   "Z===", "====", "Zg==Zm9v", "Zh==",	 "Zm9=",
					   "Zm-v", "Zm_v", "=m9v" };
	char *dec = (char *)1;
	size_t n = 1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(tc_base64_decode(bad[i], strlen(bad[i]), &dec, &n), -EINVAL);
		assert_null(dec);
		assert_int_equal(n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc4648_vectors),
		cmocka_unit_test(test_every_byte_round_trips),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
