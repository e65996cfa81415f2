/* The policy's "seccomp" section: which system calls the tool may make,
 * which end it, and what every other call does. Names are resolved to
 * x86_64 numbers here, in the parent, so the filter compiler and the
 * supervisor only ever see bit sets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy-internal.h"
#include "seccomp.h"
#include "syscalls.h"
#include "util.h"

#define NAMES_MAX    512 /* entries in one of the section's arrays */
#define NAME_MAX_LEN 63

enum {
	S_ALLOW,
	S_ADD,
	S_REMOVE,
	S_KILL,
	S_OTHERWISE,
	S__MAX
};
static const char *const seccomp_keys[S__MAX] = { "allow", "add", "remove", "kill", "otherwise" };

/* Each entry of the array at path as a syscall number, handed to one(). */
static int each_name(const struct parse_ctx *c, const char *path, const cJSON *arr,
		     struct tc_syscall_policy *sp, uint64_t *seen,
		     int (*one)(const struct parse_ctx *, const char *, const char *, int,
				struct tc_syscall_policy *))
{
	char sub[KEY_PATH_MAX];
	const cJSON *it;
	size_t i = 0;
	int r;

	if (!cJSON_IsArray(arr))
		return tc_policy_expect(c, path, "an array of system call names", arr);
	cJSON_ArrayForEach(it, arr)
	{
		const char *name = cJSON_GetStringValue(it);
		size_t len = name ? strlen(name) : 0;
		int nr;

		snprintf(sub, sizeof(sub), "%s[%zu]", path, i++);
		if (i > NAMES_MAX)
			return tc_policy_err(c, path, "more than %d names", NAMES_MAX);
		if (!name || len == 0 || len > NAME_MAX_LEN ||
		    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
			return tc_policy_expect(c, sub, "a system call name such as \"read\"", it);
		nr = tc_syscall_resolve(name);
		if (nr < 0)
			return tc_policy_err(c, sub, "\"%s\" is not an x86_64 system call", name);
		if (tc_syscall_in(seen, nr))
			return tc_policy_err(c, sub, "\"%s\" is listed twice", name);
		tc_syscall_put(seen, nr, true);
		r = one(c, sub, name, nr, sp);
		if (r < 0)
			return r;
	}
	return 0;
}

static int allow_one(const struct parse_ctx *c, const char *path, const char *name, int nr,
		     struct tc_syscall_policy *sp)
{
	const char *why = tc_syscall_never(nr);

