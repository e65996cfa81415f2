/* clone3 and the parent's side of one run (see sandbox.h): everything is
 * acquired before clone (mount plan, ids, pipes, sync socket, signal fd),
 * the maps are written after it, then supervise.c watches the sandbox to
 * its end and this file turns what it saw into a struct tc_outcome.
 * toolcell stays single-threaded throughout: a parent thread that exits
 * would fire the child's PDEATHSIG. */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "child.h"
#include "cgroup.h"
#include "host.h"
#include "klimits.h"
#include "landlock.h"
#include "mount.h"
#include "net.h"
#include "toolcell/sandbox.h"
#include "seccomp.h"
#include "supervise.h"
#include "userns.h"
#include "util.h"
#include "workspace.h"

#define TC_SAMPLE_MS 10 /* between samples of the sandbox's memory and tasks */

#define TC_CLONE_NS                                                                                \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)

extern char **environ;

struct run {
	struct tc_mount_plan plan;
	struct tc_ids ids;
	struct tc_seccomp filter;
	struct tc_landlock landlock;
	struct tc_klimits klimits;
	struct tc_cgroup cg; /* the run's leaf, when the host delegates a subtree */
	int in[2], out[2], err[2], sync[2];
	int filter_pipe[2]; /* the compiled filter goes down it after the clone */
	int sig_fd, pidfd;
	int self_pidfd; /* toolcell's own, for the child to see it die */
	pid_t pid;
	pid_t net_helper; /* makes the network namespace meanwhile (net.h) */
	int helper_pidfd;
	uint64_t t_start, t_prepared, t_cloned, t_mapped;
};

static void close_pair(int p[2])
{
	tc_closep(&p[0]);
	tc_closep(&p[1]);
	p[0] = p[1] = -1;
}

static void run_release(struct run *r)
{
	if (r->helper_pidfd >= 0) {
		/* long done unless we failed early; the supervisor reaped it
		 * already when it closed the pidfd */
		pidfd_send_signal(r->helper_pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, (id_t)r->helper_pidfd, NULL, WEXITED);
		close(r->helper_pidfd);
	}
	close_pair(r->in);
	close_pair(r->out);
	close_pair(r->err);
	close_pair(r->sync);
	close_pair(r->filter_pipe);
	tc_closep(&r->sig_fd);
	tc_closep(&r->pidfd);
	tc_closep(&r->self_pidfd);
	/* SIGTERM, SIGINT and SIGHUP stay blocked: one that comes now must
	 * not kill toolcell before the record is written (main ends by it,
	 * or exits, after writing) */
	tc_mount_plan_release(&r->plan);
	tc_userns_release(&r->ids);
	tc_seccomp_release(&r->filter);
	tc_cgroup_finish(&r->cg, NULL); /* when a failure left the leaf */
	tc_cgroup_release(&r->cg);
}

static int clone_error(int e, struct tc_error *err)
{
	const char *hint = "";

	if (e == EPERM || e == EACCES)
		hint = " (user namespaces may be disabled: check kernel.unprivileged_userns_clone, "
		       "kernel.apparmor_restrict_unprivileged_userns and user.max_user_namespaces)";
	else if (e == ENOSPC || e == EUSERS)
		hint = " (the namespace limit is reached: raise user.max_user_namespaces or the "
		       "other user.max_*_namespaces sysctls)";
	else if (e == ENOSYS)
		hint = " (toolcell needs clone3: Linux 5.5 or newer)";
	return tc_error_errno(err, "clone", e, "cannot create the sandbox's namespaces%s", hint);
}

/* Where the caller's environment strings live, so the init can wipe them. */
static void environ_span(void **ret, size_t *ret_len)
{
	char *lo = NULL, *hi = NULL;

	for (char **e = environ; e && *e; e++) {
		char *end = *e + strlen(*e) + 1;
		if (!lo || *e < lo)
			lo = *e;
		if (end > hi)
			hi = end;
	}
	*ret = lo;
	*ret_len = lo ? (size_t)(hi - lo) : 0;
}

static const char *env_path(const struct tc_config *cfg)
{
	for (size_t i = 0; i < cfg->n_env; i++)
		if (tc_startswith(cfg->env[i], "PATH="))
			return cfg->env[i] + 5;
	return "/usr/bin:/bin";
}

/* System V IPC, where a policy adds it back to the filter, is bounded by the
 * IPC namespace's own sysctls, which only its namespace root may write: an
 * unprivileged caller's sandbox has none, so it is refused. */
static int plan_klimits(const struct tc_config *cfg, bool ns_root, struct tc_klimits *ret,
			struct tc_error *err)
{
	static const int sysv[] = { SYS_shmget, SYS_msgget, SYS_semget };
	bool want = false;

