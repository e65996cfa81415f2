/* A warm sandbox's call (sandbox.h, tc_sandbox_prepare_call,
 * tc_sandbox_call_limits and tc_sandbox_begin): its own cgroup leaf (cgroup.h,
 * tc_cgroup_begin), made once the warm-up is done or at the latest at the
 * call's begin, so that the leaf's limits and figures leave the warm-up out;
 * without a leaf, the CPU base taken once the warm-up is done; and the
 * limits a call may lower. Parent side. */
#include <string.h>

#include "sandbox-internal.h"

void tc_sandbox_call_limits(struct tc_sandbox *sb, uint64_t memory, uint64_t pids)
{
	const uint64_t *limit = sb->spec->cfg->limit;

	sb->call_memory = memory < limit[TC_LIMIT_MEMORY] ? memory : limit[TC_LIMIT_MEMORY];
	sb->call_pids = pids < limit[TC_LIMIT_PIDS] ? pids : limit[TC_LIMIT_PIDS];
}

/* Without a leaf, the sandbox's CPU is the sum over its processes (about
 * twelve /proc reads): taken now, while the entry is idle, and kept if the
 * run times read before and after the sum are the same (nothing ran while
 * it was taken) and are still the same at the begin (two preads). */
static void early_base(struct tc_sandbox *sb)
{
	struct tc_supervisor *s = sb->s;
	uint64_t before[2];

	if (tc_supervise_find_tool(s) < 0 || tc_supervise_idle_mark(s, before) < 0 ||
	    tc_supervise_cpu(sb->pid, sb->cpu_base_ms) < 0 ||
	    tc_supervise_idle_mark(s, sb->idle_ns) < 0)
		return;
	sb->base_early = memcmp(before, sb->idle_ns, sizeof(before)) == 0;
}

bool tc_sandbox_base_holds(const struct tc_sandbox *sb)
{
	uint64_t now[2];

	return sb->base_early && tc_supervise_idle_mark(sb->s, now) == 0 &&
	       memcmp(now, sb->idle_ns, sizeof(now)) == 0;
}

void tc_sandbox_prepare_call(struct tc_sandbox *sb)
{
	struct tc_supervisor *s = sb->s;

	if (!sb->spec->warm || sb->begun)
		return;
	if (!s->cgroup) {
		early_base(sb);
		return;
	}
	/* the quick end needs it (supervise.h) */
	(void)tc_supervise_find_tool(s);
	if (sb->call_leaf)
		return;
	sb->call_leaf = true;
	if (tc_cgroup_begin(&sb->cg, sb->spec->cfg->limit, true, &s->setup_err) < 0)
		tc_supervise_kill(s, TC_KILL_SETUP);
}

void tc_sandbox_cgroup_begin(struct tc_sandbox *sb)
{
	uint64_t limit[TC_LIMIT__MAX];
	struct tc_supervisor *s = sb->s;
	bool lower = sb->call_memory || sb->call_pids;

	memcpy(limit, sb->spec->cfg->limit, sizeof(limit));
	if (sb->call_memory)
		limit[TC_LIMIT_MEMORY] = s->memory_max = sb->call_memory;
	if (sb->call_pids)
		limit[TC_LIMIT_PIDS] = s->tasks_max = sb->call_pids;
	/* moved already (tc_sandbox_prepare_call): the leaf's limits alone */
	if ((!sb->call_leaf || lower) &&
	    tc_cgroup_begin(&sb->cg, limit, !sb->call_leaf, &s->setup_err) < 0)
		tc_supervise_kill(s, TC_KILL_SETUP);
	sb->call_leaf = true;
}

bool tc_sandbox_leaf_ahead(const struct tc_config *cfg)
{
	struct tc_error err;
	struct tc_cgroup cg;
	bool leaf =
		tc_cgroup_find(cfg->cgroup_parent, cfg->cgroup_parent_from_caller, &cg, &err) > 0;

	tc_cgroup_release(&cg);
	return leaf;
}
