/* Unit tests for the classification of a run's end (outcome.c): every
 * inference rule and the tie order, each with the exact status, exit code
 * or signal, and whether the status was inferred; and the supervisor's
 * first-reason-wins rule that the tie order rests on. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "outcome.h"
#include "supervise.h"

#define MiB (1024ull * 1024)

/* A tool that ran under the defaults: 256 MiB, 64 tasks, 10 s of CPU. */
static struct tc_observed seen_base(void)
{
	return (struct tc_observed){
		.tool_status_known = true,
		.cpu_time_ms = 10000,
		.memory_max = 256 * MiB,
		.tasks_max = 64,
		.stderr_last_line = "",
	};
}

static struct tc_outcome classify(const struct tc_observed *seen)
{
	struct tc_outcome o;

	tc_outcome_init(&o);
	tc_outcome_classify(seen, &o);
	return o;
}

static int exit_status(int code)
{
	return (code & 0xff) << 8;
}

static void test_exit(void **state)
{
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_OK);
	assert_true(o.exited && !o.signaled && !o.status_inferred);
	assert_int_equal(o.exit_code, 0);
	seen.tool_status = exit_status(3);
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
	assert_int_equal(o.exit_code, 3);
	assert_string_equal(o.err.message, "");
	/* execve failed: the tool's error is the record's */
	seen.tool_status = exit_status(127);
	seen.exec_errno = ENOENT;
	tc_error_set(&seen.tool_err, TC_STAGE_EXEC, ENOENT, "cannot run nope in the sandbox");
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
	assert_int_equal(o.exit_code, 127);
	assert_int_equal(o.err.err, ENOENT);
	assert_string_equal(o.err.message, "cannot run nope in the sandbox");
}

static void test_memory_error(void **state)
{
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	seen.tool_status = exit_status(1);
	seen.stderr_last_line = "MemoryError";
	/* at three quarters of the limit: the rlimit's doing */
	seen.mem_peak = 192 * MiB;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_MEMORY_LIMIT);
	assert_true(o.status_inferred);
	assert_int_equal(o.exit_code, 1);
	/* just below: only the tool's word */
	seen.mem_peak = 192 * MiB - 1;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
	assert_false(o.status_inferred);
	/* an exit 0 is never a limit */
	seen.mem_peak = 250 * MiB;
	seen.tool_status = exit_status(0);
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_OK);
	/* another last line is not a MemoryError */
	seen.tool_status = exit_status(1);
	seen.stderr_last_line = "ValueError: MemoryError";
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
}

static void test_fork_refused(void **state)
{
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	seen.tool_status = exit_status(1);
	seen.stderr_last_line = "BlockingIOError: [Errno 11] Resource temporarily unavailable";
	seen.tasks_peak = 64;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_PIDS_LIMIT);
	assert_true(o.status_inferred);
	/* below the limit, EAGAIN was something else */
	seen.tasks_peak = 63;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
	assert_false(o.status_inferred);
}

static void test_signals(void **state)
{
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	seen.tool_status = SIGSEGV;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SIGNALED);
	assert_true(o.signaled && !o.exited && !o.status_inferred);
	assert_int_equal(o.signal, SIGSEGV);
	/* RLIMIT_CPU's soft limit: observed, not inferred */
	seen.tool_status = SIGXCPU;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_TIMEOUT);
	assert_false(o.status_inferred);
	assert_int_equal(o.signal, SIGXCPU);
	/* the filter's own kill (a call from another architecture) */
	seen.tool_status = SIGSYS;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SYSCALL_DENIED);
	assert_true(o.status_inferred);
	/* SIGKILL with the CPU time used up: RLIMIT_CPU's hard limit */
	seen.tool_status = SIGKILL;
	seen.cpu_ms = 10000;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_TIMEOUT);
	assert_true(o.status_inferred);
	assert_int_equal(o.signal, SIGKILL);
	seen.cpu_ms = 9999;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SIGNALED);
	assert_false(o.status_inferred);
}

static void test_kill_reasons(void **state)
{
	static const struct {
		enum tc_kill_reason reason;
		enum tc_status status;
	} want[] = {
		{ TC_KILL_SYSCALL, TC_STATUS_SYSCALL_DENIED },
		{ TC_KILL_MEMORY, TC_STATUS_MEMORY_LIMIT },
		{ TC_KILL_PIDS, TC_STATUS_PIDS_LIMIT },
		{ TC_KILL_OUTPUT, TC_STATUS_OUTPUT_LIMIT },
		{ TC_KILL_TIMEOUT, TC_STATUS_TIMEOUT },
		{ TC_KILL_SIGNAL, TC_STATUS_SIGNALED },
	};
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		/* the tool died by our SIGKILL */
		seen.reason = want[i].reason;
		seen.tool_status = SIGKILL;
		o = classify(&seen);
		assert_int_equal(o.status, want[i].status);
		assert_false(o.status_inferred);
		assert_true(o.signaled);
		/* a forbidden call shows as SIGSYS, the rest as SIGKILL */
		assert_int_equal(o.signal, want[i].reason == TC_KILL_SYSCALL ? SIGSYS : SIGKILL);
		/* the init never said: SIGKILL all the same */
		seen.tool_status_known = false;
		o = classify(&seen);
		assert_int_equal(o.status, want[i].status);
		assert_int_equal(o.signal, want[i].reason == TC_KILL_SYSCALL ? SIGSYS : SIGKILL);
		/* the tool had exited just before the kill: its exit code */
		seen.tool_status_known = true;
		seen.tool_status = exit_status(4);
		o = classify(&seen);
		assert_int_equal(o.status, want[i].status);
		assert_true(o.exited && !o.signaled);
		assert_int_equal(o.exit_code, 4);
	}
	seen.reason = TC_KILL_SIGNAL;
	seen.reason_signal = SIGTERM;
	o = classify(&seen);
	assert_string_equal(o.err.message, "toolcell received TERM and stopped the tool");
}