	if (why)
		return tc_policy_err(c, path, "toolcell never allows \"%s\": %s", name, why);
	if (tc_syscall_in(sp->allow, nr))
		return tc_policy_err(c, path, "\"%s\" is already allowed", name);
	tc_syscall_put(sp->allow, nr, true);
	return 0;
}

static int remove_one(const struct parse_ctx *c, const char *path, const char *name, int nr,
		      struct tc_syscall_policy *sp)
{
	if (tc_syscall_is_required(nr))
		return tc_policy_err(
			c, path,
			"\"%s\" cannot be removed: toolcell itself makes it once the filter "
			"is loaded",
			name);
	if (!tc_syscall_in(sp->allow, nr))
		return tc_policy_err(c, path, "\"%s\" is not allowed, so it cannot be removed",
				     name);
	tc_syscall_put(sp->allow, nr, false);
	return 0;
}

static int kill_one(const struct parse_ctx *c, const char *path, const char *name, int nr,
		    struct tc_syscall_policy *sp)
{
	if (tc_syscall_in(sp->allow, nr))
		return tc_policy_err(c, path,
				     "\"%s\" is allowed; a call cannot be both allowed and killed",
				     name);
	tc_syscall_put(sp->kill, nr, true);
	return 0;
}

/* A whole allow list must keep what toolcell itself calls. */
static int required_present(const struct parse_ctx *c, const struct tc_syscall_policy *sp)
{
	char missing[TC_ERROR_MESSAGE_MAX / 2], name[32];
	size_t off = 0;

	missing[0] = '\0';
	for (int nr = 0; nr < TC_SYSCALL_MAX; nr++)
		if (tc_syscall_is_required(nr) && !tc_syscall_in(sp->allow, nr) &&
		    off < sizeof(missing)) {
			tc_syscall_name(nr, name, sizeof(name));
			off += (size_t)snprintf(missing + off, sizeof(missing) - off, "%s\"%s\"",
						off ? ", " : "", name);
		}
	if (!off)
		return 0;
	return tc_policy_err(c, "seccomp.allow",
			     "lacks %s, which toolcell itself makes once the filter is loaded",
			     missing);
}

int tc_policy_parse_seccomp(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	struct tc_syscall_policy *sp = &p->syscalls;
	uint64_t seen[TC_SYSCALL_MAX / 64];
	const cJSON *f[S__MAX];
	int r;

	/* the build-time filter was compiled from these very lists, resolved
	 * then: no lookup of some 330 names on every run */
	if (&tc_seccomp_prebuilt)
		*sp = tc_seccomp_prebuilt.policy;
	else
		tc_syscall_policy_default(sp);
	if (!obj)
		return 0;
	r = tc_policy_fields(c, obj, "seccomp", seccomp_keys, S__MAX, f);
	if (r < 0)
		return r;
	if (f[S_ALLOW]) {
		memset(sp->allow, 0, sizeof(sp->allow));
		memset(seen, 0, sizeof(seen));
		r = each_name(c, "seccomp.allow", f[S_ALLOW], sp, seen, allow_one);
		if (r >= 0)
			r = required_present(c, sp);
	}
	memset(seen, 0, sizeof(seen));
	if (r >= 0 && f[S_ADD])
		r = each_name(c, "seccomp.add", f[S_ADD], sp, seen, allow_one);
	if (r >= 0 && f[S_REMOVE])
		r = each_name(c, "seccomp.remove", f[S_REMOVE], sp, seen, remove_one);
	memset(seen, 0, sizeof(seen));
	if (r >= 0 && f[S_KILL])
		r = each_name(c, "seccomp.kill", f[S_KILL], sp, seen, kill_one);
	if (r < 0)
		return r;
	/* a call the policy allows is no longer one that kills */
	for (size_t i = 0; i < TC_ARRAY_SIZE(sp->kill); i++)
		sp->kill[i] &= ~sp->allow[i];
	if (f[S_OTHERWISE]) {
		const char *v = cJSON_GetStringValue(f[S_OTHERWISE]);
		if (!v || (strcmp(v, "enosys") && strcmp(v, "kill")))
			return tc_policy_expect(c, "seccomp.otherwise", "\"enosys\" or \"kill\"",
						f[S_OTHERWISE]);
		sp->kill_others = !strcmp(v, "kill");
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of set's numbers, sorted, as a JSON array. */
static cJSON *names_to_json(const uint64_t *set)
{
	char names[TC_SYSCALL_MAX][32];
	const char *sorted[TC_SYSCALL_MAX] = { 0 };
	size_t n = 0;
	cJSON *a = cJSON_CreateArray();

	for (int nr = 0; nr < TC_SYSCALL_MAX; nr++)
		if (tc_syscall_in(set, nr)) {
			tc_syscall_name(nr, names[n], sizeof(names[n]));
			sorted[n] = names[n];
			n++;
		}
	qsort(sorted, n, sizeof(sorted[0]), by_name);
	for (size_t i = 0; i < n; i++)
		if (!tc_json_add(NULL, a, NULL, cJSON_CreateString(sorted[i]))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

cJSON *tc_policy_seccomp_to_json(const struct tc_syscall_policy *sp)
{
	cJSON *o = cJSON_CreateObject();

	if (!tc_json_add(NULL, o, "allow", names_to_json(sp->allow)) ||
	    !tc_json_add(NULL, o, "kill", names_to_json(sp->kill)) ||
	    !tc_json_add(NULL, o, "otherwise",
			 cJSON_CreateString(sp->kill_others ? "kill" : "enosys"))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

size_t tc_policy_warnings(const struct tc_policy *p, FILE *out)
{
	size_t n = 0;
	char name[32];

	for (int nr = 0; nr < TC_SYSCALL_MAX; nr++)
		if (tc_syscall_in(p->syscalls.allow, nr) && tc_syscall_is_dangerous(nr)) {
			tc_syscall_name(nr, name, sizeof(name));
			fprintf(out,
				"toolcell: warning: %s: seccomp allows \"%s\", a call toolcell's "
				"default refuses by ending the tool\n",
				p->origin ? p->origin : "policy", name);
			n++;
		}
	return n;
}
