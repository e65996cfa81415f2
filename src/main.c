/* toolcell's command line: the verbs, the defaults found next to the
 * binary, the result record and the exit status. The only file that calls
 * exit(). Everything below the verbs lives in the core library. */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "audit.h"
#include "cgroup.h"
#include "cli.h"
#include "host.h"
#include "policy.h"
#include "protocol.h"
#include "toolcell/record.h"
#include "rootfs.h"
#include "toolcell/sandbox.h"
#include "serve.h"
#include "session.h"
#include "site.h"
#include "sha256.h"
#include "util.h"

#define EXIT_TIMEOUT	   124
#define EXIT_TOOLCELL	   125
#define EXIT_NOEXEC	   126
#define EXIT_NOTFOUND	   127
#define TC_HARNESS	   "/usr/lib/toolcell/harness.pyc" /* precompiled: ~1 ms a call */
#define TC_MANIFEST	   "/usr/lib/toolcell/manifest.txt"
#define TC_MANIFEST_DIGEST TC_MANIFEST ".sha256" /* written by rootfs/build-rootfs */
#define TC_PYTHON	   "/usr/bin/python3"

extern char **environ;

static bool quiet;
static bool call_mode; /* every refusal still prints one envelope */
/* this run's id, times, verb and caller: the record's and the audit line's */
static struct tc_run run;
/* toolcell.conf and the site folder (site.h), read by load_config */
static struct tc_site site;

