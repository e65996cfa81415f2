/* The `call` protocol (README.md, "The `call` envelope"): validating the
 * tool's response and building the envelope. Requests are validated with json.h's
 * tc_json_validate (included here for the callers that check both). Pure:
 * bytes in, structs and strings out. Runs in the parent. */
#ifndef TOOLCELL_PROTOCOL_H
#define TOOLCELL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "toolcell/error.h"
#include "toolcell/record.h"

/* What the tool answered, as toolcell reads it from the tool's stdout. */
struct tc_response {
	bool ok;
	char *data;	   /* ok: the raw bytes of the data value, as the tool wrote them; owned */
	char *err_type;	   /* !ok: error.type from the tool (or "ToolError"); owned */
	char *err_message; /* !ok: error.message from the tool; owned */
};

/* Read the tool's stdout: validate it as tc_json_validate does; then if it is
 * an object with a boolean "ok" member it is a response ({"ok":true,
 * "data":...} or {"ok":false,"error":{"type","message"}}); any other value is
 * the data itself. The data bytes are copied verbatim, never re-printed.
 * -EINVAL with err set when the output is not a valid response. */
int tc_response_parse(const char *buf, size_t len, size_t max_bytes, struct tc_response *ret,
		      struct tc_error *err);

void tc_response_release(struct tc_response *r);

/* The envelope printed by `call`, as a JSON document with a trailing
 * newline (heap string, caller frees; NULL on allocation failure).
 * With resp ok: {"ok":true,"data":<raw>,"meta":{...}}.
 * Otherwise {"ok":false,"error":{"type","message","source"},"meta":{...}}:
 * when toolcell_type is not NULL the error is toolcell's own (source
 * "toolcell", e.g. "Timeout", message toolcell_message; a character a
 * fixed-size buffer cut in half is dropped); else it is the tool's error
 * from resp (source "tool"). Text that is not UTF-8 is sanitized. meta is
 * a subset of the record built from o, taken from its tree. */
char *tc_envelope_to_json(const struct tc_outcome *o, const struct tc_response *resp,
			  const char *toolcell_type, const char *toolcell_message);

/* tc_envelope_to_json with meta taken from record, o's record tree as
 * tc_record_to_cjson built it (NULL: built here), for a caller that
 * prints the record too. */
char *tc_envelope_of_record(const struct tc_outcome *o, const cJSON *record,
			    const struct tc_response *resp, const char *toolcell_type,
			    const char *toolcell_message);

#endif