	for (size_t i = 0; i < TC_ARRAY_SIZE(sysv); i++)
		want |= tc_syscall_in(cfg->syscalls.allow, sysv[i]);
	if (want && !ns_root)
		return tc_error_set(err, "policy", EPERM,
				    "the policy allows System V IPC, which toolcell can bound only "
				    "when it runs as root (the IPC namespace's limits need a "
				    "namespace root); remove shmget, msgget and semget from the "
				    "policy's seccomp.allow, or run toolcell as root");
	tc_klimits_plan(cfg->limit[TC_LIMIT_MEMORY], want, ret);
	return 0;
}

static int prepare(const struct tc_sandbox_spec *spec, struct run *r, struct tc_error *err)
{
	bool is_dir[TC_ARRAY_SIZE(spec->extra_binds)] = { 0 };
	sigset_t term;
	int ret;

	for (size_t i = 0; i < spec->n_extra_binds; i++) {
		ret = tc_mount_check_source(spec->extra_binds[i].host, &is_dir[i], err);
		if (ret < 0)
			return ret;
	}
	/* the cgroup leaf first: the clone is born into it */
	ret = tc_cgroup_find(spec->cfg->cgroup_parent, spec->cfg->cgroup_parent_from_caller, &r->cg,
			     err);
	if (ret == 0 && spec->cfg->require_cgroup2)
		return tc_error_set(err, "cgroup", EOPNOTSUPP,
				    "the policy requires cgroup v2 limits, and this host has no "
				    "usable subtree: %s; %s",
				    r->cg.why, tc_cgroup_how_to_delegate());
	if (ret > 0)
		ret = tc_cgroup_create(&r->cg, spec->cfg->limit, err);
	if (ret < 0)
		return ret;
	ret = tc_mount_plan_build(spec->cfg, spec->extra_binds, spec->n_extra_binds, is_dir,
				  spec->cwd, &r->plan, err);
	if (ret >= 0)
		ret = tc_userns_prepare(spec->cfg, &r->ids, err);
	if (ret >= 0)
		ret = plan_klimits(spec->cfg, r->ids.pool, &r->klimits, err);
	if (ret < 0)
		return ret;
	r->plan.klimits = &r->klimits;
	{
		/* as root the tool is another uid: read-only binds are idmapped
		 * so that it reads what the caller handed it */
		_cleanup_close_ int idmap = -1;

		if (r->ids.pool && tc_mount_plan_idmaps(&r->plan))
			ret = tc_userns_idmap_open(&r->ids, &idmap, err);
		if (ret >= 0)
			ret = tc_mount_prepare(&r->plan, idmap, r->ids.pool, err);
		if (ret < 0)
			return ret;
	}
	tc_landlock_prepare(&r->landlock);
	r->landlock.writable[r->landlock.n_writable++] = "/tmp";
	r->landlock.writable[r->landlock.n_writable++] = "/dev/shm";
	if (spec->cfg->workspace)
		r->landlock.writable[r->landlock.n_writable++] = spec->cfg->workspace_inside;
	for (size_t i = 0; i < spec->cfg->n_binds; i++)
		if (spec->cfg->binds[i].writable)
			r->landlock.writable[r->landlock.n_writable++] = spec->cfg->binds[i].inside;
	if (pipe2(r->in, O_CLOEXEC) < 0 || pipe2(r->out, O_CLOEXEC) < 0 ||
	    pipe2(r->err, O_CLOEXEC) < 0 || pipe2(r->filter_pipe, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, r->sync) < 0)
		return tc_error_errno(err, "spawn", errno, "cannot create the sandbox's pipes");
	r->self_pidfd = (int)pidfd_open(getpid(), 0);
	if (r->self_pidfd < 0)
		return tc_error_errno(err, "spawn", errno,
				      "cannot open a pidfd of toolcell itself");
	/* SIGTERM, SIGINT and SIGHUP become "kill the sandbox, write the
	 * record, exit": blocked before clone, read through a signalfd. The
	 * child resets its mask before the tool runs. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGINT);
	sigaddset(&term, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &term, NULL) < 0)
		return tc_error_errno(err, "spawn", errno, "cannot block signals");
	r->sig_fd = signalfd(-1, &term, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sig_fd < 0)
		return tc_error_errno(err, "spawn", errno, "cannot create a signalfd");
	return 0;
}

/* The kernel charges what a user namespace's processes take of per-user
 * counts (inotify instances and watches, namespaces, ...) once in the
 * namespace and again to its creator's uid at the host's level. Made by
 * root, a sandbox would spend root's own (every root process got EMFILE
 * from inotify while one sandbox held them); made with the pool's euid H,
 * it spends H's, which no one else uses. Only the effective uid changes:
 * real and saved stay 0, so root comes back with its capabilities, and
 * the filesystem uid is set back to 0 at once, so the cgroup leaf's files
 * (CLONE_INTO_CGROUP) are still ours. */
static int owner_euid(uid_t euid)
{
	if (setresuid((uid_t)-1, euid, (uid_t)-1) < 0)
		return -1;
	setfsuid(0);
	if (setfsuid((uid_t)-1) != 0) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

static int do_clone(const struct tc_sandbox_spec *spec, struct run *r, struct tc_error *err)
{
	struct clone_args ca = {
		.flags = TC_CLONE_NS | CLONE_PIDFD | (r->cg.leaf_fd >= 0 ? CLONE_INTO_CGROUP : 0),
		.pidfd = (uint64_t)(uintptr_t)&r->pidfd,
		.exit_signal = SIGCHLD,
		.cgroup = r->cg.leaf_fd >= 0 ? (uint64_t)r->cg.leaf_fd : 0,
	};
	struct tc_child_args a = {
		.ids = &r->ids,
		.plan = &r->plan,
		.hostname = spec->cfg->hostname ? spec->cfg->hostname : "toolcell",
		.argv = spec->argv,
		.envp = spec->cfg->env,
		.path = env_path(spec->cfg),
		.limit = spec->cfg->limit,
		/* from before the clone, as toolcell's own deadline counts from
		 * just after it */
		.deadline_ns =
			tc_now_ns() +
			(spec->cfg->limit[TC_LIMIT_WALL] + TC_INIT_DEADLINE_MARGIN_MS) * 1000000ull,
		.filter_fd = r->filter_pipe[0],
		.landlock = &r->landlock,
		.sync_fd = r->sync[1],
		.parent_pidfd = r->self_pidfd,
		.parent_fds = { r->sync[0], r->filter_pipe[1], r->in[1], r->out[0], r->err[0] },
		.verbose = spec->verbose,
		.cgroup = r->cg.leaf_fd >= 0,
		.stdio = { r->in[0], r->out[1], r->err[1] },
	};
	long pid;
	int pdeathsig = 0;
	pid_t ppid = 0;

	environ_span(&a.scrub[0], &a.scrub_len[0]);
	if (spec->io == TC_IO_MEMORY) {
		a.scrub[1] = (void *)spec->stdin_buf;
		a.scrub_len[1] = spec->stdin_len;
	}
	/* the child sends the workspace's layer on its end of the socket */
	r->plan.sync_fd = r->sync[1];
	/* as root, the pool's namespace root makes the user namespace (see
	 * owner_euid): only for the clone */
	if (r->ids.pool) {
		/* a change of euid clears our own parent-death signal (a session's
		 * runner relies on it): keep it to set again */
		prctl(PR_GET_PDEATHSIG, &pdeathsig);
		ppid = getppid();
		if (owner_euid(r->ids.root_host) < 0)
			return tc_error_errno(err, "userns", errno,
					      "cannot take the pool's uid to clone");
	}
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0)
		tc_child_main(&a);
	if (r->ids.pool) {
		int e = errno;

		/* back to root, capabilities and all; nothing runs before */
		if (owner_euid(0) < 0)
			abort();
		/* and our parent-death signal back, raised now if the parent
		 * died while it was cleared */
		if (pdeathsig && (prctl(PR_SET_PDEATHSIG, pdeathsig) < 0 || getppid() != ppid))
			raise(pdeathsig);
		errno = e;
	}
	if (pid < 0)
		return clone_error(errno, err);
	r->pid = (pid_t)pid;
	/* the child's ends are the child's */
	tc_closep(&r->in[0]);
	tc_closep(&r->out[1]);
	tc_closep(&r->err[1]);
	tc_closep(&r->sync[1]);
	tc_closep(&r->filter_pipe[0]);
	r->in[0] = r->out[1] = r->err[1] = r->sync[1] = r->filter_pipe[0] = -1;
	return 0;
}

/* The host's OOM killer takes the sandbox first; the tool inherits it.
 * Written from here: the child, once its ids change, is not dumpable, and
 * its /proc files belong to host root. Raising needs no privilege. */
static void oom_first(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", pid);
	(void)tc_write_file(path, "1000");
}

static void fill_limits(const struct tc_config *cfg, struct tc_outcome *o)
{
	static const enum tc_enforcer by[TC_LIMIT__MAX] = {
		[TC_LIMIT_MEMORY] = TC_ENFORCER_RLIMIT, /* RLIMIT_AS, and the supervisor's sum */
		[TC_LIMIT_CPUS] = TC_ENFORCER_NONE,	/* needs cgroup v2 cpu.max */
		[TC_LIMIT_PIDS] = TC_ENFORCER_RLIMIT,	/* RLIMIT_NPROC, and the supervisor */
		[TC_LIMIT_WALL] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_CPU_TIME] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_TMP] = TC_ENFORCER_TOOLCELL,	      /* tmpfs size= */
		[TC_LIMIT_TMP_INODES] = TC_ENFORCER_TOOLCELL, /* tmpfs nr_inodes= */
		[TC_LIMIT_SHM] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_FILE_SIZE] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_OPEN_FILES] = TC_ENFORCER_RLIMIT,
		[TC_LIMIT_REQUEST] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_STDOUT] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_STDERR] = TC_ENFORCER_TOOLCELL,
		[TC_LIMIT_WORKSPACE] = TC_ENFORCER_TOOLCELL,	   /* the layer's size= */
		[TC_LIMIT_WORKSPACE_FILES] = TC_ENFORCER_TOOLCELL, /* the layer's nr_inodes= */
	};

	for (int i = 0; i < TC_LIMIT__MAX; i++) {
		o->limit[i] = cfg->limit[i];
		o->enforced_by[i] = by[i];
	}
}

