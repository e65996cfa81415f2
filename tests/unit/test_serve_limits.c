/* Unit tests for a `toolcell serve` request's own limits (serve-limits.c
 * through tc_serve_request_parse): each only lowers the server's, one above
 * it is clamped and marked, the policy's units and spellings are taken, and
 * malformed, unknown or entry-fixed limits are refused with the message
 * that names them. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "serve.h"

static uint64_t server[TC_LIMIT__MAX];

static int setup(void **state)
{
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		server[i] = tc_limit_info[i].def; /* 256M, 30 s, 1M stdout, ... */
	return 0;
}

static int parse(const char *line, struct tc_serve_request *r, struct tc_error *e)
{
	return tc_serve_request_parse(line, strlen(line), 1 << 20, server, r, e);
}

static void test_lower_and_clamped(void **state)
{
	struct tc_serve_request r;
	struct tc_error e = { 0 };

	assert_int_equal(parse("{\"kind\":\"call\",\"source\":\"x\",\"limits\":{\"memory\":\"64M\","
			       "\"timeout\":3600,\"cpu_time\":0.5,\"open_files\":32,"
			       "\"stdout_size\":4096}}",
			       &r, &e),
			 0);
	assert_int_equal(r.limit[TC_LIMIT_MEMORY], 64 << 20);
	assert_true(r.asked[TC_LIMIT_MEMORY] && !r.clamped[TC_LIMIT_MEMORY]);
	assert_int_equal(r.limit[TC_LIMIT_WALL], 30000);
	assert_int_equal(r.limit_ms, 30000);
	assert_true(r.asked[TC_LIMIT_WALL] && r.clamped[TC_LIMIT_WALL]);
	assert_int_equal(r.limit[TC_LIMIT_CPU_TIME], 500);
	assert_int_equal(r.limit[TC_LIMIT_OPEN_FILES], 32);
	assert_int_equal(r.limit[TC_LIMIT_STDOUT], 4096);
	/* what it did not ask is the server's */
	assert_false(r.asked[TC_LIMIT_PIDS]);
	assert_int_equal(r.limit[TC_LIMIT_PIDS], server[TC_LIMIT_PIDS]);
	assert_int_equal(r.limit[TC_LIMIT_STDERR], server[TC_LIMIT_STDERR]);
	tc_serve_request_release(&r);
}

static void test_timeout_s_is_limits_timeout(void **state)
{
	struct tc_serve_request r;
	struct tc_error e = { 0 };

	assert_int_equal(parse("{\"kind\":\"exec\",\"source\":\"x\",\"timeout_s\":0.0001}", &r, &e),
			 0);
	assert_int_equal(r.limit_ms, 1); /* rounded up to a whole millisecond */
	assert_true(r.asked[TC_LIMIT_WALL]);
	tc_serve_request_release(&r);
	assert_int_equal(parse("{\"kind\":\"exec\",\"source\":\"x\"}", &r, &e), 0);
	assert_int_equal(r.limit_ms, 30000);
	assert_false(r.asked[TC_LIMIT_WALL]);
	tc_serve_request_release(&r);
}

static void test_refusals(void **state)
{
	static const char *const bad[][2] = {
		{ "{\"memory\":\"lots\"}",
		  "request: limits.memory: expected a size such as \"256M\"" },
		{ "{\"memory\":-1}", "request: limits.memory: expected a size such as \"256M\"" },
		{ "{\"timeout\":\"5\"}",
		  "request: limits.timeout: expected seconds such as 30 or 0.5" },
		{ "{\"open_files\":1.5}",
		  "request: limits.open_files: expected a whole number such "
		  "as 64" },
		{ "{\"memory\":1024}", "request: limits.memory: below toolcell's minimum of 4M" },
		{ "{\"memory\":\"1T\"}",
		  "request: limits.memory: above toolcell's maximum of 64G" },
		{ "{\"pids\":4}",
		  "request: limits.pids cannot be set per call: a pool entry is built "
		  "with it (a call may set memory, timeout, cpu_time, file_size, "
		  "open_files, stdout_size, stderr_size; the server's policy sets "
		  "the rest)" },
		{ "{\"memry\":4}",
		  "request: limits: unknown limit \"memry\" (a call may set memory, "
		  "timeout, cpu_time, file_size, open_files, stdout_size, "
		  "stderr_size)" },
		{ "[1]", "request: \"limits\" must be an object" },
	};
	char line[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tc_serve_request r;
		struct tc_error e = { 0 };

		snprintf(line, sizeof(line),
			 "{\"id\":3,\"kind\":\"call\",\"source\":\"x\",\"limits\":%s}", bad[i][0]);
		assert_int_equal(parse(line, &r, &e), -EINVAL);
		assert_string_equal(e.message, bad[i][1]);
		assert_string_equal(r.id, "3"); /* the answer still carries the id */
		tc_serve_request_release(&r);
	}
}

static void test_stdin_base64(void **state)
{
	struct tc_serve_request r;
	struct tc_error e = { 0 };

	assert_int_equal(
		parse("{\"kind\":\"exec\",\"source\":\"x\",\"stdin_base64\":\"/wBh\"}", &r, &e), 0);
	assert_int_equal(r.input_len, 3);
	assert_memory_equal(r.input, "\xff\0a", 3);
	tc_serve_request_release(&r);
	assert_int_equal(parse("{\"kind\":\"exec\",\"source\":\"x\",\"stdin\":\"a\","
			       "\"stdin_base64\":\"YQ==\"}",
			       &r, &e),
			 -EINVAL);
	tc_serve_request_release(&r);
	assert_int_equal(
		parse("{\"kind\":\"call\",\"source\":\"x\",\"stdin_base64\":\"YQ==\"}", &r, &e),
		-EINVAL);
	assert_string_equal(e.message, "request: \"stdin_base64\" does not belong in a \"call\" "
				       "request");
	tc_serve_request_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lower_and_clamped),
		cmocka_unit_test(test_timeout_s_is_limits_timeout),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_stdin_base64),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
