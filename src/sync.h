/* The sync socket: typed, fixed-size messages between toolcell, the
 * sandbox's init and tool, and the network helper, on one SOCK_SEQPACKET
 * socketpair made before clone. Both sides of clone use it: send and
 * receive are plain syscalls, no allocation.
 *
 * The whole handshake, in order (parent: sandbox.c; child: child.c; the
 * network helper: net.c; the workspace's layer: mount.c):
 *
 *   parent                                child (the sandbox's init, then the tool)
 *   ------                                -----
 *   prepare: plan, ids, pipes, socket
 *   clone3 ---------------------------->  0. PDEATHSIG; close toolcell's ends
 *   write the uid/gid maps                1. wait for MAPS_DONE
 *   MAPS_DONE ------------------------->     switch ids
 *   the oom score; the filter, down the   2. mounts; the workspace's layer:
 *     filter pipe (not this socket)          <----------------- WORKSPACE (fd)
 *   start the network helper (it runs
 *     in our memory while we wait; or
 *     forked, and the filter is compiled
 *     and sent beside it)
 *   supervise: poll this socket           3. hostname, keyring
 *                    the helper sends NET_FD (fd) as soon as the namespace
 *                    exists, then brings lo up, writes its sysctls and sends
 *                    NET_READY; or ERROR, which the child (or the tool)
 *                    forwards to the parent as its own
 *                                         4. wait for NET_FD; setns
 *                                            read the filter
 *                                         5. fork the tool
 *                                            <--------------- STAGES (--verbose)
 *                                         6. tool: stdio, rlimits, caps,
 *                                            Landlock; wait for NET_READY;
 *                                            seccomp
 *                                            <--------------- LISTENER (fd, and
 *                                                 the observed capabilities and
 *                                                 no_new_privs: the last message
 *                                                 before execve)
 *                                            execve; if it fails:
 *                                            <--------------- EXEC_FAILED
 *                                         7. init: reaps; the tool's end:
 *                                            <--------------- EXITED (wait status,
 *                                                 the init's rusage, whether the
 *                                                 tool was the last process)
 *                                            or its own backstop deadline:
 *                                            <--------------- DEADLINE
 *   Any failure of the child's set-up:    <--------------- ERROR, then _exit.
 *
 * EOF on the socket means the init is gone. A send of the parent's that
 * fails (the child died) reads the child's queued ERROR first: that is the
 * reason, not the EPIPE (tc_sync_send). */
#ifndef TOOLCELL_SYNC_H
#define TOOLCELL_SYNC_H

#include <stdint.h>

#include "toolcell/error.h"

enum tc_msg_type {
	TC_MSG_MAPS_DONE = 1, /* parent -> child: uid/gid maps written */
	TC_MSG_NET_FD, /* net helper -> child: the network namespace (SCM_RIGHTS), lo not up yet */
	TC_MSG_ERROR,  /* child (or net helper) -> parent (or child): set-up failed */
	TC_MSG_EXEC_FAILED, /* tool -> parent: execve failed; err.err is the errno */
	TC_MSG_EXITED,	    /* init -> parent: value is the tool's raw wait status */
	TC_MSG_STAGES,	    /* init -> parent (--verbose): when each set-up stage ended */
	TC_MSG_LISTENER,    /* tool -> parent: the seccomp listener (SCM_RIGHTS); value is
			     * PR_GET_NO_NEW_PRIVS and cap_eff the effective set (capget) */
	TC_MSG_DEADLINE,    /* init -> parent: the init ended the run at its own deadline */
	TC_MSG_WORKSPACE,   /* child -> parent: the workspace's layer, a tmpfs (SCM_RIGHTS) */
	TC_MSG_NET_READY,   /* net helper -> tool: lo is up and the helper's sysctls written */
};

/* the set-up marks TC_MSG_STAGES times, in order */
enum tc_mark {
	TC_MARK_MAPPED,	 /* the maps arrived; ids switched */
	TC_MARK_MOUNTED, /* pivot_root done */
	TC_MARK_NET,	 /* joined the network namespace the helper made */
	TC_MARK_FORKED,	 /* the tool's process exists and has run its execve */
	TC_MARK__MAX
};

struct tc_msg {
	uint32_t type;
	int32_t value;
	uint64_t t[TC_MARK__MAX]; /* TC_MSG_STAGES: CLOCK_MONOTONIC ns */
	uint64_t cap_eff;	  /* TC_MSG_LISTENER */
	/* TC_MSG_EXITED: the init's rusage once the tool is reaped, its own
	 * and its reaped children's (what waitid would report for the init
	 * then): CPU in microseconds (user, system) and the largest maxrss.
	 * alone: 1 when no other process of the sandbox was left then and the
	 * figures are filled, so they are the whole sandbox's */
	uint64_t cpu_us[2];
	uint64_t maxrss_kib;
	uint32_t alone;
	struct tc_error err;
};

/* Send one message (and one fd, unless fd < 0). 0 or -errno (-EPIPE: the
 * other side is gone). */
int tc_msg_send(int sock, const struct tc_msg *m, int fd);

/* Receive one message; *ret_fd (unless NULL) gets the fd it carried, or -1.
 * -EPIPE at EOF, -EBADMSG for a message of the wrong size or with more than
 * one fd; an fd not handed on is closed. */
int tc_msg_recv(int sock, struct tc_msg *m, int *ret_fd);

/* The parent's send: when it fails, the reason is the child's if the child
 * queued an ERROR before it died (read without waiting; other messages
 * queued before it are dropped, which is right on a run that is over). Else
 * "the sandbox died while starting". Returns 0 or -errno with err filled. */
int tc_sync_send(int sock, const struct tc_msg *m, int fd, struct tc_error *err);

/* After a failure of ours to hand the child something (the filter pipe):
 * the child's queued ERROR if there is one, else e with stage and text. */
int tc_sync_reason(int sock, int e, enum tc_stage stage, struct tc_error *err);

#endif
