/* `toolcell serve`'s loop (see serve.h): the listening socket (its own,
 * or systemd's through LISTEN_FDS), READY=1 to $NOTIFY_SOCKET once the
 * first entries are warm, SO_PEERCRED against the policy, the callers'
 * JSON lines read and answered through per-connection non-blocking
 * buffers, SIGTERM/SIGINT to drain and SIGHUP to load the policy and the
 * rootfs again and drain the pools. One poll(2) loop drives the socket,
 * every caller, every entry and the spawner. Runs in the parent. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cgroup.h"
#include "serve-internal.h"
#include "sha256.h"
#include "util.h"

#define SD_LISTEN_FDS_START 3
/* a dispatched entry's own wall clock, behind the server's deadline: a
 * session's lifetime (as `toolcell session`'s own sandbox has) */
#define ENTRY_LIFETIME_MS (86400ull * 1000)
#define READY_WAIT_MS	  60000	   /* READY=1 at the latest after this */
#define SERVE_CGROUP	  "server" /* the server's own child of a delegated cgroup */

/* ---- the socket ---- */

static int listen_fds(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	if (!pid || !fds || strtol(pid, NULL, 10) != getpid() || strtol(fds, NULL, 10) < 1)
		return -1;
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	fcntl(SD_LISTEN_FDS_START, F_SETFD, FD_CLOEXEC);
	return SD_LISTEN_FDS_START;
}

static int bind_socket(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, probe;

	if (strlen(path) >= sizeof(a.sun_path)) {
		fprintf(stderr, "toolcell: serve: the socket path %s is too long\n", path);
		return -1;
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || probe < 0)
		goto fail;
	/* a socket left by a dead server is ours to replace, a live one not */
	if (connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0) {
		fprintf(stderr,
			"toolcell: serve: another server listens on %s (stop it, or "
			"give --socket PATH)\n",
			path);
		errno = EADDRINUSE;
		goto fail;
	}
	if (errno == ECONNREFUSED)
		unlink(path);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || chmod(path, 0660) < 0 ||
	    listen(fd, 128) < 0) {
		fprintf(stderr, "toolcell: serve: cannot listen on %s: %s\n", path,
			strerror(errno));
		goto fail;
	}
	close(probe);
	return fd;
fail:
	tc_closep(&probe);
	tc_closep(&fd);
	return -1;
}

/* READY=1 and the like to systemd, without libsystemd. */
static void sd_notify_text(const char *text)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd;

	if (!path || (path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof(a.sun_path))
		return;
	strcpy(a.sun_path, path);
	if (path[0] == '@')
		a.sun_path[0] = '\0'; /* abstract */
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(path));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	(void)sendto(fd, text, strlen(text), MSG_NOSIGNAL, (struct sockaddr *)&a, len);
	close(fd);
}

/* ---- callers ---- */

/* Whether the peer on fd may connect: its credentials as connect() saw
 * them (SO_PEERCRED), with its supplementary groups (SO_PEERGROUPS), as the
 * socket's own 0660 permission counts them. */
static bool peer_allowed(const struct server *s, int fd, struct ucred *cred)
{
	gid_t few[64];
	_cleanup_free_ gid_t *many = NULL;
	gid_t *groups = few;
	socklen_t n = sizeof(*cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, &n) < 0)
		return false;
	n = sizeof(few);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, few, &n) < 0) {
		/* ERANGE: n says how many bytes they need (NGROUPS_MAX gids at most) */
		if (errno != ERANGE || !(many = malloc(n)) ||
		    getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, many, &n) < 0)
			return false;
		groups = many;
	}
	return tc_serve_peer_allowed(&s->setup->policy, geteuid(), cred->uid, cred->gid, groups,
				     n / sizeof(gid_t));
}

