/* Unit tests for sha256.c: the FIPS 180-4 example messages, incremental
 * feeding in awkward pieces, and tc_sha256_file against coreutils'
 * sha256sum on a random file. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc-test.h"
#include "toolcell/record.h"
#include "sha256.h"
#include "util.h"

static void assert_digest(const unsigned char d[32], const char *hex)
{
	char got[65];

	tc_hex_sha256(d, got);
	assert_string_equal(got, hex);
}

static void assert_sha256(const void *data, size_t len, const char *hex)
{
	unsigned char d[32];

	tc_sha256(data, len, d);
	assert_digest(d, hex);
}

static void test_fips_empty(void **state)
{
	assert_sha256("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_sha256(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_fips_abc(void **state)
{
	assert_sha256("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_fips_448_bits(void **state)
{
	static const char m[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	assert_int_equal(strlen(m) * 8, 448);
	assert_sha256(m, strlen(m),
		      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_fips_896_bits(void **state)
{
	static const char m[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
				"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

	assert_int_equal(strlen(m) * 8, 896);
	assert_sha256(m, strlen(m),
		      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_fips_million_a(void **state)
{
	static const char hex[] =
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	struct tc_sha256_ctx ctx;
	unsigned char d[32];
	char *a = malloc(1000000);
	size_t i;

	assert_non_null(a);
	memset(a, 'a', 1000000);
	assert_sha256(a, 1000000, hex);

	/* the same message fed in uneven pieces that straddle blocks */
	tc_sha256_init(&ctx);
	for (i = 0; i < 1000000;) {
		size_t n = 1 + (i * 7919) % 131;

		if (n > 1000000 - i)
			n = 1000000 - i;
		tc_sha256_update(&ctx, a + i, n);
		i += n;
	}
	tc_sha256_final(&ctx, d);
	assert_digest(d, hex);
	free(a);
}

/* Messages around the padding boundaries (55, 56, 63, 64, 65 bytes): one
 * byte at a time must equal one shot. */
static void test_incremental_boundaries(void **state)
{
	static const size_t lens[] = { 0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000 };
	unsigned char buf[1000];
	size_t i, j;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 31 + 7);
	for (i = 0; i < TC_ARRAY_SIZE(lens); i++) {
		struct tc_sha256_ctx ctx;
		unsigned char one[32], inc[32];

		tc_sha256(buf, lens[i], one);
		tc_sha256_init(&ctx);
		for (j = 0; j < lens[i]; j++)
			tc_sha256_update(&ctx, buf + j, 1);
		tc_sha256_final(&ctx, inc);
		assert_memory_equal(one, inc, 32);
	}
}

/* A 56-byte message needs a second padding block. */
static void test_padding_two_blocks(void **state)
{
	assert_sha256("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 56,
		      "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

static int random_file(char *path, size_t size)
{
	int fd = mkstemp(path);
	int ufd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	char buf[4096];

	assert_true(fd >= 0);
	assert_true(ufd >= 0);
	while (size > 0) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		assert_int_equal(tc_read_full(ufd, buf, n), (ssize_t)n);
		assert_int_equal(tc_write_all(fd, buf, n), 0);
		size -= n;
	}
	close(ufd);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void test_file_matches_sha256sum(void **state)
{
	char path[] = "/tmp/tc-sha256-XXXXXX";
	char cmd[128], expect[65] = "", got[65];
	unsigned char d[32];
	size_t size = 3 * 16384 + 1234; /* several reads, a partial last one */
	int fd = random_file(path, size);
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%64s", expect), 1);
	assert_int_equal(pclose(p), 0);

	assert_int_equal(tc_sha256_file(fd, size, d), 0); /* exactly the cap is fine */
	tc_hex_sha256(d, got);
	assert_string_equal(got, expect);

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	memset(d, 0x5a, sizeof(d));
	assert_int_equal(tc_sha256_file(fd, size - 1, d), -EFBIG);
	assert_int_equal(d[0], 0x5a); /* untouched */

	close(fd);
	unlink(path);
}

static void test_file_empty_and_bad_fd(void **state)
{
	char path[] = "/tmp/tc-sha256-XXXXXX";
	unsigned char d[32];
	int fd = random_file(path, 0);

	assert_int_equal(tc_sha256_file(fd, 0, d), 0);
	assert_digest(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	close(fd);
	unlink(path);
	assert_int_equal(tc_sha256_file(-1, 100, d), -EBADF);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_fips_empty), cmocka_unit_test(test_fips_abc),
	     cmocka_unit_test(test_fips_448_bits), cmocka_unit_test(test_fips_896_bits),
	     cmocka_unit_test(test_fips_million_a), cmocka_unit_test(test_incremental_boundaries),
	     cmocka_unit_test(test_padding_two_blocks),
	     cmocka_unit_test(test_file_matches_sha256sum),
	     cmocka_unit_test(test_file_empty_and_bad_fd))
