/* Unit tests for protocol.c: strict UTF-8, request validation with the
 * exact message of every refusal, response reading (raw data bytes, error
 * responses, script-style values) and the envelope, parsed back with
 * cJSON. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tc-test.h"
#include "protocol.h"
#include "toolcell/record.h"
#include "util.h"

#define MIB (1024 * 1024)

/* ---- helpers ---- */

static int validate(const char *buf, size_t len, size_t max, struct tc_error *err)
{
	tc_error_clear(err);
	return tc_json_validate(buf, len, max, TC_STAGE_REQUEST, err);
}

static void check_good_n(const char *buf, size_t len)
{
	struct tc_error err;
	int r = validate(buf, len, MIB, &err);

	if (r != 0)
		fail_msg("refused %.*s: %s", (int)len, buf, err.message);
}

static void check_bad_n(const char *buf, size_t len, size_t max, int rc, const char *msg)
{
	struct tc_error err;

	assert_int_equal(validate(buf, len, max, &err), rc);
	assert_string_equal(err.message, msg);
	assert_int_equal(err.stage, TC_STAGE_REQUEST);
}

#define GOOD(lit)     check_good_n(lit, sizeof(lit) - 1)
#define BAD(lit, msg) check_bad_n(lit, sizeof(lit) - 1, MIB, -EINVAL, msg)
#define UTF8_OK(lit)  assert_true(tc_utf8_valid(lit, sizeof(lit) - 1))
#define UTF8_BAD(lit) assert_false(tc_utf8_valid(lit, sizeof(lit) - 1))

/* "[[[...0...]]]" with depth levels, or objects {"a":{"a":...0...}}. */
static char *nested(size_t depth, bool objects)
{
	char *s = malloc(6 * depth + 2), *p = s;
	size_t i;

	assert_non_null(s);
	for (i = 0; i < depth; i++)
		p = stpcpy(p, objects ? "{\"a\":" : "[");
	*p++ = '0';
	for (i = 0; i < depth; i++)
		*p++ = objects ? '}' : ']';
	*p = '\0';
	return s;
}

/* ---- UTF-8 ---- */

static void test_utf8_boundaries(void **state)
{
	UTF8_OK("");
	UTF8_OK("plain ascii \x7f");
	UTF8_OK("\xc2\x80");	     /* U+0080 */
	UTF8_OK("\xdf\xbf");	     /* U+07FF */
	UTF8_OK("\xe0\xa0\x80");     /* U+0800 */
	UTF8_OK("\xed\x9f\xbf");     /* U+D7FF, just below the surrogates */
	UTF8_OK("\xee\x80\x80");     /* U+E000, just above */
	UTF8_OK("\xef\xbf\xbf");     /* U+FFFF */
	UTF8_OK("\xf0\x90\x80\x80"); /* U+10000 */
	UTF8_OK("\xf4\x8f\xbf\xbf"); /* U+10FFFF */
	assert_true(tc_utf8_valid("a\0b", 3));
}

static void test_utf8_invalid(void **state)
{
	UTF8_BAD("\x80");			/* lone continuation */
	UTF8_BAD("\xc0\xaf");			/* overlong '/' */
	UTF8_BAD("\xc1\xbf");			/* overlong U+007F */
	UTF8_BAD("\xe0\x80\xaf");		/* overlong, 3 bytes */
	UTF8_BAD("\xe0\x9f\xbf");		/* overlong U+07FF */
	UTF8_BAD("\xf0\x80\x80\xaf");		/* overlong, 4 bytes */
	UTF8_BAD("\xf0\x8f\xbf\xbf");		/* overlong U+FFFF */
	UTF8_BAD("\xed\xa0\x80");		/* U+D800 */
	UTF8_BAD("\xed\xbf\xbf");		/* U+DFFF */
	UTF8_BAD("\xf4\x90\x80\x80");		/* U+110000 */
	UTF8_BAD("\xf5\x80\x80\x80");		/* lead byte above F4 */
	UTF8_BAD("\xff");			/* never in UTF-8 */
	UTF8_BAD("\xc3");			/* truncated at the end */
	UTF8_BAD("\xe2\x82");			/* truncated at the end */
	UTF8_BAD("\xc3(");			/* bad continuation */
	UTF8_BAD("\xf0\x9f\x98");		/* truncated 4-byte */
	UTF8_BAD("ok\xed\xa0\x80\xed\xb0\x80"); /* CESU-8 surrogate pair */
}

/* ---- tc_json_validate ---- */

