/* `toolcell serve`'s spawner (see serve-internal.h): a child forked once
 * from the server (again after each SIGHUP that loaded a new setup, and
 * after a spawner that died) that
 * makes the pool's runners, so that the server never forks on a call's
 * path. A fork write-protects every writable page of the process that
 * forks; done by the server, each refill made its next call's dispatch and
 * answer take copy-on-write faults. The spawner's own pages are the ones
 * write-protected instead, and the server, which shares none of its pages
 * with it once it has written them after the spawner's fork, takes none.
 *
 * A runner is made with clone3(CLONE_PARENT): its parent is the server, as
 * if the server had forked it, so everything the server did with its own
 * child holds as before: its pid stays its own until the server reaps it
 * (setpriority, the /proc reads of serve-prio.c), its parent-death signal
 * is the server's death, and it is born in the spawner's cgroup, the
 * server's. The spawner makes the runner's four pipes and sends the
 * server's ends, the runner's pidfd (CLONE_PIDFD) and its pid back over a
 * SOCK_SEQPACKET socketpair (SCM_RIGHTS); the server sets the runner's
 * priority, then sends its go byte (serve-pool.c). The spawner dies with
 * the server (its own parent-death signal) and ends at the EOF of its
 * socket. Runs in the server (tc_serve_spawn_*) and in the spawner. */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve-internal.h"
#include "toolcell/sandbox.h"
#include "util.h"

#define SPAWN_BACKOFF_MS 100
#define SPAWN_RETIRE_MS	 5000 /* a replaced spawner's last replies come within this */
#define SPAWNER_NAME	 "toolcell-spawn"

struct spawn_ask {
	uint64_t seq;
};

/* ---- in the spawner ---- */

static void send_reply(int sock, const struct spawn_reply *r, const int *fds, size_t n)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SPAWN_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)r, .iov_len = sizeof(*r) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (n) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	}
	/* lost only with the server, whose death ends the runner too */
	while (sendmsg(sock, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* One runner, as the server's child; its pipes' server ends go back. */
static void spawn_one(const struct server *s, pid_t server, int sock, uint64_t seq)
{
	int p[4][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } }, pidfd = -1;
	struct spawn_reply r = { .seq = seq };
	struct clone_args ca = {
		.flags = CLONE_PARENT | CLONE_PIDFD,
		.pidfd = (uint64_t)(uintptr_t)&pidfd,
		.exit_signal = 0, /* CLONE_PARENT: the spawner's own, SIGCHLD */
	};
	long pid = -1;

	/* the fourth, the runner's note (with descriptors) and its outcome */
	for (int i = 0; i < 4; i++)
		if ((i < 3 ? pipe2(p[i], O_CLOEXEC)
			   : socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, p[i])) < 0)
			goto out;
	pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0) {
		int fds[4] = { p[0][0], p[1][1], p[2][1], p[3][1] };

		/* the runner is single-threaded as we are, so its allocations
		 * are safe; glibc's cached thread id is ours, and nothing it
		 * runs reads it (raise and abort ask the kernel) */
		prctl(PR_SET_NAME, "toolcell");
		tc_serve_runner_main(s, server, fds);
	}
out:
	r.error = pid < 0 ? errno : 0;
	if (pid > 0) {
		int fds[SPAWN_FDS] = { p[0][1], p[1][0], p[2][0], p[3][0], pidfd };

		r.pid = (pid_t)pid;
		/* the server reads them without blocking; the runner's own
		 * ends (other open files) stay blocking */
		for (int i = 0; i < 4; i++)
			fcntl(fds[i], F_SETFL, O_NONBLOCK);
		send_reply(sock, &r, fds, SPAWN_FDS);
	} else {
		send_reply(sock, &r, NULL, 0);
	}
	for (int i = 0; i < 4; i++) {
		tc_closep(&p[i][0]);
		tc_closep(&p[i][1]);
	}
	tc_closep(&pidfd);
}

