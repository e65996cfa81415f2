/* Why a run ended, decided in one place: from what the supervisor saw
 * (its own kill reason, the tool's wait status, the init's, CPU time,
 * memory and task peaks, the cgroup's events, the last line of stderr)
 * to the record's status, exit code or signal, and error. Pure: no
 * syscalls, unit-tested (tests/unit/test_outcome.c). Parent side, after
 * the sandbox ended.
 *
 * The tie order (HACKING.md "Why a run ended": one turn of the supervisor checks memory and
 * processes, then output, then time, and the first reason it acts on
 * stands): syscall_denied, memory_limit, pids_limit, output_limit,
 * timeout, then toolcell's own signal and set-up failures. With a cgroup
 * leaf the kernel's figures decide over what was only inferred. */
#ifndef TOOLCELL_OUTCOME_H
#define TOOLCELL_OUTCOME_H

#include <stdbool.h>
#include <stdint.h>

#include "toolcell/error.h"
#include "toolcell/record.h"

/* A MemoryError alone is only the tool's word (it can raise one itself):
 * memory_limit is inferred from it only when the measured peak came
 * within a quarter of the limit (Python's gradual fill reaches 90-98% of
 * the address-space rlimit). One huge allocation the rlimit refused leaves
 * the peak low and says nothing more than the tool's own MemoryError. */
#define TC_MEMORY_PEAK_AT_LIMIT(peak, limit) ((peak) >= (limit) / 4 * 3)

/* Why toolcell ended the sandbox itself. The order of the values is the
 * tie order (syscall_denied first). */
enum tc_kill_reason {
	TC_KILL_NONE,
	TC_KILL_SYSCALL,
	TC_KILL_MEMORY,
	TC_KILL_PIDS,
	TC_KILL_OUTPUT,
	TC_KILL_TIMEOUT,
	TC_KILL_SIGNAL, /* toolcell itself got SIGTERM, SIGINT or SIGHUP (or its caller asked) */
	TC_KILL_SETUP,	/* the sandbox could not be built */
};

/* What the kernel's cgroup files said, for the classification. */
struct tc_observed_cgroup {
	bool oom_known;
	uint64_t oom_kills; /* memory.events oom_kill */
	bool pids_events_known;
	uint64_t pids_max_events; /* pids.events max: forks refused at pids.max */
};

struct tc_observed {
	enum tc_kill_reason reason;
	int reason_signal;	   /* TC_KILL_SIGNAL: which */
	struct tc_error setup_err; /* the child's ERROR, or a failure of ours */
	struct tc_error tool_err;  /* EXEC_FAILED */
	int exec_errno;		   /* 0: the tool's execve did not fail */
	bool tool_status_known;	   /* the init reported the tool's end */
	int tool_status;	   /* raw wait status of the tool */
	int init_signal;	   /* the init died by this signal (0: it did not) */
	uint64_t cpu_ms;	   /* the sandbox's CPU time, user and system */
	uint64_t cpu_time_ms;	   /* RLIMIT_CPU as set: whole seconds */
	uint64_t mem_peak, memory_max;
	uint64_t tasks_peak, tasks_max;
	const char *stderr_last_line;		 /* the last line of stderr that is not empty */
	const struct tc_observed_cgroup *cgroup; /* NULL: no cgroup leaf */
};

/* Set o's status, status_inferred, exited/exit_code, signaled/signal and
 * err from what was observed. Nothing else of o is touched. */
void tc_outcome_classify(const struct tc_observed *seen, struct tc_outcome *o);

#endif