static void test_valid_documents(void **state)
{
	GOOD("{}");
	GOOD("[]");
	GOOD("0");
	GOOD("-0");
	GOOD("-0.5e+10");
	GOOD("1E-3");
	GOOD("true");
	GOOD("null");
	GOOD("\"\"");
	GOOD(" \t\r\n{\"a\" : [ 1 , 2 , { \"b\" : null } ] }\n");
	GOOD("12345678901234567890123456789012345678901234567890123456789012345678901234567890");
	GOOD("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"]");
	GOOD("{\"\xc3\xa9\xf0\x9f\x98\x80\":\"\xe2\x82\xac\"}");
	GOOD("{\"a\":{\"a\":1},\"b\":{\"a\":2}}"); /* the same key in different objects */
	GOOD("{\"a\\u0000b\":1,\"a\\u0000c\":2}"); /* keys differ after a NUL */
	GOOD("{\"a\":1,\"A\":2,\"a \":3}");
}

static void test_empty(void **state)
{
	BAD("", "request: empty (expected one JSON value)");
	BAD(" \n\t\r ", "request: empty (expected one JSON value)");
}

static void test_size_boundary(void **state)
{
	size_t n = MIB;
	char *buf = malloc(n + 1);
	struct tc_error err;

	assert_non_null(buf);
	/* a string that fills the limit exactly is fine */
	memset(buf, 'x', n + 1);
	buf[0] = '"';
	buf[n - 1] = '"';
	assert_int_equal(validate(buf, n, MIB, &err), 0);
	/* one byte more is refused before anything else is looked at */
	buf[n - 1] = 'x';
	buf[n] = '"';
	check_bad_n(buf, n + 1, MIB, -E2BIG,
		    "request: 1048577 bytes is larger than the 1048576-byte limit");
	assert_int_equal(validate(buf, n + 1, MIB, &err), -E2BIG);
	assert_int_equal(err.err, E2BIG);
	check_bad_n("\xff\xff", 2, 1, -E2BIG, "request: 2 bytes is larger than the 1-byte limit");
	free(buf);
}

static void test_utf8_errors(void **state)
{
	BAD("\"ab\xc3(\"", "request: not valid UTF-8 at byte 3");
	BAD("[\"\xc0\xaf\"]", "request: not valid UTF-8 at byte 2");
	BAD("[\"\xe0\x80\xaf\"]", "request: not valid UTF-8 at byte 2");
	BAD("\"\xed\xa0\x80\"", "request: not valid UTF-8 at byte 1");
	BAD("\"\xf4\x90\x80\x80\"", "request: not valid UTF-8 at byte 1");
	BAD("\"\xf4\x8f\xbf\"", "request: not valid UTF-8 at byte 1");
	GOOD("\"\xf4\x8f\xbf\xbf\"");
	BAD("{\"a\":1}\xff", "request: not valid UTF-8 at byte 7");
}

static void test_syntax_errors(void **state)
{
	BAD("{\"a\":1,}", "request: not valid JSON near byte 7");
	BAD("[1,]", "request: not valid JSON near byte 3");
	BAD("[1 2]", "request: not valid JSON near byte 3");
	BAD("{\"a\" 1}", "request: not valid JSON near byte 5");
	BAD("{1:2}", "request: not valid JSON near byte 1");
	BAD("{'a':2}", "request: not valid JSON near byte 1");
	BAD("[01]", "request: not valid JSON near byte 2");
	BAD("[-]", "request: not valid JSON near byte 2");
	BAD("[.5]", "request: not valid JSON near byte 1");
	BAD("[+1]", "request: not valid JSON near byte 1");
	BAD("[1.e5]", "request: not valid JSON near byte 3");
	BAD("[1e]", "request: not valid JSON near byte 3");
	BAD("[tru]", "request: not valid JSON near byte 4");
	BAD("[nul1]", "request: not valid JSON near byte 4");
	BAD("[NaN]", "request: not valid JSON near byte 1");
	BAD("[Infinity]", "request: not valid JSON near byte 1");
	BAD("[\"\\x\"]", "request: not valid JSON near byte 3");
	BAD("[\"\\u12G4\"]", "request: not valid JSON near byte 2");
	BAD("[\"a\tb\"]", "request: not valid JSON near byte 3");    /* raw control character */
	BAD("[\"\\ud800\"]", "request: not valid JSON near byte 2"); /* lone high surrogate */
	BAD("[\"\\udc00\"]", "request: not valid JSON near byte 2"); /* lone low surrogate */
	BAD("[\"\\ud800\\u0041\"]", "request: not valid JSON near byte 2"); /* bad pair */
	BAD("/* c */ 1", "request: not valid JSON near byte 0");
	BAD("\x01{}", "request: not valid JSON near byte 0"); /* not JSON white space */
	BAD("\x0c[]", "request: not valid JSON near byte 0");
	BAD("]", "request: not valid JSON near byte 0");
}

