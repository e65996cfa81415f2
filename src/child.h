/* The child side of clone3: one straight pipeline that becomes the
 * sandbox's PID 1 (a small init) and starts the tool (HACKING.md, "The
 * child pipeline", steps 0-7). Everything it uses was prepared by the parent; it makes plain
 * syscalls, allocates nothing, never returns, and reports every failure
 * over the sync socket as a struct tc_msg before _exit. */
#ifndef TOOLCELL_CHILD_H
#define TOOLCELL_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "landlock.h"
#include "mount.h"
#include "seccomp.h"
#include "userns.h"

/* Typed, fixed-size messages on the SOCK_SEQPACKET sync socket. */
enum tc_msg_type {
	TC_MSG_MAPS_DONE = 1, /* parent -> child: uid/gid maps written */
	TC_MSG_NET_FD,	      /* net helper -> child: the network namespace (SCM_RIGHTS), lo up */
	TC_MSG_ERROR,	      /* child (or net helper) -> parent (or child): set-up failed */
	TC_MSG_EXEC_FAILED,   /* tool -> parent: execve failed; err.err is the errno */
	TC_MSG_EXITED,	      /* init -> parent: value is the tool's raw wait status */
	TC_MSG_STAGES,	      /* init -> parent (--verbose): when each set-up stage ended */
	TC_MSG_LISTENER,      /* tool -> parent: the seccomp listener (SCM_RIGHTS) */
	TC_MSG_DEADLINE,      /* init -> parent: the init ended the run at its own deadline */
	TC_MSG_WORKSPACE,     /* child -> parent: the workspace's layer, a tmpfs (SCM_RIGHTS) */
};

/* How long past the wall limit the sandbox's init ends the run itself when
 * toolcell has not (toolcell stopped by SIGSTOP, or starved of CPU). */
#define TC_INIT_DEADLINE_MARGIN_MS 1000

/* the stages TC_MSG_STAGES times, in order */
enum tc_stage {
	TC_STAGE_MAPPED,  /* the maps arrived; ids switched */
	TC_STAGE_MOUNTED, /* pivot_root done */
	TC_STAGE_NET,	  /* joined the network namespace the helper made */
	TC_STAGE_FORKED,  /* the tool's process exists */
	TC_STAGE__MAX
};

struct tc_msg {
	uint32_t type;
	int32_t value;
	uint64_t t[TC_STAGE__MAX]; /* TC_MSG_STAGES: CLOCK_MONOTONIC ns */
	struct tc_error err;
};

struct tc_child_args {
	const struct tc_ids *ids;
	struct tc_mount_plan *plan;
	const char *hostname;
	char *const *argv;
	char *const *envp;	  /* the tool's whole environment */
	const char *path;	  /* PATH for a program name without '/' */
	const uint64_t *limit;	  /* TC_LIMIT__MAX values */
	uint64_t deadline_ns;	  /* CLOCK_MONOTONIC: the init's backstop for the wall limit */
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

/* Send / receive one message (and optionally one fd). Both sides. */
int tc_msg_send(int sock, const struct tc_msg *m, int fd);
int tc_msg_recv(int sock, struct tc_msg *m, int *ret_fd);

#endif
