/* libFuzzer harness for request validation: tc_json_validate on arbitrary
 * bytes must never crash, must answer 0, -EINVAL or -E2BIG, must fill a
 * message on refusal, and whatever it accepts cJSON must accept too. The
 * same bytes go through tc_json_members (toolcell session's requests and
 * answers): every member it returns must itself be one valid JSON value.
 * And through tc_session_request_parse (a session's request line): an
 * accepted line has a time limit within the ceiling, and a refusal says
 * why. The scanner with TC_JSON_NO_NUL (policies) accepts a subset and
 * names a duplicate's path; the UTF-8 sanitizer always yields valid UTF-8
 * (the input itself when valid) and the cutter never ends inside a
 * character. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "protocol.h"
#include "utf8.h"
#include "session.h"

#define FUZZ_MAX_BYTES 65536

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void scan_and_utf8(const char *buf, size_t size, int validated)
{
	struct tc_json_scan s = { 0 };
	size_t cut = size ? buf[0] % 8 : 0;
	char *clean;

	if (size <= FUZZ_MAX_BYTES) {
		int r = tc_json_scan(buf, size, TC_JSON_NO_NUL, &s);

		if (r == 0 && validated != 0)
			abort(); /* the policy scan accepted what validation refused */
		if (s.fault == TC_JSON_FAULT_DUPLICATE) {
			char path[128];

			tc_json_path(&s, s.dup, path, sizeof(path));
			if (strnlen(path, sizeof(path)) == sizeof(path) || !path[0])
				abort();
		}
		tc_json_scan_release(&s);
	}
	clean = tc_utf8_sanitize(buf, size);
	if (!clean)
		return;
	if (!tc_utf8_valid(clean, strlen(clean)))
		abort();
	/* a C string: it ends at the first NUL */
	if (tc_utf8_valid(buf, size) &&
	    (strlen(clean) != strnlen(buf, size) || memcmp(clean, buf, strlen(clean))))
		abort();
	cut = tc_utf8_cut(clean, strlen(clean), cut);
	if (!tc_utf8_valid(clean, cut))
		abort();
	free(clean);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_error err = { 0 };
	int r = tc_json_validate((const char *)data, size, FUZZ_MAX_BYTES, TC_STAGE_REQUEST, &err);

	if (r != 0 && r != -EINVAL && r != -E2BIG && r != -ENOMEM)
		abort();
	if (r < 0) {
		if (!err.message[0] || err.stage != TC_STAGE_REQUEST)
			abort();
		if (strncmp(err.message, "request: ", 9) != 0)
			abort();
	} else {
		/* accepted: valid UTF-8, and cJSON parses it whole */
		char *copy = malloc(size + 1);
		cJSON *j;

		if (!copy)
			return 0;
		if (!tc_utf8_valid((const char *)data, size))
			abort();
		memcpy(copy, data, size);
		copy[size] = '\0';
		j = cJSON_ParseWithLengthOpts(copy, size + 1, NULL, 1);
		if (!j)
			abort();
		cJSON_Delete(j);
		free(copy);
	}
	scan_and_utf8((const char *)data, size, r);
	{
		static const char *const keys[] = { "id", "op", "code", "timeout_s", "nonce" };
		char *m[5];
		int rm = tc_json_members((const char *)data, size, FUZZ_MAX_BYTES, TC_STAGE_REQUEST,
					 keys, 5, m, &err);

		if (rm == 0 && r != 0)
			abort(); /* members accepted what validation refused */
		for (size_t i = 0; rm == 0 && i < 5; i++) {
			if (m[i] && tc_json_validate(m[i], strlen(m[i]), FUZZ_MAX_BYTES,
						     TC_STAGE_REQUEST, &err) != 0)
				abort();
			free(m[i]);
		}
	}
	{
		struct tc_session_request req;
		uint64_t ceiling = 1 + (size ? data[0] : 0) * 1000ull;
		int rs = tc_session_request_parse((const char *)data, size, FUZZ_MAX_BYTES, ceiling,
						  &req, &err);

		if (rs == 0 && (req.limit_ms == 0 || req.limit_ms > ceiling ||
				(req.clamped_ms && req.clamped_ms != ceiling)))
			abort();
		if (rs < 0 && (rs != -EINVAL && rs != -E2BIG && rs != -ENOMEM))
			abort();
		if (rs < 0 && !err.message[0])
			abort();
		if (req.id && tc_json_validate(req.id, strlen(req.id), FUZZ_MAX_BYTES,
					       TC_STAGE_REQUEST, &err))
			abort();
		tc_session_request_release(&req);
	}
	return 0;
}
