/* `toolcell session`: a long-lived sandboxed interpreter, JSON lines in and
 * out (session.c serves it); here its settings are gathered. Parent side. */
#include <unistd.h>

#include "toolcell/error.h"
#include "session.h"
#include "util.h"
#include "verb.h"

int tc_verb_session(struct tc_invocation *v)
{
	struct tc_session_spec spec = { .cfg = &v->cfg,
					.in_fd = STDIN_FILENO,
					.out_fd = STDOUT_FILENO,
					.verbose = v->cli.verbose };
	_cleanup_free_ char *config = NULL;
	struct tc_error e = { 0 };
	int r;

	if (tc_verb_load(v, &e) < 0)
		return tc_verb_fail(v, &e);
	spec.request_ms = v->cfg.limit[TC_LIMIT_WALL];
	spec.cwd = v->cfg.workspace ? v->cfg.workspace_inside : "/tmp";
	/* what one answer's stdout and stderr may hold, each: the answer
	 * (escaped) must fit the stdout limit */
	if (tc_policy_session_config(&v->policy, &v->cli.overrides,
				     v->cfg.limit[TC_LIMIT_STDOUT] / 4, &config, &e) < 0)
		return tc_verb_fail(v, &e);
	spec.harness_config = config;
	r = tc_session_serve(&spec);
	tc_verb_audit(v, NULL, r == 0 ? "ended" : "sandbox_error");
	return r;
}
