/* One blocking run (tc_sandbox_run, see sandbox.h), the one-shot verbs'
 * way through the lifecycle of sandbox.c. Parent side. A run is over when
 * the tool has ended alone and its output is drained (the spec's
 * early_end): the namespaces' teardown, which takes the init's exit, goes
 * on while the verb writes its record and answer, and the init is reaped
 * before toolcell exits (tc_sandbox_reap_deferred), so that nothing of the
 * sandbox outlives toolcell. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox-internal.h"
#include "util.h"

#define TC_RUN_TRIM_THRESHOLD (64 << 20) /* bytes free at the heap's top before it shrinks */

/* the init of the last run that ended early, not reaped yet */
static int deferred_init = -1;

void tc_sandbox_reap_deferred(void)
{
	tc_pidfd_kill_reap(&deferred_init, NULL, NULL);
}

int tc_sandbox_run(const struct tc_sandbox_spec *spec, struct tc_outcome *out,
		   struct tc_sandbox_result *res, struct tc_error *err)
{
	static bool at_exit;
	struct tc_sandbox_spec one = *spec;
	struct tc_sandbox *sb = NULL;
	int ret;

	memset(res, 0, sizeof(*res));
	tc_sandbox_reap_deferred(); /* a run before this one */
	/* a one-shot process's heap goes back at its exit, at once: trimmed
	 * on the way (the supervisor's buffers freed at release), it cost a
	 * brk each and fresh pages for the record after */
	mallopt(M_TRIM_THRESHOLD, TC_RUN_TRIM_THRESHOLD);
	/* not with a workspace: its layer is applied once the sandbox is gone */
	one.early_end = !spec->cfg->workspace && !spec->warm;
	ret = tc_sandbox_start(&one, &sb, err);
	if (ret < 0) {
		out->status = TC_STATUS_SANDBOX_ERROR;
		if (err)
			out->err = *err;
		return ret;
	}
	tc_sandbox_supervise(sb);
	ret = tc_sandbox_finish(sb, out, res, err);
	/* ended early, the init is in its exit: reaped later, at exit at the
	 * latest (every way out of main that is not exit() calls it too) */
	if (sb->s->ended_early && (at_exit || atexit(tc_sandbox_reap_deferred) == 0)) {
		at_exit = true;
		deferred_init = TAKE_FD(sb->pidfd);
	}
	tc_sandbox_release(&sb);
	return ret;
}

void tc_sandbox_result_release(struct tc_sandbox_result *res)
{
	free(res->stdout_buf);
	res->stdout_buf = NULL;
}
