/* The effective policy printed back as a policy file (`toolcell policy
 * check`): every key, every default filled in, so the output means the
 * same as the input. Pure; runs in the parent. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "policy-internal.h"
#include "util.h"

static cJSON *strings_to_json(char *const *v, size_t n)
{
	return cJSON_CreateStringArray((const char *const *)v, (int)n);
}

/* "allow": the switches, then "rootfs" (false, or the list) */
static cJSON *allow_to_json(const struct tc_policy *p)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < TC_POLICY_ALLOWS; i++) {
		const struct tc_policy_allow *sw = &tc_policy_allows[i];
		bool on = *(const bool *)((const char *)p + sw->member);

		if (!tc_json_add(NULL, o, sw->key, cJSON_CreateBool(on)))
			goto fail;
	}
	if (!tc_json_add(NULL, o, "rootfs",
			 p->n_allow_rootfs ? strings_to_json(p->allow_rootfs, p->n_allow_rootfs)
					   : cJSON_CreateBool(false)))
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* "env": NAME=VALUE entries back into "NAME": "VALUE" */
static cJSON *env_to_json(const struct tc_policy *p)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < p->n_env; i++) {
		const char *eq = strchr(p->env[i], '=');
		_cleanup_free_ char *name = strndup(p->env[i], (size_t)(eq - p->env[i]));

		if (!name || !tc_json_add(NULL, o, name, cJSON_CreateString(eq + 1))) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

static cJSON *binds_to_json(const struct tc_policy *p)
{
	cJSON *a = cJSON_CreateArray(), *b;

	for (size_t i = 0; i < p->n_binds; i++)
		if (!tc_json_add(NULL, a, NULL, b = cJSON_CreateObject()) ||
		    !tc_json_add(NULL, b, "host", cJSON_CreateString(p->binds[i].host)) ||
		    !tc_json_add(NULL, b, "inside", cJSON_CreateString(p->binds[i].inside)) ||
		    !tc_json_add(NULL, b, "writable", cJSON_CreateBool(p->binds[i].writable))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

/* "uid_range" and "require" */
static bool host_to_json(const struct tc_policy *p, cJSON *root)
{
	cJSON *o;

	return tc_json_add(NULL, root, "uid_range", o = cJSON_CreateObject()) &&
	       tc_json_add(NULL, o, "start", cJSON_CreateNumber(p->uid_base)) &&
	       tc_json_add(NULL, o, "count", cJSON_CreateNumber(p->uid_count)) &&
	       tc_json_add(NULL, root, "require", o = cJSON_CreateObject()) &&
	       tc_json_add(NULL, o, "cgroup2", cJSON_CreateBool(p->require_cgroup2)) &&
	       tc_json_add(NULL, o, "landlock",
			   p->require_landlock ? cJSON_CreateNumber(p->require_landlock)
					       : cJSON_CreateBool(false));
}

/* Every key after "max", in the order a policy file is documented. */
static bool rest_to_json(const struct tc_policy *p, cJSON *root)
{
	return tc_json_add(NULL, root, "allow", allow_to_json(p)) &&
	       tc_json_add(NULL, root, "env", env_to_json(p)) &&
	       tc_json_add(NULL, root, "pass_env", strings_to_json(p->pass_env, p->n_pass_env)) &&
	       tc_json_add(NULL, root, "binds", binds_to_json(p)) && host_to_json(p, root) &&
	       tc_json_add(NULL, root, "warn_env_not_passed",
			   cJSON_CreateBool(p->warn_env_not_passed)) &&
	       tc_json_add(NULL, root, "seccomp", tc_policy_seccomp_to_json(&p->syscalls)) &&
	       (!p->cgroup_parent ||
		tc_json_add(NULL, root, "cgroup_parent", cJSON_CreateString(p->cgroup_parent))) &&
	       (!p->session_json ||
		tc_json_add(NULL, root, "session", tc_policy_session_to_json(p))) &&
	       (!p->serve_json || tc_json_add(NULL, root, "serve", cJSON_Parse(p->serve_json))) &&
	       tc_json_add(NULL, root, "rootfs",
			   cJSON_CreateString(p->rootfs_name ? p->rootfs_name : "default")) &&
	       tc_json_add(NULL, root, "workspace_apply",
			   cJSON_CreateString(p->workspace_on_success ? "on_success" : "always")) &&
	       (!p->n_programs ||
		tc_json_add(NULL, root, "programs", strings_to_json(p->programs, p->n_programs)));
}

char *tc_policy_to_json(const struct tc_policy *p)
{
	cJSON *root = cJSON_CreateObject();
	char *out;

	if (!tc_json_add(NULL, root, "version", cJSON_CreateNumber(1)) ||
	    !tc_json_add(NULL, root, "network", cJSON_CreateString("none")) ||
	    !tc_json_add(NULL, root, "hostname",
			 cJSON_CreateString(p->hostname ? p->hostname : DEFAULT_HOSTNAME)) ||
	    !tc_json_add(NULL, root, "limits", tc_policy_limits_to_json(p->limit)) ||
	    !tc_json_add(NULL, root, "max", tc_policy_limits_to_json(p->limit_max)) ||
	    !rest_to_json(p, root)) {
		cJSON_Delete(root);
		return NULL;
	}
	out = tc_json_print(root, true);
	cJSON_Delete(root);
	return out;
}
