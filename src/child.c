/* The child side of clone3 (see child.h). After a raw clone3 glibc's
 * cached thread id is wrong: nothing here calls raise, abort, assert or
 * anything that allocates; only _exit and plain syscalls. The process that
 * clone3 made is PID 1 of the new PID namespace: it builds the sandbox,
 * forks the tool, then stays as a small init that reaps and reports the
 * tool's raw wait status. */
#include <fcntl.h>
#include <linux/keyctl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "caps.h"
#include "child.h"
#include "net.h"
#include "toolcell/sandbox.h"
#include "util.h"

_Noreturn static void fail(int sync_fd, const struct tc_error *e)
{
	struct tc_msg m = { .type = TC_MSG_ERROR, .err = *e };

	tc_msg_send(sync_fd, &m, -1);
	_exit(1);
}

/* What the child is waiting for: the maps from the parent and the network
 * namespace from the helper, which may arrive in either order, and then
 * (the tool's branch) the helper's word that lo is up and its sysctls
 * written, which comes last. */
struct pending {
	bool maps;
	int netns_fd;
	bool net_ready;
};

static bool arrived(const struct pending *p, enum tc_msg_type want)
{
	return want == TC_MSG_MAPS_DONE ? p->maps
	       : want == TC_MSG_NET_FD	? p->netns_fd >= 0
					: p->net_ready;
}

/* Read messages until `want` has arrived; EOF means the parent is gone, and
 * an error from the network helper ends the set-up like one of our own. */
static void await(int sync_fd, struct pending *p, enum tc_msg_type want)
{
	while (!arrived(p, want)) {
		struct tc_msg m;
		int fd;

		if (tc_msg_recv(sync_fd, &m, &fd) < 0)
			_exit(1);
		if (m.type == TC_MSG_MAPS_DONE) {
			p->maps = true;
		} else if (m.type == TC_MSG_NET_READY && p->netns_fd >= 0) {
			p->net_ready = true;
		} else if (m.type == TC_MSG_NET_FD && fd >= 0 && p->netns_fd < 0) {
			p->netns_fd = fd;
			continue;
		} else if (m.type == TC_MSG_ERROR) {
			m.err.message[sizeof(m.err.message) - 1] = '\0';
			fail(sync_fd, &m.err); /* on to the parent */
		} else {
			_exit(1);
		}
		if (fd >= 0)
			close(fd);
	}
}

/* Die with toolcell: PR_SET_PDEATHSIG, then proof that it had not died
 * already. toolcell's exit closes its files before it reparents its
 * children (and only then would it have sent the signal), and its pidfd
 * turns readable when the exit is done: either says it is gone. Called
 * again after every credential change, which clears PDEATHSIG, and before
 * the tool exists. Needs toolcell's ends of our socket closed already. */
static void die_with_parent(const struct tc_child_args *a)
{
	struct pollfd pf[2] = { { .fd = a->parent_pidfd, .events = POLLIN },
				{ .fd = a->sync_fd, .events = 0 } };
	int n;

	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	do
		n = poll(pf, 2, 0);
	while (n < 0 && errno == EINTR);
	if (n != 0)
		_exit(1); /* toolcell is gone (or poll failed: we cannot tell) */
}

/* With a cgroup leaf, memory and processes are the cgroup's to limit: the
 * address-space and per-uid process rlimits would only add their
 * inaccuracies. */
static int set_limits(const uint64_t *limit, bool init_shares_uid, bool cgroup,
		      struct tc_error *err)
{
	uint64_t cpu_s = (limit[TC_LIMIT_CPU_TIME] + 999) / 1000;
	struct {
		int res;
		rlim_t soft, hard;
		const char *name;
	} l[] = {
		{ RLIMIT_AS, limit[TC_LIMIT_MEMORY], limit[TC_LIMIT_MEMORY], "address space" },
		/* soft then hard: SIGXCPU first (reported as a time limit), SIGKILL
		 * a second later if the tool ignores it */
		{ RLIMIT_CPU, cpu_s, cpu_s + 1, "CPU time" },
		/* counted per uid in this user namespace; in the unprivileged
		 * mapping init shares the tool's uid and takes one */
		{ RLIMIT_NPROC, limit[TC_LIMIT_PIDS] + init_shares_uid,
		  limit[TC_LIMIT_PIDS] + init_shares_uid, "processes" },
		{ RLIMIT_FSIZE, limit[TC_LIMIT_FILE_SIZE], limit[TC_LIMIT_FILE_SIZE], "file size" },
		{ RLIMIT_NOFILE, limit[TC_LIMIT_OPEN_FILES], limit[TC_LIMIT_OPEN_FILES],
		  "open files" },
		{ RLIMIT_CORE, 0, 0, "core size" },
		{ RLIMIT_MEMLOCK, 0, 0, "locked memory" },
		{ RLIMIT_MSGQUEUE, 0, 0, "message queues" },
		/* no real-time scheduling, no nice below the caller's own */
		{ RLIMIT_RTPRIO, 0, 0, "real-time priority" },
		{ RLIMIT_NICE, 0, 0, "nice" },
	};

