/* The `call` protocol (README.md, "The `call` envelope"): reading the
 * tool's response and building the envelope `call` prints. Every byte of it goes through
 * json.h's strict scanner first, because the bytes of `data` are copied
 * into the envelope verbatim and so must be JSON every consumer accepts;
 * the scan also knows where each member's value lies, and cJSON gives the
 * decoded strings. Pure; runs in the parent. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "toolcell/config.h"
#include "protocol.h"
#include "record-tree.h"
#include "util.h"

#define RESPONSE_TYPE_MAX    128  /* bytes of the tool's error.type we keep */
#define RESPONSE_MESSAGE_MAX 4096 /* bytes of the tool's error.message we keep */

/* A copy of s cut to at most max bytes at a UTF-8 character boundary. */
static char *strdup_cut(const char *s, size_t max)
{
	return strndup(s, tc_utf8_cut(s, strlen(s), max));
}

/* The string value of member key of the object numbered obj (whose cJSON
 * node is node), or NULL when absent or not a string. */
static const char *member_string(const struct tc_json_scan *s, uint32_t obj, const cJSON *node,
				 const char *key)
{
	const struct tc_json_member *m = tc_json_find(s, obj, key);
	const cJSON *v;

	if (!m)
		return NULL;
	/* cJSON keeps the members in document order, so index i is ours. */
	v = cJSON_GetArrayItem(node, (int)m->index);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int response_error(const struct tc_json_scan *s, const cJSON *root, struct tc_response *r,
			  struct tc_error *err)
{
	const struct tc_json_member *m = tc_json_find(s, 0, "error");
	const cJSON *e = m ? cJSON_GetArrayItem(root, (int)m->index) : NULL;
	const char *type, *message;

	if (!m || !cJSON_IsObject(e) || m->val_obj == TC_JSON_NO_OBJECT)
		return tc_error_set(err, TC_STAGE_RESPONSE, 0,
				    "response: \"ok\" is false but \"error\" is not an object");
	type = member_string(s, m->val_obj, e, "type");
	message = member_string(s, m->val_obj, e, "message");
	r->ok = false;
	r->err_type = strdup_cut(type && type[0] ? type : "ToolError", RESPONSE_TYPE_MAX);
	r->err_message = strdup_cut(message ? message : "", RESPONSE_MESSAGE_MAX);
	if (!r->err_type || !r->err_message)
		return tc_error_set(err, TC_STAGE_RESPONSE, ENOMEM, "response: out of memory");
	return 0;
}

int tc_response_parse(const char *buf, size_t len, size_t max_bytes, struct tc_response *ret,
		      struct tc_error *err)
{
	_cleanup_scan_ struct tc_json_scan s = { 0 };
	_cleanup_cjson_ cJSON *root = NULL;
	struct tc_response r = { 0 };
	size_t start, end;
	int rc;

	memset(ret, 0, sizeof(*ret));
	if (len <= max_bytes && tc_json_blank(buf, len))
		return tc_error_set(err, TC_STAGE_RESPONSE, 0,
				    "response: the tool printed no response");
	rc = tc_json_parse(buf, len, max_bytes, TC_STAGE_RESPONSE, &s, &root, err);
	if (rc < 0)
		return rc;

	start = s.root_start;
	end = s.root_end;
	if (cJSON_IsObject(root)) {
		const struct tc_json_member *ok = tc_json_find(&s, 0, "ok");
		const cJSON *okv = ok ? cJSON_GetArrayItem(root, (int)ok->index) : NULL;

		if (cJSON_IsFalse(okv)) {
			rc = response_error(&s, root, &r, err);
			if (rc < 0) {
				tc_response_release(&r);
				return rc;
			}
			*ret = r;
			return 0;
		}
		if (cJSON_IsTrue(okv)) {
			const struct tc_json_member *data = tc_json_find(&s, 0, "data");

			if (!data)
				start = end = 0;
			else
				start = data->val_start, end = data->val_end;
		}
	}
	r.ok = true;
	r.data = end > start ? strndup(buf + start, end - start) : strdup("null");
	if (!r.data)
		return tc_error_set(err, TC_STAGE_RESPONSE, ENOMEM, "response: out of memory");
	*ret = r;
	return 0;
}

void tc_response_release(struct tc_response *r)
{
	free(r->data);
	free(r->err_type);
	free(r->err_message);
	r->data = r->err_type = r->err_message = NULL;
}

/* meta: the record's subset, taken from the record itself so the two
 * never disagree. */
static const char *const meta_keys[] = {
	"status",	    "status_inferred",	"exit_code",	     "signal",	     "wall_ms",
	"cpu_user_ms",	    "cpu_system_ms",	"memory_peak_bytes", "stdout_bytes", "stderr_bytes",
	"stdout_truncated", "stderr_truncated", "denied_syscall",
};

static cJSON *envelope_meta(const struct tc_outcome *o, const cJSON *from)
{
	_cleanup_cjson_ cJSON *own = from ? NULL : tc_record_to_cjson(o);
	const cJSON *record = from ? from : own;
	cJSON *meta = cJSON_CreateObject();
	bool failed = !record || !meta;
	size_t i;

	for (i = 0; i < TC_ARRAY_SIZE(meta_keys) && !failed; i++)
		tc_json_add(&failed, meta, meta_keys[i],
			    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(record, meta_keys[i]),
					    true));
	if (failed) {
		cJSON_Delete(meta);
		return NULL;
	}
	return meta;
}

