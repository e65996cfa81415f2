/* One sandbox's lifecycle (see sandbox.h): everything is acquired before
 * clone (mount plan, ids, pipes, sync socket, signal fd), the maps are
 * written and the filter handed over after it (sync.h lists the whole
 * handshake), then supervise.c watches the sandbox to its end and
 * sandbox-report.c turns what it saw into a struct tc_outcome. toolcell
 * stays single-threaded throughout: a parent thread that exits would fire
 * the child's PDEATHSIG. */
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
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
#include "host.h"
#include "net.h"
#include "sandbox-internal.h"
#include "sync.h"
#include "util.h"
#include "workspace.h"

#define TC_SAMPLE_MS 10 /* between samples of the sandbox's memory and tasks */

#define TC_CLONE_NS                                                                                \
	(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP)

extern char **environ;

static void close_pair(int p[2])
{
	tc_closep(&p[0]);
	tc_closep(&p[1]);
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
	return tc_error_errno(err, TC_STAGE_CLONE, e, "cannot create the sandbox's namespaces%s",
			      hint);
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
		return tc_error_set(err, TC_STAGE_POLICY, EPERM,
				    "the policy allows System V IPC, which toolcell can bound only "
				    "when it runs as root (the IPC namespace's limits need a "
				    "namespace root); remove shmget, msgget and semget from the "
				    "policy's seccomp.allow, or run toolcell as root");
	tc_klimits_plan(cfg->limit[TC_LIMIT_MEMORY], want, ret);
	return 0;
}

/* The pipes, the sync socket, our own pidfd and the signal fd. */
static int prepare_fds(const struct tc_sandbox_spec *spec, struct tc_sandbox *r,
		       struct tc_error *err)
{
	sigset_t term;

	if (pipe2(r->in, O_CLOEXEC) < 0 || pipe2(r->out, O_CLOEXEC) < 0 ||
	    pipe2(r->err, O_CLOEXEC) < 0 || pipe2(r->filter_pipe, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, r->sync) < 0)
		return tc_error_errno(err, TC_STAGE_SPAWN, errno,
				      "cannot create the sandbox's pipes");
	r->self_pidfd = (int)pidfd_open(getpid(), 0);
	if (r->self_pidfd < 0)
		return tc_error_errno(err, TC_STAGE_SPAWN, errno,
				      "cannot open a pidfd of toolcell itself");
	if (spec->caller_signals)
		return 0;
	/* SIGTERM, SIGINT and SIGHUP become "kill the sandbox, write the
	 * record, exit": blocked before clone, read through a signalfd. The
	 * child resets its mask before the tool runs. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGINT);
	sigaddset(&term, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &term, NULL) < 0)
		return tc_error_errno(err, TC_STAGE_SPAWN, errno, "cannot block signals");
	r->sig_fd = signalfd(-1, &term, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sig_fd < 0)
		return tc_error_errno(err, TC_STAGE_SPAWN, errno, "cannot create a signalfd");
	return 0;
}

static int prepare(const struct tc_sandbox_spec *spec, struct tc_sandbox *r, struct tc_error *err)
{
	bool is_dir[TC_ARRAY_SIZE(spec->extra_binds)] = { 0 };
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
		return tc_error_set(err, TC_STAGE_CGROUP, EOPNOTSUPP,
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
		/* as root the tool is another uid: binds are idmapped
		 * so that it reads what the caller handed it */
		_cleanup_close_ int idmap = -1;

		if (r->ids.pool && tc_mount_plan_idmaps(&r->plan))
			ret = tc_userns_idmap_open(&r->ids, &idmap, err);
		if (ret >= 0)
			ret = tc_mount_prepare(&r->plan, idmap, r->ids.pool, err);
		if (ret < 0)
			return ret;
	}
	tc_landlock_prepare(&r->landlock, spec->cfg);
	return prepare_fds(spec, r, err);
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

