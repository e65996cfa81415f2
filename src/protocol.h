/* The `call` protocol (DESIGN §3): validating the request before any
 * sandbox is built, validating the tool's response, and building the
 * envelope. Pure: bytes in, structs and strings out. cJSON only ever parses
 * a NUL-terminated copy. Runs in the parent. */
#ifndef TOOLCELL_PROTOCOL_H
#define TOOLCELL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

#include "toolcell/error.h"
#include "toolcell/record.h"

/* true when buf[0..len) is valid UTF-8 (no overlongs, no surrogates, no
 * code points above U+10FFFF). */
bool tc_utf8_valid(const char *buf, size_t len);

/* Validate a JSON document: at most max_bytes, valid UTF-8, exactly one JSON
 * value (surrounding white space allowed), nesting depth at most
 * TC_JSON_DEPTH_MAX, no duplicate keys in any object. On failure returns
 * -EINVAL (-E2BIG when too large) and err says what is wrong and where
 * (stage "request" or whatever `what` is). */
int tc_json_validate(const char *buf, size_t len, size_t max_bytes, const char *what,
		     struct tc_error *err);

/* Validate buf as tc_json_validate does and require one object; then
 * ret[i] is a heap copy of the raw bytes of its top-level member keys[i]
 * (exactly as written: numbers and strings are never re-printed), or NULL
 * when it has none. The caller frees each. */
int tc_json_members(const char *buf, size_t len, size_t max_bytes, const char *what,
		    const char *const *keys, size_t n, char **ret, struct tc_error *err);

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
 * "toolcell", e.g. "Timeout", message toolcell_message); else it is the
 * tool's error from resp (source "tool"). meta is a subset of the record
 * built from o. */
char *tc_envelope_to_json(const struct tc_outcome *o, const struct tc_response *resp,
			  const char *toolcell_type, const char *toolcell_message);

#endif