static void test_setup_and_init(void **state)
{
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	tc_error_set(&seen.setup_err, TC_STAGE_MOUNT, EPERM, "cannot mount /proc");
	seen.reason = TC_KILL_SETUP;
	seen.tool_status_known = false;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SANDBOX_ERROR);
	assert_false(o.exited || o.signaled);
	assert_int_equal(o.err.stage, TC_STAGE_MOUNT);
	assert_int_equal(o.err.err, EPERM);
	/* no kill of ours, no tool status, a set-up error: the same */
	seen.reason = TC_KILL_NONE;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SANDBOX_ERROR);
	assert_string_equal(o.err.message, "cannot mount /proc");
	/* no error either: the init died under the tool */
	memset(&seen.setup_err, 0, sizeof(seen.setup_err));
	seen.init_signal = SIGXFSZ;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SIGNALED);
	assert_true(o.status_inferred);
	assert_int_equal(o.signal, SIGXFSZ);
	assert_int_equal(o.err.stage, TC_STAGE_INIT);
	seen.init_signal = 0;
	o = classify(&seen);
	assert_int_equal(o.signal, SIGKILL);
}

static void test_cgroup(void **state)
{
	struct tc_observed_cgroup cg = { .oom_known = true, .pids_events_known = true };
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	seen.cgroup = &cg;
	/* a MemoryError the kernel's figures do not bear out */
	seen.tool_status = exit_status(1);
	seen.stderr_last_line = "MemoryError";
	seen.mem_peak = 250 * MiB;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_EXIT_NONZERO);
	assert_false(o.status_inferred);
	/* an OOM kill is a memory limit, whatever the exit looked like */
	cg.oom_kills = 1;
	seen.tool_status = exit_status(0);
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_MEMORY_LIMIT);
	assert_false(o.status_inferred);
	cg.oom_kills = 0;
	/* a fork refused at pids.max, in a run that failed */
	cg.pids_max_events = 2;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_OK);
	seen.tool_status = SIGABRT;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_PIDS_LIMIT);
	assert_false(o.status_inferred);
	assert_int_equal(o.signal, SIGABRT);
	/* unknown figures decide nothing */
	cg.pids_events_known = false;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SIGNALED);
}

static void test_tie_order(void **state)
{
	struct tc_observed_cgroup cg = { .oom_known = true, .oom_kills = 1 };
	struct tc_observed seen = seen_base();
	struct tc_outcome o;

	(void)state;
	seen.tool_status = SIGKILL;
	seen.cgroup = &cg;
	/* memory comes before processes, output and time: an OOM kill stands
	 * over each of those reasons of ours */
	seen.reason = TC_KILL_PIDS;
	assert_int_equal(classify(&seen).status, TC_STATUS_MEMORY_LIMIT);
	seen.reason = TC_KILL_OUTPUT;
	assert_int_equal(classify(&seen).status, TC_STATUS_MEMORY_LIMIT);
	seen.reason = TC_KILL_TIMEOUT;
	assert_int_equal(classify(&seen).status, TC_STATUS_MEMORY_LIMIT);
	/* a denied call comes first, and toolcell's own signal is its own */
	seen.reason = TC_KILL_SYSCALL;
	o = classify(&seen);
	assert_int_equal(o.status, TC_STATUS_SYSCALL_DENIED);
	assert_int_equal(o.signal, SIGSYS);
	seen.reason = TC_KILL_SIGNAL;
	assert_int_equal(classify(&seen).status, TC_STATUS_SIGNALED);
	seen.reason = TC_KILL_SETUP;
	assert_int_equal(classify(&seen).status, TC_STATUS_SANDBOX_ERROR);
}

/* The supervisor keeps the first reason it acted on. */
static void test_first_reason_wins(void **state)
{
	/* no such process: the kill reaches nothing */
	struct tc_supervisor *s = calloc(1, sizeof(*s));

	(void)state;
	assert_non_null(s);
	s->pid = 0x7ffffffe;
	s->pidfd = -1;
	tc_supervise_kill(s, TC_KILL_MEMORY);
	tc_supervise_kill(s, TC_KILL_OUTPUT);
	tc_supervise_kill(s, TC_KILL_TIMEOUT);
	assert_int_equal(s->reason, TC_KILL_MEMORY);
	/* once the init is gone, nothing is a reason any more */
	s->reason = TC_KILL_NONE;
	s->init_exited = true;
	tc_supervise_kill(s, TC_KILL_TIMEOUT);
	assert_int_equal(s->reason, TC_KILL_NONE);
	free(s);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_exit), cmocka_unit_test(test_memory_error),
	     cmocka_unit_test(test_fork_refused), cmocka_unit_test(test_signals),
	     cmocka_unit_test(test_kill_reasons), cmocka_unit_test(test_setup_and_init),
	     cmocka_unit_test(test_cgroup), cmocka_unit_test(test_tie_order),
	     cmocka_unit_test(test_first_reason_wins))
