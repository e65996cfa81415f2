/* The effective configuration of one run, and the caller's requested
 * changes to it. Pure data shared by the policy (which supplies defaults
 * and ceilings), the command line (which asks for overrides) and the
 * launcher (which enforces the result). Every input limit is defined here
 * once (HACKING.md, style rule 11). */
#ifndef TOOLCELL_CONFIG_H
#define TOOLCELL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_SYSCALL_MAX 1024 /* syscall numbers the sets cover */

/* What a policy's "seccomp" section resolves to: bit sets of syscall
 * numbers. A call in allow is allowed (with toolcell's argument rules for
 * the calls that have them); a call in kill, or any other call when
 * kill_others, ends the tool; any other answers ENOSYS and is counted.
 * refuse_setid (set by the launcher for a run with a live bind, never by a
 * policy) refuses set-uid and set-gid mode bits wherever a call sets a
 * mode (EPERM; openat2, whose mode the filter cannot read, ENOSYS). */
struct tc_syscall_policy {
	uint64_t allow[TC_SYSCALL_MAX / 64];
	uint64_t kill[TC_SYSCALL_MAX / 64];
	bool kill_others;
	bool refuse_setid;
};

/* Named limits on untrusted input and on the command line. */
#define TC_MAX_BINDS	   32	      /* --ro-bind + --bind + policy binds, together */
#define TC_MAX_IMPORTS	   64	      /* --allow-import, --default-import: each */
#define TC_MAX_PROGRAMS	   64	      /* names in a policy's "programs" */
#define TC_MAX_ENV	   64	      /* --env + --pass-env + policy env, together */
#define TC_MAX_ARGS	   4096	      /* arguments passed to the tool */
#define TC_PATH_MAX	   4096	      /* any path, host or inside */
#define TC_ENV_ENTRY_MAX   32768      /* one NAME=VALUE string */
#define TC_POLICY_FILE_MAX (1 << 20)  /* bytes of a policy file */
#define TC_JSON_DEPTH_MAX  64	      /* nesting of requests, responses, policies */
#define TC_TOOL_FILE_MAX   (64 << 20) /* bytes hashed for provenance */

/* The resource limits. Values are stored in the unit the comment gives. */
enum tc_limit_id {
	TC_LIMIT_MEMORY,     /* bytes: address space (rlimit) or memory.max (cgroup2) */
	TC_LIMIT_CPUS,	     /* thousandths of a CPU: cpu.max; not enforceable by rlimit */
	TC_LIMIT_PIDS,	     /* tasks (processes and threads) */
	TC_LIMIT_WALL,	     /* milliseconds of wall clock */
	TC_LIMIT_CPU_TIME,   /* milliseconds of CPU per process (RLIMIT_CPU, whole seconds) */
	TC_LIMIT_TMP,	     /* bytes of the /tmp tmpfs */
	TC_LIMIT_TMP_INODES, /* inodes of the /tmp tmpfs */
	TC_LIMIT_SHM,	     /* bytes of the /dev/shm tmpfs */
	TC_LIMIT_FILE_SIZE,  /* bytes: largest file the tool may write (RLIMIT_FSIZE) */
	TC_LIMIT_OPEN_FILES, /* descriptors per process (RLIMIT_NOFILE) */
	TC_LIMIT_REQUEST,    /* bytes of a `call` request, and of the tool's response */
	TC_LIMIT_STDOUT,     /* bytes of the tool's stdout */
	TC_LIMIT_STDERR,     /* bytes of the tool's stderr */
	TC_LIMIT_WORKSPACE,  /* bytes the tool may write into the workspace (its tmpfs layer) */
	TC_LIMIT_WORKSPACE_FILES, /* files and folders it may make there (the layer's inodes) */
	TC_LIMIT__MAX
};

enum tc_unit {
	TC_UNIT_BYTES,	  /* policy: integer bytes or "64K" / "256M" / "1G" string */
	TC_UNIT_COUNT,	  /* policy: integer */
	TC_UNIT_MS,	  /* policy: seconds as a number, fractional allowed */
	TC_UNIT_MILLICPU, /* policy: CPUs as a number, fractional allowed */
};

struct tc_limit_info {
	const char *name;   /* policy key and record key, e.g. "memory" */
	const char *option; /* command-line option, e.g. "--memory", or NULL */
	enum tc_unit unit;
	uint64_t min, max; /* accepted range, in the stored unit */
	uint64_t def;	   /* what a policy that omits the limit gets */
};

/* Indexed by enum tc_limit_id. Defined in config.c. */
extern const struct tc_limit_info tc_limit_info[TC_LIMIT__MAX];

