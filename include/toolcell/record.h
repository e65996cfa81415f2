/* The result record (README.md, "The result record"): what happened to one run, as toolcell
 * observed it. The supervisor fills struct tc_outcome; this module turns it
 * into the JSON record with cJSON. Pure; runs in the parent after the tool
 * ended. */
#ifndef TOOLCELL_RECORD_H
#define TOOLCELL_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"

/* What the apply did, for the record. */
struct tc_workspace_stats {
	bool present;		 /* the run had a workspace */
	bool applied;		 /* its changes were applied (else not_applied says why) */
	const char *not_applied; /* static text, or NULL */
	uint64_t files, dirs, deleted, bytes;			/* applied */
	uint64_t symlinks, fifos, sockets, devices, hard_links; /* dropped */
	uint64_t setid_stripped;	 /* files and folders whose set-id bits were dropped */
	uint64_t errors;		 /* entries that could not be applied */
	char first_error[256];		 /* the first of them, or "" */
	uint64_t used_bytes, used_files; /* of the layer, when the tool ended */
	bool full;			 /* the layer had no room left (the tool met ENOSPC) */
};

enum tc_status {
	TC_STATUS_OK,
	TC_STATUS_EXIT_NONZERO,
	TC_STATUS_SIGNALED,
	TC_STATUS_TIMEOUT,
	TC_STATUS_MEMORY_LIMIT,
	TC_STATUS_PIDS_LIMIT,
	TC_STATUS_OUTPUT_LIMIT,
	TC_STATUS_SYSCALL_DENIED,
	TC_STATUS_REJECTED,
	TC_STATUS_SANDBOX_ERROR,
};

/* "ok", "exit_nonzero", ... as in the record. */
const char *tc_status_name(enum tc_status s);

enum tc_enforcer {
	TC_ENFORCER_NONE,
	TC_ENFORCER_RLIMIT,
	TC_ENFORCER_CGROUP2,
	TC_ENFORCER_TOOLCELL,
};

/* "none", "rlimit", "cgroup2", "toolcell". */
const char *tc_enforcer_name(enum tc_enforcer e);

/* A value that may be unknown; when !known, reason says why (static string). */
struct tc_maybe {
	bool known;
	uint64_t value;
	const char *reason;
};

#define TC_NS_USER   (1u << 0)
#define TC_NS_MOUNT  (1u << 1)
#define TC_NS_PID    (1u << 2)
#define TC_NS_NET    (1u << 3)
#define TC_NS_IPC    (1u << 4)
#define TC_NS_UTS    (1u << 5)
#define TC_NS_CGROUP (1u << 6)

struct tc_outcome {
	enum tc_status status;
	bool status_inferred;
	bool exited; /* exit_code is valid */
	int exit_code;
	bool signaled; /* signal is valid */
	int signal;
	uint64_t wall_ms, cpu_user_ms, cpu_system_ms;
	/* toolcell's own process, from its start to the sandbox's end */
	uint64_t toolcell_cpu_user_ms, toolcell_cpu_system_ms;
	struct tc_maybe memory_peak_bytes, oom_kills, pids_peak;
	/* what memory_peak_bytes leaves out (unknown.kernel_memory), or NULL */
	const char *kernel_memory;
	/* a served call: what its figures count of its warm entry's start
	 * (unknown.warm_up), or NULL */
	const char *warm_up;
	uint64_t stdout_bytes, stderr_bytes;
	bool stdout_truncated, stderr_truncated;
	bool has_denied_syscall; /* the call that ended the tool */
	char denied_syscall_name[32];
	int denied_syscall_nr;
	struct {
		char name[32];
		uint32_t count;
	} denied[TC_SYSCALL_MAX + 1]; /* calls refused with an errno: each number, and
				       * "syscall_out_of_range" for any above them */
	size_t n_denied;
	/* limits in force and what enforced each */
	uint64_t limit[TC_LIMIT__MAX];
	enum tc_enforcer enforced_by[TC_LIMIT__MAX];
	/* isolation */
	unsigned namespaces;	 /* TC_NS_* bits */
	const char *seccomp;	 /* "none" until the seccomp issue lands, then the mode */
	const char *landlock;	 /* ABI description or "unavailable" */
	const char *cgroup;	 /* the run's cgroup v2 leaf, or NULL */
	const char *cgroup_swap; /* with a leaf: memory.swap.max as set, or why not */
	bool no_new_privs;
	uint64_t cap_eff;	     /* capabilities left to the tool (bit mask) */
	uint32_t host_uid, host_gid; /* what the tool's uid/gid are on the host */
	uint32_t tool_uid;	     /* the tool's uid inside */
	/* provenance: hex sha256, or "" when not applicable */
	char policy_sha256[65], tool_sha256[65], rootfs_sha256[65];
	const char *policy_path;
	const char *tool_path;
	/* the workspace's layer and what of it reached the host folder */
	struct tc_workspace_stats workspace;
	/* error: set when err.message[0] != 0 */
	struct tc_error err;
	/* the run's id, times, verb and caller (audit.h), or NULL: null fields */
	const struct tc_run *run;
};

/* Set every field of o to its "nothing happened yet" value: zero, except
 * the denied slots, which are left as they are (n_denied 0: none is in use;
 * only the first n_denied are ever read). */
void tc_outcome_init(struct tc_outcome *o);

/* The record as a JSON document (heap string with a trailing newline, caller
 * frees), or NULL on allocation failure. */
char *tc_record_to_json(const struct tc_outcome *o);

#endif