_Noreturn static void spawner_main(const struct server *s, pid_t server, int sock)
{
	struct spawn_ask a;
	ssize_t n;

	/* the server's death (even by SIGKILL) ends us; the runners have
	 * their own parent-death signal, the server's */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != server)
		_exit(1);
	prctl(PR_SET_NAME, SPAWNER_NAME);
	/* nothing of the server's (its socket, its callers, its entries'
	 * pipes) stays open here, so none reaches a runner either */
	if (sock != 3 && (dup3(sock, 3, O_CLOEXEC) < 0 || close(sock) < 0))
		_exit(1);
	close_range(4, ~0U, 0);
	while ((n = recv(3, &a, sizeof(a), 0)) != 0) {
		if (n == (ssize_t)sizeof(a))
			spawn_one(s, server, 3, a.seq);
		else if (n < 0 && errno != EINTR)
			_exit(1);
	}
	_exit(0); /* the server closed its end */
}

/* ---- in the server ---- */

/* The spawner ends at the EOF of its socket; we reap it. Its wait status. */
static int spawner_end(struct server *s)
{
	struct spawner *sp = &s->spawner;
	int status = 0;

	if (sp->pid <= 0)
		return 0;
	tc_closep(&sp->sock);
	/* it ends at once: it only ever waits on its socket */
	(void)waitpid(sp->pid, &status, 0);
	sp->pid = 0;
	sp->setup = NULL;
	return status;
}

static int spawner_start(struct server *s)
{
	struct spawner *sp = &s->spawner;
	int sv[2];
	pid_t self = getpid(), pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	/* the one fork of the server (and one after each reload): what it
	 * write-protects, the server copies once, not at every call */
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		spawner_main(s, self, sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -errno;
	}
	/* our reads and writes on it never block (MSG_DONTWAIT); what an
	 * earlier one left (lost, the sequence) stays */
	sp->pid = pid;
	sp->sock = sv[0];
	sp->setup = s->setup;
	sp->pending = 0;
	return 0;
}

static struct entry *asked(struct server *s, uint64_t seq)
{
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->spawn_seq == seq && e->pid == 0)
			return e;
	return NULL;
}

/* The runner of e came: its priority, then its go. */
static void got_runner(struct entry *e, const struct spawn_reply *r, const int *fds)
{
	e->pid = r->pid;
	e->ctl = fds[0];
	e->from = fds[1];
	e->err = fds[2];
	e->status = fds[3];
	e->pidfd = fds[4];
	if (e->state == ENTRY_ENDING) {
		tc_closep(&e->ctl); /* no go: it ends at the EOF, and is reaped */
		return;
	}
	/* our child's pid stays its own until we reap it */
	if (!e->hurried)
		setpriority(PRIO_PROCESS, (id_t)e->pid, TC_SERVE_WARM_NICE);
	(void)!write(e->ctl, "", 1); /* go: the runner may make processes */
}

/* One reply, or false when none is there. */
static bool take_reply(struct server *s)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SPAWN_FDS)];
		struct cmsghdr align;
	} u;
	struct spawn_reply r = { 0 };
	struct iovec iov = { .iov_base = &r, .iov_len = sizeof(r) };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	int fds[SPAWN_FDS] = { -1, -1, -1, -1, -1 };
	struct entry *e;
	bool extra;
	ssize_t n = recvmsg(s->spawner.sock, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);

	if (n < 0)
		return errno == EINTR;
	/* as many as came: out of descriptors (EMFILE), the kernel passes
	 * fewer (MSG_CTRUNC), and those are ours to close; more than
	 * SPAWN_FDS (the buffer's rounding may leave room) is no reply */
	extra = tc_take_fds(&m, fds, SPAWN_FDS) > SPAWN_FDS;
	if (n == 0) { /* the spawner's end */
		for (int i = 0; i < SPAWN_FDS; i++)
			tc_closep(&fds[i]);
		return false;
	}
	s->spawner.pending--;
	e = asked(s, r.seq);
	if (n == (ssize_t)sizeof(r) && r.pid > 0 && e && fds[4] >= 0 && !extra &&
	    !(m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		got_runner(e, &r, fds);
		return true;
	}
	/* no runner for it: a runner made anyway (its fds lost) is our
	 * child, which we end and reap; the entry goes */
	if (r.pid > 0) {
		kill(r.pid, SIGKILL);
		(void)waitpid(r.pid, NULL, 0);
	}
	for (int i = 0; i < SPAWN_FDS; i++)
		tc_closep(&fds[i]);
	if (e)
		tc_serve_pool_unspawned(s, e);
	fprintf(stderr, "toolcell: serve: cannot start a pool entry's runner: %s\n",
		strerror(r.error ? r.error : EPROTO));
	s->backoff_until_ns = tc_now_ns() + SPAWN_BACKOFF_MS * 1000000ull;
	return true;
}

