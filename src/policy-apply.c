/* The caller's overrides under the policy's ceilings (see policy.h:
 * tc_policy_apply): limits within max, binds, the workspace and the
 * environment only where allow says so, each refusal naming the option,
 * the value and the ceiling. Pure: structs in, a struct tc_config out. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "policy-internal.h"
#include "policy.h"
#include "util.h"

static int apply_limits(const struct tc_policy *p, const struct tc_overrides *o, const char *origin,
			struct tc_config *ret, struct tc_error *err)
{
	char asked[32], bound[32];
	size_t i;

	for (i = 0; i < TC_LIMIT__MAX; i++) {
		const struct tc_limit_info *li = &tc_limit_info[i];
		ret->limit[i] = p->limit[i];
		if (!o->has[i])
			continue;
		tc_limit_format(li->unit, o->limit[i], true, asked, sizeof(asked));
		if (o->limit[i] > p->limit_max[i]) {
			tc_limit_format(li->unit, p->limit_max[i], true, bound, sizeof(bound));
			return tc_error_set(
				err, STAGE, EPERM,
				"%s %s is above the policy's ceiling of %s (%s: max.%s)",
				li->option, asked, bound, origin, li->name);
		}
		if (o->limit[i] < li->min) {
			tc_limit_format(li->unit, li->min, true, bound, sizeof(bound));
			return tc_error_set(err, STAGE, EINVAL,
					    "%s %s is below toolcell's minimum of %s", li->option,
					    asked, bound);
		}
		ret->limit[i] = o->limit[i];
	}
	return 0;
}

static int not_allowed(struct tc_error *err, const char *option, const char *origin,
		       const char *key)
{
	return tc_error_set(err, STAGE, EPERM,
			    "%s is not allowed by the policy (%s: allow.%s is false)", option,
			    origin, key);
}

static int bind_append(struct tc_config *cfg, const char *host, const char *inside, bool writable,
		       struct tc_error *err)
{
	struct tc_bind *b = &cfg->binds[cfg->n_binds];

	if (cfg->n_binds == TC_MAX_BINDS)
		return tc_error_set(
			err, STAGE, E2BIG,
			"more than %d binds (the policy's and the command line's together)",
			TC_MAX_BINDS);
	b->host = strdup(host);
	b->inside = strdup(inside);
	b->writable = writable;
	cfg->n_binds++;
	return b->host && b->inside ? 0 : tc_policy_oom(err);
}

static int apply_caller_bind(const struct tc_policy *p, const struct tc_bind *b, const char *origin,
			     struct tc_config *ret, struct tc_error *err)
{
	const char *opt = b->writable ? "--bind" : "--ro-bind";
	const char *inside = b->inside ? b->inside : b->host;
	char why[128], h[SHOWN_STRING_MAX + 4], in[SHOWN_STRING_MAX + 4];
	size_t i;

	if (b->writable ? !p->allow_bind : !p->allow_ro_bind)
		return not_allowed(err, opt, origin, b->writable ? "bind" : "ro_bind");
	if (!b->host)
		return tc_error_set(err, STAGE, EINVAL, "%s: no host path", opt);
	tc_policy_shown(h, sizeof(h), b->host, SHOWN_STRING_MAX);
	tc_policy_shown(in, sizeof(in), inside, SHOWN_STRING_MAX);
	if (tc_bind_path_check(b->host, false, why, sizeof(why)) < 0)
		return tc_error_set(err, STAGE, EINVAL, "%s %s: host path %s", opt, h, why);
	if (tc_bind_path_check(inside, true, why, sizeof(why)) < 0)
		return tc_error_set(err, STAGE, EINVAL, "%s %s: inside path %s %s%s", opt, h, in,
				    why,
				    b->inside ? "" : " (give HOST:INSIDE to bind it elsewhere)");
	for (i = 0; i < ret->n_binds; i++)
		if (!strcmp(ret->binds[i].inside, inside))
			return tc_error_set(err, STAGE, EINVAL, "%s %s: %s is already bound inside",
					    opt, h, in);
	return bind_append(ret, b->host, inside, b->writable, err);
}

static int apply_binds(const struct tc_policy *p, const struct tc_overrides *o, const char *origin,
		       struct tc_config *ret, struct tc_error *err)
{
	char why[128], h[SHOWN_STRING_MAX + 4];
	size_t i;
	int r;

	for (i = 0; i < p->n_binds; i++) {
		r = bind_append(ret, p->binds[i].host, p->binds[i].inside, p->binds[i].writable,
				err);
		if (r < 0)
			return r;
	}
	for (i = 0; i < o->n_binds && i < TC_MAX_BINDS; i++) {
		r = apply_caller_bind(p, &o->binds[i], origin, ret, err);
		if (r < 0)
			return r;
	}
	if (!o->workspace)
		return 0;
	if (!p->allow_workspace)
		return not_allowed(err, "--workspace", origin, "workspace");
	if (tc_bind_path_check(o->workspace, false, why, sizeof(why)) < 0) {
		tc_policy_shown(h, sizeof(h), o->workspace, SHOWN_STRING_MAX);
		return tc_error_set(err, STAGE, EINVAL, "--workspace %s: host path %s", h, why);
	}
	if (o->workspace_inside && strcmp(o->workspace_inside, TC_WORKSPACE_INSIDE) &&
	    tc_bind_path_check(o->workspace_inside, true, why, sizeof(why)) < 0) {
		tc_policy_shown(h, sizeof(h), o->workspace_inside, SHOWN_STRING_MAX);
		return tc_error_set(err, STAGE, EINVAL, "--workspace ...:%s: inside path %s", h,
				    why);
	}
	/* /tmp is the sandbox's own tmpfs, mounted after the workspace would be */
	if (o->workspace_inside && tc_path_at_or_beneath(o->workspace_inside, "/tmp")) {
		tc_policy_shown(h, sizeof(h), o->workspace_inside, SHOWN_STRING_MAX);
		return tc_error_set(err, STAGE, EINVAL,
				    "--workspace ...:%s: inside path is beneath /tmp, the "
				    "sandbox's own scratch tmpfs, where a workspace cannot show; "
				    "use another inside path, such as /workspace (the default)",
				    h);
	}
	ret->workspace_on_success = p->workspace_on_success;
	ret->workspace = strdup(o->workspace);
	ret->workspace_inside =
		strdup(o->workspace_inside ? o->workspace_inside : TC_WORKSPACE_INSIDE);
	return ret->workspace && ret->workspace_inside ? 0 : tc_policy_oom(err);
}

