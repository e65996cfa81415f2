/* The classification of a run's end (see outcome.h). Pure: reads only
 * struct tc_observed, writes only the status part of struct tc_outcome. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "outcome.h"
#include "util.h"

/* The status each of toolcell's own kill reasons gives. */
static enum tc_status status_of(enum tc_kill_reason why)
{
	switch (why) {
	case TC_KILL_SYSCALL:
		return TC_STATUS_SYSCALL_DENIED;
	case TC_KILL_MEMORY:
		return TC_STATUS_MEMORY_LIMIT;
	case TC_KILL_PIDS:
		return TC_STATUS_PIDS_LIMIT;
	case TC_KILL_OUTPUT:
		return TC_STATUS_OUTPUT_LIMIT;
	case TC_KILL_TIMEOUT:
		return TC_STATUS_TIMEOUT;
	case TC_KILL_SIGNAL:
		return TC_STATUS_SIGNALED;
	case TC_KILL_SETUP:
		return TC_STATUS_SANDBOX_ERROR;
	case TC_KILL_NONE:
		break;
	}
	return TC_STATUS_OK;
}

static void set(struct tc_outcome *o, enum tc_status status, bool inferred)
{
	o->status = status;
	o->status_inferred = inferred;
}

/* toolcell killed the sandbox: the tool died by our SIGKILL (or had exited
 * just before) */
static void killed(const struct tc_observed *seen, struct tc_outcome *o)
{
	int st = seen->tool_status;

	set(o, status_of(seen->reason), false);
	if (seen->reason == TC_KILL_SIGNAL) {
		const char *name = sigabbrev_np(seen->reason_signal);

		tc_error_set(&o->err, TC_STAGE_SUPERVISE, 0,
			     "toolcell received %s and stopped the tool", name ? name : "a signal");
	}
	if (seen->tool_status_known && WIFEXITED(st)) {
		o->exited = true;
		o->exit_code = WEXITSTATUS(st);
		return;
	}
	o->signaled = true;
	o->signal = seen->tool_status_known && WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
	/* a forbidden call ends the tool as the kernel's own seccomp kill
	 * would: SIGSYS, which a caller that sees only the exit code cannot
	 * take for an out-of-memory kill (the kill itself is SIGKILL: SIGSYS
	 * could be caught) */
	if (seen->reason == TC_KILL_SYSCALL && o->signal == SIGKILL)
		o->signal = SIGSYS;
}

/* The tool exited by itself: its exit code, or a limit its stderr names. */
static void exited(const struct tc_observed *seen, struct tc_outcome *o)
{
	const char *last = seen->stderr_last_line ? seen->stderr_last_line : "";

	o->exited = true;
	o->exit_code = WEXITSTATUS(seen->tool_status);
	set(o, o->exit_code == 0 ? TC_STATUS_OK : TC_STATUS_EXIT_NONZERO, false);
	if (seen->exec_errno) {
		o->err = seen->tool_err;
	} else if (o->exit_code != 0 && tc_startswith(last, "MemoryError") &&
		   TC_MEMORY_PEAK_AT_LIMIT(seen->mem_peak, seen->memory_max)) {
		/* Python's answer to the address-space rlimit, measured */
		set(o, TC_STATUS_MEMORY_LIMIT, true);
	} else if (o->exit_code != 0 && seen->tasks_peak >= seen->tasks_max &&
		   tc_startswith(last, "BlockingIOError: [Errno 11]")) {
		/* fork() refused by RLIMIT_NPROC */
		set(o, TC_STATUS_PIDS_LIMIT, true);
	}
}

/* The tool died by a signal nobody of ours sent (that we know of). */
static void signaled(const struct tc_observed *seen, struct tc_outcome *o)
{
	o->signaled = true;
	o->signal = WTERMSIG(seen->tool_status);
	set(o, TC_STATUS_SIGNALED, false);
	if (o->signal == SIGXCPU) {
		set(o, TC_STATUS_TIMEOUT, false); /* RLIMIT_CPU's soft limit */
	} else if (o->signal == SIGSYS) {
		/* the filter's own kill: a call from another architecture (x32
		 * numbers, int 0x80), which it does not name */
		set(o, TC_STATUS_SYSCALL_DENIED, true);
	} else if (o->signal == SIGKILL && seen->cpu_ms >= seen->cpu_time_ms) {
		/* RLIMIT_CPU's hard limit, a second after a SIGXCPU the tool
		 * ignored (nothing else of ours kills without saying so) */
		set(o, TC_STATUS_TIMEOUT, true);
	}
}

/* With a cgroup leaf the kernel's figures decide: an OOM kill is a memory
 * limit, a fork refused at pids.max in a run that failed a process limit,
 * whatever the exit looked like; and what was only inferred from stderr
 * does not stand against them. */
static void by_cgroup(const struct tc_observed *seen, struct tc_outcome *o)
{
	const struct tc_observed_cgroup *cg = seen->cgroup;
	bool failed = o->status != TC_STATUS_OK;

	if (!cg || seen->reason == TC_KILL_SYSCALL || seen->reason == TC_KILL_SIGNAL ||
	    o->status == TC_STATUS_SANDBOX_ERROR)
		return;
	if (o->status_inferred &&
	    (o->status == TC_STATUS_MEMORY_LIMIT || o->status == TC_STATUS_PIDS_LIMIT))
		set(o, o->signaled ? TC_STATUS_SIGNALED : TC_STATUS_EXIT_NONZERO, false);
	if (cg->oom_known && cg->oom_kills > 0)
		set(o, TC_STATUS_MEMORY_LIMIT, false);
	else if (failed && cg->pids_events_known && cg->pids_max_events > 0 &&
		 (o->status == TC_STATUS_EXIT_NONZERO || o->status == TC_STATUS_SIGNALED ||
		  o->status == TC_STATUS_PIDS_LIMIT))
		set(o, TC_STATUS_PIDS_LIMIT, false);
}

void tc_outcome_classify(const struct tc_observed *seen, struct tc_outcome *o)
{
	if (seen->reason == TC_KILL_SETUP ||
	    (seen->reason == TC_KILL_NONE && !seen->tool_status_known &&
	     seen->setup_err.message[0])) {
		set(o, TC_STATUS_SANDBOX_ERROR, false);
		o->err = seen->setup_err;
		return;
	}
	if (seen->reason != TC_KILL_NONE) {
		killed(seen, o);
	} else if (!seen->tool_status_known) {
		/* set-up had ended (it reports every failure), so the init died
		 * while the tool ran: in the unprivileged mapping they share a
		 * uid, and a tool can do that (prlimit on pid 1, say). The
		 * tool's doing, not toolcell's failure. */
		o->signaled = true;
		o->signal = seen->init_signal ? seen->init_signal : SIGKILL;
		set(o, TC_STATUS_SIGNALED, true);
		tc_error_set(&o->err, TC_STAGE_INIT, 0,
			     "the sandbox's init died (signal %d) while the tool ran; the sandbox "
			     "was ended with it",
			     o->signal);
	} else if (WIFEXITED(seen->tool_status)) {
		exited(seen, o);
	} else {
		signaled(seen, o);
	}
	by_cgroup(seen, o);
}
