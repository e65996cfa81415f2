/* JSON in one place: the strict RFC 8259 scanner every JSON input from
 * outside goes through (requests, the tool's responses, a session's
 * answers, policy files; json.c), validation with exact messages, and the
 * one way toolcell builds and prints JSON: cJSON trees, never text by hand
 * (json-doc.c). UTF-8 is utf8.h's. Pure; runs in the parent. */
#ifndef TOOLCELL_JSON_H
#define TOOLCELL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "toolcell/error.h"
#include "utf8.h"

#define TC_JSON_KEY_SHOWN_MAX 64 /* bytes of a key quoted in a message */
#define TC_JSON_NO_OBJECT     UINT32_MAX

/* ---- the strict scanner ---- */

/* What made a scan refuse its input. */
enum tc_json_fault {
	TC_JSON_FAULT_NONE,
	TC_JSON_FAULT_EMPTY,	  /* nothing but white space */
	TC_JSON_FAULT_UTF8,	  /* at: the first byte that is not UTF-8 */
	TC_JSON_FAULT_BOM,	  /* a byte order mark at byte 0 */
	TC_JSON_FAULT_SYNTAX,	  /* at: the first byte that is wrong */
	TC_JSON_FAULT_END,	  /* the input ends inside the value */
	TC_JSON_FAULT_EXTRA,	  /* at: a byte after one whole value */
	TC_JSON_FAULT_DEPTH,	  /* at: the opener one level too deep */
	TC_JSON_FAULT_NUL_ESCAPE, /* at: a \u0000 (only with TC_JSON_NO_NUL) */
	TC_JSON_FAULT_DUPLICATE,  /* dup: the later of two members with one key */
	TC_JSON_FAULT_NOMEM,
};

/* Scan flags. */
#define TC_JSON_NO_NUL 1u /* refuse \u0000: the reader keeps strings as C strings */

/* One member of one object, in document order. Containers (objects and
 * arrays) are numbered by their opening bracket; the root is 0. */
struct tc_json_member {
	uint32_t obj;		   /* the object it belongs to */
	uint32_t index;		   /* its position among that object's members */
	uint32_t val_obj;	   /* the container that is its value, or TC_JSON_NO_OBJECT */
	size_t key_off, key_len;   /* its decoded key, in tc_json_scan.keys */
	size_t val_start, val_end; /* its value's bytes in the input */
};

/* Where a container sits: its parent container and its place there. */
struct tc_json_container {
	uint32_t parent; /* TC_JSON_NO_OBJECT for the root */
	uint32_t slot;	 /* member or element index in the parent */
	bool is_object;
};

/* A scan's results. Zero it before the scan; tc_json_scan_release frees. */
struct tc_json_scan {
	const unsigned char *p;
	size_t len, pos;
	unsigned flags;
	enum tc_json_fault fault;
	size_t at;			  /* where the fault is, as a byte offset */
	const struct tc_json_member *dup; /* TC_JSON_FAULT_DUPLICATE: the repeated member */
	struct tc_json_member *m;
	size_t n_m, cap_m;
	struct tc_json_container *c;
	size_t n_c, cap_c;
	char *keys; /* decoded keys; never longer than the input */
	size_t keys_len;
	size_t root_start, root_end; /* the root value's bytes */
};

/* Scan buf[0..len): valid UTF-8, no byte order mark, exactly one RFC 8259
 * value with white space around it, nesting at most TC_JSON_DEPTH_MAX, no
 * key twice in one object (keys compared decoded, byte for byte). Returns
 * 0, -EINVAL with s->fault and s->at (or s->dup) saying what and where, or
 * -ENOMEM (s->fault TC_JSON_FAULT_NOMEM). No size limit: callers check
 * theirs first. */
int tc_json_scan(const char *buf, size_t len, unsigned flags, struct tc_json_scan *s);

void tc_json_scan_release(struct tc_json_scan *s);

/* The member of container obj whose key is exactly key, or NULL. */
const struct tc_json_member *tc_json_find(const struct tc_json_scan *s, uint32_t obj,
					  const char *key);