/* What the stderr tail says, for statuses toolcell can only infer. */
static bool last_line_is(const struct tc_stream *st, const char *prefix)
{
	char line[200];

	tc_stream_last_line(st, line, sizeof(line));
	return tc_startswith(line, prefix);
}

static void fill_status(const struct tc_supervisor *s, int init_signal, uint64_t cpu_ms,
			uint64_t mem_peak, struct tc_outcome *o)
{
	int st = s->tool_status;

	switch (s->reason) {
	case TC_KILL_SETUP:
		o->status = TC_STATUS_SANDBOX_ERROR;
		o->err = s->setup_err;
		return;
	case TC_KILL_SYSCALL:
		o->status = TC_STATUS_SYSCALL_DENIED;
		break;
	case TC_KILL_MEMORY:
		o->status = TC_STATUS_MEMORY_LIMIT;
		break;
	case TC_KILL_PIDS:
		o->status = TC_STATUS_PIDS_LIMIT;
		break;
	case TC_KILL_OUTPUT:
		o->status = TC_STATUS_OUTPUT_LIMIT;
		break;
	case TC_KILL_TIMEOUT:
		o->status = TC_STATUS_TIMEOUT;
		break;
	case TC_KILL_SIGNAL:
		o->status = TC_STATUS_SIGNALED;
		tc_error_set(&o->err, "supervise", 0, "toolcell received %s and stopped the tool",
			     sigabbrev_np(s->reason_signal) ? sigabbrev_np(s->reason_signal)
							    : "a signal");
		break;
	case TC_KILL_NONE:
		break;
	}
	if (s->reason != TC_KILL_NONE) {
		/* the tool died by our SIGKILL (or had exited just before) */
		if (s->tool_status_known && WIFEXITED(st)) {
			o->exited = true;
			o->exit_code = WEXITSTATUS(st);
		} else {
			o->signaled = true;
			o->signal =
				s->tool_status_known && WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
			/* a forbidden call ends the tool as the kernel's own
			 * seccomp kill would: SIGSYS, which a caller that sees only
			 * the exit code cannot take for an out-of-memory kill (the
			 * kill itself is SIGKILL: SIGSYS could be caught) */
			if (s->reason == TC_KILL_SYSCALL && o->signal == SIGKILL)
				o->signal = SIGSYS;
		}
		return;
	}
	if (!s->tool_status_known && s->setup_err.message[0]) {
		o->status = TC_STATUS_SANDBOX_ERROR;
		o->err = s->setup_err;
		return;
	}
	if (!s->tool_status_known) {
		/* set-up had ended (it reports every failure), so the init died
		 * while the tool ran: in the unprivileged mapping they share a
		 * uid, and a tool can do that (prlimit on pid 1, say). The
		 * tool's doing, not toolcell's failure. */
		o->signaled = true;
		o->signal = init_signal ? init_signal : SIGKILL;
		o->status = TC_STATUS_SIGNALED;
		o->status_inferred = true;
		tc_error_set(&o->err, "init", 0,
			     "the sandbox's init died (signal %d) while the tool ran; the sandbox "
			     "was ended with it",
			     o->signal);
		return;
	}
	if (WIFEXITED(st)) {
		o->exited = true;
		o->exit_code = WEXITSTATUS(st);
		o->status = o->exit_code == 0 ? TC_STATUS_OK : TC_STATUS_EXIT_NONZERO;
		if (s->exec_errno) {
			o->err = s->tool_err;
		} else if (o->exit_code != 0 && last_line_is(&s->err, "MemoryError") &&
			   TC_MEMORY_PEAK_AT_LIMIT(mem_peak, s->memory_max)) {
			/* Python's answer to the address-space rlimit, measured */
			o->status = TC_STATUS_MEMORY_LIMIT;
			o->status_inferred = true;
		} else if (o->exit_code != 0 && s->tasks_peak >= s->tasks_max &&
			   last_line_is(&s->err, "BlockingIOError: [Errno 11]")) {
			/* fork() refused by RLIMIT_NPROC */
			o->status = TC_STATUS_PIDS_LIMIT;
			o->status_inferred = true;
		}
		return;
	}
	o->signaled = true;
	o->signal = WTERMSIG(st);
	o->status = TC_STATUS_SIGNALED;
	if (o->signal == SIGXCPU) {
		o->status = TC_STATUS_TIMEOUT; /* RLIMIT_CPU's soft limit */
	} else if (o->signal == SIGSYS) {
		/* the filter's own kill: a call from another architecture (x32
		 * numbers, int 0x80), which it does not name */
		o->status = TC_STATUS_SYSCALL_DENIED;
		o->status_inferred = true;
	} else if (o->signal == SIGKILL && cpu_ms >= s->cpu_time_ms) {
		/* RLIMIT_CPU's hard limit, a second after a SIGXCPU the tool
		 * ignored (nothing else of ours kills without saying so) */
		o->status = TC_STATUS_TIMEOUT;
		o->status_inferred = true;
	}
}