static void test_unexpected_end(void **state)
{
	BAD("{\"a\":", "request: not valid JSON near byte 5 (unexpected end)");
	BAD("[1,", "request: not valid JSON near byte 3 (unexpected end)");
	BAD("1.", "request: not valid JSON near byte 2 (unexpected end)");
	BAD("\"abc", "request: not valid JSON near byte 4 (unexpected end)");
	BAD("\"\\", "request: not valid JSON near byte 2 (unexpected end)");
	BAD("[\"\\u00", "request: not valid JSON near byte 2");
}

static void test_trailing_garbage(void **state)
{
	static const char *const extra = "(extra data after the value; expected exactly one JSON "
					 "value)";
	char msg[200];

	snprintf(msg, sizeof(msg), "request: not valid JSON near byte 3 %s", extra);
	BAD("{} {}", msg);
	snprintf(msg, sizeof(msg), "request: not valid JSON near byte 2 %s", extra);
	BAD("{}x", msg);
	snprintf(msg, sizeof(msg), "request: not valid JSON near byte 1 %s", extra);
	BAD("01", msg);
	snprintf(msg, sizeof(msg), "request: not valid JSON near byte 6 %s", extra);
	BAD("[1]\n\n\n{}", msg);
	snprintf(msg, sizeof(msg), "request: not valid JSON near byte 2 %s", extra);
	BAD("{}\x0b", msg);
}

static void test_nul_byte(void **state)
{
	char msg[200];

	/* after the value: cJSON alone would stop at the NUL and accept */
	snprintf(msg, sizeof(msg),
		 "request: not valid JSON near byte 2 (extra data after the value; expected "
		 "exactly one JSON value)");
	BAD("{}\0", msg);
	BAD("{}\0{}", msg);
	BAD("[\"a\0b\"]", "request: not valid JSON near byte 3");
	BAD("[\0]", "request: not valid JSON near byte 1");
	BAD("\0", "request: not valid JSON near byte 0");
	GOOD("[\"a\\u0000b\"]"); /* an escaped NUL is a character like any other */
}

static void test_bom_refused(void **state)
{
	BAD("\xef\xbb\xbf{}",
	    "request: not valid JSON near byte 0 (a byte order mark; expected one JSON value)");
	BAD("[\"\xef\xbb\xbf\", \xef\xbb\xbf 1]", "request: not valid JSON near byte 8");
	GOOD("[\"\xef\xbb\xbf\"]"); /* U+FEFF inside a string is just a character */
}

static void test_depth_boundary(void **state)
{
	char *ok = nested(TC_JSON_DEPTH_MAX, false), *deep = nested(TC_JSON_DEPTH_MAX + 1, false);

	check_good_n(ok, strlen(ok));
	check_bad_n(deep, strlen(deep), MIB, -EINVAL, "request: nesting deeper than 64 levels");
	free(ok);
	free(deep);

	ok = nested(TC_JSON_DEPTH_MAX, true);
	deep = nested(TC_JSON_DEPTH_MAX + 1, true);
	check_good_n(ok, strlen(ok));
	check_bad_n(deep, strlen(deep), MIB, -EINVAL, "request: nesting deeper than 64 levels");
	free(ok);
	free(deep);

	/* far deeper than cJSON's own limit: refused the same way, no recursion */
	deep = nested(200000, false);
	check_bad_n(deep, strlen(deep), 2 * MIB, -EINVAL, "request: nesting deeper than 64 levels");
	free(deep);

	/* unclosed but too deep: the depth is what is reported */
	deep = malloc(TC_JSON_DEPTH_MAX + 1);
	assert_non_null(deep);
	memset(deep, '[', TC_JSON_DEPTH_MAX + 1);
	check_bad_n(deep, TC_JSON_DEPTH_MAX + 1, MIB, -EINVAL,
		    "request: nesting deeper than 64 levels");
	check_bad_n(deep, TC_JSON_DEPTH_MAX, MIB, -EINVAL,
		    "request: not valid JSON near byte 64 (unexpected end)");
	free(deep);
}

