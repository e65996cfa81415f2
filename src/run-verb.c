/* `toolcell run` and `toolcell python`: a program (or python3 with the
 * caller's command line) in the sandbox, its stdio relayed, its end passed
 * on as toolcell's own. Parent side. */
#include <stdio.h>

#include "paths.h"
#include "provenance.h"
#include "script.h"
#include "util.h"
#include "verb.h"
#include "workspace-mode.h"

/* the plan's binds all fit the spec */
_Static_assert(TC_SCRIPT_BINDS == TC_ARRAY_SIZE(((struct tc_sandbox_spec *)0)->extra_binds),
	       "a python plan's binds are the spec's extra binds");

int tc_verb_run(struct tc_invocation *v)
{
	struct tc_sandbox_spec spec = { .cfg = &v->cfg, .io = TC_IO_RELAY };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	_cleanup_free_ char *cwd = NULL;

	if (tc_verb_init(v, &e) < 0 ||
	    tc_workspace_mode_check(&v->cfg, v->policy_path, v->cli.argc, v->cli.argv, &e) < 0)
		return tc_verb_fail(v, &e);
	cwd = tc_path_choose_cwd(&v->cfg, NULL, 0, NULL);
	spec.argv = v->cli.argv;
	spec.cwd = cwd;
	spec.verbose = v->cli.verbose;
	tc_provenance_run(&v->out, v->policy.sha256, v->policy_path, v->cfg.rootfs);
	tc_sandbox_run(&spec, &v->out, &res, &e);
	return tc_verb_finish_relay(v, &res);
}

int tc_verb_python(struct tc_invocation *v)
{
	struct tc_sandbox_spec spec = { .cfg = &v->cfg, .io = TC_IO_RELAY };
	struct tc_sandbox_result res;
	struct tc_script_plan plan;
	struct tc_error e = { 0 };
	_cleanup_free_ char *cwd = NULL;
	int code;

	if (tc_verb_init(v, &e) < 0)
		return tc_verb_fail(v, &e);
	if (tc_script_plan_python(&v->cfg, v->cli.argc, v->cli.argv, v->cli.script_index,
				  v->cli.script_dir, &plan, &e) < 0) {
		tc_script_plan_release(&plan);
		return tc_verb_fail(v, &e);
	}
	for (size_t i = 0; i < plan.n_binds; i++)
		spec.extra_binds[i] = plan.binds[i];
	spec.n_extra_binds = plan.n_binds;
	cwd = tc_path_choose_cwd(&v->cfg, spec.extra_binds, spec.n_extra_binds, NULL);
	spec.argv = plan.argv;
	spec.cwd = cwd;
	spec.verbose = v->cli.verbose;
	tc_provenance_run(&v->out, v->policy.sha256, v->policy_path, v->cfg.rootfs);
	if (plan.have_script)
		tc_provenance_tool(&v->out, plan.script);
	tc_sandbox_run(&spec, &v->out, &res, &e);
	code = tc_verb_finish_relay(v, &res);
	tc_script_plan_release(&plan);
	return code;
}
