/* Policy files: the operator's JSON ceiling for every run. Parsing and
 * validation are pure (string in, struct out); loading reads one file with
 * a size cap. Runs in the parent before clone. The schema is documented in
 * policies/README.md. */
#ifndef TOOLCELL_POLICY_H
#define TOOLCELL_POLICY_H

#include <stdio.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "bind.h"
#include "rootfs.h"

struct tc_policy {
	char *origin;			   /* file path, for messages and the record */
	unsigned char sha256[32];	   /* of the file's bytes */
	uint64_t limit[TC_LIMIT__MAX];	   /* defaults */
	uint64_t limit_max[TC_LIMIT__MAX]; /* highest value a caller may ask for (>= limit) */
	bool allow_ro_bind;		   /* caller may add --ro-bind */
	bool allow_bind;		   /* caller may add writable --bind */
	bool allow_workspace;		   /* caller may give --workspace */
	bool allow_env;			   /* caller may add --env */
	bool allow_pass_env;		   /* caller may add --pass-env */
	bool allow_cgroup_parent;	   /* caller may name --cgroup-parent */
	/* allow.rootfs: variant names and absolute paths a caller may name
	 * with --rootfs; none: the caller may not choose. Owned. */
	char *allow_rootfs[TC_MAX_ROOTFS_CHOICES];
	size_t n_allow_rootfs;
	struct tc_bind binds[TC_MAX_BINDS]; /* the policy's own binds; owned */
	size_t n_binds;
	char *env[TC_MAX_ENV]; /* NAME=VALUE set for every run; owned */
	size_t n_env;
	char *pass_env[TC_MAX_ENV]; /* NAMEs passed from toolcell's environment; owned */
	size_t n_pass_env;
	char *hostname;
	char *cgroup_parent;	   /* "cgroup_parent", or NULL */
	char *session_json;	   /* "session", compact JSON for the session harness, or NULL */
	char *serve_json;	   /* "serve", compact JSON checked by tc_serve_policy_parse */
	char *rootfs_name;	   /* "rootfs": a variant ("workspace", "data"), NULL: default */
	bool workspace_on_success; /* "workspace_apply": "on_success" (else "always") */
	char *programs[TC_MAX_PROGRAMS]; /* "programs": workspace mode; owned */
	size_t n_programs;
	uint32_t uid_base, uid_count;
	bool require_cgroup2;
	unsigned require_landlock; /* lowest Landlock ABI the host must have; 0: none */
	bool warn_env_not_passed;  /* name, on stderr, the variables the tool does not get */
	struct tc_syscall_policy syscalls; /* the "seccomp" section, resolved */
	/* network is always "none" in this version; other values are refused. */
};

/* Parse and validate a policy document. origin names it in messages
 * ("policies/default.json: limits.memory: expected a size such as \"256M\"").
 * Unknown keys, wrong types and out-of-range values are refused with -EINVAL. */
int tc_policy_parse(const char *json, size_t len, const char *origin, struct tc_policy *ret,
		    struct tc_error *err);

/* Read path (regular file, at most TC_POLICY_FILE_MAX bytes) and parse it;
 * fills ret->sha256. */
int tc_policy_load(const char *path, struct tc_policy *ret, struct tc_error *err);

/* Merge the caller's overrides into the policy's defaults, refusing (with a
 * message naming the option, the asked value and the ceiling) anything the
 * policy does not allow. envp is toolcell's own environment, for pass_env;
 * names starting with TOOLCELL_ are never passed. Fills ret, which the caller
 * releases with tc_config_release. rootfs is the default rootfs path, used
 * when the overrides name none. */
int tc_policy_apply(const struct tc_policy *p, const struct tc_overrides *o, char *const *envp,
		    const char *rootfs, struct tc_config *ret, struct tc_error *err);

/* The effective policy as a JSON document (heap string, caller frees), as
 * `toolcell policy check` prints it. NULL on allocation failure. */
char *tc_policy_to_json(const struct tc_policy *p);

/* Print to out one warning line per dangerous thing the policy allows (a
 * system call toolcell's default ends the tool for); returns how many. */
size_t tc_policy_warnings(const struct tc_policy *p, FILE *out);

/* The session harness's JSON config: the policy's "session" imports plus
 * the caller's --allow-import and --default-import, each within the
 * policy's session.max_imports (-EPERM naming the module otherwise), and
 * max_bytes. *ret is the caller's to free. */
int tc_policy_session_config(const struct tc_policy *p, const struct tc_overrides *o,
			     uint64_t max_bytes, char **ret, struct tc_error *err);

void tc_policy_release(struct tc_policy *p);

#endif
