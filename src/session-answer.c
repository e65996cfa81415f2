/* `toolcell session`'s answers (see session.h): the answer line built from
 * what the harness answered (its members, already validated, go in as raw
 * bytes) or toolcell's own exception, and the words for how a sandbox
 * ended. Pure: structs in, a string out; shared by a session of our own
 * and one started from a server. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "json.h"
#include "session.h"
#include "status.h"
#include "util.h"

const char *const tc_session_answer_keys[TC_SESSION_ANSWER_KEYS] = { "success",	  "stdout",
								     "stderr",	  "globals",
								     "exception", "output_files" };
static const char *const answer_default[] = { "false", "\"\"", "\"\"", "{}", "null", "{}" };

char *tc_session_answer_line(const struct tc_session_answer *a, bool state_lost)
{
	_cleanup_cjson_ cJSON *o = cJSON_CreateObject();
	bool failed = false;
	char num[64];

	tc_json_add(&failed, o, "id", cJSON_CreateRaw(a->id ? a->id : "null"));
	for (size_t i = 0; i < TC_SESSION_ANSWER_KEYS; i++) {
		cJSON *e;

		if (i != 4 || !a->err_type) {
			tc_json_add(&failed, o, tc_session_answer_keys[i],
				    cJSON_CreateRaw(a->raw[i] ? a->raw[i] : answer_default[i]));
			continue;
		}
		e = tc_json_add(&failed, o, tc_session_answer_keys[i], cJSON_CreateObject());
		tc_json_add(&failed, e, "type", tc_json_string(a->err_type));
		tc_json_add(&failed, e, "message", tc_json_string(a->err_message));
		tc_json_add(&failed, e, "traceback", cJSON_CreateNull());
	}
	tc_json_add(&failed, o, "timed_out", cJSON_CreateBool(a->timed_out));
	snprintf(num, sizeof(num), "%.3f", a->duration_s);
	tc_json_add(&failed, o, "duration_s", cJSON_CreateRaw(num));
	tc_json_add(&failed, o, "state_lost", cJSON_CreateBool(state_lost));
	if (a->clamped_ms) {
		snprintf(num, sizeof(num), "%.3f", (double)a->clamped_ms / 1000);
		tc_json_add(&failed, o, "timeout_clamped_to", cJSON_CreateRaw(num));
	}
	return failed ? NULL : tc_json_document(o, false);
}

const char *tc_session_ended_type(enum tc_status status)
{
	switch (status) {
	case TC_STATUS_TIMEOUT:
		return "SessionLimit";
	case TC_STATUS_MEMORY_LIMIT:
	case TC_STATUS_PIDS_LIMIT:
	case TC_STATUS_OUTPUT_LIMIT:
	case TC_STATUS_SYSCALL_DENIED:
	case TC_STATUS_SANDBOX_ERROR:
		return tc_status_error_type(status); /* a call's words for them */
	case TC_STATUS_OK:
	case TC_STATUS_EXIT_NONZERO:
	case TC_STATUS_SIGNALED:
	case TC_STATUS_REJECTED:
		break; /* the harness exited, or was signalled, by itself */
	}
	return "SandboxExited";
}

bool tc_session_raw_is(const char *raw, int i)
{
	switch (i) {
	case 0:
		return !strcmp(raw, "true") || !strcmp(raw, "false");
	case 1:
	case 2:
		return raw[0] == '"';
	case 4:
		return raw[0] == '{' || !strcmp(raw, "null");
	default:
		return raw[0] == '{';
	}
}