/* A message of toolcell's: a fixed-size buffer may have cut it inside a
 * character, and then the piece is dropped. */
static cJSON *message_string(const char *s)
{
	_cleanup_free_ char *cut = strndup(s, tc_utf8_cut(s, strlen(s), SIZE_MAX));

	return cut ? tc_json_string(cut) : NULL;
}

char *tc_envelope_to_json(const struct tc_outcome *o, const struct tc_response *resp,
			  const char *toolcell_type, const char *toolcell_message)
{
	return tc_envelope_of_record(o, NULL, resp, toolcell_type, toolcell_message);
}

char *tc_envelope_of_record(const struct tc_outcome *o, const cJSON *record,
			    const struct tc_response *resp, const char *toolcell_type,
			    const char *toolcell_message)
{
	_cleanup_cjson_ cJSON *env = cJSON_CreateObject();
	_cleanup_scan_ struct tc_json_scan s = { 0 };
	const char *data = NULL;
	bool failed = false;

	if (!toolcell_type && !resp) {
		toolcell_type = "SandboxError";
		toolcell_message = "no response to report";
	}
	if (!toolcell_type && resp->ok) {
		data = resp->data ? resp->data : "null";
		/* The bytes go into the envelope as they are: never unless they
		 * are one valid JSON value. */
		if (tc_json_scan(data, strlen(data), 0, &s) < 0) {
			toolcell_type = "InvalidResponse";
			toolcell_message = "the tool's data is not one valid JSON value";
		}
	}

	tc_json_add(&failed, env, "ok", cJSON_CreateBool(!toolcell_type && resp->ok));
	if (!toolcell_type && resp->ok) {
		tc_json_add(&failed, env, "data", cJSON_CreateRaw(data));
	} else {
		cJSON *e = tc_json_add(&failed, env, "error", cJSON_CreateObject());

		if (toolcell_type) {
			tc_json_add(&failed, e, "type", tc_json_string(toolcell_type));
			tc_json_add(&failed, e, "message",
				    message_string(toolcell_message ? toolcell_message : ""));
			tc_json_add(&failed, e, "source", cJSON_CreateString("toolcell"));
		} else {
			tc_json_add(&failed, e, "type",
				    tc_json_string(resp->err_type ? resp->err_type : "ToolError"));
			tc_json_add(&failed, e, "message",
				    tc_json_string(resp->err_message ? resp->err_message : ""));
			tc_json_add(&failed, e, "source", cJSON_CreateString("tool"));
		}
	}
	tc_json_add(&failed, env, "meta", envelope_meta(o, record));
	if (failed)
		return NULL;

	return tc_json_document(env, false);
}
