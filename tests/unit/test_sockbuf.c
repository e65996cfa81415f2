/* Unit tests for the socket-buffer clamp's pure parts: the cap a memory
 * limit gives, and which notifications the clamp claims. */
#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "tc-test.h"
#include "sockbuf.h"

static void test_cap(void **state)
{
	(void)state;
	assert_int_equal(tc_sockbuf_cap(64ull << 20), 256u << 10);
	assert_int_equal(tc_sockbuf_cap(1ull << 30), 4u << 20);
	/* a small limit keeps ordinary buffers */
	assert_int_equal(tc_sockbuf_cap(8ull << 20), TC_SOCKBUF_FLOOR);
	assert_int_equal(tc_sockbuf_cap(1), TC_SOCKBUF_FLOOR);
	/* no limit: the kernel's own maximum stands */
	assert_int_equal(tc_sockbuf_cap(0), INT_MAX);
	assert_int_equal(tc_sockbuf_cap(UINT64_MAX), INT_MAX);
	assert_int_equal(tc_sockbuf_cap(UINT64_MAX - 1), INT_MAX);
}

static struct seccomp_notif call(int nr, uint64_t level, uint64_t opt)
{
	struct seccomp_notif n;

	memset(&n, 0, sizeof(n));
	n.data.nr = nr;
	n.data.args[1] = level;
	n.data.args[2] = opt;
	return n;
}

static void test_claims(void **state)
{
	static const int opts[] = { SO_SNDBUF, SO_RCVBUF, SO_SNDBUFFORCE, SO_RCVBUFFORCE };

	(void)state;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		struct seccomp_notif n = call(SYS_setsockopt, SOL_SOCKET, (uint64_t)opts[i]);
		assert_true(tc_sockbuf_claims(&n));
		/* compared on the whole registers, as the filter compares */
		n = call(SYS_setsockopt, SOL_SOCKET | 1ull << 32, (uint64_t)opts[i]);
		assert_false(tc_sockbuf_claims(&n));
		n = call(SYS_setsockopt, SOL_SOCKET, (uint64_t)opts[i] | 1ull << 32);
		assert_false(tc_sockbuf_claims(&n));
		n = call(SYS_getsockopt, SOL_SOCKET, (uint64_t)opts[i]);
		assert_false(tc_sockbuf_claims(&n));
	}
	struct seccomp_notif n = call(SYS_setsockopt, SOL_SOCKET, SO_REUSEADDR);
	assert_false(tc_sockbuf_claims(&n));
	n = call(SYS_setsockopt, 6 /* IPPROTO_TCP */, SO_SNDBUF);
	assert_false(tc_sockbuf_claims(&n));
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_cap), cmocka_unit_test(test_claims))
