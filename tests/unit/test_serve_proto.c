/* Unit tests for the members of a `toolcell serve` request (serve-proto.c
 * through tc_serve_request_parse): a key the protocol does not define is
 * refused, naming it and the keys the request's kind may have; a key of
 * another kind is refused as not belonging; the id is kept for the answer
 * either way. */
#include "tc-test.h"

#include <errno.h>
#include <string.h>

#include "serve.h"

static uint64_t server[TC_LIMIT__MAX];

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		server[i] = tc_limit_info[i].def;
	return 0;
}

/* line refused with -EINVAL and exactly message, its id kept as id */
static void refused(const char *line, const char *id, const char *message)
{
	struct tc_serve_request r;
	struct tc_error e = { 0 };

	assert_int_equal(tc_serve_request_parse(line, strlen(line), 1 << 20, server, &r, &e),
			 -EINVAL);
	assert_string_equal(e.message, message);
	if (id)
		assert_string_equal(r.id, id);
	else
		assert_null(r.id);
	tc_serve_request_release(&r);
}

static void test_unknown_key_per_kind(void **state)
{
	(void)state;
	refused("{\"id\":1,\"kind\":\"call\",\"source\":\"x\",\"timeout\":5}", "1",
		"request: unknown key \"timeout\" (known for \"call\": id, kind, "
		"source, args, name, timeout_s, limits)");
	refused("{\"kind\":\"exec\",\"source\":\"x\",\"env\":{},\"id\":\"e\"}", "\"e\"",
		"request: unknown key \"env\" (known for \"exec\": id, kind, source, "
		"argv, stdin, name, timeout_s, limits, stdin_base64)");
	refused("{\"id\":2,\"kind\":\"stats\",\"verbose\":true}", "2",
		"request: unknown key \"verbose\" (known for \"stats\": id, kind)");
	/* keys are compared whole and exactly: a prefix, a case or an escape
	 * that decodes to a known key's text are the same key or another */
	refused("{\"kind\":\"stats\",\"ID\":1}", NULL,
		"request: unknown key \"ID\" (known for \"stats\": id, kind)");
	refused("{\"kind\":\"stats\",\"i\":1}", NULL,
		"request: unknown key \"i\" (known for \"stats\": id, kind)");
	refused("{\"kind\":\"stats\",\"\":1}", NULL,
		"request: unknown key \"\" (known for \"stats\": id, kind)");
}

static void test_unknown_key_shown_safely(void **state)
{
	char line[512], want[512];

	(void)state;
	/* control characters as '?', a long key cut at 64 bytes with "..." */
	refused("{\"kind\":\"stats\",\"a\\u0001\\nb\":1}", NULL,
		"request: unknown key \"a??b\" (known for \"stats\": id, kind)");
	snprintf(line, sizeof(line), "{\"kind\":\"stats\",\"%0100d\":1}", 0);
	snprintf(want, sizeof(want),
		 "request: unknown key \"%064d...\" (known for \"stats\": id, kind)", 0);
	refused(line, NULL, want);
}

static void test_order_of_refusals(void **state)
{
	(void)state;
	/* the kind first (what the keys are held to), then unknown keys, then
	 * keys of another kind; the first unknown key is the one named */
	refused("{\"id\":3,\"kind\":\"dance\",\"x\":1}", "3",
		"request: \"kind\" must be \"call\", \"exec\", \"session\" or \"stats\"");
	refused("{\"id\":4,\"kind\":\"call\",\"source\":\"x\",\"argv\":[],\"b\":1,\"a\":2}", "4",
		"request: unknown key \"b\" (known for \"call\": id, kind, source, "
		"args, name, timeout_s, limits)");
	refused("{\"id\":5,\"kind\":\"call\",\"source\":\"x\",\"argv\":[]}", "5",
		"request: \"argv\" does not belong in a \"call\" request");
	/* a nested object's keys are its own member's business */
	refused("{\"id\":6,\"kind\":\"call\",\"source\":\"x\",\"limits\":{\"bogus\":1}}", "6",
		"request: limits: unknown limit \"bogus\" (a call may set memory, timeout, "
		"cpu_time, file_size, open_files, stdout_size, stderr_size)");
}

static void test_known_keys_accepted(void **state)
{
	static const char *const good[] = {
		"{\"id\":1,\"kind\":\"call\",\"source\":\"x\",\"args\":{\"any\":1},\"name\":\"t.py\","
		"\"timeout_s\":1,\"limits\":{\"memory\":\"64M\"}}",
		"{\"id\":1,\"kind\":\"exec\",\"source\":\"x\",\"argv\":[\"a\"],\"stdin\":\"s\","
		"\"name\":\"t.py\",\"limits\":{\"timeout\":1}}",
		"{\"id\":1,\"kind\":\"exec\",\"source\":\"x\",\"stdin_base64\":\"AA==\"}",
		"{\"id\":1,\"kind\":\"stats\"}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct tc_serve_request r;
		struct tc_error e = { 0 };

		assert_int_equal(
			tc_serve_request_parse(good[i], strlen(good[i]), 1 << 20, server, &r, &e),
			0);
		tc_serve_request_release(&r);
	}
}

TC_TEST_MAIN(setup, NULL, cmocka_unit_test(test_unknown_key_per_kind),
	     cmocka_unit_test(test_unknown_key_shown_safely),
	     cmocka_unit_test(test_order_of_refusals), cmocka_unit_test(test_known_keys_accepted))