/* The audit line, where toolcell.conf leaves it on (o NULL: no outcome). */
static void audit(const struct tc_outcome *o, const char *status)
{
	static bool done; /* one line per run */
	char line[TC_AUDIT_LINE_MAX];

	if (!run.id[0] || !site.conf.audit || done)
		return;
	done = true;
	tc_run_end(&run);
	tc_audit_format(&run, o, status, line, sizeof(line));
	(void)tc_audit_send(site.conf.audit_socket, line); /* no logger fails no run */
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("toolcell: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* In call mode a refusal is still one envelope on stdout. */
static void refusal_envelope(const struct tc_error *e)
{
	struct tc_response none = { 0 };
	struct tc_outcome o;
	bool bad_input = !strcmp(e->stage, "cli") || !strcmp(e->stage, "policy") ||
			 !strcmp(e->stage, "request");
	char *json;

	tc_outcome_init(&o);
	o.status = bad_input ? TC_STATUS_REJECTED : TC_STATUS_SANDBOX_ERROR;
	o.err = *e;
	json = tc_envelope_to_json(&o, &none, bad_input ? "BadRequest" : "SandboxError",
				   e->message);
	if (json)
		tc_write_all(STDOUT_FILENO, json, strlen(json));
	free(json);
}

_Noreturn static void die(const struct tc_error *e)
{
	bool bad_input = !strcmp(e->stage, "cli") || !strcmp(e->stage, "policy") ||
			 !strcmp(e->stage, "request") || !strcmp(e->stage, "config");

	audit(NULL, bad_input ? "rejected" : "sandbox_error");
	diag("%s", e->message);
	if (call_mode)
		refusal_envelope(e);
	exit(EXIT_TOOLCELL);
}

_Noreturn static void die_with(const char *stage, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
_Noreturn static void die_with(const char *stage, int err, const char *fmt, ...)
{
	struct tc_error e = { 0 };
	va_list ap;

	snprintf(e.stage, sizeof(e.stage), "%s", stage);
	e.err = err;
	va_start(ap, fmt);
	vsnprintf(e.message, sizeof(e.message), fmt, ap);
	va_end(ap);
	die(&e);
}

/* ---- defaults next to the binary: build tree first, then the prefix ---- */

static char exe_dir[PATH_MAX];

static void find_exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0) {
		strcpy(exe_dir, ".");
		return;
	}
	buf[n] = '\0';
	snprintf(exe_dir, sizeof(exe_dir), "%s", dirname(buf));
}

static char *default_path(const char *build_rel, const char *install_rel)
{
	char buf[PATH_MAX + 64], real[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/%s", exe_dir, build_rel);
	if (access(buf, F_OK) == 0 && realpath(buf, real))
		return strdup(real);
	snprintf(buf, sizeof(buf), "%s/%s", exe_dir, install_rel);
	if (realpath(buf, real))
		return strdup(real);
	return strdup(buf);
}

/* ---- policy + overrides -> config ---- */

struct ctx {
	struct tc_cli cli;
	struct tc_policy policy;
	struct tc_config cfg;
	struct tc_outcome out;
	int result_fd;
	char *policy_path, *rootfs;
};

/* "POLICY requires cgroup v2 limits in its cgroup_parent: WHAT; how to
 * delegate", cut to n bytes as every message is. */
#if !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
static void say_policy_subtree(char *why, size_t n, const char *policy, const char *what)
{
	snprintf(why, n, "%s requires cgroup v2 limits in its cgroup_parent: %s; %s", policy, what,
		 tc_cgroup_how_to_delegate());
}
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* What the policy's "require" asks of this host and the host lacks:
 * true, with why saying which and how to provide it. */
static bool unmet_requirement(const struct ctx *c, char *why, size_t n)
{
	int abi;

	if (c->cfg.require_cgroup2) {
		struct tc_cgroup cg;
		struct tc_error e = { 0 };
		int r = tc_cgroup_find(c->cfg.cgroup_parent, c->cfg.cgroup_parent_from_caller, &cg,
				       &e);

		tc_cgroup_release(&cg);
		if (r < 0 && c->cfg.cgroup_parent && !c->cfg.cgroup_parent_from_caller)
			/* the policy's own subtree is missing: say how to provide it */
			say_policy_subtree(why, n, c->policy_path, e.message);
		else if (r < 0)
			snprintf(why, n, "%s", e.message);
		else if (r == 0)
			snprintf(why, n,
				 "%s requires cgroup v2 limits, and this host has no usable "
				 "subtree: %s. To run it, %s",
				 c->policy_path, cg.why, tc_cgroup_how_to_delegate());
		if (r <= 0)
			return true;
	}
	abi = c->cfg.require_landlock ? tc_host_landlock_abi() : 0;
	if (c->cfg.require_landlock && abi < (int)c->cfg.require_landlock) {
		if (abi > 0)
			snprintf(why, n,
				 "%s requires Landlock ABI %u or later; this kernel has ABI %d (a "
				 "newer kernel has the newer ABI)",
				 c->policy_path, c->cfg.require_landlock, abi);
		else
			snprintf(
				why, n,
				"%s requires Landlock ABI %u or later; this kernel has no Landlock "
				"(%s): it needs Linux 5.13 or later with \"landlock\" in the lsm= "
				"boot parameter (or CONFIG_LSM)",
				c->policy_path, c->cfg.require_landlock, strerror(-abi));
		return true;
	}
	return false;
}

#define WARN_NAME_MAX 64
/* What a shell (a wrapper script such as tools/toolcell-python) exports of its
 * own accord, never the caller's choice. */
static bool shell_own(const char *name, size_t k)
{
	static const char *const own[] = { "PWD", "OLDPWD", "SHLVL", "_" };

	for (size_t i = 0; i < TC_ARRAY_SIZE(own); i++)
		if (strlen(own[i]) == k && !strncmp(name, own[i], k))
			return true;
	return false;
}

#define WARN_LINE_MAX 512
/* The names in toolcell's environment (TOOLCELL_* and a shell's own aside) that the tool's
 * environment lacks, for a policy with "warn_env_not_passed": a caller
 * such as OpenFang passes exactly the variables it means the tool to have
 * (its allowed_env_vars), and one the policy drops must not vanish
 * silently. One line, names cut at WARN_NAME_MAX and shown printable. */
static void warn_env_not_passed(const struct tc_config *cfg)
{
	char names[WARN_LINE_MAX] = "";
	size_t len = 0, n = 0, more = 0, k, i, j;

	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		k = eq ? (size_t)(eq - *e) : strlen(*e);
		if (k == 0 || (k >= 9 && !strncmp(*e, "TOOLCELL_", 9)) || shell_own(*e, k))
			continue;
		for (i = 0; i < cfg->n_env; i++)
			if (!strncmp(cfg->env[i], *e, k) && cfg->env[i][k] == '=')
				break;
		if (i < cfg->n_env)
			continue;
		if (len + 2 + WARN_NAME_MAX + 4 >= sizeof(names)) {
			more++;
			continue;
		}
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s", n ? ", " : "");
		for (j = 0; j < k && j < WARN_NAME_MAX; j++)
			names[len++] = (*e)[j] > ' ' && (*e)[j] < 0x7f ? (*e)[j] : '?';
		if (j < k)
			len += (size_t)snprintf(names + len, sizeof(names) - len, "...");
		names[len] = '\0';
		n++;
	}
	if (!n)
		return;
	if (more)
		diag("not passed to the tool, as the policy's pass_env does not list them: %s and %zu "
		     "more (add each the tool needs to pass_env)",
		     names, more);
	else
		diag("not passed to the tool, as the policy's pass_env does not list %s: %s (add %s "
		     "to pass_env if the tool needs %s)",
		     n == 1 ? "it" : "them", names, n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/* The shared lock on the run's rootfs (rootfs.c), held until toolcell exits,
 * so a rebuild never removes the tree under this run. */
static int rootfs_lock = -1;

/* The rootfs: the policy's variant or the caller's allowed choice, present,
 * held and made by the builder. */
static void choose_rootfs(struct ctx *c)
{
	const char *asked = c->cli.overrides.rootfs;
	_cleanup_free_ char *dir = NULL;
	struct tc_error e = { 0 };
	char py[PATH_MAX + 32];
	const char *name = asked && !strchr(asked, '/') ? asked : c->policy.rootfs_name;

	if (tc_rootfs_choose(&c->policy, asked, exe_dir, TOOLCELL_STATE_DIR,
			     TOOLCELL_INSTALL_ROOTFS_REL, &dir, &e) < 0)
		die(&e);
	snprintf(py, sizeof(py), "%s%s", dir, TC_PYTHON);
	if (access(py, X_OK) < 0)
		die_with("rootfs", errno,
			 "no Python rootfs at %s (%s); build it with 'toolcell rootfs build%s%s' "
			 "(as root) or pass --rootfs DIR where the policy allows it",
			 dir, strerror(errno), name && strcmp(name, "default") ? " --name " : "",
			 name && strcmp(name, "default") ? name : "");
	rootfs_lock = tc_rootfs_hold(dir, &c->rootfs, &e);
	if (rootfs_lock < 0)
		die(&e);
	/* the caller's choice was checked in full (its manifest hashed); the
	 * policy's own is checked for its shape and manifest only */
	if (!asked && tc_rootfs_verify(c->rootfs, false, &e) < 0)
		die(&e);
	c->cli.overrides.rootfs = NULL;
}

static void load_config(struct ctx *c)
{
	struct tc_error e = { 0 };
	char why[TC_ERROR_MESSAGE_MAX];

	_cleanup_free_ char *shipped = default_path("policies", TOOLCELL_INSTALL_POLICY_REL);
	const char *pinned_rootfs;

	if (!shipped)
		die_with("main", ENOMEM, "out of memory");
	/* the administrator's toolcell.conf and policies come first */
	if (tc_site_load(exe_dir, TOOLCELL_SYSCONF_DIR, &site, &e) < 0 ||
	    tc_site_policy(&site, c->cli.policy_path, shipped, &c->policy_path, &e) < 0)
		die(&e);
	if (tc_policy_load(c->policy_path, &c->policy, &e) < 0)
		die(&e);
	if (tc_site_rootfs(&site, c->cli.overrides.rootfs, &pinned_rootfs, &e) < 0)
		die(&e);
	if (pinned_rootfs) {
		/* the pin stands in for the policy's own variant, not a caller's choice */
		free(c->policy.rootfs_name);
		c->policy.rootfs_name =
			strcmp(pinned_rootfs, "default") ? strdup(pinned_rootfs) : NULL;
		c->cli.overrides.rootfs = NULL;
	}
	choose_rootfs(c);
	if (tc_policy_apply(&c->policy, &c->cli.overrides, environ, c->rootfs, &c->cfg, &e) < 0)
		die(&e);
	/* check reports an unmet requirement instead of stopping at it */
	if (c->cli.verb != TC_VERB_CHECK && unmet_requirement(c, why, sizeof(why)))
		die_with("policy", EOPNOTSUPP, "%s", why);
	if (c->cli.verb != TC_VERB_CHECK && c->policy.warn_env_not_passed && !c->cli.quiet)
		warn_env_not_passed(&c->cfg);
}

/* given as an absolute path with ".", ".." and "//" folded away by text
 * alone, symlinks left in place: the bind refuses any, so a tool cannot aim
 * a later run's script or tool at another file by planting one. */
static bool absolute_path(const char *given, char out[PATH_MAX])
{
	char buf[2 * PATH_MAX], *save = NULL, *tok;
	size_t n = 0;

	if (given[0] == '/')
		snprintf(buf, sizeof(buf), "%s", given);
	else if (getcwd(buf, PATH_MAX))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "/%s", given);
	else
		return false;
	out[0] = '\0';
	for (tok = strtok_r(buf, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--; /* the slash */
			out[n] = '\0';
			continue;
		}
		if (n + 1 + strlen(tok) >= PATH_MAX)
			return false;
		out[n++] = '/';
		strcpy(out + n, tok);
		n += strlen(tok);
	}
	if (n == 0)
		strcpy(out, "/");
	return true;
}

/* ---- the result record ---- */

/* A record the tool could replace (unlink it and write its own) would lie:
 * refuse a result file in the workspace or a writable bind. */
static void check_result_place(const struct ctx *c, const char *path)
{
	char abs[PATH_MAX], dir[PATH_MAX], host[PATH_MAX];
	const char *writable[TC_MAX_BINDS + 1];
	size_t n = 0;

	if (!absolute_path(path, abs))
		die_with("cli", ENAMETOOLONG, "cannot use the result file %s", path);
	snprintf(dir, sizeof(dir), "%s", abs);
	if (!realpath(dirname(dir), dir))
		die_with("cli", errno, "cannot use the result file %s: %s", path, strerror(errno));
	if (c->cfg.workspace)
		writable[n++] = c->cfg.workspace;
	for (size_t i = 0; i < c->cfg.n_binds; i++)
		if (c->cfg.binds[i].writable)
			writable[n++] = c->cfg.binds[i].host;
	for (size_t i = 0; i < n; i++) {
		size_t len;

		if (!realpath(writable[i], host))
			continue; /* the bind itself will fail with its own message */
		len = strlen(host);
		if (!strncmp(dir, host, len) && (dir[len] == '\0' || dir[len] == '/' || len == 1))
			die_with("cli", EPERM,
				 "refusing the result file %s: it lies in %s, which the tool can "
				 "write, so the tool could replace the record; put it elsewhere",
				 path, writable[i]);
	}
}

static void open_result(struct ctx *c)
{
	struct stat st;

	c->result_fd = -1;
	if (c->cli.result_path) {
		struct open_how how = {
			.flags = O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
			.mode = 0644,
			.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};

		check_result_place(c, c->cli.result_path);
		/* opened before the sandbox exists, through no symlink anywhere
		 * in the path (a tool may have planted one where a later run's
		 * record goes), never blocking (a FIFO left there would hang us) */
		c->result_fd =
			(int)syscall(SYS_openat2, AT_FDCWD, c->cli.result_path, &how, sizeof(how));
		if (c->result_fd < 0 && errno == ELOOP)
			die_with("cli", ELOOP,
				 "refusing the result file %s: its path has a symbolic link in it; "
				 "name the real path",
				 c->cli.result_path);
		if (c->result_fd < 0)
			die_with("cli", errno, "cannot open the result file %s: %s",
				 c->cli.result_path, strerror(errno));
		if (fstat(c->result_fd, &st) < 0 || !S_ISREG(st.st_mode))
			die_with("cli", EINVAL,
				 "the result file %s is not a regular file; use --result-fd for a "
				 "pipe or a terminal",
				 c->cli.result_path);
		if (ftruncate(c->result_fd, 0) < 0)
			die_with("cli", errno, "cannot truncate the result file %s: %s",
				 c->cli.result_path, strerror(errno));
	} else if (c->cli.result_fd >= 0) {
		if (fcntl(c->cli.result_fd, F_SETFD, FD_CLOEXEC) < 0)
			die_with("cli", errno, "--result-fd %d is not an open descriptor: %s",
				 c->cli.result_fd, strerror(errno));
		c->result_fd = c->cli.result_fd;
	}
}

/* A record that cannot be written whole is toolcell's failure, whatever the
 * tool did: false after saying so (the caller exits 125). A file is closed
 * here, so an error the file system keeps for close() is seen too. */
static bool write_result(struct ctx *c)
{
	_cleanup_free_ char *json = NULL;
	int e = 0;

	tc_run_end(&run);
	audit(&c->out, tc_status_name(c->out.status));
	if (c->result_fd < 0)
		return true;
	json = tc_record_to_json(&c->out);
	if (!json)
		e = ENOMEM;
	else if (tc_write_all(c->result_fd, json, strlen(json)) < 0)
		e = errno;
	if (c->cli.result_path && close(c->result_fd) < 0 && !e)
		e = errno;
	if (c->cli.result_path)
		c->result_fd = -1;
	if (!e)
		return true;
	if (c->cli.result_path)
		diag("cannot write the result record to %s: %s (the record is incomplete; free "
		     "space there or name another --result)",
		     c->cli.result_path, strerror(e));
	else
		diag("cannot write the result record to descriptor %d: %s (the record is "
		     "incomplete)",
		     c->cli.result_fd, strerror(e));
	return false;
}

static void hash_file(const char *path, char out[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	unsigned char d[32];

	out[0] = '\0';
	if (fd >= 0 && tc_sha256_file(fd, TC_TOOL_FILE_MAX, d) >= 0)
		tc_hex_sha256(d, out);
}

/* 64 lower-case hex digits and a newline, as build-rootfs writes them */
static bool read_digest(const char *path, char out[65])
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char buf[66];

	if (fd < 0 || tc_read_full(fd, buf, sizeof(buf)) != 65 || buf[64] != '\n')
		return false;
	for (int i = 0; i < 64; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f')))
			return false;
	memcpy(out, buf, 64);
	out[64] = '\0';
	return true;
}

static void fill_provenance(struct ctx *c, const char *tool_host_path)
{
	char manifest[PATH_MAX + 64];

	tc_hex_sha256(c->policy.sha256, c->out.policy_sha256);
	c->out.policy_path = c->policy_path;
	/* the builder's digest of its manifest (the rootfs is trusted); hash
	 * the manifest only for a rootfs built without one */
	snprintf(manifest, sizeof(manifest), "%s%s", c->cfg.rootfs, TC_MANIFEST_DIGEST);
	if (!read_digest(manifest, c->out.rootfs_sha256)) {
		snprintf(manifest, sizeof(manifest), "%s%s", c->cfg.rootfs, TC_MANIFEST);
		hash_file(manifest, c->out.rootfs_sha256);
	}
	if (tool_host_path) {
		c->out.tool_path = tool_host_path;
		hash_file(tool_host_path, c->out.tool_sha256);
	}
}

/* ---- working directory and binds for run / python ---- */

/* The inside path of host path p when a bind covers it, else NULL. */
static char *inside_of(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra,
		       const char *p)
{
	const struct tc_bind *all[TC_MAX_BINDS + 3];
	struct tc_bind ws = { cfg->workspace, cfg->workspace_inside, true };
	size_t n = 0;

	for (size_t i = 0; i < cfg->n_binds; i++)
		all[n++] = &cfg->binds[i];
	for (size_t i = 0; i < n_extra; i++)
		all[n++] = &extra[i];
	if (cfg->workspace)
		all[n++] = &ws;
	for (size_t i = 0; i < n; i++) {
		size_t hl = strlen(all[i]->host);
		char *r;

		if (strncmp(p, all[i]->host, hl) != 0 || (p[hl] != '\0' && p[hl] != '/'))
			continue;
		if (asprintf(&r, "%s%s", all[i]->inside, p + hl) < 0)
			return NULL;
		return r;
	}
	return NULL;
}

static char *choose_cwd(const struct tc_config *cfg, const struct tc_bind *extra, size_t n_extra)
{
	char here[PATH_MAX];
	char *r = NULL;

	if (getcwd(here, sizeof(here)))
		r = inside_of(cfg, extra, n_extra, here);
	if (!r)
		r = strdup(cfg->workspace ? cfg->workspace_inside : "/");
	return r;
}

/* ---- ending like the tool ended ---- */

static const char *limit_words(const struct tc_outcome *o)
{
	switch (o->status) {
	case TC_STATUS_TIMEOUT:
		return "the tool reached its time limit";
	case TC_STATUS_MEMORY_LIMIT:
		return "the tool reached its memory limit";
	case TC_STATUS_PIDS_LIMIT:
		return "the tool reached its process limit";
	case TC_STATUS_OUTPUT_LIMIT:
		return "the tool exceeded its output limit and was stopped";
	case TC_STATUS_SYSCALL_DENIED:
		return "the tool made a forbidden system call";
	case TC_STATUS_OK:
	case TC_STATUS_EXIT_NONZERO:
	case TC_STATUS_SIGNALED:
	case TC_STATUS_REJECTED:
	case TC_STATUS_SANDBOX_ERROR:
		break;
	}
	return NULL;
}

/* A framework with a timeout of its own (OpenFang's, 30 s by default) must
 * see that toolcell's fired first, and which setting to raise. */
static void explain_timeout(const struct ctx *c, const char *w)
{
	const struct tc_outcome *o = &c->out;
	bool cpu = o->signaled && (o->signal == SIGXCPU || o->status_inferred);
	uint64_t ms = c->cfg.limit[cpu ? TC_LIMIT_CPU_TIME : TC_LIMIT_WALL];

	if (cpu)
		diag("%s (CPU time): toolcell's own limit of %g s, not its caller's (raise "
		     "--cpu-time or the policy's limits.cpu_time)",
		     w, (double)ms / 1000);
	else
		diag("%s (wall clock): toolcell's own limit of %g s, not its caller's (raise "
		     "--timeout, TOOLCELL_TIMEOUT or the policy's limits.timeout)",
		     w, (double)ms / 1000);
}

static void explain(const struct ctx *c)
{
	const struct tc_outcome *o = &c->out;
	const char *w = limit_words(o);

	if (o->status == TC_STATUS_SANDBOX_ERROR || c->out.err.message[0]) {
		if (o->err.message[0])
			diag("%s", o->err.message);
		return;
	}
	if (quiet || !w)
		return;
	if (o->status == TC_STATUS_TIMEOUT)
		explain_timeout(c, w);
	else if (o->status == TC_STATUS_SYSCALL_DENIED && o->has_denied_syscall)
		diag("%s (%s, number %d)", w, o->denied_syscall_name, o->denied_syscall_nr);
	else if (o->status == TC_STATUS_OUTPUT_LIMIT)
		diag("%s (%s)", w, o->stdout_truncated ? "stdout" : "stderr");
	else if (o->status == TC_STATUS_SYSCALL_DENIED)
		diag("%s (a system call of another architecture: x32 or int 0x80; SIGSYS)", w);
	else
		diag("%s%s", w, o->status_inferred ? " (inferred from its last words)" : "");
}

_Noreturn static void end_like(int sig)
{
	struct rlimit none = { 0, 0 };
	sigset_t s;

	/* no core file of toolcell's own, then the same death as the tool */
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	kill(getpid(), sig);
	exit(128 + sig); /* a signal that does not end a process */
}

_Noreturn static void finish_relay(struct ctx *c, const struct tc_sandbox_result *res)
{
	const struct tc_outcome *o = &c->out;
	bool recorded = write_result(c);

	explain(c);
	fflush(stderr);
	if (!recorded)
		exit(EXIT_TOOLCELL);
	if (res->toolcell_signal)
		end_like(res->toolcell_signal);
	if (o->status == TC_STATUS_SANDBOX_ERROR)
		exit(EXIT_TOOLCELL);
	if (res->exec_errno)
		exit(res->exec_errno == ENOENT || res->exec_errno == ENOTDIR ? EXIT_NOTFOUND
									     : EXIT_NOEXEC);
	if (o->status == TC_STATUS_TIMEOUT)
		exit(EXIT_TIMEOUT);
	if (o->signaled)
		end_like(o->signal);
	exit(o->exited ? o->exit_code : EXIT_TOOLCELL);
}

/* ---- verbs ---- */

static void init_ctx(struct ctx *c)
{
	load_config(c);
	open_result(c);
	tc_outcome_init(&c->out);
	c->out.run = &run;
	quiet = c->cli.quiet;
}

_Noreturn static void verb_session(struct ctx *c)
{
	struct tc_session_spec spec = { .cfg = &c->cfg,
					.in_fd = STDIN_FILENO,
					.out_fd = STDOUT_FILENO,
					.verbose = c->cli.verbose };
	_cleanup_free_ char *config = NULL;
	struct tc_error e = { 0 };
	int r;

	load_config(c);
	quiet = c->cli.quiet;
	spec.request_ms = c->cfg.limit[TC_LIMIT_WALL];
	spec.cwd = c->cfg.workspace ? c->cfg.workspace_inside : "/tmp";
	/* what one answer's stdout and stderr may hold, each: the answer
	 * (escaped) must fit the stdout limit */
	if (tc_policy_session_config(&c->policy, &c->cli.overrides,
				     c->cfg.limit[TC_LIMIT_STDOUT] / 4, &config, &e) < 0)
		die(&e);
	spec.harness_config = config;
	r = tc_session_serve(&spec);
	audit(NULL, r == 0 ? "ended" : "sandbox_error");
	exit(r);
}

/* Workspace mode (a policy with "programs"): PROGRAM is a bare name on
 * the list (python3 always is), the run has a workspace, and no argument
 * is an absolute path or climbs out with ".." (an argument of several
 * lines is program text, not a path). A convenience for honest agents, not
 * the boundary: the sandbox is. */
static void check_workspace_mode(const struct ctx *c)
{
	const struct tc_config *cfg = &c->cfg;
	char **argv = c->cli.argv;
	char list[512] = "python3";
	bool listed = !strcmp(argv[0], "python3");

	if (!cfg->n_programs)
		return;
	for (size_t i = 0; i < cfg->n_programs; i++) {
		listed = listed || !strcmp(argv[0], cfg->programs[i]);
		if (strcmp(cfg->programs[i], "python3"))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), ", %s",
				 cfg->programs[i]);
	}
	if (!cfg->workspace)
		die_with("workspace", EINVAL,
			 "%s is a workspace policy: give the run a workspace (--workspace DIR)",
			 c->policy_path);
	if (strchr(argv[0], '/'))
		die_with("workspace", EINVAL,
			 "'%s': in a workspace a program is run by its name (one of: %s), not by a "
			 "path",
			 argv[0], list);
	if (!listed)
		die_with("workspace", EPERM, "'%s' is not one of the programs %s allows (%s)",
			 argv[0], c->policy_path, list);
	for (int i = 1; i < c->cli.argc; i++) {
		const char *a = argv[i];
		if (strchr(a, '\n'))
			continue; /* program text (python3 -c), not a path */
		if (a[0] == '/')
			die_with("workspace", EINVAL,
				 "argument %d ('%s') is an absolute path; in a workspace paths are "
				 "relative to it",
				 i, a);
		for (const char *p = a; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
			if (!strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0'))
				die_with("workspace", EINVAL,
					 "argument %d ('%s') climbs out with '..'; in a workspace "
					 "paths stay inside it",
					 i, a);
	}
}

_Noreturn static void verb_run(struct ctx *c)
{
	struct tc_sandbox_spec spec = { .cfg = &c->cfg, .io = TC_IO_RELAY };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	_cleanup_free_ char *cwd = NULL;

	init_ctx(c);
	check_workspace_mode(c);
	cwd = choose_cwd(&c->cfg, NULL, 0);
	spec.argv = c->cli.argv;
	spec.cwd = cwd;
	spec.verbose = c->cli.verbose;
	fill_provenance(c, NULL);
	tc_sandbox_run(&spec, &c->out, &res, &e);
	finish_relay(c, &res);
}

/* true when host path p lies in a writable bind, which is not idmapped: as
 * host root the tool reads its files by their "other" bits (read-only binds
 * and the workspace show the caller's files as the tool's). */
static bool in_writable_bind(const struct tc_config *cfg, const char *p)
{
	for (size_t i = 0; i < cfg->n_binds; i++) {
		const char *h = cfg->binds[i].host;
		size_t n = strlen(h);

		if (cfg->binds[i].writable && strncmp(p, h, n) == 0 &&
		    (p[n] == '\0' || p[n] == '/'))
			return true;
	}
	return false;
}

/* Say so before python3's bare EACCES does. */
static void warn_unreadable(const struct ctx *c, const char *path, const struct stat *st)
{
	if (geteuid() == 0 && !(st->st_mode & S_IROTH) && in_writable_bind(&c->cfg, path))
		diag("warning: %s is not world-readable (mode %04o), it is in a writable bind, "
		     "and the sandbox runs the tool as an unprivileged uid, so python3 cannot "
		     "open it; chmod o+r",
		     path, (unsigned)(st->st_mode & 07777));
}

/* How the tool file (a python script, a call tool) is seen inside: through
 * a bind that already covers it, else bound read-only at its own path (or
 * its folder's, with dir), checked like any bind. Fills *bind when a bind
 * is needed and returns the path inside, or NULL after printing why not. */
static char *show_tool_file(const struct ctx *c, char *abs, bool dir, struct tc_bind *bind,
			    char dirbuf[PATH_MAX], struct tc_error *e)
{
	char why[128];
	char *covered = inside_of(&c->cfg, NULL, 0, abs);
	const char *host = abs;

	if (covered)
		return covered;
	if (dir) {
		snprintf(dirbuf, PATH_MAX, "%s", abs);
		host = dirname(dirbuf);
	}
	if (tc_bind_path_check(host, true, why, sizeof(why)) < 0) {
		tc_error_set(e, "request", EINVAL,
			     "cannot show %s inside the sandbox: that path %s; copy it elsewhere "
			     "or --ro-bind its folder",
			     host, why);
		return NULL;
	}
	*bind = (struct tc_bind){ (char *)host, (char *)host, false };
	return strdup(abs);
}

/* `python -m py_compile FILE...` (how PyRunner-style engines validate a
 * tool): each FILE that is a regular file is shown inside like a script,
 * as far as spec has room for binds (two); python3 reports any other as
 * it would. argv is python3's command line, argv[0] "python3". */
static void show_compiled_files(const struct ctx *c, char **argv, struct tc_sandbox_spec *spec,
				struct tc_error *e)
{
	static char paths[TC_ARRAY_SIZE(spec->extra_binds)][PATH_MAX];
	char dir[PATH_MAX];
	int i = 1;

	bool found = false;

	for (; !found && i < c->cli.argc + 1 && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-mpy_compile")) {
			found = true;
		} else if (!strcmp(argv[i], "-m")) {
			if (i + 1 >= c->cli.argc + 1 || strcmp(argv[i + 1], "py_compile"))
				return;
			found = true;
			i++;
		} else if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--")) {
			return;
		}
	}
	if (!found)
		return;
	for (; i < c->cli.argc + 1 && spec->n_extra_binds < TC_ARRAY_SIZE(spec->extra_binds); i++) {
		struct stat st;
		char *inside, *path = paths[spec->n_extra_binds];

		if (argv[i][0] == '-' || !absolute_path(argv[i], path) || stat(path, &st) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		warn_unreadable(c, path, &st);
		inside = show_tool_file(c, path, false, &spec->extra_binds[spec->n_extra_binds],
					dir, e);
		if (!inside)
			die(e);
		if (spec->extra_binds[spec->n_extra_binds].host) {
			spec->n_extra_binds++;
			argv[i] = inside;
		} else if (argv[i][0] == '/') {
			argv[i] = inside;
		} else {
			/* covered by a bind, and the working directory is
			 * there too: the relative name reads as it would bare */
			free(inside);
		}
	}
}

_Noreturn static void verb_python(struct ctx *c)
{
	struct tc_sandbox_spec spec = { .cfg = &c->cfg, .io = TC_IO_RELAY };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	char script[PATH_MAX], dir[PATH_MAX];
	_cleanup_free_ char *cwd = NULL, *inside = NULL;
	char **argv = calloc((size_t)c->cli.argc + 2, sizeof(char *));
	bool have_script = false;
	struct stat st;

	if (!argv)
		exit(EXIT_TOOLCELL);
	init_ctx(c);
	/* argv[0] "python3" so python3's own messages read as they do bare */
	argv[0] = "python3";
	for (int i = 0; i < c->cli.argc; i++)
		argv[i + 1] = c->cli.argv[i];
	if (c->cli.script_index >= 0 && absolute_path(c->cli.argv[c->cli.script_index], script)) {
		/* only a regular file is shown; anything else is left for
		 * python3 to report as it would ("can't open file") */
		have_script = stat(script, &st) == 0 && S_ISREG(st.st_mode);
		if (have_script) {
			warn_unreadable(c, script, &st);
			inside = show_tool_file(c, script, c->cli.script_dir, &spec.extra_binds[0],
						dir, &e);
			if (!inside)
				die(&e);
			spec.n_extra_binds = spec.extra_binds[0].host ? 1 : 0;
		}
		/* python3 gets the script by its path inside */
		argv[c->cli.script_index + 1] = inside ? inside : script;
	}
	show_compiled_files(c, argv, &spec, &e);
	cwd = choose_cwd(&c->cfg, spec.extra_binds, spec.n_extra_binds);
	spec.argv = argv;
	spec.cwd = cwd;
	spec.verbose = c->cli.verbose;
	fill_provenance(c, have_script ? script : NULL);
	tc_sandbox_run(&spec, &c->out, &res, &e);
	finish_relay(c, &res);
}

static const char *toolcell_error_type(enum tc_status s)
{
	switch (s) {
	case TC_STATUS_TIMEOUT:
		return "Timeout";
	case TC_STATUS_MEMORY_LIMIT:
		return "MemoryLimit";
	case TC_STATUS_PIDS_LIMIT:
		return "PidsLimit";
	case TC_STATUS_OUTPUT_LIMIT:
		return "OutputLimit";
	case TC_STATUS_SYSCALL_DENIED:
		return "SyscallDenied";
	case TC_STATUS_SIGNALED:
		return "Signaled";
	case TC_STATUS_REJECTED:
		return "BadRequest";
	case TC_STATUS_SANDBOX_ERROR:
		return "SandboxError";
	case TC_STATUS_OK:
	case TC_STATUS_EXIT_NONZERO:
		break;
	}
	return NULL;
}

_Noreturn static void print_envelope(struct ctx *c, const struct tc_response *resp,
				     const char *type, const char *message, int code)
{
	char *json = tc_envelope_to_json(&c->out, resp, type, message);

	/* the envelope still goes out: the caller reads one in every case */
	if (!write_result(c))
		code = EXIT_TOOLCELL;
	if (!json) {
		diag("out of memory");
		exit(EXIT_TOOLCELL);
	}
	if (tc_write_all(STDOUT_FILENO, json, strlen(json)) < 0)
		diag("cannot write the envelope: %s", strerror(errno));
	free(json);
	exit(code);
}

_Noreturn static void call_refused(struct ctx *c, const struct tc_error *e)
{
	struct tc_response none = { 0 };

	c->out.status = TC_STATUS_REJECTED;
	c->out.err = *e;
	if (!quiet)
		diag("%s", e->message);
	print_envelope(c, &none, "BadRequest", e->message, EXIT_TOOLCELL);
}

_Noreturn static void verb_call(struct ctx *c)
{
	struct tc_sandbox_spec spec = { .cfg = &c->cfg, .io = TC_IO_MEMORY };
	struct tc_sandbox_result res;
	struct tc_response resp = { 0 };
	struct tc_error e = { 0 };
	char tool[PATH_MAX], dir[PATH_MAX], msg[TC_ERROR_MESSAGE_MAX + 64];
	char *argv[] = { "python3", "-I", TC_HARNESS, tool, NULL };
	_cleanup_free_ char *cwd = NULL, *req = NULL, *inside = NULL;
	const char *type;
	size_t req_len = 0;
	struct stat st;
	int r;

	init_ctx(c);
	fill_provenance(c, NULL);
	if (!absolute_path(c->cli.argv[0], tool) || lstat(tool, &st) < 0) {
		tc_error_errno(&e, "request", errno, "cannot use the tool %s", c->cli.argv[0]);
		call_refused(c, &e);
	}
	if (!S_ISREG(st.st_mode)) {
		tc_error_set(&e, "request", EINVAL,
			     "cannot use the tool %s: it is not a regular file%s", tool,
			     S_ISLNK(st.st_mode) ? " but a symbolic link; name the real file" : "");
		call_refused(c, &e);
	}
	if (geteuid() == 0 && !(st.st_mode & S_IROTH) && in_writable_bind(&c->cfg, tool)) {
		tc_error_set(
			&e, "request", EACCES,
			"the tool %s is not world-readable (mode %04o), and the sandbox runs it "
			"as an unprivileged uid; make it readable (chmod o+r)",
			tool, (unsigned)(st.st_mode & 07777));
		call_refused(c, &e);
	}
	fill_provenance(c, tool);
	r = tc_read_fd(STDIN_FILENO, c->cfg.limit[TC_LIMIT_REQUEST], &req, &req_len);
	if (r == -EFBIG) {
		tc_error_set(&e, "request", E2BIG, "request: larger than the %llu-byte limit",
			     (unsigned long long)c->cfg.limit[TC_LIMIT_REQUEST]);
		call_refused(c, &e);
	}
	if (r < 0) {
		tc_error_errno(&e, "request", -r, "cannot read the request from stdin");
		call_refused(c, &e);
	}
	if (tc_json_validate(req, req_len, c->cfg.limit[TC_LIMIT_REQUEST], "request", &e) < 0)
		call_refused(c, &e);

	inside = show_tool_file(c, tool, false, &spec.extra_binds[0], dir, &e);
	if (!inside)
		call_refused(c, &e);
	spec.n_extra_binds = spec.extra_binds[0].host ? 1 : 0;
	argv[3] = inside;
	cwd = strdup(c->cfg.workspace ? c->cfg.workspace_inside : "/");
	spec.argv = argv;
	spec.cwd = cwd;
	spec.stdin_buf = req;
	spec.stdin_len = req_len;
	spec.verbose = c->cli.verbose;
	tc_sandbox_run(&spec, &c->out, &res, &e);

	type = toolcell_error_type(c->out.status);
	if (c->out.status == TC_STATUS_SANDBOX_ERROR) {
		if (!quiet)
			diag("%s", c->out.err.message);
		print_envelope(c, &resp, type, c->out.err.message, EXIT_TOOLCELL);
	}
	if (type) {
		explain(c);
		snprintf(msg, sizeof(msg), "%s",
			 limit_words(&c->out) ? limit_words(&c->out) : type);
		print_envelope(c, &resp, type, msg, 1);
	}
	r = tc_response_parse(res.stdout_buf ? res.stdout_buf : "", res.stdout_len,
			      c->cfg.limit[TC_LIMIT_REQUEST], &resp, &e);
	if (r < 0 || (c->out.exit_code != 0 && resp.ok)) {
		if (r >= 0)
			snprintf(msg, sizeof(msg), "the tool exited with status %d",
				 c->out.exit_code);
		else if (c->out.exit_code != 0)
			snprintf(msg, sizeof(msg), "the tool exited with status %d: %s",
				 c->out.exit_code, e.message);
		else
			snprintf(msg, sizeof(msg), "%s", e.message);
		tc_response_release(&resp);
		memset(&resp, 0, sizeof(resp));
		print_envelope(c, &resp, "InvalidResponse", msg, 1);
	}
	if (!resp.ok && resp.err_type && strcmp(resp.err_type, "MemoryError") == 0 &&
	    c->out.memory_peak_bytes.known &&
	    TC_MEMORY_PEAK_AT_LIMIT(c->out.memory_peak_bytes.value,
				    c->cfg.limit[TC_LIMIT_MEMORY])) {
		/* the tool's word, and the measured peak at the cap */
		c->out.status = TC_STATUS_MEMORY_LIMIT;
		c->out.status_inferred = true;
	}
	print_envelope(c, &resp, NULL, NULL, resp.ok ? 0 : 1);
}

_Noreturn static void verb_policy_check(struct ctx *c)
{
	struct tc_error e = { 0 };
	char *json;

	if (tc_policy_load(c->cli.argv[0], &c->policy, &e) < 0)
		die(&e);
	json = tc_policy_to_json(&c->policy);
	if (!json) {
		diag("out of memory");
		exit(EXIT_TOOLCELL);
	}
	fputs(json, stdout);
	if (json[0] && json[strlen(json) - 1] != '\n')
		fputc('\n', stdout);
	free(json);
	fflush(stdout);
	/* warnings do not make the policy invalid: it runs as written */
	tc_policy_warnings(&c->policy, stderr);
	exit(0);
}

_Noreturn static void verb_check(struct ctx *c)
{
	struct tc_sandbox_spec spec = { .cfg = &c->cfg, .io = TC_IO_MEMORY, .cwd = "/" };
	char *argv[] = { "python3", "-S", "-c", "pass", NULL };
	struct tc_sandbox_result res;
	struct tc_error e = { 0 };
	char why[TC_ERROR_MESSAGE_MAX];
	bool ok;

	load_config(c);
	ok = tc_host_report(stdout, c->cfg.cgroup_parent, c->cfg.cgroup_parent_from_caller);
	/* a warning: a stale rootfs still runs, without the host's updates */
	tc_rootfs_report_stale(stdout, c->rootfs, c->policy.rootfs_name);
	fflush(stdout);
	if (unmet_requirement(c, why, sizeof(why))) {
		printf("policy requirements: NOT MET: %s\n", why);
		ok = false;
	} else {
		char ll[64] = "not required";
		if (c->cfg.require_landlock)
			snprintf(ll, sizeof(ll), "ABI %u or later required, ABI %d here",
				 c->cfg.require_landlock, tc_host_landlock_abi());
		printf("policy requirements: met (cgroup v2: %s; Landlock: %s)\n",
		       c->cfg.require_cgroup2 ? "required, present" : "not required", ll);
	}
	tc_outcome_init(&c->out);
	spec.argv = argv;
	if (!ok) {
		printf("sandbox: not tried (see above)\n");
		printf("verdict: %s cannot run here\n", c->policy_path);
		exit(EXIT_TOOLCELL);
	}
	/* the proof: a real sandbox with this policy's settings */
	if (tc_sandbox_run(&spec, &c->out, &res, &e) < 0 || c->out.status != TC_STATUS_OK) {
		printf("sandbox: FAILED: %s\n",
		       c->out.err.message[0] ? c->out.err.message : tc_status_name(c->out.status));
		ok = false;
	} else {
		printf("sandbox: ok (python3 ran in all namespaces in %llu ms)\n",
		       (unsigned long long)c->out.wall_ms);
	}
	tc_sandbox_result_release(&res);
	printf("verdict: %s can%s run here\n", c->policy_path, ok ? "" : "not");
	exit(ok ? 0 : EXIT_TOOLCELL);
}

/* `toolcell serve`: its own command line (serve-cli.c), this policy and
 * rootfs, then the server's loop (serve.c) until it drains. */
static int verb_serve(struct ctx *c, int argc, char **argv)
{
	struct tc_serve_options opt;
	struct tc_serve_setup setup = { .harness = "/usr/lib/toolcell/serve.pyc" };
	struct tc_error e = { 0 };
	bool help;

	if (tc_serve_cli_parse(argc, argv, &opt, &help, &e) < 0)
		die(&e);
	if (help) {
		fputs(tc_serve_help(), stdout);
		return 0;
	}
	c->cli.policy_path = opt.policy_path;
	c->cli.verb = TC_VERB_RUN;
	load_config(c);
	tc_outcome_init(&c->out);
	fill_provenance(c, NULL);
	if (tc_serve_policy_parse(c->policy.serve_json, c->policy_path, &setup.policy, &e) < 0)
		die(&e);
	setup.cfg = &c->cfg;
	setup.policy_path = c->policy_path;
	memcpy(setup.policy_sha256, c->out.policy_sha256, sizeof(setup.policy_sha256));
	memcpy(setup.rootfs_sha256, c->out.rootfs_sha256, sizeof(setup.rootfs_sha256));
	return tc_serve_run(&opt, &setup);
}

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	struct tc_error e = { 0 };

	/* a closed reader of ours must not kill us before the record */
	signal(SIGPIPE, SIG_IGN);
	/* started with 0, 1 or 2 closed, the next open (a pipe, the record)
	 * would take its place and the tool's output would land there */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return EXIT_TOOLCELL;
	find_exe_dir();
	/* its own small command line: it only starts the builder */
	if (argc > 1 && !strcmp(argv[1], "rootfs"))
		return tc_rootfs_build_main(argc, argv, exe_dir);
	if (argc > 1 && !strcmp(argv[1], "serve"))
		return verb_serve(&c, argc, argv);
	if (tc_cli_parse(argc, argv, environ, &c.cli, &e) < 0) {
		call_mode = c.cli.verb == TC_VERB_CALL;
		die(&e);
	}
	call_mode = c.cli.verb == TC_VERB_CALL;
	if (c.cli.verb == TC_VERB_CALL && c.cli.server)
		return tc_serve_client_call(c.cli.server, c.cli.argv[0], TC_SERVE_CLIENT_MAX);
	if (c.cli.verb == TC_VERB_RUN || c.cli.verb == TC_VERB_PYTHON ||
	    c.cli.verb == TC_VERB_CALL || c.cli.verb == TC_VERB_SESSION) {
		/* fail closed: a run without an id would leave no trace */
		if (tc_run_begin(&run, tc_cli_verb_name(c.cli.verb), &e) < 0)
			die(&e);
	}
	switch (c.cli.verb) {
	case TC_VERB_NONE:
		fputs(tc_cli_help(TC_VERB_NONE), stderr);
		return EXIT_TOOLCELL;
	case TC_VERB_HELP:
		fputs(tc_cli_help(c.cli.help_verb), stdout);
		return 0;
	case TC_VERB_VERSION:
		printf("toolcell %s\n", TOOLCELL_VERSION);
		return 0;
	case TC_VERB_RUN:
		verb_run(&c);
	case TC_VERB_PYTHON:
		verb_python(&c);
	case TC_VERB_CALL:
		verb_call(&c);
	case TC_VERB_SESSION:
		verb_session(&c);
	case TC_VERB_CHECK:
		verb_check(&c);
	case TC_VERB_POLICY_CHECK:
		verb_policy_check(&c);
	}
	return EXIT_TOOLCELL;
}