/* How each unit is spelled for people. */
struct tc_unit_info {
	const char *metavar;	  /* in --help: SIZE, N, SECONDS, CPUS */
	const char *expected;	  /* what the command line wanted: "a size such as 256M" */
	const char *policy_value; /* what a policy file wanted: "a size such as \"256M\"" */
	const char *range_unit;	  /* after a range: "", " seconds", " CPUs" */
	int (*parse)(const char *s, uint64_t *ret); /* a command-line value */
};

/* Indexed by enum tc_unit. Defined in config.c. */
extern const struct tc_unit_info tc_unit_info[];

struct tc_bind {
	char *host;   /* absolute host path, as given (resolved at run time) */
	char *inside; /* absolute path inside the sandbox */
	bool writable;
};

/* What the caller asked for on the command line (or TOOLCELL_* variables).
 * Strings point into argv or the environment; nothing here is owned. */
struct tc_overrides {
	bool has[TC_LIMIT__MAX];
	uint64_t limit[TC_LIMIT__MAX];
	struct tc_bind binds[TC_MAX_BINDS]; /* host/inside not owned */
	size_t n_binds;
	const char *workspace;	      /* host dir, or NULL */
	const char *workspace_inside; /* where it shows, or NULL for /workspace */
	const char *env[TC_MAX_ENV];  /* NAME=VALUE */
	size_t n_env;
	const char *pass_env[TC_MAX_ENV]; /* NAME */
	size_t n_pass_env;
	const char *rootfs;	   /* or NULL for the default */
	const char *cgroup_parent; /* or NULL for the policy's */
	/* session: --allow-import MODULE, --default-import ALIAS=MODULE */
	const char *allow_import[TC_MAX_IMPORTS];
	size_t n_allow_import;
	const char *default_import[TC_MAX_IMPORTS];
	size_t n_default_import;
};

/* The effective settings of one run, after the policy's ceilings were
 * applied to the overrides. Owns its strings; tc_config_release frees them. */
struct tc_config {
	uint64_t limit[TC_LIMIT__MAX];
	struct tc_bind binds[TC_MAX_BINDS];
	size_t n_binds;
	char *workspace;	   /* host dir, or NULL */
	char *workspace_inside;	   /* "/workspace" when workspace is set */
	bool workspace_on_success; /* apply the workspace's changes only after status ok */
	char *env[TC_MAX_ENV + 1]; /* NAME=VALUE, NULL-terminated */
	size_t n_env;
	char *rootfs;	     /* host dir of the rootfs */
	char *hostname;	     /* UTS name inside */
	uint32_t uid_base;   /* host-root mode: first host uid/gid of the pool */
	uint32_t uid_count;  /* number of host uids in the pool (pairs = count / 2) */
	char *cgroup_parent; /* the delegated cgroup v2 parent, or NULL to look (cgroup.h) */
	bool cgroup_parent_from_caller; /* it is the caller's --cgroup-parent, not the policy's */
	/* workspace mode: the programs `run` may start (bare names), or none
	 * listed (n_programs 0: any program of the rootfs) */
	char *programs[TC_MAX_PROGRAMS];
	size_t n_programs;
	bool require_cgroup2;
	unsigned require_landlock;	   /* lowest Landlock ABI; 0: not required */
	struct tc_syscall_policy syscalls; /* the policy's syscall lists */
};

/* Free everything cfg owns and zero it. Accepts a zeroed struct. */
void tc_config_release(struct tc_config *cfg);

/* Pure parsers shared by the policy and the command line, in config.c. */

/* Parse a size: "1048576", "64K", "256M", "1G", "1.5G" (binary multiples;
 * also "KiB", "MiB", "GiB"). -EINVAL or -ERANGE. */
int tc_parse_size(const char *s, uint64_t *ret_bytes);

/* Parse seconds ("30", "0.25", "1.5") into milliseconds, rounding up. */
int tc_parse_seconds_ms(const char *s, uint64_t *ret_ms);

/* Parse CPUs ("1", "0.5", "2.25") into thousandths. */
int tc_parse_millicpus(const char *s, uint64_t *ret);

/* Parse a count: plain decimal digits, no sign, no spaces; -ERANGE past
 * UINT64_MAX. */
int tc_parse_count(const char *s, uint64_t *ret);

/* A stored limit value the way a person writes it: "256M", "4097", "64",
 * "0.5"; a duration in seconds, "30s" or "0.25s" with seconds_suffix, else
 * "30" or "0.25". The policy's messages, --help and the man page all use
 * it, so they read alike. */
void tc_limit_format(enum tc_unit unit, uint64_t v, bool seconds_suffix, char *buf, size_t n);

/* The accepted range of limit id: "1M..16G", "0.001..86400 seconds",
 * "0.01..64 CPUs", "1..65536". */
void tc_limit_range(enum tc_limit_id id, char *buf, size_t n);

#endif
