/* A warm sandbox's call (sandbox.h, tc_sandbox_call_limits and
 * tc_sandbox_begin): the limits a call may lower, and its own cgroup leaf
 * (cgroup.h, tc_cgroup_begin), so that the leaf's limits and figures count
 * from the call's dispatch, not from the warm-up. Parent side. */
#include <string.h>

#include "sandbox-internal.h"

void tc_sandbox_call_limits(struct tc_sandbox *sb, uint64_t memory, uint64_t pids)
{
	const uint64_t *limit = sb->spec->cfg->limit;

	sb->call_memory = memory < limit[TC_LIMIT_MEMORY] ? memory : limit[TC_LIMIT_MEMORY];
	sb->call_pids = pids < limit[TC_LIMIT_PIDS] ? pids : limit[TC_LIMIT_PIDS];
}

void tc_sandbox_cgroup_begin(struct tc_sandbox *sb)
{
	uint64_t limit[TC_LIMIT__MAX];
	struct tc_supervisor *s = sb->s;

	memcpy(limit, sb->spec->cfg->limit, sizeof(limit));
	if (sb->call_memory)
		limit[TC_LIMIT_MEMORY] = s->memory_max = sb->call_memory;
	if (sb->call_pids)
		limit[TC_LIMIT_PIDS] = s->tasks_max = sb->call_pids;
	if (tc_cgroup_begin(&sb->cg, limit, &s->setup_err) < 0)
		tc_supervise_kill(s, TC_KILL_SETUP);
}
