/* The sandbox's network: a fresh network namespace with only `lo`, brought
 * up with two ioctls. Creating a network namespace is the costliest
 * part of a sandbox (about 0.6 ms here), so it happens off the critical
 * path: once the maps are written, the parent starts a short-lived helper
 * that joins the sandbox's user namespace, creates the network namespace
 * there (so the sandbox owns it) and hands it to the child, which is
 * meanwhile building its file system and joins it with setns; then it
 * brings `lo` up and writes the namespaces' sysctls while the child starts
 * the tool, which waits for its word that they are done. */
#ifndef TOOLCELL_NET_H
#define TOOLCELL_NET_H

#include <stdbool.h>
#include <sys/types.h>

#include "toolcell/error.h"
#include "klimits.h"

/* Parent, after clone and the maps: start the helper for the sandbox whose
 * init is pidfd. It sends TC_MSG_NET_FD (the namespace's fd), then
 * TC_MSG_NET_READY once lo is up and the sysctls written, or TC_MSG_ERROR
 * at any point, to the child over sock, the parent's end of the sync
 * socket (the tool reads what comes after NET_FD).
 * With wait, the helper runs in our memory (CLONE_VM | CLONE_VFORK: no copy
 * of it to make) while we wait, and is reaped: returns 0. Else it runs
 * beside us (a fork): returns its pid, which the caller reaps
 * (tc_net_helper_reap). -errno if it could not start, or (with wait) if it
 * was killed. */
int tc_net_helper_start(int pidfd, int sock, const struct tc_klimits *klimits, bool wait,
			struct tc_error *err);

/* Reap the helper; ret (0, or the caller's -errno already set in err) is
 * returned, unless ret was 0 and the helper was killed by a signal before
 * its last word: then -EIO, err naming the signal. */
int tc_net_helper_reap(pid_t helper, int ret, struct tc_error *err);

/* Child: join the network namespace the helper sent. */
int tc_net_enter(int netns_fd, struct tc_error *err);

#endif
