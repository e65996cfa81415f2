/* The sandbox's own kernel limits: the sysctls of its user, IPC and network
 * namespaces, which bound what the kernel holds for the tool outside any
 * rlimit (inotify instances and watches, fanotify, new namespaces, System V
 * IPC, TCP buffers, unix datagram queues). tc_klimits_plan (parent, pure)
 * turns the policy's limits into paths and values. The network helper,
 * which joins the sandbox's user namespace and makes its network namespace,
 * writes the network ones and user.max_net_namespaces after it hands the
 * namespace over, beside the child's work, and the tool waits for its
 * NET_READY before its filter and execve (net.c); the child writes the other user ones and the IPC
 * ones (which need the IPC namespace's root) while its fresh /proc is still writable (mount.c). */
#ifndef TOOLCELL_KLIMITS_H
#define TOOLCELL_KLIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toolcell/error.h"

#define TC_KLIMITS_MAX 24

/* per sandbox, charged at the host's level to the namespace's creator */
#define TC_INOTIFY_INSTANCES 4
#define TC_INOTIFY_WATCHES   512

/* the largest a TCP socket's receive or send queue may grow (bytes) */
#define TC_TCP_BUFFER_MAX 262144

struct tc_klimit {
	const char *path; /* under /proc/sys */
	char value[48];
	bool helper; /* the network helper's to write (else the child's) */
};

struct tc_klimits {
	struct tc_klimit set[TC_KLIMITS_MAX];
	size_t n;
};

/* Pure: the sysctls for a sandbox. memory_limit bounds System V shared
 * memory (a quarter of it) when sysv is true (the policy allows System V
 * IPC calls and the sandbox has a namespace root to write them). */
void tc_klimits_plan(uint64_t memory_limit, bool sysv, struct tc_klimits *ret);

/* Write the sysctls whose `helper` is helper, through proc_sys (an fd of a
 * /proc/sys directory). Both sides of clone: plain syscalls, no allocation. */
int tc_klimits_write(const struct tc_klimits *k, bool helper, int proc_sys, struct tc_error *err);

#endif
