/* What the policy's files share: the
 * parse context, the helpers that build exact refusal messages, and each
 * section's parser and printer (policy.c: the file and most keys;
 * policy-util.c: helpers; policy-limits.c, policy-seccomp.c and
 * policy-session.c: their sections; policy-json.c: the printed policy;
 * policy-apply.c: the caller's overrides). Not part of toolcell's
 * interface. */
#ifndef TOOLCELL_POLICY_INTERNAL_H
#define TOOLCELL_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "json.h"

#include "toolcell/error.h"
#include "policy.h"

#define STAGE		 TC_STAGE_POLICY
#define DEFAULT_HOSTNAME "toolcell"
#define KEY_PATH_MAX	 128 /* "binds[31].inside", "env.NAME" (NAME truncated) */
#define SHOWN_STRING_MAX 48  /* characters of a bad string quoted in a message */

struct parse_ctx {
	const char *origin;
	struct tc_error *err;
};

/* Refuse with "ORIGIN: PATH: message" (-EINVAL). */
int tc_policy_err(const struct parse_ctx *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Refuse with "ORIGIN: PATH: expected WHAT, got V". */
int tc_policy_expect(const struct parse_ctx *c, const char *path, const char *what, const cJSON *v);

int tc_policy_oom(struct tc_error *err);

/* "parent.key" into buf, the key made printable and cut short. */
void tc_policy_key(char *buf, size_t n, const char *parent, const char *key);

/* The members of an object whose keys are fixed: ret[i] is the member
 * named keys[i] or NULL. An unknown key is refused; a repeated one never
 * gets here (the strict scan refused the file, naming its path). */
int tc_policy_fields(const struct parse_ctx *c, const cJSON *obj, const char *path,
		     const char *const *keys, size_t n_keys, const cJSON **ret);

/* What a bad value was, for "expected X, got Y": "\"12Q\"", "an array". */
void tc_policy_describe(const cJSON *v, char *buf, size_t n);

/* A non-negative JSON number: a whole number, exactly (-ERANGE past 64
 * bits), or with thousandths true a count of thousandths (seconds or CPUs
 * into ms or millicpus), rounded up. */
int tc_policy_number(const cJSON *v, bool thousandths, uint64_t *ret);

/* allow's switches: each key and the struct tc_policy member it sets. */
struct tc_policy_allow {
	const char *key;
	size_t member; /* offsetof(struct tc_policy, allow_...), a bool */
};

#define TC_POLICY_ALLOWS 6
extern const struct tc_policy_allow tc_policy_allows[TC_POLICY_ALLOWS];

/* Copy s for a message: printable ASCII kept, anything else as '?', cut at
 * max characters with "..." appended. */
void tc_policy_shown(char *out, size_t n, const char *s, size_t max);

/* policy-limits.c: "limits" and "max" (either may be NULL) into p's limits
 * and ceilings; a missing limit takes the built-in default, a missing
 * ceiling its limit. */
int tc_policy_parse_limits(const struct parse_ctx *c, const cJSON *limits, const cJSON *max,
			   struct tc_policy *p);
/* The limits v (TC_LIMIT__MAX of them) as a policy's "limits" object. */
cJSON *tc_policy_limits_to_json(const uint64_t *v);

/* policy-seccomp.c: the "seccomp" section (NULL: the built-in lists). */
int tc_policy_parse_seccomp(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p);
cJSON *tc_policy_seccomp_to_json(const struct tc_syscall_policy *sp);

/* policy-session.c: the "session" section. */
int tc_policy_parse_session(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p);
cJSON *tc_policy_session_to_json(const struct tc_policy *p);

#endif