	for (size_t i = 0; i < TC_ARRAY_SIZE(l); i++) {
		struct rlimit rl = { .rlim_cur = l[i].soft, .rlim_max = l[i].hard };
		if (cgroup && (l[i].res == RLIMIT_AS || l[i].res == RLIMIT_NPROC))
			continue;
		if (setrlimit(l[i].res, &rl) < 0)
			return tc_error_errno(err, TC_STAGE_RLIMIT, errno,
					      "cannot set the %s limit", l[i].name);
	}
	return 0;
}

/* execvp without the environment lookup or allocation: PATH comes from
 * the policy's environment, not ours. Returns the errno to report. */
static int exec_tool(char *const *argv, char *const *envp, const char *path)
{
	const char *name = argv[0];
	char buf[TC_PATH_MAX];
	int saved = ENOENT;

	if (strchr(name, '/')) {
		execve(name, argv, envp);
		return errno;
	}
	for (const char *p = path; p && *p;) {
		const char *colon = strchr(p, ':');
		size_t dlen = colon ? (size_t)(colon - p) : strlen(p);

		if (dlen > 0 && dlen + 1 + strlen(name) < sizeof(buf)) {
			memcpy(buf, p, dlen);
			buf[dlen] = '/';
			strcpy(buf + dlen + 1, name);
			execve(buf, argv, envp);
			/* like execvp: a found-but-unrunnable file wins over
			 * later directories that lack it */
			if (errno != ENOENT && errno != ENOTDIR)
				saved = errno;
		}
		if (!colon)
			break;
		p = colon + 1;
	}
	return saved;
}

/* 6. The tool's branch: its own session, stdio, rlimits, ids, every
 * capability dropped, NO_NEW_PRIVS, Landlock, the network helper's
 * NET_READY, seccomp last, the listener to the parent, execve. */
_Noreturn static void tool_main(struct tc_child_args *a)
{
	struct tc_error e = { 0 };
	sigset_t none;
	int r;

	/* A session of its own: no controlling terminal, so the tool cannot
	 * push input into the caller's terminal (TIOCSTI needs one). */
	setsid();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int i = 0; i < 3; i++)
		/* dup2 onto itself would keep close-on-exec */
		if ((a->stdio[i] == i ? fcntl(i, F_SETFD, 0) : dup2(a->stdio[i], i)) < 0) {
			tc_error_errno(&e, TC_STAGE_EXEC, errno, "cannot set up the tool's stdio");
			fail(a->sync_fd, &e);
		}
	r = set_limits(a->limit, !a->ids->pool, a->cgroup, &e);
	if (r >= 0)
		r = tc_caps_drop_all(a->ids->pool, TC_TOOL_UID, TC_TOOL_GID, &e);
	/* landlock needs NO_NEW_PRIVS (set above) and comes before seccomp */
	if (r >= 0)
		r = tc_landlock_enter(a->landlock, &e);
	if (r < 0)
		fail(a->sync_fd, &e);
	/* Everything above 2 goes at execve; the sync socket stays open until
	 * then so a failed execve can still be reported. */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
		tc_error_errno(&e, TC_STAGE_EXEC, errno, "cannot close inherited descriptors");
		fail(a->sync_fd, &e);
	}
	/* The helper brought lo up and wrote the network namespace's limits
	 * beside our set-up: nothing of the tool runs before it is done (the
	 * filter may refuse recvmsg; NET_READY is the helper's last message) */
	{
		struct pending net = { .maps = true, .netns_fd = 0 };

		await(a->sync_fd, &net, TC_MSG_NET_READY);
	}
	/* Seccomp last: from here on only calls the filter allows outright
	 * (sendmsg, close, execve, exit_group). The listener goes to the
	 * parent, which answers every call off the list. */
	{
		/* what the tool will hold, as the kernel says, for the record:
		 * read before the filter, which need not allow capget or prctl */
		struct tc_msg m = { .type = TC_MSG_LISTENER,
				    .value = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0),
				    .cap_eff = tc_caps_effective() };

		r = tc_seccomp_enter(&a->filter, true, &e);
		if (r < 0)
			fail(a->sync_fd, &e);
		if (tc_msg_send(a->sync_fd, &m, r) < 0)
			_exit(126);
		close(r);
	}
	r = exec_tool(a->argv, a->envp, a->path);
	{
		struct tc_msg m = { .type = TC_MSG_EXEC_FAILED };
		tc_error_errno(&m.err, TC_STAGE_EXEC, r, "cannot run %s in the sandbox",
			       a->argv[0]);
		tc_msg_send(a->sync_fd, &m, -1);
	}
	_exit(r == ENOENT || r == ENOTDIR ? 127 : 126);
}

