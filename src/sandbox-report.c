/* What a finished run produced, into struct tc_outcome: the status (from
 * outcome.c's classifier), CPU, memory and task figures, the limits in
 * force and what enforced each, the refused calls, the isolation the tool
 * had, the workspace's apply. Parent side, after the sandbox ended. */
#include <stdio.h>
#include <string.h>

#include "outcome.h"
#include "sandbox-internal.h"
#include "util.h"
#include "workspace.h"

static void fill_limits(const struct tc_config *cfg, struct tc_outcome *o)
{
	static const enum tc_enforcer by[TC_LIMIT__MAX] = {
		[TC_LIMIT_MEMORY] = TC_ENFORCER_RLIMIT, /* RLIMIT_AS, and the supervisor's sum */
		[TC_LIMIT_CPUS] = TC_ENFORCER_NONE,	/* needs cgroup v2 cpu.max */
		[TC_LIMIT_PIDS] = TC_ENFORCER_RLIMIT,	/* RLIMIT_NPROC, and the supervisor */
		[TC_LIMIT_WALL] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_CPU_TIME] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_TMP] = TC_ENFORCER_TOOLCELL,	      /* tmpfs size= */
		[TC_LIMIT_TMP_INODES] = TC_ENFORCER_TOOLCELL, /* tmpfs nr_inodes= */
		[TC_LIMIT_SHM] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_FILE_SIZE] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_OPEN_FILES] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_REQUEST] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_STDOUT] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_STDERR] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_WORKSPACE] = TC_ENFORCER_TOOLCELL,	   /* the layer's size= */
		[TC_LIMIT_WORKSPACE_FILES] = TC_ENFORCER_TOOLCELL, /* the layer's nr_inodes= */
	};

	for (int i = 0; i < TC_LIMIT__MAX; i++) {
		o->limit[i] = cfg->limit[i];
		o->enforced_by[i] = by[i];
	}
}

static void fill_syscalls(const struct tc_sandbox *sb, struct tc_outcome *o)
{
	static char mode[96];
	const struct tc_supervisor *s = sb->s;

	if (sb->filter.kill_others)
		snprintf(mode, sizeof(mode), "filter: %u calls allowed, any other ends the tool",
			 sb->filter.n_allowed);
	else
		snprintf(mode, sizeof(mode),
			 "filter: %u calls allowed, %u end the tool, any other answers ENOSYS",
			 sb->filter.n_allowed, sb->filter.n_kill);
	o->seccomp = mode;
	if (s->denied_nr >= 0) {
		o->has_denied_syscall = true;
		o->denied_syscall_nr = s->denied_nr;
		tc_syscall_name(s->denied_nr, o->denied_syscall_name,
				sizeof(o->denied_syscall_name));
	}
	o->n_denied = 0;
	for (int nr = 0; nr < TC_SYSCALL_MAX && o->n_denied < TC_ARRAY_SIZE(o->denied); nr++)
		if (s->denied[nr]) {
			tc_syscall_name(nr, o->denied[o->n_denied].name,
					sizeof(o->denied[o->n_denied].name));
			o->denied[o->n_denied++].count = s->denied[nr];
		}
	if (s->denied_out_of_range && o->n_denied < TC_ARRAY_SIZE(o->denied)) {
		snprintf(o->denied[o->n_denied].name, sizeof(o->denied[o->n_denied].name),
			 "syscall_out_of_range");
		o->denied[o->n_denied++].count = s->denied_out_of_range;
	}
}

/* With a cgroup leaf, the kernel's figures. */
static void fill_cgroup(const struct tc_sandbox *sb, const struct tc_cgroup_stats *cs,
			struct tc_outcome *o)
{
	static char leaf[TC_PATH_MAX];

	o->kernel_memory = NULL; /* the cgroup charges it */
	if (cs->cpu_known) {
		o->cpu_user_ms = cs->user_usec / 1000;
		o->cpu_system_ms = cs->system_usec / 1000;
	}
	if (cs->memory_peak_known) {
		o->memory_peak_bytes.known = true;
		o->memory_peak_bytes.value = cs->memory_peak;
	}
	o->oom_kills.known = cs->oom_known;
	o->oom_kills.value = cs->oom_kills;
	if (!cs->oom_known)
		o->oom_kills.reason = "memory.events has no oom_kill line";
	if (cs->pids_peak_known) {
		/* pids.peak counts the sandbox's init too */
		o->pids_peak.known = true;
		o->pids_peak.value = cs->pids_peak ? cs->pids_peak - 1 : 0;
	}
	o->enforced_by[TC_LIMIT_MEMORY] = TC_ENFORCER_CGROUP2;
	o->enforced_by[TC_LIMIT_CPUS] = TC_ENFORCER_CGROUP2;
	o->enforced_by[TC_LIMIT_PIDS] = TC_ENFORCER_CGROUP2;
	snprintf(leaf, sizeof(leaf), "%s", sb->cg.leaf);
	o->cgroup = leaf;
	o->cgroup_swap = sb->cg.has_swap ? "0"
					 : "not limited: no memory.swap.max (the kernel "
					   "accounts no swap)";
}

