/* The child side of clone3: one straight pipeline that becomes the
 * sandbox's PID 1 (a small init) and starts the tool (HACKING.md, "The
 * child pipeline", steps 0-7). Everything it uses was prepared by the parent; it makes plain
 * syscalls, allocates nothing, never returns, and reports every failure
 * over the sync socket as a struct tc_msg before _exit (sync.h lists the
 * handshake). */
#ifndef TOOLCELL_CHILD_H
#define TOOLCELL_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "landlock.h"
#include "mount.h"
#include "seccomp.h"
#include "sync.h"
#include "userns.h"

/* How long past the wall limit the sandbox's init ends the run itself when
 * toolcell has not (toolcell stopped by SIGSTOP, or starved of CPU). */
#define TC_INIT_DEADLINE_MARGIN_MS 1000

/* A warm sandbox's init has no backstop deadline until the parent sends it
 * this signal (sigqueue'd: si_value.sival_ptr is the wall limit in ms) at
 * tc_sandbox_begin; only the first counts, and only from outside the
 * sandbox (si_pid 0). */
#define TC_SIG_BEGIN() (SIGRTMIN + 1)

struct tc_child_args {
	const struct tc_ids *ids;
	struct tc_mount_plan *plan;
	const char *hostname;
	char *const *argv;
	char *const *envp;	  /* the tool's whole environment */
	const char *path;	  /* PATH for a program name without '/' */
	const uint64_t *limit;	  /* TC_LIMIT__MAX values */
	uint64_t deadline_ns;	  /* CLOCK_MONOTONIC: the init's backstop for the wall limit */
	bool warm;		  /* no backstop until TC_SIG_BEGIN (deadline_ns is ignored) */
	int filter_fd;		  /* read end of the pipe the parent sends the filter down */
	struct tc_seccomp filter; /* filled from filter_fd before the tool forks */
	const struct tc_landlock *landlock;
	int sync_fd;
	/* toolcell itself (a pidfd), and its ends of our pipes and socket,
	 * which the clone copied: closed first, or our reads would never see
	 * toolcell's death */
	int parent_pidfd;
	int parent_fds[5];
	bool verbose; /* send TC_MSG_STAGES */
	bool cgroup;  /* born in a cgroup leaf that limits memory and processes */
	int stdio[3]; /* the tool's ends of its stdin, stdout and stderr pipes */
	/* memory of the caller's that init wipes once the tool runs */
	void *scrub[4];
	size_t scrub_len[4];
};

/* Run the child pipeline. Never returns. */
_Noreturn void tc_child_main(struct tc_child_args *a);

#endif