static void test_duplicate_keys(void **state)
{
	BAD("{\"a\":1,\"a\":2}", "request: duplicate key \"a\" in an object");
	BAD("{\"a\":1,\"\\u0061\":2}", "request: duplicate key \"a\" in an object");
	BAD("{\"\xc3\xa9\":1,\"\\u00e9\":2}", "request: duplicate key \"\xc3\xa9\" in an object");
	BAD("[{\"x\":1},{\"y\":1,\"z\":[],\"y\":2}]", "request: duplicate key \"y\" in an object");
	BAD("{\"a\":{\"b\":1,\"b\":1}}", "request: duplicate key \"b\" in an object");
	BAD("{\"\":1,\"\":2}", "request: duplicate key \"\" in an object");
	BAD("{\"a\\u0000b\":1,\"a\\u0000b\":2}", "request: duplicate key \"a?b\" in an object");
	BAD("{\"a\\nb\":1,\"a\\nb\":2}", "request: duplicate key \"a?b\" in an object");
	/* the first repeat in document order is the one reported */
	BAD("{\"z\":1,\"a\":1,\"z\":2,\"a\":2}", "request: duplicate key \"z\" in an object");
}

static void test_duplicate_long_key(void **state)
{
	char key[200], doc[500], msg[300];

	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(doc, sizeof(doc), "{\"%s\":1,\"%s\":2}", key, key);
	snprintf(msg, sizeof(msg), "request: duplicate key \"%.64s...\" in an object", key);
	check_bad_n(doc, strlen(doc), MIB, -EINVAL, msg);

	/* cut at a character boundary: 63 ASCII bytes, then a 2-byte character */
	memset(key, 'k', 63);
	memcpy(key + 63, "\xc3\xa9\xc3\xa9", 5);
	snprintf(doc, sizeof(doc), "{\"%s\":1,\"%s\":2}", key, key);
	snprintf(msg, sizeof(msg), "request: duplicate key \"%.63s...\" in an object", key);
	check_bad_n(doc, strlen(doc), MIB, -EINVAL, msg);
}

/* 100 000 distinct keys in one object, then one repeat: sorting keeps this
 * fast where comparing every pair would not be. */
static void test_big_object(void **state)
{
	size_t n = 100000, i, len = 0, cap = n * 16 + 64;
	char *doc = malloc(cap);
	struct tc_error err;

	assert_non_null(doc);
	doc[len++] = '{';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(doc + len, cap - len, "%s\"k%zu\":%zu", i ? "," : "", i, i);
	doc[len++] = '}';
	assert_int_equal(validate(doc, len, 2 * MIB, &err), 0);

	len--;
	len += (size_t)snprintf(doc + len, cap - len, ",\"k77777\":0}");
	check_bad_n(doc, len, 2 * MIB, -EINVAL, "request: duplicate key \"k77777\" in an object");
	free(doc);
}

static void test_what_prefix_and_stage(void **state)
{
	struct tc_error err;

	assert_int_equal(tc_json_validate("[1,]", 4, 100, TC_STAGE_RESPONSE, &err), -EINVAL);
	assert_string_equal(err.message, "response: not valid JSON near byte 3");
	assert_int_equal(err.stage, TC_STAGE_RESPONSE);
	assert_int_equal(err.err, 0);
	assert_int_equal(tc_json_validate("[1]", 3, 100, TC_STAGE_RESPONSE, NULL), 0);
	assert_int_equal(tc_json_validate("[1,]", 4, 100, TC_STAGE_RESPONSE, NULL), -EINVAL);
}

/* ---- tc_response_parse ---- */

static void parse_ok(const char *out, const char *data)
{
	struct tc_response r;
	struct tc_error err = { 0 };
	int rc = tc_response_parse(out, strlen(out), MIB, &r, &err);

	if (rc != 0)
		fail_msg("refused %s: %s", out, err.message);
	assert_true(r.ok);
	assert_string_equal(r.data, data);
	assert_null(r.err_type);
	assert_null(r.err_message);
	tc_response_release(&r);
}

static void parse_tool_error(const char *out, const char *type, const char *message)
{
	struct tc_response r;
	struct tc_error err = { 0 };
	int rc = tc_response_parse(out, strlen(out), MIB, &r, &err);

	if (rc != 0)
		fail_msg("refused %s: %s", out, err.message);
	assert_false(r.ok);
	assert_null(r.data);
	assert_string_equal(r.err_type, type);
	assert_string_equal(r.err_message, message);
	tc_response_release(&r);
}

