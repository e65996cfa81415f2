/* The sandbox's own kernel limits: the sysctls of its user, IPC and network
 * namespaces, which bound what the kernel holds for the tool outside any
 * rlimit (inotify instances and watches, fanotify, new namespaces, System V
 * IPC, TCP buffers, unix datagram queues). tc_klimits_plan (parent, pure)
 * turns the policy's limits into paths and values; tc_klimits_enter (child,
 * after it joined the network namespace) writes them through a proc mount
 * of its own, since the tool's /proc is read-only. */
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
};

struct tc_klimits {
	struct tc_klimit set[TC_KLIMITS_MAX];
	size_t n;
};

/* Pure: the sysctls for a sandbox. memory_limit bounds System V shared
 * memory (a quarter of it) when sysv is true (the policy allows System V
 * IPC calls and the sandbox has a namespace root to write them). */
void tc_klimits_plan(uint64_t memory_limit, bool sysv, struct tc_klimits *ret);

/* Child, once every namespace exists (the network helper's included, since
 * the namespace counts go to 0): mount a proc over /proc, write every
 * sysctl, detach it again. Needs CAP_SYS_ADMIN and CAP_SYS_RESOURCE in the
 * sandbox's user namespace (and namespace root for the IPC ones). */
int tc_klimits_enter(const struct tc_klimits *k, struct tc_error *err);

#endif
