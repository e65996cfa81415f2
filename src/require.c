/* A policy's requirements against this host (require.h). Parent side; reads
 * the host only. */
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "host.h"
#include "require.h"

/* "POLICY requires cgroup v2 limits in its cgroup_parent: WHAT; how to
 * delegate", cut to n bytes as every message is. */
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
static void say_policy_subtree(char *why, size_t n, const char *policy, const char *what)
{
	snprintf(why, n, "%s requires cgroup v2 limits in its cgroup_parent: %s; %s", policy, what,
		 tc_cgroup_how_to_delegate());
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static bool unmet_cgroup2(const struct tc_config *cfg, const char *policy_path, char *why, size_t n)
{
	struct tc_cgroup cg;
	struct tc_error e = { 0 };
	int r = tc_cgroup_find(cfg->cgroup_parent, cfg->cgroup_parent_from_caller, &cg, &e);

	tc_cgroup_release(&cg);
	if (r < 0 && cfg->cgroup_parent && !cfg->cgroup_parent_from_caller)
		/* the policy's own subtree is missing: say how to provide it */
		say_policy_subtree(why, n, policy_path, e.message);
	else if (r < 0)
		snprintf(why, n, "%s", e.message);
	else if (r == 0)
		snprintf(why, n,
			 "%s requires cgroup v2 limits, and this host has no usable subtree: %s. "
			 "To run it, %s",
			 policy_path, cg.why, tc_cgroup_how_to_delegate());
	return r <= 0;
}

static bool unmet_landlock(const struct tc_config *cfg, const char *policy_path, char *why,
			   size_t n)
{
	int abi = tc_host_landlock_abi();

	if (abi >= (int)cfg->require_landlock)
		return false;
	if (abi > 0)
		snprintf(why, n,
			 "%s requires Landlock ABI %u or later; this kernel has ABI %d (a newer "
			 "kernel has the newer ABI)",
			 policy_path, cfg->require_landlock, abi);
	else
		snprintf(
			why, n,
			"%s requires Landlock ABI %u or later; this kernel has no Landlock (%s): "
			"it needs Linux 5.13 or later with \"landlock\" in the lsm= boot parameter "
			"(or CONFIG_LSM)",
			policy_path, cfg->require_landlock, strerror(-abi));
	return true;
}

bool tc_require_unmet(const struct tc_config *cfg, const char *policy_path, char *why, size_t n)
{
	if (cfg->require_cgroup2 && unmet_cgroup2(cfg, policy_path, why, n))
		return true;
	return cfg->require_landlock && unmet_landlock(cfg, policy_path, why, n);
}