static void parse_bad_n(const char *out, size_t len, size_t max, int rc, const char *msg)
{
	struct tc_response r;
	struct tc_error err = { 0 };

	memset(&r, 0x5a, sizeof(r));
	assert_int_equal(tc_response_parse(out, len, max, &r, &err), rc);
	assert_string_equal(err.message, msg);
	assert_int_equal(err.stage, TC_STAGE_RESPONSE);
	assert_false(r.ok);
	assert_null(r.data);
	assert_null(r.err_type);
	assert_null(r.err_message);
}

#define PARSE_BAD(lit, msg) parse_bad_n(lit, sizeof(lit) - 1, MIB, -EINVAL, msg)

static void test_response_data_byte_exact(void **state)
{
	parse_ok("{\"ok\":true,\"data\":{\"n\":12345678901234567890,\"s\":\"a\\\"}b\"}}",
		 "{\"n\":12345678901234567890,\"s\":\"a\\\"}b\"}");
	parse_ok("{\"ok\":true,\"data\":[1.0000000000000000000001,-0.0,1E400]}",
		 "[1.0000000000000000000001,-0.0,1E400]");
	parse_ok("{ \"data\" :  {\"a\" : [ 1 ,\n 2 ] } , \"ok\" : true }\n",
		 "{\"a\" : [ 1 ,\n 2 ] }");
	parse_ok("{\"ok\":true,\"data\":\"\\u00e9\\ud83d\\ude00 \xe2\x82\xac\"}",
		 "\"\\u00e9\\ud83d\\ude00 \xe2\x82\xac\"");
	parse_ok("{\"ok\":true,\"data\":\"}]\\\\\",\"x\":1}", "\"}]\\\\\"");
	parse_ok("{\"ok\":true,\"data\":false}", "false");
	parse_ok("{\"ok\":true,\"data\":null}", "null");
}

static void test_response_data_escaped_key(void **state)
{
	parse_ok("{\"ok\":true,\"d\\u0061ta\":[1]}", "[1]");
	parse_ok("{\"\\u006fk\":true,\"data\":[2]}", "[2]");
	/* "data\u0000x" is not "data" (cJSON's keys would stop at the NUL) */
	parse_ok("{\"ok\":true,\"data\\u0000x\":[3]}", "null");
}

static void test_response_data_absent(void **state)
{
	parse_ok("{\"ok\":true}", "null");
	parse_ok("{\"ok\":true,\"error\":{\"type\":\"X\"}}", "null");
}

static void test_response_script_style(void **state)
{
	parse_ok("  [1, 2]\n", "[1, 2]");
	parse_ok("42\n", "42");
	parse_ok("\"hello\"", "\"hello\"");
	parse_ok("null", "null");
	parse_ok("{\"result\": 5}\n", "{\"result\": 5}");
	/* "ok" that is not a boolean: just data */
	parse_ok("{\"ok\":1,\"data\":2}", "{\"ok\":1,\"data\":2}");
	parse_ok("{\"ok\":\"true\",\"data\":2}", "{\"ok\":\"true\",\"data\":2}");
	parse_ok("{\"ok\":null}", "{\"ok\":null}");
	parse_ok("[{\"ok\":true,\"data\":1}]", "[{\"ok\":true,\"data\":1}]");
	parse_ok("{\"x\":{\"ok\":false}}", "{\"x\":{\"ok\":false}}");
}

static void test_response_tool_error(void **state)
{
	parse_tool_error("{\"ok\":false,\"error\":{\"type\":\"ValueError\",\"message\":\"bad x\"}}",
			 "ValueError", "bad x");
	parse_tool_error("{\"error\":{\"message\":\"m\",\"type\":\"KeyError\",\"extra\":[1]},"
			 "\"data\":5,\"ok\":false,\"other\":true}",
			 "KeyError", "m");
	parse_tool_error("{\"ok\":false,\"error\":{}}", "ToolError", "");
	parse_tool_error("{\"ok\":false,\"error\":{\"message\":\"only message\"}}", "ToolError",
			 "only message");
	parse_tool_error("{\"ok\":false,\"error\":{\"type\":\"T\"}}", "T", "");
	parse_tool_error("{\"ok\":false,\"error\":{\"type\":42,\"message\":[\"x\"]}}", "ToolError",
			 "");
	parse_tool_error("{\"ok\":false,\"error\":{\"type\":\"\",\"message\":null}}", "ToolError",
			 "");
	parse_tool_error(
		"{\"ok\":false,\"error\":{\"type\":\"A\\nB\",\"message\":\"l1\\nl2\\u0007\"}}",
		"A\nB", "l1\nl2\a");
	/* a key that only looks like "type" up to a NUL is not "type" */
	parse_tool_error("{\"ok\":false,\"error\":{\"type\\u0000\":\"X\"}}", "ToolError", "");
}

