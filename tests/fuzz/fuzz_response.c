/* libFuzzer harness for response reading and the envelope: whatever the
 * tool prints, tc_response_parse either refuses it or yields a response
 * whose envelope is one strictly valid JSON document that cJSON parses
 * back, with "ok" as the response said and, for ok, the data bytes
 * embedded verbatim. A refused response makes an InvalidResponse
 * envelope, which must be valid too. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "protocol.h"
#include "toolcell/record.h"

#define FUZZ_MAX_BYTES 65536

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_envelope(const char *text, bool ok, const char *raw)
{
	size_t len;
	cJSON *env;

	if (!text)
		abort();
	len = strlen(text);
	if (len < 2 || text[len - 1] != '\n')
		abort();
	if (tc_json_validate(text, len, SIZE_MAX, TC_STAGE_RESPONSE, NULL) != 0)
		abort();
	env = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 1);
	if (!env)
		abort();
	if (ok != cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(env, "ok")))
		abort();
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(env, "meta")))
		abort();
	if (ok) {
		/* {"ok":true,"data":<raw>,"meta":... : the bytes, verbatim */
		static const char head[] = "{\"ok\":true,\"data\":";

		if (strncmp(text, head, sizeof(head) - 1) != 0)
			abort();
		if (strncmp(text + sizeof(head) - 1, raw, strlen(raw)) != 0)
			abort();
		if (strncmp(text + sizeof(head) - 1 + strlen(raw), ",\"meta\":", 8) != 0)
			abort();
	} else {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(env, "error");

		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "type")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message")) ||
		    !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "source")))
			abort();
	}
	cJSON_Delete(env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_outcome o;
	struct tc_response resp;
	struct tc_error err = { 0 };
	char *text;
	int r;

	tc_outcome_init(&o);
	o.status = TC_STATUS_OK;
	o.exited = true;
	o.exit_code = 0;
	r = tc_response_parse((const char *)data, size, FUZZ_MAX_BYTES, &resp, &err);
	if (r < 0) {
		if (r != -EINVAL && r != -E2BIG && r != -ENOMEM)
			abort();
		if (resp.data || resp.err_type || resp.err_message || !err.message[0])
			abort();
		text = tc_envelope_to_json(&o, NULL, "InvalidResponse", err.message);
		check_envelope(text, false, NULL);
		free(text);
		return 0;
	}
	if (resp.ok ? !resp.data || resp.err_type : !resp.err_type || !resp.err_message)
		abort();
	if (!resp.ok && (strlen(resp.err_type) > 128 || strlen(resp.err_message) > 4096))
		abort();
	text = tc_envelope_to_json(&o, &resp, NULL, NULL);
	check_envelope(text, resp.ok, resp.data);
	free(text);
	tc_response_release(&resp);
	return 0;
}
