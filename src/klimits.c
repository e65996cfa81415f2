/* The sandbox's own kernel limits (see klimits.h). A new user namespace
 * starts with every user.max_* count at INT_MAX, a new IPC namespace with
 * shmall = 2^64 - 2^24 pages, and a network namespace's TCP buffers follow
 * the host's: without cgroup v2 none of that memory is charged to the
 * tool. The counts are hierarchical (a charge counts in the sandbox's user
 * namespace and again for its creator's uid in the parent), so the
 * sandbox's own maximum bounds what one sandbox takes of its creator's. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "klimits.h"
#include "util.h"

#define TC_PAGE 4096

static void put(struct tc_klimits *k, const char *path, const char *prefix, unsigned long long v)
{
	if (k->n >= TC_KLIMITS_MAX)
		return;
	k->set[k->n].path = path;
	/* the network namespace's are the helper's, the only one in it that
	 * early, and so is user/max_net_namespaces, which must wait for the
	 * helper's own unshare of that namespace; the IPC ones only the IPC
	 * namespace's root may write, and the user namespace's the child writes
	 * too, through its fresh /proc, while the helper makes the network
	 * namespace (off the helper's path, which is the longer one) */
	k->set[k->n].helper =
		tc_startswith(path, "net/") || strcmp(path, "user/max_net_namespaces") == 0;
	snprintf(k->set[k->n].value, sizeof(k->set[k->n].value), "%s%llu", prefix, v);
	k->n++;
}

void tc_klimits_plan(uint64_t memory_limit, bool sysv, struct tc_klimits *ret)
{
	static const char *const no_ns[] = {
		"user/max_user_namespaces",   "user/max_mnt_namespaces",  "user/max_pid_namespaces",
		"user/max_ipc_namespaces",    "user/max_uts_namespaces",  "user/max_net_namespaces",
		"user/max_cgroup_namespaces", "user/max_time_namespaces",
	};
	uint64_t shm = memory_limit / 4;

	memset(ret, 0, sizeof(*ret));
	put(ret, "user/max_inotify_instances", "", TC_INOTIFY_INSTANCES);
	put(ret, "user/max_inotify_watches", "", TC_INOTIFY_WATCHES);
	put(ret, "user/max_fanotify_groups", "", 0);
	put(ret, "user/max_fanotify_marks", "", 0);
	for (size_t i = 0; i < TC_ARRAY_SIZE(no_ns); i++)
		put(ret, no_ns[i], "", 0);
	put(ret, "net/ipv4/tcp_rmem", "4096 65536 ", TC_TCP_BUFFER_MAX);
	put(ret, "net/ipv4/tcp_wmem", "4096 16384 ", TC_TCP_BUFFER_MAX);
	put(ret, "net/unix/max_dgram_qlen", "", 16);
	if (!sysv)
		return;
	/* at most a quarter of the memory limit in System V shared memory,
	 * 256 KiB in message queues, 256 semaphores */
	put(ret, "kernel/shmmax", "", shm);
	put(ret, "kernel/shmall", "", shm / TC_PAGE);
	put(ret, "kernel/shmmni", "", 64);
	put(ret, "kernel/msgmax", "", 8192);
	put(ret, "kernel/msgmnb", "", 16384);
	put(ret, "kernel/msgmni", "", 16);
	/* SEMMSL SEMMNS SEMOPM SEMMNI */
	put(ret, "kernel/sem", "32 256 32 ", 16);
}

int tc_klimits_write(const struct tc_klimits *k, bool helper, int proc_sys, struct tc_error *err)
{
	for (size_t i = 0; i < k->n; i++) {
		int r;

		if (k->set[i].helper != helper)
			continue;
		/* relative to /proc/sys: no walk from / per name */
		r = tc_write_file_at(proc_sys, k->set[i].path, k->set[i].value);
		if (r < 0)
			return tc_error_errno(err, TC_STAGE_KLIMITS, -r,
					      "cannot set /proc/sys/%s to %s", k->set[i].path,
					      k->set[i].value);
	}
	return 0;
}
