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
#include "outcome.h"
#include "relay.h"
#include "seccomp.h"

/* a warm sandbox's tool's files (struct tc_supervisor's tool_fd) */
enum {
	TC_TOOL_FD_DIR, /* /proc/TOOL */
	TC_TOOL_FD_STAT,
	TC_TOOL_FD_STATUS,
	TC_TOOL_FD_SCHED,
	TC_TOOL_FD_PIDFD,
	TC_TOOL_FD_INIT_STAT,
	TC_TOOL_FD_INIT_SCHED,
	TC_TOOL_FD_CHILDREN,	  /* /proc/TOOL/task/TOOL/children */
	TC_TOOL_FD_INIT_CHILDREN, /* the init's */
	TC_TOOL_FD__N
};

struct tc_supervisor {
	/* inputs */
	pid_t pid; /* the sandbox's init, as seen from the host */
	int pidfd;
	int sync_fd;
	int sig_fd; /* signalfd for SIGTERM, SIGINT, SIGHUP */
	const struct tc_seccomp *filter;
	/* the run's cgroup leaf, or NULL: then memory is the kernel's to
	 * limit and the task count comes from pids.current */
	const struct tc_cgroup *cgroup;
	int listener; /* the tool's seccomp listener, once it sent it */
	/* its filter has no process left (its hang-up): no longer polled, and
	 * closed only at tc_sandbox_release, after the outcome went. Closing
	 * it queues the filter's freeing on our CPU's workqueue, whose
	 * kworker then takes the CPU from us, and an exiting tool with it
	 * (perf sched: a served call's runner held off ~0.5 ms). */
	bool listener_gone;
	int workspace_fd;	    /* the workspace's layer, once the child sent it; else -1 */
	uint64_t start_ns, wall_ms; /* the wall clock: from start_ns (tc_supervise_begin) */
	bool warm;		    /* no wall clock until tc_supervise_begin */
	/* the run is over when the tool has exited as the sandbox's last
	 * process and its output is drained, before the init's exit (which
	 * tears the namespaces down): see ended_early */
	bool early_end;
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
	/* TC_MSG_EXITED said the tool was the last process: the init's rusage
	 * then (sync.h) */
	bool tool_alone;
	uint64_t alone_cpu_us[2], alone_maxrss_kib;
	bool ended_early; /* done by early_end: the init is not reaped yet */
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
	uint64_t exited_ns; /* when the init reported the tool's exit */
	/* what the tool held, as it said before execve (TC_MSG_LISTENER) */
	bool tool_creds_known;
	bool tool_no_new_privs;
	uint64_t tool_cap_eff;
	/* the loop's own state (tc_supervise_turn) */
	uint64_t deadline_ns, next_sample_ns;
	uint64_t wake_ns;	       /* the latest the next turn may come */
	bool throttled;		       /* refusals answered this tick reached the rate */
	bool done;		       /* the run is over: nothing more to poll */
	uint64_t stages[TC_MARK__MAX]; /* TC_MSG_STAGES, when --verbose */
	/* a warm sandbox's tool, once found (supervise-tool.c): its pid as
	 * the host sees it, its /proc files and pidfd, the init's /proc
	 * files (TC_TOOL_FD_*, -1 until then), the init's peak RSS */
	pid_t tool_pid;
	int tool_fd[TC_TOOL_FD__N];
	uint64_t init_hwm_kib;
	bool begun;    /* a warm sandbox's call began (tc_supervise_begin) */
	bool end_seen; /* the quick end was tried (tc_supervise_quick_end) */
};

/* The supervisor as events, so that one poll loop can drive many sandboxes:
 * tc_supervise_turn runs the checks of one turn (samples, limits, the
 * deadline) and says whether the run is over; tc_supervise_pollfds fills
 * TC_SUPERVISE_POLLFDS entries (fd -1 where nothing is to be watched);
 * after poll, tc_supervise_events handles what it reported, then the next
 * turn follows. The next turn must come by s->wake_ns (tc_now_ns's clock)
 * whatever poll says. */
#define TC_SUPERVISE_POLLFDS 10
struct pollfd;
void tc_supervise_init(struct tc_supervisor *s);
bool tc_supervise_turn(struct tc_supervisor *s);
void tc_supervise_pollfds(const struct tc_supervisor *s, struct pollfd *p);
void tc_supervise_events(struct tc_supervisor *s, const struct pollfd *p);

/* Whether poll reported the hang-up of a watched output stream (relay.h,
 * watch) in p, as tc_supervise_pollfds filled it. */
bool tc_supervise_output_hup(const struct tc_supervisor *s, const struct pollfd *p);

/* The wall clock starts again at start_ns, now or a moment ago (a warm
 * sandbox's call was dispatched then). */
void tc_supervise_begin(struct tc_supervisor *s, uint64_t start_ns);

/* End the run for a reason of the caller's (first reason wins). */
void tc_supervise_kill(struct tc_supervisor *s, enum tc_kill_reason why);

/* Run the loop until the init has exited and stdout/stderr are drained:
 * the turns above around a poll of our own. 0, or -errno when poll failed
 * (the sandbox is killed then, setup_err says why). */
int tc_supervise(struct tc_supervisor *s);

/* Sum the resident memory (RSS, or PSS when precise) and count the tasks of
 * every process below the init at pid (the init itself excluded). */
int tc_supervise_sample(pid_t pid, bool precise, uint64_t *ret_rss, uint64_t *ret_tasks);

/* The CPU time (ms: user, system) of the init at pid and every process
 * below it, their reaped children's included. 0 or -ESRCH. */
int tc_supervise_cpu(pid_t pid, uint64_t ret_ms[2]);

/* supervise-tool.c. A warm sandbox whose warm-up is done: find its tool,
 * the init's only child, single-threaded with no child (else -EBUSY), and
 * keep its /proc files open; 0 or -errno. Once found, idle_mark reads
 * the run time (ns) of the init and of the tool: the same figures later
 * mean that neither ran meanwhile, so no process of the sandbox did (no
 * other exists, none could be made). tool_release closes the files. */
int tc_supervise_find_tool(struct tc_supervisor *s);
int tc_supervise_idle_mark(const struct tc_supervisor *s, uint64_t ret_ns[2]);
void tc_supervise_tool_release(struct tc_supervisor *s);

/* The tool's stdout and stderr reached EOF while the init has not reported
 * its exit: try the quick end (HACKING.md, "serve"). When it holds, the
 * tool's status, CPU and peak are the kernel's as read while it exits, and
 * tool_alone is set (the run can end early); else nothing changes and the
 * init's report ends the run as before. */
void tc_supervise_quick_end(struct tc_supervisor *s);

/* Add to ns (user, system) the CPU of the process whose /proc/PID/stat
 * text is stat and whose threads ran run ns, as tc_supervise_cpu counts
 * it. 0 or -EINVAL. */
int tc_supervise_add_cpu(const char *stat, uint64_t run, uint64_t ns[2]);

/* A /proc file's text, read anew from offset 0 into buf (NUL-terminated):
 * its length, or -errno. */
int tc_supervise_pread(int fd, char *buf, size_t size);

/* Field number field (as proc(5) counts them, from 3) of a /proc/PID/stat
 * text, as a number: 0 or -EINVAL. */
int tc_supervise_stat_field(const char *stat, int field, uint64_t *ret);

#endif