static void fill_syscalls(const struct run *r, const struct tc_supervisor *s, struct tc_outcome *o)
{
	static char mode[96];

	if (r->filter.kill_others)
		snprintf(mode, sizeof(mode), "filter: %u calls allowed, any other ends the tool",
			 r->filter.n_allowed);
	else
		snprintf(mode, sizeof(mode),
			 "filter: %u calls allowed, %u end the tool, any other answers ENOSYS",
			 r->filter.n_allowed, r->filter.n_kill);
	o->seccomp = mode;
	if (s->denied_nr >= 0) {
		o->has_denied_syscall = true;
		o->denied_syscall_nr = s->denied_nr;
		tc_seccomp_name(s->denied_nr, o->denied_syscall_name,
				sizeof(o->denied_syscall_name));
	}
	o->n_denied = 0;
	for (int nr = 0; nr < TC_SYSCALL_MAX && o->n_denied < TC_ARRAY_SIZE(o->denied); nr++)
		if (s->denied[nr]) {
			tc_seccomp_name(nr, o->denied[o->n_denied].name,
					sizeof(o->denied[o->n_denied].name));
			o->denied[o->n_denied++].count = s->denied[nr];
		}
	if (s->denied_out_of_range && o->n_denied < TC_ARRAY_SIZE(o->denied)) {
		snprintf(o->denied[o->n_denied].name, sizeof(o->denied[o->n_denied].name),
			 "syscall_out_of_range");
		o->denied[o->n_denied++].count = s->denied_out_of_range;
	}
}