/* Set NAME=VALUE (entry, owned) in cfg: a later NAME replaces an earlier
 * one in place. */
static int env_put(struct tc_config *cfg, char *entry, struct tc_error *err)
{
	size_t i, name_len = (size_t)(strchr(entry, '=') - entry);

	i = tc_env_find(cfg->env, cfg->n_env, entry, name_len);
	if (i < cfg->n_env) {
		free(cfg->env[i]);
		cfg->env[i] = entry;
		return 0;
	}
	if (cfg->n_env == TC_MAX_ENV) {
		free(entry);
		return tc_error_set(
			err, STAGE, E2BIG,
			"more than %d environment variables (the policy's and the command line's together)",
			TC_MAX_ENV);
	}
	cfg->env[cfg->n_env++] = entry;
	return 0;
}

/* NAME's value in envp (toolcell's own environment), when it has one: set
 * it in cfg. option names the asking option or key for messages. */
static int env_pass(struct tc_config *cfg, char *const *envp, const char *name, const char *option,
		    struct tc_error *err)
{
	const char *value = tc_env_get(envp, name);
	char *entry;

	if (!value)
		return 0; /* not set here: skipped */
	entry = tc_env_entry(name, strlen(name), value);
	if (!entry)
		return errno == E2BIG
			       ? tc_error_set(err, STAGE, E2BIG,
					      "%s %s: its value here is longer than %d bytes",
					      option, name, TC_ENV_ENTRY_MAX)
			       : tc_policy_oom(err);
	return env_put(cfg, entry, err);
}

static int apply_caller_env(const struct tc_overrides *o, char *const *envp, struct tc_config *ret,
			    struct tc_error *err)
{
	char show[SHOWN_STRING_MAX + 4];
	const char *s, *eq, *why;
	size_t i;
	char *entry;
	int r;