/* m's path from the root, "limits.pids" or "binds[0].host", its keys as
 * tc_json_key_shown shows them; cut to fit n. */
void tc_json_path(const struct tc_json_scan *s, const struct tc_json_member *m, char *buf,
		  size_t n);

/* A key, quoted in a message: at most TC_JSON_KEY_SHOWN_MAX bytes cut at a
 * character boundary, then "...", control characters shown as '?'. */
void tc_json_key_shown(const char *key, size_t len, char out[TC_JSON_KEY_SHOWN_MAX + 4]);

/* true when buf[0..len) is only JSON white space (or empty). */
bool tc_json_blank(const char *buf, size_t len);

/* ---- validating input with messages ---- */

/* Validate a JSON document: at most max_bytes, then everything tc_json_scan
 * checks, then cJSON must parse it too. On failure returns -EINVAL (-E2BIG
 * when too large) and err says what is wrong and where, prefixed by the
 * stage's name ("request: not valid JSON near byte 3"). */
int tc_json_validate(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		     struct tc_error *err);

/* tc_json_validate, leaving the scan in s (released by the caller either
 * way) and cJSON's tree of a NUL-terminated copy in *ret_root. */
int tc_json_parse(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		  struct tc_json_scan *s, cJSON **ret_root, struct tc_error *err);

/* Validate buf as tc_json_validate does and require one object; then
 * ret[i] is a heap copy of the raw bytes of its top-level member keys[i]
 * (exactly as written: numbers and strings are never re-printed), or NULL
 * when it has none. The caller frees each. */
int tc_json_members(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
		    const char *const *keys, size_t n, char **ret, struct tc_error *err);

/* tc_json_members for a document toolcell's own code printed with cJSON
 * (the server's answer to its command-line client): tc_json_scan's checks
 * and messages, without cJSON's second parse of it. */
int tc_json_members_made(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
			 const char *const *keys, size_t n, char **ret, struct tc_error *err);

/* tc_json_members, returning 1 instead of 0 when a top-level key is none
 * of keys, the first such key in unknown as tc_json_key_shown shows it
 * (for a caller that refuses what it does not know, naming it). */
int tc_json_members_known(const char *buf, size_t len, size_t max_bytes, enum tc_stage stage,
			  const char *const *keys, size_t n, char **ret,
			  char unknown[TC_JSON_KEY_SHOWN_MAX + 4], struct tc_error *err);

/* ---- building and printing ---- */

/* Add item to obj under key (to the array obj when key is NULL) and return
 * it. When obj or item is NULL or the add fails, the item is freed, *failed
 * (when given) is set and NULL is returned, so a tree built with it is
 * either whole or known to be broken. */
cJSON *tc_json_add(bool *failed, cJSON *obj, const char *key, cJSON *item);

/* A JSON string of s (NULL: ""), made valid UTF-8 by tc_utf8_sanitize. */
cJSON *tc_json_string(const char *s);

/* A node that holds the JSON text buf[0..len) as it is (a copy), printed
 * without being parsed again: for a document already validated (a request
 * kept byte for byte) placed inside one of ours. NULL when out of memory. */
cJSON *tc_json_raw(const char *buf, size_t len);

/* doc printed (pretty, or compact on one line), without a newline; NULL on
 * allocation failure. The one printer of the library: free() releases what
 * it returns (toolcell never sets cJSON's allocation hooks). */
char *tc_json_print(const cJSON *doc, bool pretty);

/* tc_json_print with a trailing newline: a document or a line to send. */
char *tc_json_document(const cJSON *doc, bool pretty);

static inline void tc_json_scan_releasep(struct tc_json_scan *s)
{
	tc_json_scan_release(s);
}

static inline void tc_cjson_deletep(cJSON **j)
{
	cJSON_Delete(*j);
}

#define _cleanup_scan_	__attribute__((cleanup(tc_json_scan_releasep)))
#define _cleanup_cjson_ __attribute__((cleanup(tc_cjson_deletep)))

#endif
