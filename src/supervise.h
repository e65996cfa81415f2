/* The parent's watch over a running sandbox: one poll loop over the sync
 * socket, the init's pidfd, toolcell's own termination signals and the
 * three stdio streams, with a millisecond wall-clock deadline and a
 * periodic sample of the sandbox's memory and task count (the rlimit
 * fallback's view of memory.max and pids.max). It never blocks anywhere but
 * in poll. Whatever ends the run, the whole sandbox is killed through the
 * init's pidfd: when PID 1 of a namespace dies, every process in it dies. */
#ifndef TOOLCELL_SUPERVISE_H
#define TOOLCELL_SUPERVISE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "toolcell/error.h"
#include "cgroup.h"
#include "child.h"
#include "relay.h"
#include "seccomp.h"

/* Why toolcell ended the sandbox itself. The order of the values is the
 * tie order of HACKING.md ("Why a run ended") (syscall_denied first). */
enum tc_kill_reason {
	TC_KILL_NONE,
	TC_KILL_SYSCALL,
	TC_KILL_MEMORY,
	TC_KILL_PIDS,
	TC_KILL_OUTPUT,
	TC_KILL_TIMEOUT,
	TC_KILL_SIGNAL, /* toolcell itself got SIGTERM, SIGINT or SIGHUP */
	TC_KILL_SETUP,	/* the sandbox could not be built */
};

struct tc_supervisor {
	/* inputs */
	pid_t pid; /* the sandbox's init, as seen from the host */
	int pidfd;
	int sync_fd;
	int sig_fd; /* signalfd for SIGTERM, SIGINT, SIGHUP */
	/* the network helper (net.h), reaped the moment it ends: as a zombie
	 * it would hold one of the tool's RLIMIT_NPROC slots */
	int helper_pidfd;
	const struct tc_seccomp *filter;
	/* the run's cgroup leaf, or NULL: then memory is the kernel's to
	 * limit and the task count comes from pids.current */
	const struct tc_cgroup *cgroup;
	int listener;	  /* the tool's seccomp listener, once it sent it */
	int workspace_fd; /* the workspace's layer, once the child sent it; else -1 */
	uint64_t start_ns, wall_ms;
	uint64_t memory_max, tasks_max;
	uint64_t cpu_time_ms; /* RLIMIT_CPU as set: whole seconds */
	uint64_t sample_ms;   /* between samples of memory and tasks */
	struct tc_stream in, out, err;
	/* outputs */
	enum tc_kill_reason reason;
	int reason_signal; /* TC_KILL_SIGNAL: which */
	bool init_exited;
	bool tool_status_known;
	int tool_status; /* raw wait status of the tool */
	int exec_errno;
	struct tc_error tool_err;  /* EXEC_FAILED */
	struct tc_error setup_err; /* ERROR or a failure of ours during set-up */
	/* calls the filter refused: counted, or the one that ended the tool */
	uint32_t denied[TC_SYSCALL_MAX];
	uint32_t denied_out_of_range; /* numbers at or above TC_SYSCALL_MAX, or negative */
	int denied_nr;		      /* -1: none ended the tool */
	/* refused calls answered in the current tick: past the rate, the
	 * listener waits for the next tick (supervise.c) */
	uint64_t refusal_tick_ns;
	uint32_t refusals_in_tick;
	bool sampled;
	uint64_t at_limit_since; /* when the task count reached the limit (0: below it) */
	uint64_t rss_peak, tasks_peak;
	/* CPU of every process of the sandbox (ms, user and system) when
	 * toolcell killed it: the kill's victims never reach the init's
	 * rusage */
	bool killed_cpu_known;
	uint64_t killed_cpu_ms[2];
	uint64_t end_ns;
	uint64_t exited_ns;		/* when the init reported the tool's exit */
	uint64_t stages[TC_STAGE__MAX]; /* TC_MSG_STAGES, when --verbose */
};

/* Run the loop until the init has exited and stdout/stderr are drained. */
int tc_supervise(struct tc_supervisor *s);

/* Sum the resident memory (RSS, or PSS when precise) and count the tasks of
 * every process below the init at pid (the init itself excluded). */
int tc_supervise_sample(pid_t pid, bool precise, uint64_t *ret_rss, uint64_t *ret_tasks);

#endif
