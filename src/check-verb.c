/* `toolcell check` (what isolation this host gives, and whether the policy
 * can run here, proved by a real sandbox) and `toolcell policy check` (a
 * policy validated and printed as it takes effect). Parent side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "require.h"
#include "rootfs.h"
#include "util.h"
#include "verb.h"

/* The policy's requirements against this host, as a line. */
static bool report_requirements(struct tc_invocation *v)
{
	char why[TC_ERROR_MESSAGE_MAX], ll[64] = "not required";

	if (tc_require_unmet(&v->cfg, v->policy_path, why, sizeof(why))) {
		printf("policy requirements: NOT MET: %s\n", why);
		return false;
	}
	if (v->cfg.require_landlock)
		snprintf(ll, sizeof(ll), "ABI %u or later required, ABI %d here",
			 v->cfg.require_landlock, tc_host_landlock_abi());
	printf("policy requirements: met (cgroup v2: %s; Landlock: %s)\n",
	       v->cfg.require_cgroup2 ? "required, present" : "not required", ll);
	return true;
}

/* A warning too: `run` and `python` use no harness of the tree's. */
static void report_harness(struct tc_invocation *v)
{
	struct tc_error e = { 0 };

	if (tc_rootfs_check_harness(v->rootfs, v->rootfs_rebuild, &e) < 0)
		printf("rootfs harnesses: NOT THIS TOOLCELL'S (call, session and serve refuse the "
		       "tree): %s\n",
		       e.message);
	else
		printf("rootfs harnesses: this toolcell's\n");
}

int tc_verb_check(struct tc_invocation *v)
{
	struct tc_sandbox_spec spec = { .cfg = &v->cfg, .io = TC_IO_MEMORY, .cwd = "/" };
	char *argv[] = { "python3", "-S", "-c", "pass", NULL };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	bool ok;

	if (tc_verb_load(v, &e) < 0)
		return tc_verb_fail(v, &e);
	ok = tc_host_report(stdout, v->cfg.cgroup_parent, v->cfg.cgroup_parent_from_caller);
	/* a warning: a stale rootfs still runs, without the host's updates */
	tc_rootfs_report_stale(stdout, v->rootfs, v->policy.rootfs_name);
	report_harness(v);
	fflush(stdout);
	ok = report_requirements(v) && ok;
	tc_outcome_init(&v->out);
	spec.argv = argv;
	if (!ok) {
		printf("sandbox: not tried (see above)\n");
		printf("verdict: %s cannot run here\n", v->policy_path);
		return TC_EXIT_TOOLCELL;
	}
	/* the proof: a real sandbox with this policy's settings */
	if (tc_sandbox_run(&spec, &v->out, &res, &e) < 0 || v->out.status != TC_STATUS_OK) {
		printf("sandbox: FAILED: %s\n",
		       v->out.err.message[0] ? v->out.err.message : tc_status_name(v->out.status));
		ok = false;
	} else {
		printf("sandbox: ok (python3 ran in all namespaces in %llu ms)\n",
		       (unsigned long long)v->out.wall_ms);
	}
	tc_sandbox_result_release(&res);
	printf("verdict: %s can%s run here\n", v->policy_path, ok ? "" : "not");
	return ok ? 0 : TC_EXIT_TOOLCELL;
}

int tc_verb_policy_check(struct tc_invocation *v)
{
	struct tc_error e = { 0 };
	char *json;

	if (tc_policy_load(v->cli.argv[0], &v->policy, &e) < 0)
		return tc_verb_fail(v, &e);
	json = tc_policy_to_json(&v->policy);
	if (!json) {
		tc_diag("out of memory");
		return TC_EXIT_TOOLCELL;
	}
	fputs(json, stdout);
	if (json[0] && json[strlen(json) - 1] != '\n')
		fputc('\n', stdout);
	free(json);
	fflush(stdout);
	/* warnings do not make the policy invalid: it runs as written */
	tc_policy_warnings(&v->policy, stderr);
	return 0;
}