/* With a cgroup leaf the kernel's figures decide: an OOM kill is a memory
 * limit, a fork refused at pids.max in a run that failed a process limit,
 * whatever the exit looked like; and what was only inferred from stderr
 * does not stand against them. */
static void fill_cgroup(const struct tc_supervisor *s, const struct tc_cgroup_stats *cs,
			struct tc_outcome *o)
{
	bool failed = o->status != TC_STATUS_OK;

	if (s->reason == TC_KILL_SYSCALL || s->reason == TC_KILL_SETUP ||
	    s->reason == TC_KILL_SIGNAL || o->status == TC_STATUS_SANDBOX_ERROR)
		return;
	if (o->status_inferred &&
	    (o->status == TC_STATUS_MEMORY_LIMIT || o->status == TC_STATUS_PIDS_LIMIT)) {
		o->status = o->signaled ? TC_STATUS_SIGNALED : TC_STATUS_EXIT_NONZERO;
		o->status_inferred = false;
	}
	if (cs->oom_known && cs->oom_kills > 0) {
		o->status = TC_STATUS_MEMORY_LIMIT;
		o->status_inferred = false;
	} else if (failed && cs->pids_events_known && cs->pids_max_events > 0 &&
		   (o->status == TC_STATUS_EXIT_NONZERO || o->status == TC_STATUS_SIGNALED ||
		    o->status == TC_STATUS_PIDS_LIMIT)) {
		o->status = TC_STATUS_PIDS_LIMIT;
		o->status_inferred = false;
	}
	if (cs->cpu_known) {
		o->cpu_user_ms = cs->user_usec / 1000;
		o->cpu_system_ms = cs->system_usec / 1000;
	}
	if (cs->memory_peak_known) {
		o->memory_peak_bytes.known = true;
		o->memory_peak_bytes.value = cs->memory_peak;
	}
	o->oom_kills.known = cs->oom_known;
	o->oom_kills.value = cs->oom_kills;
	if (!cs->oom_known)
		o->oom_kills.reason = "memory.events has no oom_kill line";
	if (cs->pids_peak_known) {
		/* pids.peak counts the sandbox's init too */
		o->pids_peak.known = true;
		o->pids_peak.value = cs->pids_peak ? cs->pids_peak - 1 : 0;
	}
	o->enforced_by[TC_LIMIT_MEMORY] = TC_ENFORCER_CGROUP2;
	o->enforced_by[TC_LIMIT_CPUS] = TC_ENFORCER_CGROUP2;
	o->enforced_by[TC_LIMIT_PIDS] = TC_ENFORCER_CGROUP2;
}