static void test_response_tool_error_truncated(void **state)
{
	char type[300], out[20000], msg[10000], want[5000];
	size_t i;

	memset(type, 'T', 200);
	type[200] = '\0';
	/* "x" then 3000 two-byte characters: 4096 would cut one in half */
	msg[0] = 'x';
	for (i = 0; i < 3000; i++)
		memcpy(msg + 1 + 2 * i, "\xc3\xa9", 2);
	msg[6001] = '\0';
	snprintf(out, sizeof(out), "{\"ok\":false,\"error\":{\"type\":\"%s\",\"message\":\"%s\"}}",
		 type, msg);
	memcpy(want, msg, 4095);
	want[4095] = '\0';
	type[128] = '\0';
	parse_tool_error(out, type, want);
}

static void test_response_error_not_object(void **state)
{
	PARSE_BAD("{\"ok\":false}", "response: \"ok\" is false but \"error\" is not an object");
	PARSE_BAD("{\"ok\":false,\"error\":\"boom\"}",
		  "response: \"ok\" is false but \"error\" is not an object");
	PARSE_BAD("{\"ok\":false,\"error\":null}",
		  "response: \"ok\" is false but \"error\" is not an object");
	PARSE_BAD("{\"ok\":false,\"error\":[{}]}",
		  "response: \"ok\" is false but \"error\" is not an object");
}

static void test_response_empty(void **state)
{
	PARSE_BAD("", "response: the tool printed no response");
	PARSE_BAD("\n \n", "response: the tool printed no response");
}

static void test_response_invalid(void **state)
{
	PARSE_BAD("{\"ok\":true,\"data\":01}", "response: not valid JSON near byte 19");
	PARSE_BAD("{\"ok\":true,\"data\":1,\"data\":2}",
		  "response: duplicate key \"data\" in an object");
	PARSE_BAD("{\"ok\":true}\n{\"ok\":true}\n",
		  "response: not valid JSON near byte 12 (extra data after the value; expected "
		  "exactly one JSON value)");
	PARSE_BAD("Traceback (most recent call last):\n", "response: not valid JSON near byte 0");
	PARSE_BAD("\"\xff\"", "response: not valid UTF-8 at byte 1");
	parse_bad_n("[1,2,3]", 7, 6, -E2BIG, "response: 7 bytes is larger than the 6-byte limit");
	parse_bad_n("         ", 9, 6, -E2BIG, "response: 9 bytes is larger than the 6-byte limit");
}

static void test_response_release_twice(void **state)
{
	struct tc_response r = { 0 };

	tc_response_release(&r);
	assert_int_equal(tc_response_parse("[1]", 3, 10, &r, NULL), 0);
	tc_response_release(&r);
	tc_response_release(&r);
	assert_null(r.data);
}

/* ---- tc_envelope_to_json ---- */

static const char *const meta_keys[] = {
	"status",	    "status_inferred",	"exit_code",	     "signal",	     "wall_ms",
	"cpu_user_ms",	    "cpu_system_ms",	"memory_peak_bytes", "stdout_bytes", "stderr_bytes",
	"stdout_truncated", "stderr_truncated", "denied_syscall",
};

static void ok_outcome(struct tc_outcome *o)
{
	tc_outcome_init(o);
	o->status = TC_STATUS_OK;
	o->exited = true;
	o->exit_code = 0;
	o->wall_ms = 42;
	o->cpu_user_ms = 30;
	o->cpu_system_ms = 5;
	o->memory_peak_bytes = (struct tc_maybe){ .known = true, .value = 12345678 };
	o->stdout_bytes = 100;
	o->stderr_bytes = 3;
}

