/* The sandbox's network: a fresh network namespace with only `lo`, brought
 * up with two ioctls. Creating a network namespace is the costliest
 * part of a sandbox (about 0.6 ms here), so it happens off the critical
 * path: the parent forks a short-lived helper that joins the sandbox's user
 * namespace, creates the network namespace there (so the sandbox owns it),
 * brings `lo` up (a plain fork of the single-threaded parent, where
 * anything is safe) and hands the namespace to the child, which is
 * meanwhile building its file system and joins it with setns. */
#ifndef TOOLCELL_NET_H
#define TOOLCELL_NET_H

#include <sys/types.h>

#include "toolcell/error.h"
#include "klimits.h"

/* Parent, after clone: start the helper for the sandbox whose init is pid.
 * It sends TC_MSG_NET_FD (the namespace's fd) or TC_MSG_ERROR to the child
 * over sock, the parent's end of the sync socket. Returns a pidfd of the
 * helper, which the caller kills and reaps through it, or -errno. */
int tc_net_helper_start(pid_t pid, int sock, const struct tc_klimits *klimits,
			struct tc_error *err);

/* Child: join the network namespace the helper sent. */
int tc_net_enter(int netns_fd, struct tc_error *err);

#endif
