/* A warm sandbox's call (sandbox.h, tc_sandbox_prepare_call,
 * tc_sandbox_call_limits and tc_sandbox_begin): its own cgroup leaf (cgroup.h,
 * tc_cgroup_begin), made once the warm-up is done or at the latest at the
 * call's begin, so that the leaf's limits and figures leave the warm-up out;
 * without a leaf, the CPU base taken once the warm-up is done; and the
 * limits a call may lower; the call's begin, also when the caller
 * dispatched it itself (TC_IO_DIRECT). Parent side. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <time.h>

#include "child.h"
#include "sandbox-internal.h"
#include "util.h"

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

/* With a leaf, the call's CPU base is the new leaf's cpu.stat: taken
 * now, while the entry is idle, for a caller that dispatches the call
 * itself (the tool runs before we hear of it) */
static void leaf_base(struct tc_sandbox *sb)
{
	struct tc_cgroup_stats cs;

	tc_cgroup_read_stats(&sb->cg, &cs);
	if (!cs.cpu_known)
		return;
	sb->cpu_base_ms[0] = cs.user_usec / 1000;
	sb->cpu_base_ms[1] = cs.system_usec / 1000;
	sb->base_early = true;
}

int tc_sandbox_prepare_call(struct tc_sandbox *sb)
{
	struct tc_supervisor *s = sb->s;

	if (!sb->spec->warm || sb->begun)
		return 0;
	if (!s->cgroup) {
		/* the harness may not be in its read yet: a base taken while
		 * something ran is not kept, and tried again a moment later,
		 * for up to ~0.2 s on a busy machine (the entry is not ready
		 * until then: a dispatched call begins after it ran, so a
		 * base taken then would leave the call's CPU out) */
		for (int i = 0; i < 2000 && !sb->base_early; i++) {
			if (i)
				nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
			early_base(sb);
		}
		return 0;
	}
	/* the quick end needs it (supervise.h) */
	(void)tc_supervise_find_tool(s);
	if (sb->call_leaf)
		return 0;
	sb->call_leaf = true;
	if (tc_cgroup_begin(&sb->cg, sb->spec->cfg->limit, true, &s->setup_err) < 0) {
		tc_supervise_kill(s, TC_KILL_SETUP);
		return -(s->setup_err.err ? s->setup_err.err : EIO);
	}
	if (sb->spec->io == TC_IO_DIRECT)
		leaf_base(sb);
	return 0;
}

int tc_sandbox_call_memory_fd(const struct tc_sandbox *sb)
{
	if (!sb->call_leaf || sb->cg.leaf_fd < 0)
		return -1;
	return openat(sb->cg.leaf_fd, "memory.max", O_WRONLY | O_CLOEXEC);
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
	/* moved already (tc_sandbox_prepare_call): the leaf's limits alone,
	 * which a caller that dispatched the call itself wrote already */
	if (sb->dispatch_ns && sb->call_leaf)
		lower = false;
	if ((!sb->call_leaf || lower) &&
	    tc_cgroup_begin(&sb->cg, limit, !sb->call_leaf, &s->setup_err) < 0)
		tc_supervise_kill(s, TC_KILL_SETUP);
	sb->call_leaf = true;
}

int tc_sandbox_begin(struct tc_sandbox *sb, const char *stdin_buf, size_t stdin_len)
{
	struct tc_supervisor *s = sb->s;
	bool early;
	int ret = 0;

	if (sb->begun)
		return -EALREADY;
	sb->begun = true;
	/* before the CPU base: a new leaf's cpu.stat counts from zero */
	if (sb->spec->warm && s->cgroup)
		tc_sandbox_cgroup_begin(sb);
	/* the figures count the call alone: what the sandbox used until now;
	 * dispatched by our caller, the tool may run already: the base taken
	 * while it was idle holds, the harness blocked in its read since */
	early = sb->dispatch_ns ? sb->base_early : !s->cgroup && tc_sandbox_base_holds(sb);
	if (!early && s->cgroup) {
		struct tc_cgroup_stats cs;

		tc_cgroup_read_stats(s->cgroup, &cs);
		if (cs.cpu_known) {
			sb->cpu_base_ms[0] = cs.user_usec / 1000;
			sb->cpu_base_ms[1] = cs.system_usec / 1000;
		}
	} else if (!early && tc_supervise_cpu(sb->pid, sb->cpu_base_ms) < 0) {
		sb->cpu_base_ms[0] = sb->cpu_base_ms[1] = 0;
	}
	if (sb->spec->warm) {
		/* the init's backstop starts now too, unless the quick end
		 * may make it needless (tc_sandbox_begin_ended) */
		if (!sb->init_begin_owed)
			ret = tc_sandbox_init_begin(sb);
		if (sb->spec->io == TC_IO_MEMORY &&
		    tc_sandbox_stdin_from(sb, s, stdin_buf, stdin_len) < 0)
			ret = -ENOMEM;
	}
	tc_supervise_begin(s, sb->dispatch_ns ? sb->dispatch_ns : tc_now_ns());
	return ret;
}

int tc_sandbox_init_begin(struct tc_sandbox *sb)
{
	siginfo_t si = { .si_signo = TC_SIG_BEGIN(), .si_code = SI_QUEUE };

	sb->init_begin_owed = false;
	si.si_value.sival_ptr = (void *)(uintptr_t)sb->spec->cfg->limit[TC_LIMIT_WALL];
	return pidfd_send_signal(sb->pidfd, TC_SIG_BEGIN(), &si, 0) < 0 ? -errno : 0;
}

int tc_sandbox_begin_ended(struct tc_sandbox *sb)
{
	if (sb->spec->io != TC_IO_DIRECT)
		return -EINVAL;
	if (sb->begun)
		return -EALREADY;
	sb->init_begin_owed = true;
	return tc_sandbox_begin_direct(sb, 0);
}

int tc_sandbox_begin_direct(struct tc_sandbox *sb, uint64_t dispatch_ns)
{
	uint64_t now = tc_now_ns();

	if (sb->spec->io != TC_IO_DIRECT)
		return -EINVAL;
	/* a clock from the future (not ours) counts from now */
	sb->dispatch_ns = dispatch_ns && dispatch_ns <= now ? dispatch_ns : now;
	return tc_sandbox_begin(sb, NULL, 0);
}

bool tc_sandbox_output_ended(const struct tc_sandbox *sb, const struct pollfd *p)
{
	return tc_supervise_output_hup(sb->s, p);
}