static void accept_one(struct server *s)
{
	struct ucred cred;
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	const char *no = NULL; /* the one line a refused caller gets */
	struct conn *c;

	if (fd < 0)
		return;
	if (!peer_allowed(s, fd, &cred))
		no = "{\"id\":null,\"ok\":false,\"error\":{\"type\":\"PermissionDenied\","
		     "\"message\":\"this uid may not use the server (the policy's "
		     "serve.allow_uids and serve.allow_gids)\",\"source\":\"toolcell\"}}\n";
	else if (s->n_conns >= s->opt->max_connections)
		no = "{\"id\":null,\"ok\":false,\"error\":{\"type\":\"Busy\",\"message\":"
		     "\"the server has as many callers as its --max-connections allows; try "
		     "again later\",\"source\":\"toolcell\"}}\n";
	if (no) {
		(void)!write(fd, no, strlen(no));
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->fd = fd;
	c->uid = cred.uid;
	c->gid = cred.gid;
	c->pid = cred.pid;
	c->next = s->conns;
	s->conns = c;
	s->n_conns++;
	tc_serve_pool_fill(s);
}

static void conn_close(struct server *s, struct conn *c)
{
	char drop[4096];

	/* what it sent that we did not take is dropped first (a socket buffer's
	 * worth): a caller still reading gets EOF after our last bytes, not
	 * ECONNRESET */
	for (int i = 0; i < 64 && recv(c->fd, drop, sizeof(drop), MSG_DONTWAIT) > 0; i++)
		;
	tc_serve_pool_forget_conn(s, c);
	for (struct conn **pp = &s->conns; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			s->n_conns--;
			break;
		}
	close(c->fd);
	tc_buf_release(&c->in);
	tc_buf_release(&c->out);
	free(c);
}

bool tc_serve_enqueue(struct server *s, struct conn *c, struct tc_serve_request *req)
{
	struct call *call;
	bool ready = false;

	if (s->n_queue >= s->opt->queue) {
		tc_serve_answer_error(
			s, c, req->id, "Busy",
			"every pool entry is busy and the queue is full; try again later");
		return false;
	}
	call = calloc(1, sizeof(*call));
	if (!call) {
		tc_serve_answer_error(s, c, req->id, "SandboxError", "out of memory");
		return false;
	}
	for (struct entry *e = s->entries; e; e = e->next)
		ready |= e->state == ENTRY_READY && e->uid == c->uid;
	call->req = *req;
	memset(req, 0, sizeof(*req));
	call->conn = c;
	call->queued_ns = tc_now_ns();
	call->warm = ready;
	tc_sha256(call->req.source, call->req.source_len, call->tool_sha256);
	*s->queue_tail = call;
	s->queue_tail = &call->next;
	s->n_queue++;
	c->calls++;
	tc_serve_pool_dispatch(s);
	return true;
}

static void on_line(struct server *s, struct conn *c, const char *line, size_t len)
{
	const struct tc_config *cfg = s->setup->cfg;
	size_t req_max = cfg->limit[TC_LIMIT_REQUEST];
	struct tc_serve_request req;
	struct tc_error e = { 0 };

	if (len == 0)
		return;
	if (tc_serve_request_parse(line, len, TC_SERVE_LINE_MAX(req_max), cfg->limit, &req, &e) < 0)
		tc_serve_answer_error(s, c, req.id, "BadRequest", e.message);
	else if (req.kind == TC_SERVE_STATS)
		tc_serve_answer_stats(s, c, req.id);
	else if (s->draining)
		tc_serve_answer_error(s, c, req.id, "Busy", "the server is shutting down");
	else if (req.kind == TC_SERVE_SESSION)
		tc_serve_session_request(s, c, &req);
	else
		tc_serve_enqueue(s, c, &req);
	tc_serve_request_release(&req);
}

/* The bytes of unfinished lines held for every caller together. */
static size_t pending(const struct server *s)
{
	size_t n = 0;

	for (const struct conn *c = s->conns; c; c = c->next)
		n += c->in.len;
	return n;
}

/* Whole lines out of c->in; a line over the limit is refused before any of
 * it is parsed, and its rest skipped up to the next newline; so is the line
 * that would take the unfinished lines of all callers past their bound. */
static void take_lines(struct server *s, struct conn *c)
{
	size_t max = TC_SERVE_LINE_MAX(s->setup->cfg->limit[TC_LIMIT_REQUEST]);
	char *nl;

	while (c->in.len && (nl = memchr(c->in.p, '\n', c->in.len))) {
		size_t len = (size_t)(nl - c->in.p);
		if (!c->skipping)
			on_line(s, c, c->in.p, len);
		c->skipping = false;
		tc_buf_drop(&c->in, len + 1);
		if (c->mode != CONN_REQUESTS) { /* a session's: what follows is its stream */
			tc_serve_session_flush(c);
			return;
		}
	}
	if (c->in.len > max && !c->skipping) {
		char msg[128];
		snprintf(msg, sizeof(msg),
			 "request: longer than the %zu-byte limit (one request per line)", max);
		tc_serve_answer_error(s, c, NULL, "BadRequest", msg);
		c->skipping = true;
	} else if (c->in.len && !c->skipping && pending(s) > TC_SERVE_PENDING_MAX(max)) {
		tc_serve_answer_error(s, c, NULL, "Busy",
				      "the server holds too many unfinished request lines of its "
				      "callers; send this request again later");
		c->skipping = true;
	}
	/* what was skipped or read whole is given back, not kept as capacity */
	if (c->skipping || (!c->in.len && c->in.cap > 65536))
		tc_buf_release(&c->in);
}

/* false: the caller is gone */
static bool conn_read(struct server *s, struct conn *c)
{
	char chunk[65536];
	ssize_t n = read(c->fd, chunk, sizeof(chunk));

	if (n < 0)
		return errno == EAGAIN || errno == EINTR;
	if (c->mode != CONN_REQUESTS) {
		c->rd_eof = n == 0;
		tc_serve_session_input(s, c, chunk, (size_t)n, n == 0);
		return true;
	}
	if (n == 0) {
		c->rd_eof = true; /* it may still read its answers */
		return true;
	}
	if (tc_buf_add(&c->in, chunk, (size_t)n) < 0)
		return false;
	take_lines(s, c);
	return true;
}

static bool conn_write(struct conn *c)
{
	while (c->out.len) {
		ssize_t n = send(c->fd, c->out.p, c->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN;
		tc_buf_drop(&c->out, (size_t)n);
	}
	return true;
}

/* ---- the loop ---- */

enum slot_kind {
	SLOT_LISTEN,
	SLOT_SIGNAL,
	SLOT_CONN,
	SLOT_FROM,
	SLOT_ERR,
	SLOT_STATUS,
	SLOT_TO,
	SLOT_EXIT,
	SLOT_SPAWN, /* the spawner's replies (serve-spawn.c) */
};

struct slot {
	enum slot_kind kind;
	void *p;
};

struct polls {
	struct pollfd *fds;
	struct slot *slots;
	size_t n, cap;
};

static int poll_add(struct polls *p, int fd, short events, enum slot_kind kind, void *ptr)
{
	if (fd < 0)
		return 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		struct pollfd *f = realloc(p->fds, cap * sizeof(*f));
		struct slot *s;
		if (!f)
			return -ENOMEM;
		p->fds = f;
		s = realloc(p->slots, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		p->slots = s;
		p->cap = cap;
	}
	p->fds[p->n] = (struct pollfd){ .fd = fd, .events = events };
	p->slots[p->n++] = (struct slot){ kind, ptr };
	return 0;
}

static void poll_build(struct server *s, struct polls *p)
{
	p->n = 0;
	/* while draining too: a new caller's calls are answered Busy, not reset */
	poll_add(p, s->lfd, POLLIN, SLOT_LISTEN, NULL);
	poll_add(p, s->sfd, POLLIN, SLOT_SIGNAL, NULL);
	poll_add(p, tc_serve_spawn_fd(s), POLLIN, SLOT_SPAWN, NULL);
	for (struct conn *c = s->conns; c; c = c->next) {
		/* a caller that does not read its answers is not read either */
		short ev = (c->rd_eof || c->out.len > (1u << 20) || !tc_serve_session_want_input(c)
				    ? 0
				    : POLLIN) |
			   (c->out.len ? POLLOUT : 0);
		poll_add(p, c->fd, ev, SLOT_CONN, c);
	}
	for (struct entry *e = s->entries; e; e = e->next) {
		/* a session's output waits while its caller does not read */
		bool out = tc_serve_session_want_output(e);

		poll_add(p, out ? e->from : -1, POLLIN, SLOT_FROM, e);
		poll_add(p, out ? e->err : -1, POLLIN, SLOT_ERR, e);
		poll_add(p, e->status, POLLIN, SLOT_STATUS, e);
		if (e->frame.len)
			poll_add(p, e->to, POLLOUT, SLOT_TO, e);
		poll_add(p, e->pidfd, POLLIN, SLOT_EXIT, e);
	}
}

static int poll_timeout(const struct server *s)
{
	uint64_t now = tc_now_ns(), next = UINT64_MAX;

	for (const struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_BUSY && e->call && e->call->deadline_ns < next)
			next = e->call->deadline_ns;
	for (const struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_BUSY && e->call && e->call->begin_ns &&
		    e->call->begin_ns < next)
			next = e->call->begin_ns; /* its runner's deferred begin (serve-pool.c) */
	for (const struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_BUSY && e->refill_ns > now && e->refill_ns < next)
			next = e->refill_ns; /* its deferred refill (serve-pool.c) */
	if (s->backoff_until_ns > now && s->backoff_until_ns < next)
		next = s->backoff_until_ns;
	if (next == UINT64_MAX)
		return 1000;
	return next <= now ? 0 : (int)((next - now) / 1000000 + 1);
}

/* What an entry runs with: the setup's config with the entry's own
 * lifetime as its wall clock (a call's own is the server's to count). */
static void use_setup(struct server *s, const struct tc_serve_setup *setup)
{
	s->setup = setup;
	s->entry_cfg = *setup->cfg;
	s->entry_cfg.limit[TC_LIMIT_WALL] = ENTRY_LIFETIME_MS + setup->cfg->limit[TC_LIMIT_WALL];
	/* the ready line is the harness's, not the tool's: the tool gets the cap */
	s->entry_cfg.limit[TC_LIMIT_STDOUT] = setup->cfg->limit[TC_LIMIT_STDOUT] + SERVE_READY_LEN;
}

/* SIGHUP: the policy and the rootfs read again. Loaded: the ready and
 * starting entries end and new ones are made with it, while running calls
 * finish with the setup they started with. Not loaded: the old one stays,
 * entries and all. */
static void reload(struct server *s)
{
	const struct tc_serve_setup *old = s->setup, *next = NULL, **r;
	struct tc_error e = { 0 };

	if (old->reload)
		next = old->reload(old, &e);
	r = next ? realloc(s->retired, (s->n_retired + 1) * sizeof(*r)) : NULL;
	if (!r) {
		if (next && next->release)
			next->release(next);
		fprintf(stderr,
			"toolcell: serve: SIGHUP: kept the policy %s as it was loaded, and its warm "
			"entries: %s (fix the policy and send SIGHUP again)\n",
			old->policy_path, next ? "out of memory" : e.message);
		return;
	}
	s->retired = r;
	s->retired[s->n_retired++] = old;
	use_setup(s, next);
	fprintf(stderr,
		"toolcell: serve: SIGHUP: loaded %s (sha256 %.64s), rootfs manifest %.64s; the warm "
		"entries are replaced\n",
		next->policy_path, next->policy_sha256, next->rootfs_sha256);
	tc_serve_pool_drain(s);
	tc_serve_release_retired(s, false);
}

static void on_signal(struct server *s)
{
	struct signalfd_siginfo si;

	while (read(s->sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			if (!s->draining)
				reload(s);
			continue;
		}
		if (s->draining) { /* a second one: end every call now */
			for (struct entry *e = s->entries; e; e = e->next)
				tc_serve_entry_end(s, e);
			continue;
		}
		s->draining = true;
		sd_notify_text("STOPPING=1");
		tc_serve_pool_drain(s);
		tc_serve_session_drain(s);
	}
}

static void on_output(struct server *s, struct entry *e)
{
	tc_serve_entry_on_output(s, e);
	tc_serve_pool_dispatch(s);
}

static void on_error(struct server *s, struct entry *e)
{
	(void)s;
	tc_serve_entry_on_error(e);
}

static void on_writable(struct server *s, struct entry *e)
{
	(void)s;
	tc_serve_entry_on_writable(e);
}

/* what each of an entry's events does */
static void (*const on_entry[])(struct server *, struct entry *) = {
	[SLOT_FROM] = on_output,
	[SLOT_ERR] = on_error,
	[SLOT_STATUS] = tc_serve_entry_on_status,
	[SLOT_TO] = on_writable,
	[SLOT_EXIT] = tc_serve_entry_on_exit,
};

static bool slot_event(struct server *s, const struct slot *sl, short re)
{
	struct conn *c = sl->p;
	struct entry *e = sl->p;

	switch (sl->kind) {
	case SLOT_LISTEN:
		accept_one(s);
		return false;
	case SLOT_SIGNAL:
		on_signal(s);
		return false;
	case SLOT_SPAWN:
		tc_serve_spawn_on_event(s, re);
		return true; /* entries came, or went with it */
	case SLOT_CONN:
		if ((re & (POLLHUP | POLLERR)) || ((re & POLLIN) && !conn_read(s, c)) ||
		    ((re & POLLOUT) && !conn_write(c))) {
			conn_close(s, c);
			return true; /* the lists changed: poll again */
		}
		return false;
	case SLOT_FROM:
	case SLOT_ERR:
	case SLOT_STATUS:
	case SLOT_TO:
	case SLOT_EXIT:
		on_entry[sl->kind](s, e);
		return sl->kind == SLOT_EXIT; /* an entry gone: the lists changed */
	}
	return false;
}

static bool idle(const struct server *s)
{
	for (const struct conn *c = s->conns; c; c = c->next)
		if (c->out.len)
			return false;
	return !s->entries && !s->queue;
}

static unsigned ready_count(const struct server *s)
{
	unsigned n = 0;

	for (const struct entry *e = s->entries; e; e = e->next)
		n += e->state == ENTRY_READY;
	return n;
}

static int serve_loop(struct server *s)
{
	struct polls p = { 0 };
	bool notified = false;
	uint64_t t0 = tc_now_ns();

	while (!(s->draining && idle(s))) {
		poll_build(s, &p);
		if (poll(p.fds, p.n, poll_timeout(s)) < 0 && errno != EINTR)
			break;
		for (size_t i = 0; i < p.n; i++)
			if (p.fds[i].revents && slot_event(s, &p.slots[i], p.fds[i].revents))
				break;
		for (struct conn *c = s->conns, *next; c; c = next) {
			next = c->next;
			if (c->out.len && !conn_write(c))
				c->rd_eof = true; /* closed at its POLLHUP */
			else if (c->closing && !c->out.len)
				conn_close(s, c);
		}
		tc_serve_pool_on_deadlines(s, tc_now_ns());
		if (s->n_retired)
			tc_serve_release_retired(s, false);
		tc_serve_pool_fill(s);
		if (!notified && (ready_count(s) >= s->opt->pool ||
				  tc_now_ns() - t0 > READY_WAIT_MS * 1000000ull)) {
			sd_notify_text("READY=1\nSTATUS=the pool is warm");
			notified = true;
		}
	}
	free(p.fds);
	free(p.slots);
	return 0;
}

static int block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* blocked before the spawner is forked: it and each runner inherit
	 * the mask, and a runner's sandbox reads them through its signalfd */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* Under systemd with Delegate=yes: the server in its own child cgroup,
 * so that each call's leaf is made beside it (systemd 252 has no
 * DelegateSubgroup=). Before the spawner is forked: it, and so each runner
 * it makes, is born in it. Elsewhere nothing changes. */
static int enter_cgroup(void)
{
	char where[2 * TC_PATH_MAX], why[TC_CGROUP_WHY_MAX];
	int r = tc_cgroup_enter_subgroup(SERVE_CGROUP, where, sizeof(where), why, sizeof(why));

	if (r < 0)
		fprintf(stderr,
			"toolcell: serve: cannot move into the child cgroup %s of the delegated "
			"one: %s (start it with Delegate=yes and nothing else in its cgroup)\n",
			SERVE_CGROUP, strerror(-r));
	else if (r > 0)
		fprintf(stderr, "toolcell: serve: runs in %s; one cgroup leaf per call beside it\n",
			where);
	return r;
}

int tc_serve_run(const struct tc_serve_options *opt, const struct tc_serve_setup *setup)
{
	struct server s = { .opt = opt };
	char def[4096];
	const char *path =
		opt->socket_path ? opt->socket_path : tc_serve_default_socket(def, sizeof(def));
	bool own_socket = false;
	int r;

	s.queue_tail = &s.queue;
	use_setup(&s, setup);
	s.sfd = block_signals();
	s.lfd = listen_fds();
	if (s.lfd < 0 && !path) {
		fprintf(stderr, "toolcell: serve: no socket: XDG_RUNTIME_DIR is not set (give "
				"--socket PATH)\n");
		return 125;
	}
	if (s.lfd < 0) {
		if (!opt->socket_path && geteuid() == 0) /* the default socket's folder */
			(void)mkdir("/run/toolcell", 0755);
		s.lfd = bind_socket(path);
		own_socket = true;
	} else if (fcntl(s.lfd, F_SETFL, O_NONBLOCK) < 0) {
		s.lfd = -1;
	}
	if (s.lfd < 0 || s.sfd < 0) {
		tc_closep(&s.sfd);
		return 125;
	}
	if (own_socket)
		fprintf(stderr, "toolcell: serve: listening on %s\n", path);
	if (enter_cgroup() < 0) {
		close(s.lfd);
		close(s.sfd);
		return 125;
	}
	tc_serve_pool_fill(&s);
	r = serve_loop(&s);
	tc_serve_spawn_release(&s);
	if (own_socket)
		unlink(path);
	close(s.lfd);
	close(s.sfd);
	while (s.conns)
		conn_close(&s, s.conns);
	tc_serve_release_retired(&s, true);
	free(s.retired);
	tc_record_memo_release(&s.memo);
	return r < 0 ? 125 : s.exit_status;
}