static void on_reply(struct server *s)
{
	while (s->spawner.pid > 0 && take_reply(s))
		;
}

/* The spawner ended: retired by us (once it owes no reply, or after
 * SPAWN_RETIRE_MS), or killed. The entries still waiting for a runner get
 * none. */
static void on_hangup(struct server *s, bool died)
{
	int status;

	on_reply(s);
	for (struct entry *e = s->entries, *next; e; e = next) {
		next = e->next;
		if (e->pid == 0)
			tc_serve_pool_unspawned(s, e);
	}
	s->spawner.lost |= s->spawner.pending > 0;
	s->spawner.pending = 0;
	status = spawner_end(s);
	if (!died)
		return;
	fprintf(stderr,
		"toolcell: serve: the spawner ended (%s %d); a new one makes the next pool "
		"entries\n",
		WIFSIGNALED(status) ? "killed by signal" : "exit status",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	/* made at the next refill, not in a loop */
	s->backoff_until_ns = tc_now_ns() + SPAWN_BACKOFF_MS * 1000000ull;
}

/* A spawner made with a setup SIGHUP replaced: its last replies taken
 * (it makes each at once), then it ends. */
static void retire(struct server *s)
{
	uint64_t end = tc_now_ns() + SPAWN_RETIRE_MS * 1000000ull;

	if (s->spawner.pid <= 0)
		return;
	while (s->spawner.pending && tc_now_ns() < end) {
		struct pollfd p = { .fd = s->spawner.sock, .events = POLLIN };

		if (poll(&p, 1, (int)SPAWN_RETIRE_MS) < 0 && errno != EINTR)
			break;
		if (p.revents & (POLLHUP | POLLERR))
			break;
		on_reply(s);
	}
	on_hangup(s, false);
}

void tc_serve_spawn_on_event(struct server *s, short revents)
{
	if (revents & (POLLHUP | POLLERR))
		on_hangup(s, true);
	else
		on_reply(s);
}

int tc_serve_spawn_ask(struct server *s, struct entry *e)
{
	struct spawn_ask a;
	int r;

	if (s->spawner.pid > 0 && s->spawner.setup != s->setup)
		retire(s);
	if (s->spawner.pid <= 0 && (r = spawner_start(s)) < 0)
		return r;
	a.seq = ++s->spawner.seq;
	if (send(s->spawner.sock, &a, sizeof(a), MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)sizeof(a))
		return errno == EAGAIN ? -EAGAIN : -EIO;
	s->spawner.pending++;
	e->spawn_seq = a.seq;
	return 0;
}

/* After a spawner died owing replies: a runner it made and could not
 * announce is our child that no entry knows; its go never comes, so it
 * ends at once. Such zombies are reaped (never a live process: only what
 * has exited is waited for). */
void tc_serve_spawn_reap_strays(struct server *s)
{
	siginfo_t si;

	while (s->spawner.lost) {
		bool known = false;

		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == 0)
			return;
		for (const struct entry *e = s->entries; e && !known; e = e->next)
			known = e->pid == si.si_pid;
		/* an entry's own is reaped at its pidfd's event */
		if (known || si.si_pid == s->spawner.pid)
			return;
		(void)waitpid(si.si_pid, NULL, WNOHANG);
	}
}

int tc_serve_spawn_fd(const struct server *s)
{
	return s->spawner.pid > 0 ? s->spawner.sock : -1;
}

void tc_serve_spawn_release(struct server *s)
{
	retire(s);
}

/* Give back the setups replaced by a reload that no entry runs with any
 * more (all of them once the server ends). */
void tc_serve_release_retired(struct server *s, bool all)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->n_retired; i++) {
		const struct tc_serve_setup *old = s->retired[i];
		bool used = false;

		for (const struct entry *e = s->entries; e && !all; e = e->next)
			used |= e->setup == old;
		if (used)
			s->retired[kept++] = old;
		else if (old->release)
			old->release(old);
	}
	s->n_retired = kept;
}
