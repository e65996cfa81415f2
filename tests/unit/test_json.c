/* Unit tests for json.c, json-doc.c and utf8.c: the strict scanner's
 * every fault with its kind and byte offset, the key paths it reports,
 * member spans, the UTF-8 validator, cutter and sanitizer, and building
 * and printing with cJSON. Pure: strings in, results out. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "toolcell/config.h"
#include "json.h"
#include "utf8.h"

/* ---- helpers ---- */

static int scan_n(const char *buf, size_t len, unsigned flags, struct tc_json_scan *s)
{
	memset(s, 0, sizeof(*s));
	return tc_json_scan(buf, len, flags, s);
}

/* buf is refused with fault at byte at. */
static void fault_n(const char *buf, size_t len, unsigned flags, enum tc_json_fault fault,
		    size_t at)
{
	struct tc_json_scan s;
	int r = scan_n(buf, len, flags, &s);

	if (r != -EINVAL || s.fault != fault || s.at != at)
		fail_msg("%.*s: got %d, fault %d at %zu; want fault %d at %zu", (int)len, buf, r,
			 (int)s.fault, s.at, (int)fault, at);
	tc_json_scan_release(&s);
}

static void good_n(const char *buf, size_t len)
{
	struct tc_json_scan s;

	if (scan_n(buf, len, 0, &s) != 0)
		fail_msg("refused %.*s: fault %d at %zu", (int)len, buf, (int)s.fault, s.at);
	assert_int_equal(s.fault, TC_JSON_FAULT_NONE);
	tc_json_scan_release(&s);
}

#define FAULT(lit, kind, at)  fault_n(lit, sizeof(lit) - 1, 0, kind, at)
#define NO_NUL(lit, kind, at) fault_n(lit, sizeof(lit) - 1, TC_JSON_NO_NUL, kind, at)
#define GOOD(lit)	      good_n(lit, sizeof(lit) - 1)

/* The path the scanner reports for the duplicate in buf. */
static void dup_path(const char *buf, const char *want_key, const char *want_path)
{
	struct tc_json_scan s;
	char path[160];

	assert_int_equal(scan_n(buf, strlen(buf), 0, &s), -EINVAL);
	assert_int_equal(s.fault, TC_JSON_FAULT_DUPLICATE);
	assert_non_null(s.dup);
	assert_int_equal(s.dup->key_len, strlen(want_key));
	assert_memory_equal(s.keys + s.dup->key_off, want_key, s.dup->key_len);
	tc_json_path(&s, s.dup, path, sizeof(path));
	assert_string_equal(path, want_path);
	tc_json_scan_release(&s);
}

/* ---- UTF-8 ---- */

static void test_utf8_check_offsets(void **state)
{
	assert_int_equal(tc_utf8_check("", 0), 0);
	assert_int_equal(tc_utf8_check("abc", 3), 3);
	assert_int_equal(tc_utf8_check("ab\xff", 3), 2);
	assert_int_equal(tc_utf8_check("\xc3\xa9x\xc3", 4), 3);		   /* truncated */
	assert_int_equal(tc_utf8_check("\xe2\x82\xac\xed\xa0\x80", 6), 3); /* surrogate */
	assert_int_equal(tc_utf8_check("\xf0\x9f\x90\x8d\xf4\x90\x80\x80", 8), 4);
	assert_int_equal(tc_utf8_check("\xc0\xaf", 2), 0); /* overlong */
	assert_true(tc_utf8_valid("a\0b", 3));
	assert_false(tc_utf8_valid("\xe0\x9f\xbf", 3));
}

static void test_utf8_cut(void **state)
{
	/* "é€🐍": 2 + 3 + 4 bytes */
	static const char s[] = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x90\x8d";

	assert_int_equal(tc_utf8_cut(s, 9, 100), 9);
	assert_int_equal(tc_utf8_cut(s, 9, 9), 9);
	assert_int_equal(tc_utf8_cut(s, 9, 8), 5);
	assert_int_equal(tc_utf8_cut(s, 9, 6), 5);
	assert_int_equal(tc_utf8_cut(s, 9, 5), 5);
	assert_int_equal(tc_utf8_cut(s, 9, 4), 2);
	assert_int_equal(tc_utf8_cut(s, 9, 1), 0);
	assert_int_equal(tc_utf8_cut(s, 9, 0), 0);
	/* a buffer that ends inside a character: the piece goes */
	assert_int_equal(tc_utf8_cut("ab\xe2\x82", 4, SIZE_MAX), 2);
	assert_int_equal(tc_utf8_cut("ab\xc3", 3, SIZE_MAX), 2);
	assert_int_equal(tc_utf8_cut("ab\xf0\x9f\x90", 5, SIZE_MAX), 2);
	/* not a cut character: left for the sanitizer */
	assert_int_equal(tc_utf8_cut("ab\x80", 3, SIZE_MAX), 3);
	assert_int_equal(tc_utf8_cut("ab\xff", 3, SIZE_MAX), 3);
	assert_int_equal(tc_utf8_cut("abc", 3, 2), 2);
}