static int do_clone(const struct tc_sandbox_spec *spec, struct tc_sandbox *r, struct tc_error *err)
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
		.warm = spec->warm,
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
	if (spec->io == TC_IO_MEMORY && spec->stdin_buf) {
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
			return tc_error_errno(err, TC_STAGE_USERNS, errno,
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

/* A stream that moves nothing: the caller relays it (TC_IO_PIPES). */
static void stream_none(struct tc_stream *st)
{
	memset(st, 0, sizeof(*st));
	st->src = st->dst = st->own_dst = -1;
	st->src_eof = true;
}

int tc_sandbox_stdin_from(struct tc_sandbox *r, struct tc_supervisor *s, const char *buf,
			  size_t len)
{
	int ret = tc_stream_init(&s->in, -1, TAKE_FD(r->in[1]), true, UINT64_MAX);

	s->in.mem_in = buf;
	s->in.mem_in_len = buf ? len : 0;
	if (s->in.mem_in_len == 0)
		s->in.src_eof = true;
	return ret;
}

static int start_streams(const struct tc_sandbox_spec *spec, struct tc_sandbox *r,
			 struct tc_supervisor *s)
{
	const uint64_t *limit = spec->cfg->limit;
	int ret = 0;

	switch (spec->io) {
	case TC_IO_PIPES:
		stream_none(&s->in);
		stream_none(&s->out);
		stream_none(&s->err);
		return 0;
	case TC_IO_MEMORY:
		/* a warm sandbox's stdin waits, open, for tc_sandbox_begin */
		if (spec->warm)
			stream_none(&s->in);
		else
			ret = tc_sandbox_stdin_from(r, s, spec->stdin_buf, spec->stdin_len);
		if (ret >= 0)
			ret = tc_stream_init(&s->out, TAKE_FD(r->out[0]), -1, false,
					     limit[TC_LIMIT_STDOUT]);
		break;
	case TC_IO_DIRECT:
		/* the pipes' ends wait for tc_sandbox_take_stdio; the output's
		 * EOF is what early_end's quick end waits for */
		stream_none(&s->in);
		ret = tc_stream_watch(&s->out, r->out[0]);
		return ret < 0 ? ret : tc_stream_watch(&s->err, r->err[0]);
	case TC_IO_RELAY:
		ret = tc_stream_init(&s->in, STDIN_FILENO, TAKE_FD(r->in[1]), true, UINT64_MAX);
		if (ret >= 0)
			ret = tc_stream_init(&s->out, TAKE_FD(r->out[0]), STDOUT_FILENO, false,
					     limit[TC_LIMIT_STDOUT]);
		break;
	}
	if (ret >= 0)
		ret = tc_stream_init(&s->err, TAKE_FD(r->err[0]), STDERR_FILENO, false,
				     limit[TC_LIMIT_STDERR]);
	/* the tool's pipe ends are the streams' to close (tc_stream_cut) */
	s->out.own_src = s->err.own_src = true;
	return ret;
}

/* The oom score, then the filter down its pipe: the child reads it after
 * NET_FD, before it can fork the tool or turn undumpable (its /proc files
 * would be root's). */
static int send_filter(struct tc_sandbox *r, struct tc_error *err)
{
	int ret;

	oom_first(r->pid);
	ret = tc_seccomp_prepare_run(r->spec->cfg, &r->filter, err);
	if (ret >= 0 && tc_seccomp_send(&r->filter, r->filter_pipe[1]) < 0)
		ret = tc_sync_reason(r->sync[0], EPIPE, TC_STAGE_SECCOMP, err);
	tc_closep(&r->filter_pipe[1]);
	return ret;
}

/* After the clone: the maps, the network helper, the filter. */
static int hand_over(struct tc_sandbox *r, struct tc_error *err)
{
	struct tc_msg maps = { .type = TC_MSG_MAPS_DONE };
	/* the build-time filter costs nothing: it goes first, and we wait for
	 * the helper (its NET_READY is then the tool's last wait, the filter
	 * already in its pipe); a filter to compile is compiled while a
	 * forked helper works beside us */
	bool wait = tc_seccomp_run_prebuilt(r->spec->cfg);
	pid_t helper = 0;
	int ret;

	ret = tc_userns_setup_from_parent(&r->ids, r->pid, err);
	if (ret < 0)
		return ret;
	ret = tc_sync_send(r->sync[0], &maps, -1, err);
	if (ret >= 0 && wait)
		ret = send_filter(r, err);
	/* the maps first, the helper after (the child needs its network
	 * namespace only once its mounts are done): all while the child
	 * mounts */
	if (ret >= 0) {
		ret = tc_net_helper_start(r->pidfd, r->sync[0], &r->klimits, wait, err);
		helper = ret;
	}
	if (ret >= 0 && !wait)
		ret = send_filter(r, err);
	tc_closep(&r->filter_pipe[1]);
	if (helper > 0) {
		/* done by now, or ending with the sandbox (an error of its
		 * own is the child's to report) */
		if (ret < 0)
			kill(helper, SIGKILL);
		ret = tc_net_helper_reap(helper, ret, err);
	}
	return ret;
}

static int supervisor_new(struct tc_sandbox *r, struct tc_error *err)
{
	const uint64_t *limit = r->spec->cfg->limit;
	struct tc_supervisor *s = calloc(1, sizeof(*s));

	if (!s)
		return tc_error_errno(err, TC_STAGE_SPAWN, ENOMEM,
				      "cannot allocate the supervisor");
	r->s = s;
	s->in.src = s->in.dst = s->out.src = s->out.dst = s->err.src = s->err.dst = -1;
	s->in.own_dst = s->out.own_dst = s->err.own_dst = -1;
	if (start_streams(r->spec, r, s) < 0)
		return tc_error_errno(err, TC_STAGE_SPAWN, ENOMEM,
				      "cannot allocate the supervisor");
	s->pid = r->pid;
	s->pidfd = r->pidfd;
	s->sync_fd = TAKE_FD(r->sync[0]);
	s->sig_fd = r->sig_fd;
	s->filter = &r->filter;
	s->cgroup = r->cg.leaf_fd >= 0 ? &r->cg : NULL;
	s->listener = -1;
	s->workspace_fd = -1;
	for (int i = 0; i < TC_TOOL_FD__N; i++)
		s->tool_fd[i] = -1;
	s->denied_nr = -1;
	s->start_ns = r->t_cloned;
	s->warm = r->spec->warm;
	s->early_end = r->spec->early_end;
	s->wall_ms = limit[TC_LIMIT_WALL];
	s->memory_max = limit[TC_LIMIT_MEMORY];
	s->tasks_max = limit[TC_LIMIT_PIDS];
	s->cpu_time_ms = (limit[TC_LIMIT_CPU_TIME] + 999) / 1000 * 1000;
	s->sample_ms = TC_SAMPLE_MS;
	tc_supervise_init(s);
	tc_supervise_turn(s);
	return 0;
}

/* A host that refused part of the set-up: name why, if we can. */
static void add_hint(struct tc_error *err)
{
	struct tc_host_facts facts;

	if (!err)
		return;
	tc_host_facts_read(&facts);
	tc_hint_apply(err, &facts);
}

int tc_sandbox_start(const struct tc_sandbox_spec *spec, struct tc_sandbox **ret,
		     struct tc_error *err)
{
	struct tc_sandbox *r = calloc(1, sizeof(*r));
	int e;

	*ret = NULL;
	if (!r)
		return tc_error_errno(err, TC_STAGE_SPAWN, ENOMEM, "cannot allocate the sandbox");
	r->spec = spec;
	r->t_start = tc_now_ns();
	r->in[0] = r->in[1] = r->out[0] = r->out[1] = r->err[0] = r->err[1] = -1;
	r->sync[0] = r->sync[1] = r->filter_pipe[0] = r->filter_pipe[1] = -1;
	r->sig_fd = r->pidfd = r->self_pidfd = -1;
	r->ids.lock_fd = -1; /* released even when the set-up failed before it */
	tc_cgroup_init(&r->cg);
	e = prepare(spec, r, err);
	r->t_prepared = tc_now_ns();
	if (e >= 0)
		e = do_clone(spec, r, err);
	r->t_cloned = tc_now_ns();
	if (e >= 0)
		e = hand_over(r, err);
	r->t_mapped = tc_now_ns();
	if (e >= 0)
		e = supervisor_new(r, err);
	if (e < 0) {
		add_hint(err);
		tc_sandbox_release(&r);
		return e;
	}
	*ret = r;
	return 0;
}

void tc_sandbox_take_stdio(struct tc_sandbox *sb, int ret_fds[3])
{
	ret_fds[0] = -1;
	ret_fds[1] = -1;
	ret_fds[2] = -1;
	if (sb->spec->io != TC_IO_PIPES && sb->spec->io != TC_IO_DIRECT)
		return;
	ret_fds[0] = TAKE_FD(sb->in[1]);
	ret_fds[1] = TAKE_FD(sb->out[0]);
	ret_fds[2] = TAKE_FD(sb->err[0]);
}

void tc_sandbox_stderr_seen(struct tc_sandbox *sb, const char *buf, size_t len)
{
	tc_stream_keep_tail(&sb->s->err, buf, len);
}

void tc_sandbox_stderr_over(struct tc_sandbox *sb)
{
	sb->s->err.overflow = true; /* stderr_truncated */
	tc_supervise_kill(sb->s, TC_KILL_OUTPUT);
}

void tc_sandbox_pollfds(const struct tc_sandbox *sb, struct pollfd *p)
{
	tc_supervise_pollfds(sb->s, p);
}

bool tc_sandbox_on_events(struct tc_sandbox *sb, const struct pollfd *p)
{
	bool over;

	tc_supervise_events(sb->s, p);
	over = tc_supervise_turn(sb->s);
	/* the quick end did not end the run (tc_sandbox_begin_ended) */
	if (!over && sb->init_begin_owed)
		(void)tc_sandbox_init_begin(sb);
	return over;
}

uint64_t tc_sandbox_deadline(const struct tc_sandbox *sb)
{
	return sb->s->done ? UINT64_MAX : sb->s->wake_ns;
}

int tc_sandbox_supervise(struct tc_sandbox *sb)
{
	return tc_supervise(sb->s);
}

void tc_sandbox_kill(struct tc_sandbox *sb, int signal)
{
	if (sb->s->reason == TC_KILL_NONE)
		sb->s->reason_signal = signal;
	tc_supervise_kill(sb->s, TC_KILL_SIGNAL);
}

int tc_sandbox_apply_workspace_now(struct tc_sandbox *sb, struct tc_workspace_stats *st)
{
	const struct tc_mount_op *op = tc_mount_plan_workspace(&sb->plan);

	memset(st, 0, sizeof(*st));
	if (!sb->spec->cfg->workspace)
		return 0;
	st->present = true;
	if (!op || sb->s->workspace_fd < 0)
		return -ENOENT;
	return tc_workspace_apply(sb->s->workspace_fd, sb->spec->cfg->workspace, op->dev, op->ino,
				  st);
}

pid_t tc_sandbox_pid(const struct tc_sandbox *sb)
{
	return sb->pid;
}

int tc_sandbox_finish(struct tc_sandbox *sb, struct tc_outcome *out, struct tc_sandbox_result *res,
		      struct tc_error *err)
{
	struct tc_supervisor *s = sb->s;
	struct tc_cgroup_stats cs;
	bool have_cg = sb->cg.leaf_fd >= 0;
	_cleanup_close_ int ws_fd = -1;
	struct rusage ru = { 0 };
	siginfo_t si = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	if (sb->finished)
		return -EALREADY;
	sb->finished = true;
	if (!s->done) {
		tc_sandbox_kill(sb, SIGKILL);
		tc_supervise(s);
	}
	/* the listener stays open until tc_sandbox_release (supervise.h) */
	/* the tool's layer outlives its namespace through our descriptor */
	ws_fd = TAKE_FD(s->workspace_fd);
	tc_closep(&s->in.dst);
	tc_closep(&s->sync_fd);
	/* the init's rusage includes every process it reaped and the ones
	 * the kernel killed with it; ended early, the init sent it, alone,
	 * and its exit is left to tc_sandbox_release */
	if (s->ended_early)
		tc_sandbox_early_rusage(s, &ru);
	else
		tc_pidfd_kill_reap(&sb->pidfd, &si, &ru);
	s->pidfd = -1;
	if (!s->end_ns)
		s->end_ns = tc_now_ns();
	/* ended early, the leaf holds the init alone: its figures are the
	 * tool's already, and its removal waits for tc_sandbox_release */
	if (have_cg && s->ended_early)
		tc_cgroup_read_stats(&sb->cg, &cs);
	else if (have_cg)
		tc_cgroup_finish(&sb->cg, &cs);
	tc_sandbox_fill(sb, &ru,
			si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED ? si.si_status : 0,
			have_cg ? &cs : NULL, out);
	tc_sandbox_own_cpu(out);
	/* the sandbox is gone: nothing of the tool can change its layer now */
	if (sb->spec->cfg->workspace)
		tc_sandbox_apply_workspace(sb, ws_fd, out);
	res->exec_errno = s->exec_errno;
	res->toolcell_signal = s->reason == TC_KILL_SIGNAL ? s->reason_signal : 0;
	if (sb->spec->io == TC_IO_MEMORY) {
		res->stdout_buf = TAKE_PTR(s->out.mem);
		res->stdout_len = s->out.mem_len;
	}
	if (sb->spec->verbose)
		tc_sandbox_verbose_times(sb);
	ret = out->status == TC_STATUS_SANDBOX_ERROR ? -(out->err.err ? out->err.err : EIO) : 0;
	if (ret < 0) {
		add_hint(&out->err);
		if (err)
			*err = out->err;
	}
	return ret;
}

void tc_sandbox_release(struct tc_sandbox **sbp)
{
	struct tc_sandbox *r = *sbp;

	if (!r)
		return;
	*sbp = NULL;
	tc_pidfd_kill_reap(&r->pidfd, NULL, NULL);
	if (r->s) {
		struct tc_supervisor *s = r->s;

		tc_closep(&s->listener);
		tc_closep(&s->workspace_fd);
		tc_closep(&s->sync_fd);
		tc_closep(&s->in.dst);
		tc_supervise_tool_release(s);
		tc_stream_release(&s->in);
		tc_stream_release(&s->out);
		tc_stream_release(&s->err);
		free(s);
	}
	close_pair(r->in);
	close_pair(r->out);
	close_pair(r->err);
	close_pair(r->sync);
	close_pair(r->filter_pipe);
	tc_closep(&r->sig_fd);
	tc_closep(&r->self_pidfd);
	/* SIGTERM, SIGINT and SIGHUP stay blocked: one that comes now must
	 * not kill toolcell before the record is written (main ends by it,
	 * or exits, after writing) */
	tc_mount_plan_release(&r->plan);
	tc_userns_release(&r->ids);
	tc_seccomp_release(&r->filter);
	tc_cgroup_finish(&r->cg, NULL); /* after an early end, or a failure */
	tc_cgroup_release(&r->cg);
	free(r);
}