	for (i = 0; i < o->n_env && i < TC_MAX_ENV; i++) {
		s = o->env[i];
		eq = strchr(s, '=');
		tc_policy_shown(show, sizeof(show), s, SHOWN_STRING_MAX);
		if (!eq)
			return tc_error_set(err, STAGE, EINVAL, "--env %s: expected NAME=VALUE",
					    show);
		why = tc_env_name_problem(s, (size_t)(eq - s));
		if (why)
			return tc_error_set(err, STAGE, EINVAL, "--env %s: the name %s", show, why);
		entry = tc_env_entry(s, (size_t)(eq - s), eq + 1);
		if (!entry)
			return errno == E2BIG ? tc_error_set(err, STAGE, E2BIG,
							     "--env %s: longer than %d bytes", show,
							     TC_ENV_ENTRY_MAX)
					      : tc_policy_oom(err);
		r = env_put(ret, entry, err);
		if (r < 0)
			return r;
	}
	for (i = 0; i < o->n_pass_env && i < TC_MAX_ENV; i++) {
		s = o->pass_env[i];
		tc_policy_shown(show, sizeof(show), s, SHOWN_STRING_MAX);
		why = tc_env_name_problem(s, strlen(s));
		if (why)
			return tc_error_set(err, STAGE, EINVAL, "--pass-env %s: the name %s", show,
					    why);
		r = env_pass(ret, envp, s, "--pass-env", err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Policy env, then policy pass_env, then --env, then --pass-env. */
static int apply_env(const struct tc_policy *p, const struct tc_overrides *o, char *const *envp,
		     const char *origin, struct tc_config *ret, struct tc_error *err)
{
	size_t i;
	char *entry;
	int r;

	if (o->n_env && !p->allow_env)
		return not_allowed(err, "--env", origin, "env");
	if (o->n_pass_env && !p->allow_pass_env)
		return not_allowed(err, "--pass-env", origin, "pass_env");
	for (i = 0; i < p->n_env; i++) {
		entry = strdup(p->env[i]);
		if (!entry)
			return tc_policy_oom(err);
		r = env_put(ret, entry, err);
		if (r < 0)
			return r;
	}
	for (i = 0; i < p->n_pass_env; i++) {
		r = env_pass(ret, envp, p->pass_env[i], "pass_env", err);
		if (r < 0)
			return r;
	}
	return apply_caller_env(o, envp, ret, err);
}

static int apply_all(const struct tc_policy *p, const struct tc_overrides *o, char *const *envp,
		     const char *rootfs, struct tc_config *ret, struct tc_error *err)
{
	const char *origin = p->origin ? p->origin : "policy";
	int r;

	r = apply_limits(p, o, origin, ret, err);
	if (r < 0)
		return r;
	r = apply_binds(p, o, origin, ret, err);
	if (r < 0)
		return r;
	r = apply_env(p, o, envp, origin, ret, err);
	if (r < 0)
		return r;
	if (o->rootfs)
		rootfs = o->rootfs;
	ret->rootfs = rootfs ? strdup(rootfs) : NULL;
	ret->hostname = strdup(p->hostname ? p->hostname : DEFAULT_HOSTNAME);
	if ((rootfs && !ret->rootfs) || !ret->hostname)
		return tc_policy_oom(err);
	for (size_t i = 0; i < p->n_programs; i++) {
		ret->programs[i] = strdup(p->programs[i]);
		if (!ret->programs[i])
			return tc_policy_oom(err);
		ret->n_programs = i + 1;
	}
	if (o->cgroup_parent) {
		/* where the sandbox's cgroup goes is the operator's to allow,
		 * and only at or below the policy's own parent */
		char h[SHOWN_STRING_MAX + 4];
		if (!p->allow_cgroup_parent)
			return not_allowed(err, "--cgroup-parent", p->origin ? p->origin : "policy",
					   "cgroup_parent");
		if (p->cgroup_parent &&
		    !tc_path_at_or_beneath(o->cgroup_parent, p->cgroup_parent)) {
			tc_policy_shown(h, sizeof(h), o->cgroup_parent, SHOWN_STRING_MAX);
			return tc_error_set(err, STAGE, EPERM,
					    "--cgroup-parent %s: not at or below the policy's "
					    "cgroup_parent %s",
					    h, p->cgroup_parent);
		}
		ret->cgroup_parent_from_caller = true;
	}
	if (o->cgroup_parent || p->cgroup_parent) {
		ret->cgroup_parent = strdup(o->cgroup_parent ? o->cgroup_parent : p->cgroup_parent);
		if (!ret->cgroup_parent)
			return tc_policy_oom(err);
	}
	ret->uid_base = p->uid_base;
	ret->uid_count = p->uid_count;
	ret->require_cgroup2 = p->require_cgroup2;
	ret->require_landlock = p->require_landlock;
	ret->syscalls = p->syscalls;
	return 0;
}

int tc_policy_apply(const struct tc_policy *p, const struct tc_overrides *o, char *const *envp,
		    const char *rootfs, struct tc_config *ret, struct tc_error *err)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	r = apply_all(p, o, envp, rootfs, ret, err);
	if (r < 0)
		tc_config_release(ret);
	return r;
}