static uint64_t ms_of(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000 + (uint64_t)tv->tv_usec / 1000;
}

/* Without a cgroup leaf: the init's rusage, our samples and the kill's
 * count of what it took. */
static void fill_figures(const struct tc_sandbox *sb, const struct rusage *ru, uint64_t mem_peak,
			 struct tc_outcome *o)
{
	static char no_cgroup[TC_CGROUP_WHY_MAX + 64];
	const struct tc_supervisor *s = sb->s;

	o->wall_ms = ((s->end_ns ? s->end_ns : tc_now_ns()) - s->start_ns) / 1000000;
	o->cpu_user_ms = ms_of(&ru->ru_utime);
	o->cpu_system_ms = ms_of(&ru->ru_stime);
	if (s->killed_cpu_known &&
	    s->killed_cpu_ms[0] + s->killed_cpu_ms[1] > o->cpu_user_ms + o->cpu_system_ms) {
		o->cpu_user_ms = s->killed_cpu_ms[0];
		o->cpu_system_ms = s->killed_cpu_ms[1];
	}
	/* the larger of the sampled sum and the biggest single process */
	o->memory_peak_bytes.known = true;
	o->memory_peak_bytes.value = mem_peak;
	o->oom_kills.known = false;
	snprintf(no_cgroup, sizeof(no_cgroup), "needs cgroup v2 (memory.events): %s",
		 sb->cg.why[0] ? sb->cg.why : "no cgroup leaf");
	o->oom_kills.reason = no_cgroup;
	o->kernel_memory =
		"without cgroup v2, memory_peak_bytes and the memory limit leave out what the "
		"kernel holds for the tool outside its address space: pipe buffers (64 KiB a "
		"pipe), socket buffers (twice 1/256 of the memory limit each way a socket, as "
		"SO_SNDBUF and SO_RCVBUF are clamped), inotify event queues, page tables";
	if (s->sampled) {
		o->pids_peak.known = true;
		o->pids_peak.value = s->tasks_peak;
	} else {
		o->pids_peak.reason = "the tool ended before the first sample";
	}
	o->stdout_bytes = s->out.passed;
	o->stderr_bytes = s->err.passed;
	o->stdout_truncated = s->out.overflow || s->out.dropped;
	o->stderr_truncated = s->err.overflow || s->err.dropped;
}

