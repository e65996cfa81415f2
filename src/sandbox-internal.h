/* The running sandbox's state, shared by sandbox.c (its lifecycle: prepare,
 * clone, hand-over, finish, release) and sandbox-report.c (what the run
 * produced, into struct tc_outcome). Parent side. */
#ifndef TOOLCELL_SANDBOX_INTERNAL_H
#define TOOLCELL_SANDBOX_INTERNAL_H

#include <sys/resource.h>

#include "cgroup.h"
#include "klimits.h"
#include "landlock.h"
#include "mount.h"
#include "seccomp.h"
#include "supervise.h"
#include "toolcell/sandbox.h"
#include "userns.h"

struct tc_sandbox {
	const struct tc_sandbox_spec *spec;
	struct tc_mount_plan plan;
	struct tc_ids ids;
	struct tc_seccomp filter;
	struct tc_landlock landlock;
	struct tc_klimits klimits;
	struct tc_cgroup cg; /* the run's leaf, when the host delegates a subtree */
	int in[2], out[2], err[2], sync[2];
	int filter_pipe[2]; /* the compiled filter goes down it after the clone */
	int sig_fd, pidfd;
	int self_pidfd; /* toolcell's own, for the child to see it die */
	pid_t pid;
	uint64_t t_start, t_prepared, t_cloned, t_mapped;
	/* the supervisor's memory is the parent's alone: allocated after the
	 * clone, so the child's copy of our address space stays small */
	struct tc_supervisor *s;
	bool begun, finished;
	uint64_t cpu_base_ms[2]; /* the sandbox's CPU (user, system) at tc_sandbox_begin */
	/* the base was taken when the entry became ready, idle_ns the run
	 * times then (tc_sandbox_prepare_call): unchanged at the begin, it
	 * holds */
	bool base_early;
	uint64_t idle_ns[2];
	uint64_t call_memory, call_pids; /* tc_sandbox_call_limits's (0: the spec's) */
	bool call_leaf;			 /* the sandbox moved into its call's own cgroup leaf */
	uint64_t dispatch_ns; /* tc_sandbox_begin_direct's (0: the begin is the dispatch) */
	/* the init's begin waits for the next turn: the tool's output ended
	 * before the call's begin (tc_sandbox_begin_ended) */
	bool init_begin_owed;
};

/* The tool's stdin from memory: buf, then EOF (0, or -ENOMEM). */
int tc_sandbox_stdin_from(struct tc_sandbox *r, struct tc_supervisor *s, const char *buf,
			  size_t len);

/* Fill o from what the supervisor saw: status (outcome.c), figures, limits
 * and what enforced each, syscalls, isolation. ru: the init's rusage;
 * init_signal: the signal the init died by (0: none); cs: the leaf's
 * figures, or NULL. */
void tc_sandbox_fill(const struct tc_sandbox *sb, const struct rusage *ru, int init_signal,
		     const struct tc_cgroup_stats *cs, struct tc_outcome *o);

/* A run that ended early (supervise.h): the init's rusage as it sent it
 * with the tool's exit, into ru. */
void tc_sandbox_early_rusage(const struct tc_supervisor *s, struct rusage *ru);

/* A warm sandbox's call begins with a cgroup leaf: a new leaf of its own
 * with the call's limits (sandbox-call.c); failed, the sandbox is killed
 * and setup_err says why. */
void tc_sandbox_cgroup_begin(struct tc_sandbox *sb);

/* A warm sandbox's init: the call began, its backstop counts from now
 * (child.h); 0 or -errno (the init is gone). */
int tc_sandbox_init_begin(struct tc_sandbox *sb);

/* Whether the CPU base taken when the entry became ready still holds:
 * neither the init nor the tool ran since (sandbox-call.c). */
bool tc_sandbox_base_holds(const struct tc_sandbox *sb);

/* toolcell's own CPU (getrusage RUSAGE_SELF) into out. */
void tc_sandbox_own_cpu(struct tc_outcome *out);

/* Apply the workspace's layer (layer_fd, -1 when none arrived) to the host
 * folder, or say in o->workspace why not. */
void tc_sandbox_apply_workspace(const struct tc_sandbox *sb, int layer_fd, struct tc_outcome *o);

/* --verbose: the time of each set-up stage, to stderr. */
void tc_sandbox_verbose_times(const struct tc_sandbox *sb);

#endif