static int tool_entry(void *arg)
{
	tool_main(arg);
}

/* The tool's process, without a copy of our memory: it runs in ours, on
 * a stack of its own, until its execve (or _exit), and we wait for that
 * (CLONE_VFORK), so no page table is copied, no page is copied on write by
 * either side, and its execve has no copy to tear down. tool_main writes
 * nothing of ours but on that stack (errno aside: no TLS of its own, and
 * we read errno only when the clone failed); its rlimits, credentials,
 * descriptors, signal mask, Landlock domain and filter are its own, as
 * CLONE_VM shares none of them. glibc's clone, not fork: no atfork handlers
 * run. Under ASan a plain raw fork (its shadow memory is not for two). */
static pid_t start_tool(struct tc_child_args *a)
{
	static char stack[128 * 1024] __attribute__((aligned(16)));

	if (TC_ASAN)
		return (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, NULL);
	return clone(tool_entry, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, a);
}

/* Hold nothing of the caller's: no fds but the sync socket, toolcell's
 * pidfd and the uid pool's lock (the pair of host uids stays ours while we
 * live), no environment, no request, not dumpable. */
static void init_hold_nothing(struct tc_child_args *a)
{
	int sync_hi = fcntl(a->sync_fd, F_DUPFD, 10);
	int pidfd_hi = fcntl(a->parent_pidfd, F_DUPFD, 10);
	int lock_hi = a->ids->lock_fd >= 0 ? fcntl(a->ids->lock_fd, F_DUPFD, 10) : -1;

	if (sync_hi < 0 || dup2(sync_hi, 3) < 0 || pidfd_hi < 0 || dup2(pidfd_hi, 4) < 0)
		_exit(1);
	a->sync_fd = 3;
	a->parent_pidfd = 4;
	if (lock_hi >= 0 && dup2(lock_hi, 5) < 0)
		_exit(1);
	close_range(0, 2, 0);
	close_range(lock_hi >= 0 ? 6 : 5, ~0U, 0);
	for (size_t i = 0; i < TC_ARRAY_SIZE(a->scrub); i++)
		if (a->scrub[i])
			explicit_bzero(a->scrub[i], a->scrub_len[i]);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

static uint64_t us_of(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000u + (uint64_t)tv->tv_usec;
}

/* The tool is reaped: reap what else has ended, then say whether any
 * process is left and, when none is, the init's rusage as waitid would give
 * it now, so that toolcell may answer before the namespaces are torn down.
 * The tool's orphans were ours before its exit was reported, so no child
 * here (ECHILD) means no other process in the namespace. */
static void exit_usage(struct tc_msg *m)
{
	struct rusage self, kids;
	pid_t p;

	do
		p = waitpid(-1, NULL, WNOHANG | __WALL);
	while (p > 0);
	if (p == 0 || errno != ECHILD || getrusage(RUSAGE_SELF, &self) < 0 ||
	    getrusage(RUSAGE_CHILDREN, &kids) < 0)
		return; /* not alone, or no figures: toolcell waits for our end */
	m->cpu_us[0] = us_of(&self.ru_utime) + us_of(&kids.ru_utime);
	m->cpu_us[1] = us_of(&self.ru_stime) + us_of(&kids.ru_stime);
	m->maxrss_kib =
		(uint64_t)(self.ru_maxrss > kids.ru_maxrss ? self.ru_maxrss : kids.ru_maxrss);
	m->alone = 1;
}

/* Reap until the tool ends (reported; then our exit takes every other
 * process of the namespace with it, toolcell's kill when some were left),
 * forward outside signals to the tool, and keep the wall clock's
 * backstop. */
_Noreturn static void init_wait(const struct tc_child_args *a, pid_t tool, const sigset_t *waitset)
{
	/* a warm sandbox waits for its call with no backstop of its own */
	uint64_t deadline = a->warm ? UINT64_MAX : a->deadline_ns;

	for (;;) {
		uint64_t now = tc_now_ns();
		struct timespec left;
		siginfo_t si;
		int sig;

		if (now >= deadline) {
			/* The wall limit is toolcell's to enforce; this is the
			 * backstop for a toolcell that cannot (stopped by
			 * SIGSTOP, starved). */
			struct tc_msg m = { .type = TC_MSG_DEADLINE };

			tc_msg_send(a->sync_fd, &m, -1);
			_exit(0);
		}
		left.tv_sec = (time_t)((deadline - now) / 1000000000ull);
		left.tv_nsec = (long)((deadline - now) % 1000000000ull);
		sig = sigtimedwait(waitset, &si, deadline == UINT64_MAX ? NULL : &left);
		if (sig < 0)
			continue;
		if (a->warm && sig == TC_SIG_BEGIN()) {
			/* the call is dispatched: the backstop counts from now;
			 * only toolcell's first word counts (si_pid 0: from
			 * outside the sandbox) */
			if (deadline == UINT64_MAX && si.si_pid == 0 && si.si_code == SI_QUEUE)
				deadline =
					tc_now_ns() + ((uint64_t)(uintptr_t)si.si_value.sival_ptr +
						       TC_INIT_DEADLINE_MARGIN_MS) *
							      1000000ull;
			continue;
		}
		if (sig != SIGCHLD) {
			/* forward what comes from outside (a sender in an
			 * ancestor namespace shows as pid 0); a process of the
			 * sandbox signalling its init gets nothing for it */
			if (si.si_pid == 0 && tool)
				kill(tool, sig);
			continue;
		}
		for (;;) {
			int status;
			pid_t p = waitpid(-1, &status, WNOHANG | __WALL);
			if (p < 0 && tool == 0)
				_exit(0); /* the others ended first, and we reaped them */
			if (p <= 0)
				break;
			if (p == tool) {
				struct tc_msg m = { .type = TC_MSG_EXITED, .value = status };
				exit_usage(&m);
				tc_msg_send(a->sync_fd, &m, -1);
				if (m.alone)
					_exit(0);
				/* others run on: toolcell counts their CPU, then
				 * kills us, and them with us (their CPU never
				 * reaches our rusage then) */
				tool = 0;
			}
		}
	}
}

/* 7. The init: holds nothing of the caller's, drops every capability,
 * loads the same filter, then reaps and reports (init_wait). */
_Noreturn static void init_main(struct tc_child_args *a, pid_t tool, const sigset_t *waitset)
{
	struct tc_error e = { 0 };

	init_hold_nothing(a);
	if (tc_caps_drop_all(false, 0, 0, &e) < 0) {
		kill(tool, SIGKILL);
		fail(a->sync_fd, &e);
	}
	/* dropping capabilities keeps PDEATHSIG (only a gain clears it): set
	 * it again all the same, before the filter could refuse the prctl */
	die_with_parent(a);
	if (tc_seccomp_enter_init(&a->filter, &e) < 0) {
		kill(tool, SIGKILL);
		fail(a->sync_fd, &e);
	}
	init_wait(a, tool, waitset);
}

/* Default dispositions; the init waits for the signals it handles with
 * sigtimedwait, so they are blocked before the fork. */
static void init_signals(const struct tc_child_args *a, sigset_t *waitset)
{
	static const int forwarded[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1,
					 SIGUSR2, SIGALRM, SIGCONT, SIGWINCH };

	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigemptyset(waitset);
	sigaddset(waitset, SIGCHLD);
	for (size_t i = 0; i < TC_ARRAY_SIZE(forwarded); i++)
		sigaddset(waitset, forwarded[i]);
	if (a->warm)
		sigaddset(waitset, TC_SIG_BEGIN());
	sigprocmask(SIG_SETMASK, waitset, NULL);
}

_Noreturn void tc_child_main(struct tc_child_args *a)
{
	struct tc_error e = { 0 };
	struct tc_msg stages = { .type = TC_MSG_STAGES };
	struct pending pending = { .maps = false, .netns_fd = -1 };
	sigset_t waitset;
	pid_t tool;

	/* 0. No instant without a tie to toolcell's life: the signal first,
	 * then toolcell's ends of our socket and pipes go (our copy would keep
	 * every read below waiting for a toolcell that died), then the proof
	 * that it had not died before the first line. */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	for (size_t i = 0; i < TC_ARRAY_SIZE(a->parent_fds); i++)
		close(a->parent_fds[i]);
	die_with_parent(a);
	/* The bounding set and securebits while the parent writes the maps,
	 * and only here: the init and the tool inherit them (their own drops,
	 * steps 6 and 7, do not go over them again); every effective
	 * capability stays until those (the mounts and the id switch need
	 * them). */
	if (tc_caps_bound(&e) < 0)
		fail(a->sync_fd, &e);

	/* 1. Maps first: until they exist we have no usable ids. */
	await(a->sync_fd, &pending, TC_MSG_MAPS_DONE);
	if (tc_userns_enter(a->ids, &e) < 0)
		fail(a->sync_fd, &e);
	/* the id change cleared PDEATHSIG */
	die_with_parent(a);
	stages.t[TC_MARK_MAPPED] = tc_now_ns();

	/* 2. Mounts, pivot_root, read-only everywhere but /tmp and binds. */
	if (tc_mount_enter(a->plan, &e) < 0)
		fail(a->sync_fd, &e);
	stages.t[TC_MARK_MOUNTED] = tc_now_ns();

	/* 3. Names: hostname, a fresh session keyring (nothing of the caller's). */
	if (sethostname(a->hostname, strlen(a->hostname)) < 0 || setdomainname("none", 4) < 0) {
		tc_error_errno(&e, TC_STAGE_UTS, errno, "cannot set the hostname");
		fail(a->sync_fd, &e);
	}
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS) {
		tc_error_errno(&e, TC_STAGE_KEYRING, errno, "cannot join a new session keyring");
		fail(a->sync_fd, &e);
	}
	/* 4. The helper's network namespace (lo comes up later: step 6), */
	await(a->sync_fd, &pending, TC_MSG_NET_FD);
	if (tc_net_enter(pending.netns_fd, &e) < 0)
		fail(a->sync_fd, &e);
	close(pending.netns_fd);
	stages.t[TC_MARK_NET] = tc_now_ns();

	/* and the syscall filter the parent compiled meanwhile. */
	if (tc_seccomp_receive(a->filter_fd, &a->filter, &e) < 0)
		fail(a->sync_fd, &e);

	/* 5. Signals (the init's blocked before the fork, so none is lost), a
	 * last look at toolcell's life, the fork. */
	init_signals(a, &waitset);

	/* a toolcell that died in the microseconds of its exit when the
	 * checks above ran is surely seen now: no tool for nobody */
	die_with_parent(a);

	/* The tool's branch is step 6 (tool_main), this process goes on as
	 * the init, step 7 (init_main), once the tool has run execve (or
	 * ended): see start_tool. */
	tool = start_tool(a);
	if (tool < 0) {
		tc_error_errno(&e, TC_STAGE_INIT, errno, "cannot start the tool");
		fail(a->sync_fd, &e);
	}
	if (tool == 0)
		tool_main(a);
	if (a->verbose) {
		stages.t[TC_MARK_FORKED] = tc_now_ns();
		tc_msg_send(a->sync_fd, &stages, -1);
	}
	for (int i = 0; i < 3; i++)
		close(a->stdio[i]);
	init_main(a, tool, &waitset);
}