static void fill_outcome(const struct tc_sandbox_spec *spec, const struct run *r,
			 const struct tc_supervisor *s, const struct rusage *ru, int init_signal,
			 const struct tc_cgroup_stats *cs, struct tc_outcome *o)
{
	static char no_cgroup[TC_CGROUP_WHY_MAX + 64], leaf[TC_PATH_MAX];

	uint64_t maxrss = (uint64_t)ru->ru_maxrss * 1024;
	uint64_t cpu_ms = (uint64_t)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000 +
			  (uint64_t)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1000;

	fill_status(s, init_signal, cpu_ms, s->rss_peak > maxrss ? s->rss_peak : maxrss, o);
	o->wall_ms = ((s->end_ns ? s->end_ns : tc_now_ns()) - r->t_cloned) / 1000000;
	o->cpu_user_ms =
		(uint64_t)ru->ru_utime.tv_sec * 1000 + (uint64_t)ru->ru_utime.tv_usec / 1000;
	o->cpu_system_ms =
		(uint64_t)ru->ru_stime.tv_sec * 1000 + (uint64_t)ru->ru_stime.tv_usec / 1000;
	if (s->killed_cpu_known &&
	    s->killed_cpu_ms[0] + s->killed_cpu_ms[1] > o->cpu_user_ms + o->cpu_system_ms) {
		o->cpu_user_ms = s->killed_cpu_ms[0];
		o->cpu_system_ms = s->killed_cpu_ms[1];
	}
	/* the larger of the sampled sum and the biggest single process */
	o->memory_peak_bytes.known = true;
	o->memory_peak_bytes.value = s->rss_peak > maxrss ? s->rss_peak : maxrss;
	o->oom_kills.known = false;
	snprintf(no_cgroup, sizeof(no_cgroup), "needs cgroup v2 (memory.events): %s",
		 r->cg.why[0] ? r->cg.why : "no cgroup leaf");
	o->oom_kills.reason = no_cgroup;
	o->kernel_memory =
		"without cgroup v2, memory_peak_bytes and the memory limit leave out what the "
		"kernel holds for the tool outside its address space: pipe buffers (64 KiB a "
		"pipe), socket buffers (up to twice the host's net.core.wmem_max and rmem_max a "
		"socket), inotify event queues, page tables";
	if (s->sampled) {
		o->pids_peak.known = true;
		o->pids_peak.value = s->tasks_peak;
	} else {
		o->pids_peak.reason = "the tool ended before the first sample";
	}
	o->stdout_bytes = s->out.passed;
	o->stderr_bytes = s->err.passed;
	o->stdout_truncated = s->out.overflow || s->out.dropped;
	o->stderr_truncated = s->err.overflow || s->err.dropped;
	fill_limits(spec->cfg, o);
	o->namespaces = TC_NS_USER | TC_NS_MOUNT | TC_NS_PID | TC_NS_NET | TC_NS_IPC | TC_NS_UTS |
			TC_NS_CGROUP;
	o->no_new_privs = true;
	o->landlock = tc_landlock_describe(&r->landlock);
	fill_syscalls(r, s, o);
	o->cgroup = NULL;
	if (cs) {
		o->kernel_memory = NULL; /* the cgroup charges it */
		fill_cgroup(s, cs, o);
		snprintf(leaf, sizeof(leaf), "%s", r->cg.leaf);
		o->cgroup = leaf;
		o->cgroup_swap = r->cg.has_swap ? "0"
						: "not limited: no memory.swap.max (the kernel "
						  "accounts no swap)";
	}
	o->cap_eff = 0;
	o->host_uid = r->ids.tool_host_uid;
	o->host_gid = r->ids.tool_host_gid;
	o->tool_uid = TC_TOOL_UID;
}

static void apply_workspace(const struct tc_sandbox_spec *spec, const struct run *r, int layer_fd,
			    struct tc_outcome *o)
{
	const struct tc_mount_op *op = tc_mount_plan_workspace(&r->plan);
	struct tc_workspace_stats *st = &o->workspace;
	int ret;

	st->present = true;
	if (layer_fd < 0 || !op) {
		st->not_applied = "the sandbox ended before its workspace existed";
		return;
	}
	if (spec->cfg->workspace_on_success && o->status != TC_STATUS_OK) {
		st->not_applied = "the policy's workspace_apply is on_success, and the run did not "
				  "end ok";
		return;
	}
	ret = tc_workspace_apply(layer_fd, spec->cfg->workspace, op->dev, op->ino, st);
	if (ret == -ESTALE)
		st->not_applied = "the host folder was replaced while the tool ran";
	else if (ret < 0)
		st->not_applied = "the host folder could not be opened";
}

static void verbose_times(const struct run *r, const struct tc_supervisor *s)
{
	const uint64_t *t = s->stages;
#define MS(a, b) ((a) && (b) ? (double)((a) - (b)) / 1e6 : 0.0)
	fprintf(stderr,
		"toolcell: prepare %.3f ms, clone %.3f ms, maps %.3f ms (parent)\n"
		"toolcell: child: ids %.3f ms, mounts %.3f ms, network namespace %.3f ms more, "
		"fork %.3f ms\n"
		"toolcell: tool ran %.3f ms after fork; the sandbox took %.3f ms more to go; "
		"total %.3f ms\n",
		MS(r->t_prepared, r->t_start), MS(r->t_cloned, r->t_prepared),
		MS(r->t_mapped, r->t_cloned), MS(t[TC_STAGE_MAPPED], r->t_cloned),
		MS(t[TC_STAGE_MOUNTED], t[TC_STAGE_MAPPED]),
		MS(t[TC_STAGE_NET], t[TC_STAGE_MOUNTED]), MS(t[TC_STAGE_FORKED], t[TC_STAGE_NET]),
		MS(s->exited_ns, t[TC_STAGE_FORKED]), MS(s->end_ns, s->exited_ns),
		MS(s->end_ns, r->t_start));
#undef MS
}