static void classify(const struct tc_sandbox *sb, uint64_t cpu_ms, uint64_t mem_peak,
		     int init_signal, const struct tc_cgroup_stats *cs, struct tc_outcome *o)
{
	const struct tc_supervisor *s = sb->s;
	struct tc_observed_cgroup ocg = { 0 };
	struct tc_observed seen = {
		.reason = s->reason,
		.reason_signal = s->reason_signal,
		.setup_err = s->setup_err,
		.tool_err = s->tool_err,
		.exec_errno = s->exec_errno,
		.tool_status_known = s->tool_status_known,
		.tool_status = s->tool_status,
		.init_signal = init_signal,
		.cpu_ms = cpu_ms,
		.cpu_time_ms = s->cpu_time_ms,
		.mem_peak = mem_peak,
		.memory_max = s->memory_max,
		.tasks_peak = s->tasks_peak,
		.tasks_max = s->tasks_max,
	};
	char last[200];

	tc_stream_last_line(&s->err, last, sizeof(last));
	seen.stderr_last_line = last;
	if (cs) {
		ocg.oom_known = cs->oom_known;
		ocg.oom_kills = cs->oom_kills;
		ocg.pids_events_known = cs->pids_events_known;
		ocg.pids_max_events = cs->pids_max_events;
		seen.cgroup = &ocg;
	}
	tc_outcome_classify(&seen, o);
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void tc_sandbox_early_rusage(const struct tc_supervisor *s, struct rusage *ru)
{
	ru->ru_utime.tv_sec = (time_t)(s->alone_cpu_us[0] / 1000000u);
	ru->ru_utime.tv_usec = (suseconds_t)(s->alone_cpu_us[0] % 1000000u);
	ru->ru_stime.tv_sec = (time_t)(s->alone_cpu_us[1] / 1000000u);
	ru->ru_stime.tv_usec = (suseconds_t)(s->alone_cpu_us[1] % 1000000u);
	ru->ru_maxrss = (long)s->alone_maxrss_kib;
}

void tc_sandbox_fill(const struct tc_sandbox *sb, const struct rusage *ru, int init_signal,
		     const struct tc_cgroup_stats *cs, struct tc_outcome *o)
{
	const struct tc_supervisor *s = sb->s;
	uint64_t maxrss = (uint64_t)ru->ru_maxrss * 1024;
	uint64_t mem_peak = s->rss_peak > maxrss ? s->rss_peak : maxrss;
	uint64_t total;

	/* RLIMIT_CPU counts from the tool's start, warm-up included */
	classify(sb, ms_of(&ru->ru_utime) + ms_of(&ru->ru_stime), mem_peak, init_signal, cs, o);
	fill_figures(sb, ru, mem_peak, o);
	fill_limits(sb->spec->cfg, o);
	o->namespaces = TC_NS_USER | TC_NS_MOUNT | TC_NS_PID | TC_NS_NET | TC_NS_IPC | TC_NS_UTS |
			TC_NS_CGROUP;
	/* as the tool said before execve; a tool that never got there held
	 * nothing */
	o->no_new_privs = s->tool_creds_known && s->tool_no_new_privs;
	o->cap_eff = s->tool_creds_known ? s->tool_cap_eff : 0;
	o->landlock = tc_landlock_describe(&sb->landlock);
	fill_syscalls(sb, o);
	o->cgroup = NULL;
	if (cs)
		fill_cgroup(sb, cs, o);
	/* a warm sandbox's call: only what came after tc_sandbox_begin. The
	 * total is exact; the split before and after may differ by a clock
	 * tick (tc_supervise_cpu), so a figure that would go below zero never
	 * adds to the other's */
	total = minus(o->cpu_user_ms + o->cpu_system_ms, sb->cpu_base_ms[0] + sb->cpu_base_ms[1]);
	o->cpu_user_ms = minus(o->cpu_user_ms, sb->cpu_base_ms[0]);
	if (o->cpu_user_ms > total)
		o->cpu_user_ms = total;
	o->cpu_system_ms = total - o->cpu_user_ms;
	o->host_uid = sb->ids.tool_host_uid;
	o->host_gid = sb->ids.tool_host_gid;
	o->tool_uid = TC_TOOL_UID;
}

/* Our own share, which the sandbox's figures never include: relaying,
 * sampling, answering refused calls. */
void tc_sandbox_own_cpu(struct tc_outcome *out)
{
	struct rusage self;

	if (getrusage(RUSAGE_SELF, &self) == 0) {
		out->toolcell_cpu_user_ms = (uint64_t)self.ru_utime.tv_sec * 1000 +
					    (uint64_t)self.ru_utime.tv_usec / 1000;
		out->toolcell_cpu_system_ms = (uint64_t)self.ru_stime.tv_sec * 1000 +
					      (uint64_t)self.ru_stime.tv_usec / 1000;
	}
}

void tc_sandbox_apply_workspace(const struct tc_sandbox *sb, int layer_fd, struct tc_outcome *o)
{
	const struct tc_mount_op *op = tc_mount_plan_workspace(&sb->plan);
	const struct tc_config *cfg = sb->spec->cfg;
	struct tc_workspace_stats *st = &o->workspace;
	int ret;

	st->present = true;
	if (layer_fd < 0 || !op) {
		st->not_applied = "the sandbox ended before its workspace existed";
		return;
	}
	if (cfg->workspace_on_success && o->status != TC_STATUS_OK) {
		st->not_applied = "the policy's workspace_apply is on_success, and the run did not "
				  "end ok";
		return;
	}
	ret = tc_workspace_apply(layer_fd, cfg->workspace, op->dev, op->ino, st);
	if (ret == -ESTALE)
		st->not_applied = "the host folder was replaced while the tool ran";
	else if (ret < 0)
		st->not_applied = "the host folder could not be opened";
}

void tc_sandbox_verbose_times(const struct tc_sandbox *sb)
{
	const struct tc_supervisor *s = sb->s;
	const uint64_t *t = s->stages;
#define MS(a, b) ((a) && (b) ? (double)((a) - (b)) / 1e6 : 0.0)
	fprintf(stderr,
		"toolcell: prepare %.3f ms, clone %.3f ms, maps %.3f ms (parent)\n"
		"toolcell: child: ids %.3f ms, mounts %.3f ms, network namespace %.3f ms more, "
		"fork %.3f ms\n"
		"toolcell: tool ran %.3f ms after fork; the sandbox took %.3f ms more to go; "
		"total %.3f ms\n",
		MS(sb->t_prepared, sb->t_start), MS(sb->t_cloned, sb->t_prepared),
		MS(sb->t_mapped, sb->t_cloned), MS(t[TC_MARK_MAPPED], sb->t_cloned),
		MS(t[TC_MARK_MOUNTED], t[TC_MARK_MAPPED]), MS(t[TC_MARK_NET], t[TC_MARK_MOUNTED]),
		MS(t[TC_MARK_FORKED], t[TC_MARK_NET]), MS(s->exited_ns, t[TC_MARK_FORKED]),
		MS(s->end_ns, s->exited_ns), MS(s->end_ns, sb->t_start));
#undef MS
}
