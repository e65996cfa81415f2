/* What the policy parser's files share (policy.c, policy-seccomp.c): the
 * parse context and the helpers that build exact refusal messages. Not
 * part of toolcell's interface. */
#ifndef TOOLCELL_POLICY_INTERNAL_H
#define TOOLCELL_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "toolcell/error.h"
#include "policy.h"

#define STAGE		 "policy"
#define DEFAULT_HOSTNAME "toolcell"
#define WORKSPACE_INSIDE "/workspace"
#define KEY_PATH_MAX	 128 /* "binds[31].inside", "env.NAME" (NAME truncated) */
#define SHOWN_STRING_MAX 48  /* characters of a bad string quoted in a message */

struct parse_ctx {
	const char *origin;
	struct tc_error *err;
};

/* Refuse with "ORIGIN: PATH: message" (-EINVAL). */
int perr(const struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Refuse with "ORIGIN: PATH: expected WHAT, got V". */
int expect(const struct parse_ctx *c, const char *path, const char *what, const cJSON *v);

int oom(struct tc_error *err);

/* "parent.key" into buf, the key made printable and cut short. */
void path_key(char *buf, size_t n, const char *parent, const char *key);

/* The members of an object whose keys are fixed: ret[i] is the member
 * named keys[i] or NULL. Unknown and repeated keys are refused. */
int object_fields(const struct parse_ctx *c, const cJSON *obj, const char *path,
		  const char *const *keys, size_t n_keys, const cJSON **ret);

/* Add item to obj (or to the array obj when name is NULL); false and item
 * freed when either is missing. */
bool json_add(cJSON *obj, const char *name, cJSON *item);

/* Copy s for a message: printable ASCII kept, anything else as '?', cut at
 * max characters with "..." appended. */
void shown(char *out, size_t n, const char *s, size_t max);

/* path is root or beneath it, by text ("/a/b" is beneath "/a", "/ab" is not) */
bool at_or_beneath(const char *path, const char *root);

/* policy-seccomp.c: the "seccomp" section (NULL: the built-in lists). */
int parse_seccomp(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p);
cJSON *seccomp_to_json(const struct tc_syscall_policy *sp);

/* policy-session.c: the "session" section. */
int parse_session(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p);
cJSON *session_to_json(const struct tc_policy *p);

#endif