static int start_streams(const struct tc_sandbox_spec *spec, struct run *r, struct tc_supervisor *s)
{
	const uint64_t *limit = spec->cfg->limit;
	int ret;

	if (spec->io == TC_IO_MEMORY) {
		ret = tc_stream_init(&s->in, -1, TAKE_FD(r->in[1]), true, UINT64_MAX);
		s->in.mem_in = spec->stdin_buf;
		s->in.mem_in_len = spec->stdin_len;
		if (spec->stdin_len == 0)
			s->in.src_eof = true;
		if (ret >= 0)
			ret = tc_stream_init(&s->out, TAKE_FD(r->out[0]), -1, false,
					     limit[TC_LIMIT_STDOUT]);
	} else {
		ret = tc_stream_init(&s->in, STDIN_FILENO, TAKE_FD(r->in[1]), true, UINT64_MAX);
		if (ret >= 0)
			ret = tc_stream_init(&s->out, TAKE_FD(r->out[0]), STDOUT_FILENO, false,
					     limit[TC_LIMIT_STDOUT]);
	}
	if (ret >= 0)
		ret = tc_stream_init(&s->err, TAKE_FD(r->err[0]), STDERR_FILENO, false,
				     limit[TC_LIMIT_STDERR]);
	/* the tool's pipe ends are the streams' to close (tc_stream_cut) */
	s->out.own_src = s->err.own_src = true;
	return ret;
}

int tc_sandbox_run(const struct tc_sandbox_spec *spec, struct tc_outcome *out,
		   struct tc_sandbox_result *res, struct tc_error *err)
{
	struct run r = { .in = { -1, -1 },
			 .out = { -1, -1 },
			 .err = { -1, -1 },
			 .sync = { -1, -1 },
			 .filter_pipe = { -1, -1 },
			 .sig_fd = -1,
			 .pidfd = -1,
			 .self_pidfd = -1,
			 .helper_pidfd = -1,
			 .cg = { .parent_fd = -1, .leaf_fd = -1, .pids_fd = -1 } };
	struct tc_supervisor *s = NULL;
	struct tc_msg maps = { .type = TC_MSG_MAPS_DONE };
	struct rusage ru = { 0 };
	siginfo_t si = { 0 };
	_cleanup_close_ int ws_fd = -1;
	int ret;

	memset(res, 0, sizeof(*res));
	r.t_start = tc_now_ns();
	ret = prepare(spec, &r, err);
	if (ret < 0)
		goto fail;
	r.t_prepared = tc_now_ns();
	ret = do_clone(spec, &r, err);
	if (ret < 0)
		goto fail;
	r.t_cloned = tc_now_ns();
	/* the network namespace is made beside the child's mounts, not before */
	r.net_helper = tc_net_helper_start(r.pid, r.sync[0], &r.klimits, err);
	if (r.net_helper > 0) {
		r.helper_pidfd = pidfd_open(r.net_helper, 0);
		if (r.helper_pidfd < 0) {
			kill(r.net_helper, SIGKILL);
			waitpid(r.net_helper, NULL, 0);
		}
	}
	ret = r.net_helper < 0	   ? r.net_helper
	      : r.helper_pidfd < 0 ? tc_error_errno(err, "net", errno, "cannot open a pidfd")
				   : tc_userns_setup_from_parent(&r.ids, r.pid, err);
	if (ret >= 0)
		oom_first(r.pid);
	if (ret >= 0 && tc_msg_send(r.sync[0], &maps, -1) < 0)
		ret = tc_error_errno(err, "spawn", EPIPE, "the sandbox died while starting");
	/* the filter is needed only at the tool's last step: compile it now,
	 * while the child builds its file system */
	if (ret >= 0)
		ret = tc_seccomp_prepare(&spec->cfg->syscalls, &r.filter, err);
	if (ret >= 0 && tc_seccomp_send(&r.filter, r.filter_pipe[1]) < 0)
		ret = tc_error_errno(err, "seccomp", EPIPE, "the sandbox died while starting");
	tc_closep(&r.filter_pipe[1]);
	r.filter_pipe[1] = -1;
	if (ret < 0) {
		pidfd_send_signal(r.pidfd, SIGKILL, NULL, 0);
		syscall(SYS_waitid, P_PIDFD, r.pidfd, &si, WEXITED, NULL);
		goto fail;
	}
	r.t_mapped = tc_now_ns();

