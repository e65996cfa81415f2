/* Unit tests for the stream buffers: caps cut at exactly the cap, capture
 * mode, memory input, and the tail used for diagnosis. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tc-test.h"
#include "relay.h"

static struct tc_stream s; /* 64 KiB buffer: not on the stack */

static void test_cap_capture(void **state)
{
	int p[2];
	char chunk[1000];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(tc_stream_init(&s, p[0], -1, false, 2500), 0);
	memset(chunk, 'x', sizeof(chunk));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(write(p[1], chunk, sizeof(chunk)), (ssize_t)sizeof(chunk));
		assert_int_equal(tc_stream_read(&s), 0);
	}
	/* 3000 bytes offered, exactly 2500 kept, and the overflow flagged */
	assert_true(s.overflow);
	assert_int_equal(s.passed, 2500);
	assert_int_equal(s.mem_len, 2500);
	assert_int_equal(s.mem[2500], '\0');
	close(p[1]);
	assert_int_equal(tc_stream_read(&s), 0);
	assert_true(s.src_eof);
	assert_true(tc_stream_done(&s));
	close(p[0]);
	tc_stream_release(&s);
}

static void test_relay_to_fd(void **state)
{
	int in[2], out[2];
	char buf[64];

	(void)state;
	assert_int_equal(pipe2(in, O_CLOEXEC), 0);
	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	assert_int_equal(tc_stream_init(&s, in[0], out[1], true, UINT64_MAX), 0);
	assert_int_equal(write(in[1], "hello", 5), 5);
	assert_true(tc_stream_want_read(&s));
	assert_int_equal(tc_stream_read(&s), 0);
	assert_true(tc_stream_want_write(&s));
	assert_int_equal(tc_stream_write(&s), 0);
	assert_false(tc_stream_want_write(&s));
	assert_int_equal(read(out[0], buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(s.passed, 5);
	/* nobody reads any more: the rest is dropped, not an error to the loop */
	close(out[0]);
	assert_int_equal(write(in[1], "more", 4), 4);
	assert_int_equal(tc_stream_read(&s), 0);
	assert_int_equal(tc_stream_write(&s), -EPIPE);
	assert_true(s.dst_gone);
	assert_true(tc_stream_done(&s));
	close(in[0]);
	close(in[1]);
	close(out[1]);
	tc_stream_release(&s);
}

static void test_memory_input(void **state)
{
	int p[2];
	char buf[16];

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(tc_stream_init(&s, -1, p[1], true, UINT64_MAX), 0);
	s.mem_in = "{\"a\":1}";
	s.mem_in_len = 7;
	assert_int_equal(tc_stream_read(&s), 0);
	assert_true(s.src_eof);
	assert_int_equal(tc_stream_write(&s), 0);
	assert_true(tc_stream_done(&s));
	assert_int_equal(read(p[0], buf, sizeof(buf)), 7);
	assert_memory_equal(buf, "{\"a\":1}", 7);
	close(p[0]);
	close(p[1]);
	tc_stream_release(&s);
}

static void test_last_line(void **state)
{
	int p[2];
	char line[64];
	const char *tb = "Traceback (most recent call last):\n  File \"<string>\", line 2\n"
			 "MemoryError\n\n";

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(tc_stream_init(&s, p[0], -1, false, UINT64_MAX), 0);
	assert_int_equal(write(p[1], tb, strlen(tb)), (ssize_t)strlen(tb));
	assert_int_equal(tc_stream_read(&s), 0);
	tc_stream_last_line(&s, line, sizeof(line));
	assert_string_equal(line, "MemoryError");
	/* the tail keeps the last bytes even past a cap */
	s.cap = 0;
	assert_int_equal(write(p[1], "BlockingIOError: [Errno 11]\n", 28), 28);
	assert_int_equal(tc_stream_read(&s), 0);
	tc_stream_last_line(&s, line, sizeof(line));
	assert_string_equal(line, "BlockingIOError: [Errno 11]");
	close(p[0]);
	close(p[1]);
	tc_stream_release(&s);
}

/* toolcell ignores SIGPIPE; a write to a closed pipe is EPIPE */
static int ignore_sigpipe(void **state)
{
	(void)state;
	return signal(SIGPIPE, SIG_IGN) == SIG_ERR ? -1 : 0;
}

TC_TEST_MAIN(ignore_sigpipe, NULL, cmocka_unit_test(test_cap_capture),
	     cmocka_unit_test(test_relay_to_fd), cmocka_unit_test(test_memory_input),
	     cmocka_unit_test(test_last_line))