static void test_utf8_sanitize(void **state)
{
	char *s;

	s = tc_utf8_sanitize("plain \xc3\xa9", 8);
	assert_string_equal(s, "plain \xc3\xa9");
	free(s);
	/* each byte that begins no character becomes U+FFFD, one for one */
	s = tc_utf8_sanitize("a\xff\xfe"
			     "b\xed\xa0\x80"
			     "c\xe2\x82",
			     11);
	assert_string_equal(s, "a\xef\xbf\xbd\xef\xbf\xbd"
			       "b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			       "c\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	/* only len bytes are read; the result is always NUL-terminated */
	s = tc_utf8_sanitize("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = tc_utf8_sanitize("\x80", 1);
	assert_string_equal(s, "\xef\xbf\xbd");
	assert_true(tc_utf8_valid(s, strlen(s)));
	free(s);
}

/* ---- the scanner ---- */

static void test_scan_accepts(void **state)
{
	GOOD("{}");
	GOOD(" [1, -0.5e+3, \"a\\u00e9\\ud83d\\udc0d\", true, false, null] ");
	GOOD("{\"a\":{\"a\":1},\"b\":{\"a\":2}}"); /* one key in two objects */
	GOOD("{\"a\\u0000\":1,\"a\":2}");	   /* keys compared decoded, whole */
	GOOD("\"\\u0000\"");			   /* allowed without TC_JSON_NO_NUL */
}

static void test_scan_faults(void **state)
{
	FAULT("", TC_JSON_FAULT_EMPTY, 0);
	FAULT(" \n\t", TC_JSON_FAULT_EMPTY, 3);
	FAULT("[\"a\xff\"]", TC_JSON_FAULT_UTF8, 3);
	FAULT("\xef\xbb\xbf{}", TC_JSON_FAULT_BOM, 0);
	FAULT("[01]", TC_JSON_FAULT_SYNTAX, 2);	      /* leading zero */
	FAULT("[1.]", TC_JSON_FAULT_SYNTAX, 3);	      /* no fraction digits */
	FAULT("[\"a\tb\"]", TC_JSON_FAULT_SYNTAX, 3); /* raw control character */
	FAULT("\f[]", TC_JSON_FAULT_SYNTAX, 0);	      /* not JSON white space */
	FAULT("[\"\\ud800\"]", TC_JSON_FAULT_SYNTAX, 2);
	FAULT("[\"\\udc00\"]", TC_JSON_FAULT_SYNTAX, 2);
	FAULT("[\"\\ud800\\u0041\"]", TC_JSON_FAULT_SYNTAX, 2);
	FAULT("[\"\\x\"]", TC_JSON_FAULT_SYNTAX, 3);
	FAULT("[tru]", TC_JSON_FAULT_SYNTAX, 4);
	FAULT("{\"a\" 1}", TC_JSON_FAULT_SYNTAX, 5);
	FAULT("[1,]", TC_JSON_FAULT_SYNTAX, 3);
	FAULT("{\"a\":1", TC_JSON_FAULT_END, 6);
	FAULT("[\"abc", TC_JSON_FAULT_END, 5);
	FAULT("{} {}", TC_JSON_FAULT_EXTRA, 3);
	FAULT("1 2", TC_JSON_FAULT_EXTRA, 2);
	fault_n("[1]\0", 4, 0, TC_JSON_FAULT_EXTRA, 3);
	/* the later of the two, at its value */
	FAULT("{\"a\":1,\"b\":2,\"a\":3}", TC_JSON_FAULT_DUPLICATE, 17);
}

static void test_scan_nul_escape(void **state)
{
	NO_NUL("[\"ab\\u0000\"]", TC_JSON_FAULT_NUL_ESCAPE, 4);
	NO_NUL("{\"k\\u0000\":1}", TC_JSON_FAULT_NUL_ESCAPE, 3);
	/* an escaped backslash then "u0000" is text */
	{
		struct tc_json_scan s;

		assert_int_equal(scan_n("[\"\\\\u0000\"]", 11, TC_JSON_NO_NUL, &s), 0);
		tc_json_scan_release(&s);
	}
}

static void test_scan_depth(void **state)
{
	char buf[2 * TC_JSON_DEPTH_MAX + 4];
	struct tc_json_scan s;
	size_t i;

	for (i = 0; i < TC_JSON_DEPTH_MAX; i++) {
		buf[i] = '[';
		buf[TC_JSON_DEPTH_MAX + i] = ']';
	}
	assert_int_equal(scan_n(buf, 2 * TC_JSON_DEPTH_MAX, 0, &s), 0);
	tc_json_scan_release(&s);
	memmove(buf + 1, buf, 2 * TC_JSON_DEPTH_MAX);
	buf[0] = '[';
	buf[2 * TC_JSON_DEPTH_MAX + 1] = ']';
	fault_n(buf, 2 * TC_JSON_DEPTH_MAX + 2, 0, TC_JSON_FAULT_DEPTH, TC_JSON_DEPTH_MAX);
}

static void test_scan_paths(void **state)
{
	dup_path("{\"a\":1,\"a\":2}", "a", "a");
	dup_path("{\"limits\":{\"pids\":1,\"pids\":2}}", "pids", "limits.pids");
	dup_path("{\"binds\":[{\"host\":\"/a\"},{\"host\":\"/b\",\"host\":\"/c\"}]}", "host",
		 "binds[1].host");
	dup_path("[[{}],[{\"x\":{\"y\":[0,{\"z\":1,\"z\":1}]}}]]", "z", "[1][0].x.y[1].z");
	/* keys shown: control characters as '?', decoded escapes */
	dup_path("{\"a\\nb\":{\"\\u00e9\":1,\"\\u00e9\":2}}", "\xc3\xa9", "a?b.\xc3\xa9");
	/* an empty key is a step of its own, shown "" (found by fuzz_request) */
	dup_path("{\"id\":1,\"\":31,\"\":30}", "", "\"\"");
	dup_path("{\"\":{\"\":1,\"\":2}}", "", "\"\".\"\"");
}

static void test_scan_members(void **state)
{
	static const char doc[] = "{ \"a\" : [1, {\"b\": \"x\"}] , \"c\":{\"d\":null} }";
	const struct tc_json_member *a, *c, *d;
	struct tc_json_scan s;

	assert_int_equal(scan_n(doc, sizeof(doc) - 1, 0, &s), 0);
	assert_int_equal(s.root_start, 0);
	assert_int_equal(s.root_end, sizeof(doc) - 1);
	a = tc_json_find(&s, 0, "a");
	assert_non_null(a);
	assert_int_equal(a->index, 0);
	assert_int_equal(a->val_obj, 1); /* containers are numbered from the root's 0 */
	assert_false(s.c[1].is_object);
	assert_int_equal(s.c[1].parent, 0);
	assert_true(s.c[2].is_object); /* {"b": "x"}: element 1 of the array */
	assert_int_equal(s.c[2].parent, 1);
	assert_int_equal(s.c[2].slot, 1);
	assert_int_equal(s.n_c, 4);
	assert_memory_equal(doc + a->val_start, "[1, {\"b\": \"x\"}]", a->val_end - a->val_start);
	c = tc_json_find(&s, 0, "c");
	assert_non_null(c);
	assert_int_equal(c->index, 1);
	assert_int_not_equal(c->val_obj, TC_JSON_NO_OBJECT);
	d = tc_json_find(&s, c->val_obj, "d");
	assert_non_null(d);
	assert_int_equal(d->val_obj, TC_JSON_NO_OBJECT); /* a scalar */
	assert_memory_equal(doc + d->val_start, "null", 4);
	assert_null(tc_json_find(&s, 0, "b")); /* not a member of the root */
	assert_null(tc_json_find(&s, 0, "d"));
	tc_json_scan_release(&s);
}

/* ---- messages, building, printing ---- */

static void test_validate_messages(void **state)
{
	struct tc_error e;

	assert_int_equal(tc_json_validate("[1,]", 4, 100, TC_STAGE_ANSWER, &e), -EINVAL);
	assert_string_equal(e.message, "answer: not valid JSON near byte 3");
	assert_int_equal(e.stage, TC_STAGE_ANSWER);
	assert_int_equal(tc_json_validate("{\"k\":1,\"k\":1}", 13, 100, TC_STAGE_REQUEST, &e),
			 -EINVAL);
	assert_string_equal(e.message, "request: duplicate key \"k\" in an object");
	assert_int_equal(tc_json_validate("[1]", 3, 2, TC_STAGE_RESPONSE, &e), -E2BIG);
	assert_string_equal(e.message, "response: 3 bytes is larger than the 2-byte limit");
	assert_int_equal(e.stage, TC_STAGE_RESPONSE);
}

/* tc_json_members_made (the server's answer to the command-line client)
 * takes the same members, raw, and says the same words as tc_json_members;
 * only cJSON's second parse is left out. */
static void test_members_made(void **state)
{
	static const char *const keys[] = { "ok", "data", "none" };
	static const char doc[] =
		" {\"ok\":true, \"data\":{\"n\": 1.50, \"s\":\"\\u00e9\"},\"x\":[]}\n";
	static const char *const bad[] = { "[1,]",  "[1]", "{\"ok\":1,\"ok\":2}", "{\"ok\":",
					   "\"s\"", "",	   "{\"a\":\xff}" };
	char *a[3], *b[3];
	struct tc_error ea = { 0 }, eb = { 0 };

	(void)state;
	assert_int_equal(
		tc_json_members_made(doc, strlen(doc), 100, TC_STAGE_ANSWER, keys, 3, a, &ea), 0);
	assert_string_equal(a[0], "true");
	assert_string_equal(a[1], "{\"n\": 1.50, \"s\":\"\\u00e9\"}");
	assert_null(a[2]);
	free(a[0]);
	free(a[1]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ra = tc_json_members(bad[i], strlen(bad[i]), 100, TC_STAGE_ANSWER, keys, 3, a,
					 &ea);
		int rb = tc_json_members_made(bad[i], strlen(bad[i]), 100, TC_STAGE_ANSWER, keys, 3,
					      b, &eb);

		assert_int_equal(rb, ra);
		assert_true(rb < 0);
		assert_string_equal(eb.message, ea.message);
		for (size_t k = 0; k < 3; k++)
			assert_null(b[k]);
	}
	assert_string_equal(eb.message, "answer: not valid UTF-8 at byte 5");
	assert_int_equal(
		tc_json_members_made(doc, strlen(doc), 10, TC_STAGE_ANSWER, keys, 3, b, &eb),
		-E2BIG);
	assert_string_equal(eb.message, "answer: 54 bytes is larger than the 10-byte limit");
}

static void test_add_and_print(void **state)
{
	cJSON *o = cJSON_CreateObject(), *a;
	bool failed = false;
	char *text;

	a = tc_json_add(&failed, o, "list", cJSON_CreateArray());
	assert_non_null(a);
	assert_non_null(tc_json_add(&failed, a, NULL, cJSON_CreateNumber(1)));
	assert_non_null(tc_json_add(&failed, a, NULL, tc_json_string("x\xff")));
	assert_non_null(tc_json_add(&failed, o, "s", tc_json_string(NULL)));
	assert_false(failed);
	/* a missing parent or item is a failure, and the item is freed */
	assert_null(tc_json_add(&failed, NULL, "k", cJSON_CreateString("leak?")));
	assert_true(failed);
	failed = false;
	assert_null(tc_json_add(&failed, o, "k", NULL));
	assert_true(failed);
	assert_null(tc_json_add(NULL, o, "k", NULL)); /* failed is optional */

	text = tc_json_document(o, false);
	assert_string_equal(text, "{\"list\":[1,\"x\xef\xbf\xbd\"],\"s\":\"\"}\n");
	free(text);
	text = tc_json_document(o, true);
	assert_string_equal(text, "{\n\t\"list\":\t[1, \"x\xef\xbf\xbd\"],\n\t\"s\":\t\"\"\n}\n");
	free(text);
	cJSON_Delete(o);
}

/* A raw member is printed byte for byte (a request kept as it came, a
 * 16-digit nonce cJSON's own number printing would shorten); tc_json_print
 * is tc_json_document without the newline. */
static void test_raw_and_print(void **state)
{
	static const char req[] = "{\"id\": 9007199254740993, \"x\": 1.50}trailing";
	cJSON *o = cJSON_CreateObject();
	bool failed = false;
	char *text;

	(void)state;
	tc_json_add(&failed, o, "nonce", tc_json_raw("7000415082118040", 16));
	tc_json_add(&failed, o, "request", tc_json_raw(req, strlen(req) - 8));
	assert_false(failed);
	text = tc_json_print(o, false);
	assert_string_equal(text, "{\"nonce\":7000415082118040,\"request\":{\"id\": "
				  "9007199254740993, \"x\": 1.50}}");
	free(text);
	text = tc_json_document(o, false);
	assert_string_equal(text, "{\"nonce\":7000415082118040,\"request\":{\"id\": "
				  "9007199254740993, \"x\": 1.50}}\n");
	free(text);
	cJSON_Delete(o);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_utf8_check_offsets), cmocka_unit_test(test_utf8_cut),
	     cmocka_unit_test(test_utf8_sanitize), cmocka_unit_test(test_scan_accepts),
	     cmocka_unit_test(test_scan_faults), cmocka_unit_test(test_scan_nul_escape),
	     cmocka_unit_test(test_scan_depth), cmocka_unit_test(test_scan_paths),
	     cmocka_unit_test(test_scan_members), cmocka_unit_test(test_validate_messages),
	     cmocka_unit_test(test_add_and_print), cmocka_unit_test(test_raw_and_print),
	     cmocka_unit_test(test_members_made))