	/* the supervisor's memory is the parent's alone: allocated after the
	 * clone, so the child's copy of our address space stays small */
	s = calloc(1, sizeof(*s));
	if (!s || start_streams(spec, &r, s) < 0) {
		ret = tc_error_errno(err, "spawn", ENOMEM, "cannot allocate the supervisor");
		pidfd_send_signal(r.pidfd, SIGKILL, NULL, 0);
		syscall(SYS_waitid, P_PIDFD, r.pidfd, &si, WEXITED, NULL);
		goto fail;
	}
	s->pid = r.pid;
	s->pidfd = r.pidfd;
	s->sync_fd = TAKE_FD(r.sync[0]);
	s->sig_fd = r.sig_fd;
	s->filter = &r.filter;
	s->cgroup = r.cg.leaf_fd >= 0 ? &r.cg : NULL;
	s->listener = -1;
	s->workspace_fd = -1;
	s->denied_nr = -1;
	s->helper_pidfd = TAKE_FD(r.helper_pidfd);
	s->start_ns = r.t_cloned;
	s->wall_ms = spec->cfg->limit[TC_LIMIT_WALL];
	s->memory_max = spec->cfg->limit[TC_LIMIT_MEMORY];
	s->tasks_max = spec->cfg->limit[TC_LIMIT_PIDS];
	s->cpu_time_ms = (spec->cfg->limit[TC_LIMIT_CPU_TIME] + 999) / 1000 * 1000;
	s->sample_ms = TC_SAMPLE_MS;
	tc_supervise(s);
	if (s->listener >= 0)
		close(s->listener);
	/* the tool's layer outlives its namespace through our descriptor */
	ws_fd = TAKE_FD(s->workspace_fd);
	if (s->helper_pidfd >= 0) { /* the sandbox ended before the helper did */
		pidfd_send_signal(s->helper_pidfd, SIGKILL, NULL, 0);
		waitid(P_PIDFD, (id_t)s->helper_pidfd, &si, WEXITED);
		close(s->helper_pidfd);
	}
	if (s->in.dst >= 0)
		close(s->in.dst);
	if (s->sync_fd >= 0)
		close(s->sync_fd);
	/* the raw waitid takes a rusage: the init's, which includes every
	 * process it reaped and the ones the kernel killed with it */
	if (syscall(SYS_waitid, P_PIDFD, r.pidfd, &si, WEXITED, &ru) < 0)
		memset(&ru, 0, sizeof(ru));
	if (!s->end_ns)
		s->end_ns = tc_now_ns();
	{
		struct tc_cgroup_stats cs;
		bool have_cg = r.cg.leaf_fd >= 0;

		if (have_cg)
			tc_cgroup_finish(&r.cg, &cs);
		fill_outcome(spec, &r, s, &ru,
			     si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED ? si.si_status
										  : 0,
			     have_cg ? &cs : NULL, out);
	}
	{
		/* our own share, which the sandbox's figures never include:
		 * relaying, sampling, answering refused calls */
		struct rusage self;

		if (getrusage(RUSAGE_SELF, &self) == 0) {
			out->toolcell_cpu_user_ms = (uint64_t)self.ru_utime.tv_sec * 1000 +
						    (uint64_t)self.ru_utime.tv_usec / 1000;
			out->toolcell_cpu_system_ms = (uint64_t)self.ru_stime.tv_sec * 1000 +
						      (uint64_t)self.ru_stime.tv_usec / 1000;
		}
	}
	/* the sandbox is gone: nothing of the tool can change its layer now */
	if (spec->cfg->workspace)
		apply_workspace(spec, &r, ws_fd, out);
	res->exec_errno = s->exec_errno;
	res->toolcell_signal = s->reason == TC_KILL_SIGNAL ? s->reason_signal : 0;
	if (spec->io == TC_IO_MEMORY) {
		res->stdout_buf = TAKE_PTR(s->out.mem);
		res->stdout_len = s->out.mem_len;
	}
	if (spec->verbose)
		verbose_times(&r, s);
	ret = out->status == TC_STATUS_SANDBOX_ERROR ? -(out->err.err ? out->err.err : EIO) : 0;
	if (ret < 0) {
		/* a host that refused part of the set-up: name why, if we can */
		struct tc_host_facts facts;

		tc_host_facts_read(&facts);
		tc_hint_apply(&out->err, &facts);
	}
	if (ret < 0 && err)
		*err = out->err;
	tc_stream_release(&s->in);
	tc_stream_release(&s->out);
	tc_stream_release(&s->err);
	free(s);
	run_release(&r);
	return ret;

fail:
	if (err) {
		struct tc_host_facts facts;

		tc_host_facts_read(&facts);
		tc_hint_apply(err, &facts);
	}
	if (s) {
		if (s->in.dst >= 0)
			close(s->in.dst);
		tc_stream_release(&s->in);
		tc_stream_release(&s->out);
		tc_stream_release(&s->err);
	}
	free(s);
	run_release(&r);
	out->status = TC_STATUS_SANDBOX_ERROR;
	if (err)
		out->err = *err;
	return ret;
}

void tc_sandbox_result_release(struct tc_sandbox_result *res)
{
	free(res->stdout_buf);
	res->stdout_buf = NULL;
}