/* Check the envelope's shape and return it parsed (caller deletes). */
static cJSON *envelope_parse(const char *text, bool ok)
{
	size_t len = strlen(text), i, n = 0;
	cJSON *env, *meta, *item;

	assert_true(len > 1);
	assert_int_equal(text[len - 1], '\n');
	/* our own strict validator accepts it too: one value, no duplicates */
	assert_int_equal(tc_json_validate(text, len, len, TC_STAGE_RESPONSE, NULL), 0);
	env = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1);
	assert_non_null(env);
	assert_int_equal(cJSON_GetArraySize(env), 3);
	assert_true(ok ? cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(env, "ok"))
		       : cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(env, "ok")));
	assert_string_equal(env->child->string, "ok");
	assert_string_equal(env->child->next->string, ok ? "data" : "error");
	meta = cJSON_GetObjectItemCaseSensitive(env, "meta");
	assert_true(cJSON_IsObject(meta));
	for (i = 0; i < TC_ARRAY_SIZE(meta_keys); i++)
		assert_non_null(cJSON_GetObjectItemCaseSensitive(meta, meta_keys[i]));
	cJSON_ArrayForEach(item, meta) n++;
	assert_int_equal(n, TC_ARRAY_SIZE(meta_keys));
	return env;
}

static void check_error(const cJSON *env, const char *type, const char *message, const char *source)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(env, "error");

	assert_true(cJSON_IsObject(e));
	assert_int_equal(cJSON_GetArraySize(e), 3);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "type")->valuestring, type);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "message")->valuestring, message);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(e, "source")->valuestring, source);
}

static void test_envelope_ok(void **state)
{
	static const char out[] =
		"{\"ok\":true,\"data\":{\"n\":12345678901234567890,\"s\":\"a\\\"}b\"}}";
	struct tc_outcome o;
	struct tc_response r;
	char *text;
	cJSON *env, *meta;

	ok_outcome(&o);
	assert_int_equal(tc_response_parse(out, strlen(out), MIB, &r, NULL), 0);
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"data\":{\"n\":12345678901234567890,\"s\":\"a\\\"}b\"},"));
	assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1); /* one line */
	env = envelope_parse(text, true);
	meta = cJSON_GetObjectItemCaseSensitive(env, "meta");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(meta, "status")->valuestring, "ok");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(meta, "exit_code")->valueint, 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(meta, "signal")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(meta, "wall_ms")->valueint, 42);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(meta, "memory_peak_bytes")->valuedouble,
			 12345678);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(meta, "denied_syscall")));
	cJSON_Delete(env);
	free(text);
	tc_response_release(&r);
}

static void test_envelope_script_value(void **state)
{
	struct tc_outcome o;
	struct tc_response r;
	char *text;
	cJSON *env;

	ok_outcome(&o);
	assert_int_equal(tc_response_parse("\n[1, 2.50]\n", 11, MIB, &r, NULL), 0);
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	assert_non_null(text);
	assert_non_null(strstr(text, "{\"ok\":true,\"data\":[1, 2.50],\"meta\":{"));
	env = envelope_parse(text, true);
	cJSON_Delete(env);
	free(text);
	tc_response_release(&r);
}

static void test_envelope_tool_error(void **state)
{
	static const char out[] =
		"{\"ok\":false,\"error\":{\"type\":\"ValueError\",\"message\":\"no \\\"x\\\"\"}}";
	struct tc_outcome o;
	struct tc_response r;
	char *text;
	cJSON *env;

	ok_outcome(&o);
	o.status = TC_STATUS_EXIT_NONZERO;
	o.exit_code = 1;
	assert_int_equal(tc_response_parse(out, strlen(out), MIB, &r, NULL), 0);
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	assert_non_null(text);
	env = envelope_parse(text, false);
	check_error(env, "ValueError", "no \"x\"", "tool");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(env, "meta"), "status")
				    ->valuestring,
			    "exit_nonzero");
	cJSON_Delete(env);
	free(text);
	tc_response_release(&r);
}

