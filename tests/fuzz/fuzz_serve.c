/* libFuzzer harness for `toolcell serve`'s request lines: on arbitrary
 * bytes tc_serve_request_parse must never crash, must answer 0, -EINVAL,
 * -E2BIG or -ENOMEM with a message on refusal, and what it accepts must
 * hold to the limits: a source, args and stdin within the request limit,
 * no NUL in the source, a tool name ending in .py without a slash, at
 * most TC_SERVE_ARGV_MAX arguments, a time limit within the ceiling, the
 * call's own limits ("limits", "timeout_s") never above the server's and
 * only those a call may set, a "stdin_base64" decoded within the request
 * limit, an id that is itself one valid JSON value, and no member its
 * kind does not take (README's table, written out again here); a
 * session's imports decoded within TC_MAX_IMPORTS, or refused. The
 * policy's "serve" section parser gets the same bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "protocol.h"
#include "serve.h"

#define FUZZ_MAX_BYTES	 65536
#define FUZZ_REQUEST_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every top-level key of an accepted line is one its kind takes. */
static void check_keys(const uint8_t *data, size_t size, enum tc_serve_kind kind)
{
	static const char *const takes[][10] = {
		[TC_SERVE_CALL] = { "id", "kind", "source", "args", "name", "timeout_s", "limits" },
		[TC_SERVE_EXEC] = { "id", "kind", "source", "argv", "stdin", "stdin_base64", "name",
				    "timeout_s", "limits" },
		[TC_SERVE_STATS] = { "id", "kind" },
		[TC_SERVE_SESSION] = { "id", "kind", "timeout_s", "limits", "allow_imports",
				       "default_imports" },
	};
	struct tc_json_scan s = { 0 };

	if (tc_json_scan((const char *)data, size, 0, &s) != 0)
		abort();
	for (size_t i = 0; i < s.n_m; i++) {
		const char *key = s.keys + s.m[i].key_off;
		size_t k = 0;

		if (s.m[i].obj != 0)
			continue;
		while (k < 10 && takes[kind][k] &&
		       (strlen(takes[kind][k]) != s.m[i].key_len ||
			memcmp(takes[kind][k], key, s.m[i].key_len)))
			k++;
		if (k == 10 || !takes[kind][k])
			abort();
	}
	tc_json_scan_release(&s);
}

/* A session request: no source (the server makes the harness's config),
 * its imports raw JSON arrays, which the server's decoding takes or
 * refuses with a message, never past TC_MAX_IMPORTS each. */
static void check_session(const struct tc_serve_request *r)
{
	struct tc_overrides o = { 0 };
	struct cJSON *trees[2] = { NULL, NULL };
	struct tc_error err = { 0 };
	int ret;

	if (r->source || r->input || r->argc)
		abort();
	ret = tc_serve_session_imports(r->allow_imports, r->default_imports, &o, trees, &err);
	if ((ret != 0 && ret != -EINVAL && ret != -E2BIG) || (ret < 0 && !err.message[0]) ||
	    o.n_allow_import > TC_MAX_IMPORTS || o.n_default_import > TC_MAX_IMPORTS)
		abort();
	for (size_t i = 0; ret == 0 && i < o.n_allow_import; i++)
		if (!o.allow_import[i])
			abort();
	for (size_t i = 0; ret == 0 && i < o.n_default_import; i++)
		if (!o.default_import[i])
			abort();
	cJSON_Delete(trees[0]);
	cJSON_Delete(trees[1]);
}

static void check_accepted(const struct tc_serve_request *r, const uint64_t *ceiling)
{
	struct tc_error err = { 0 };
	size_t n = strlen(r->name);

	if (r->limit_ms == 0 || r->limit_ms > ceiling[TC_LIMIT_WALL] ||
	    r->limit[TC_LIMIT_WALL] != r->limit_ms)
		abort();
	/* a call's limits only tighten, and only those a call may set */
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		if (r->limit[i] > ceiling[i] || (r->asked[i] && !tc_serve_limit_per_call(i)) ||
		    (r->clamped[i] && (!r->asked[i] || r->limit[i] != ceiling[i])) ||
		    (!r->asked[i] && r->limit[i] != ceiling[i]))
			abort();
	if (r->id &&
	    tc_json_validate(r->id, strlen(r->id), FUZZ_MAX_BYTES, TC_STAGE_REQUEST, &err) != 0)
		abort();
	if (r->kind == TC_SERVE_STATS)
		return;
	if (r->kind == TC_SERVE_SESSION) {
		check_session(r);
		return;
	}
	if (!r->source || r->source_len > FUZZ_REQUEST_MAX || strlen(r->source) != r->source_len)
		abort();
	if (n < 4 || strcmp(r->name + n - 3, ".py") || strchr(r->name, '/'))
		abort();
	if (r->argc > TC_SERVE_ARGV_MAX || (r->input && r->input_len > FUZZ_REQUEST_MAX) ||
	    (r->input && r->input[r->input_len] != '\0'))
		abort();
	if (r->kind == TC_SERVE_CALL &&
	    (!r->input ||
	     tc_json_validate(r->input, r->input_len, FUZZ_MAX_BYTES, TC_STAGE_REQUEST, &err)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_serve_request req;
	struct tc_serve_policy pol;
	struct tc_error err = { 0 };
	uint64_t ceiling = 1 + (size ? data[0] : 0) * 1000ull, limits[TC_LIMIT__MAX];
	int r;

	/* the server's limits: the built-in defaults, a wall clock and request
	 * size of the fuzzer's choice */
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		limits[i] = tc_limit_info[i].def;
	limits[TC_LIMIT_WALL] = ceiling;
	limits[TC_LIMIT_REQUEST] = FUZZ_REQUEST_MAX;
	r = tc_serve_request_parse((const char *)data, size, FUZZ_MAX_BYTES, limits, &req, &err);

	if (r != 0 && r != -EINVAL && r != -E2BIG && r != -ENOMEM)
		abort();
	if (r < 0 && !err.message[0])
		abort();
	if (r == 0) {
		check_accepted(&req, limits);
		check_keys(data, size, req.kind);
	}
	tc_serve_request_release(&req);
	{
		char *copy = malloc(size + 1);

		if (!copy)
			return 0;
		memcpy(copy, data, size);
		copy[size] = '\0';
		r = tc_serve_policy_parse(copy, "fuzz.json", &pol, &err);
		if (r < 0 && !err.message[0])
			abort();
		if (r == 0 &&
		    (pol.n_allow_uids > TC_SERVE_IDS_MAX || pol.n_preimport > TC_SERVE_IMPORTS_MAX))
			abort();
		free(copy);
	}
	return 0;
}