static void test_envelope_toolcell_error(void **state)
{
	struct tc_outcome o;
	struct tc_response r;
	char *text;
	cJSON *env, *meta, *d;

	/* a timeout overrides whatever the tool managed to print */
	tc_outcome_init(&o);
	o.status = TC_STATUS_SIGNALED;
	o.signaled = true;
	o.signal = 31;
	o.has_denied_syscall = true;
	strcpy(o.denied_syscall_name, "ptrace");
	o.denied_syscall_nr = 101;
	assert_int_equal(tc_response_parse("{\"ok\":true,\"data\":1}", 20, MIB, &r, NULL), 0);
	text = tc_envelope_to_json(&o, &r, "SyscallDenied", "the tool called ptrace");
	assert_non_null(text);
	env = envelope_parse(text, false);
	check_error(env, "SyscallDenied", "the tool called ptrace", "toolcell");
	meta = cJSON_GetObjectItemCaseSensitive(env, "meta");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(meta, "exit_code")));
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(meta, "signal")->valueint, 31);
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(meta, "memory_peak_bytes")));
	d = cJSON_GetObjectItemCaseSensitive(meta, "denied_syscall");
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(d, "name")->valuestring, "ptrace");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(d, "nr")->valueint, 101);
	cJSON_Delete(env);
	free(text);
	tc_response_release(&r);

	/* refused before any tool ran: no response at all */
	tc_outcome_init(&o);
	o.status = TC_STATUS_REJECTED;
	text = tc_envelope_to_json(&o, NULL, "BadRequest",
				   "request: nesting deeper than 64 levels");
	assert_non_null(text);
	env = envelope_parse(text, false);
	check_error(env, "BadRequest", "request: nesting deeper than 64 levels", "toolcell");
	cJSON_Delete(env);
	free(text);

	text = tc_envelope_to_json(&o, NULL, "Timeout", NULL);
	env = envelope_parse(text, false);
	check_error(env, "Timeout", "", "toolcell");
	cJSON_Delete(env);
	free(text);

	text = tc_envelope_to_json(&o, NULL, NULL, NULL);
	env = envelope_parse(text, false);
	check_error(env, "SandboxError", "no response to report", "toolcell");
	cJSON_Delete(env);
	free(text);
}

static void test_envelope_guards_its_output(void **state)
{
	struct tc_outcome o;
	struct tc_response r = { .ok = true, .data = (char *)"01" };
	char *text;
	cJSON *env;
	char cut[] = "message cut \xc3";

	/* data that is not one JSON value never reaches the envelope */
	tc_outcome_init(&o);
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	env = envelope_parse(text, false);
	check_error(env, "InvalidResponse", "the tool's data is not one valid JSON value",
		    "toolcell");
	cJSON_Delete(env);
	free(text);

	r.data = (char *)"{\"a\":1} {";
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	env = envelope_parse(text, false);
	cJSON_Delete(env);
	free(text);

	r.data = NULL;
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	assert_non_null(strstr(text, "\"data\":null,"));
	env = envelope_parse(text, true);
	cJSON_Delete(env);
	free(text);

	/* a message cut mid-character by a fixed buffer stays valid UTF-8 */
	text = tc_envelope_to_json(&o, NULL, "SandboxError", cut);
	env = envelope_parse(text, false);
	check_error(env, "SandboxError", "message cut ", "toolcell");
	cJSON_Delete(env);
	free(text);

	/* a hand-made tool error with NULL fields */
	r = (struct tc_response){ .ok = false };
	text = tc_envelope_to_json(&o, &r, NULL, NULL);
	env = envelope_parse(text, false);
	check_error(env, "ToolError", "", "tool");
	cJSON_Delete(env);
	free(text);
}

TC_TEST_MAIN(
	NULL, NULL, cmocka_unit_test(test_utf8_boundaries), cmocka_unit_test(test_utf8_invalid),
	cmocka_unit_test(test_valid_documents), cmocka_unit_test(test_empty),
	cmocka_unit_test(test_size_boundary), cmocka_unit_test(test_utf8_errors),
	cmocka_unit_test(test_syntax_errors), cmocka_unit_test(test_unexpected_end),
	cmocka_unit_test(test_trailing_garbage), cmocka_unit_test(test_nul_byte),
	cmocka_unit_test(test_bom_refused), cmocka_unit_test(test_depth_boundary),
	cmocka_unit_test(test_duplicate_keys), cmocka_unit_test(test_duplicate_long_key),
	cmocka_unit_test(test_big_object), cmocka_unit_test(test_what_prefix_and_stage),
	cmocka_unit_test(test_response_data_byte_exact),
	cmocka_unit_test(test_response_data_escaped_key),
	cmocka_unit_test(test_response_data_absent), cmocka_unit_test(test_response_script_style),
	cmocka_unit_test(test_response_tool_error),
	cmocka_unit_test(test_response_tool_error_truncated),
	cmocka_unit_test(test_response_error_not_object), cmocka_unit_test(test_response_empty),
	cmocka_unit_test(test_response_invalid), cmocka_unit_test(test_response_release_twice),
	cmocka_unit_test(test_envelope_ok), cmocka_unit_test(test_envelope_script_value),
	cmocka_unit_test(test_envelope_tool_error), cmocka_unit_test(test_envelope_toolcell_error),
	cmocka_unit_test(test_envelope_guards_its_output))
