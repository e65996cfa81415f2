/* `toolcell serve`'s warm entries (see serve.h): each is a runner child
 * (serve-runner.c; made by the spawner, serve-spawn.c, so that we never
 * fork on a call's path) that drives one sandbox through the lifecycle
 * (sandbox.h) and hands us the tool's own stdin, stdout and stderr pipes
 * (a note on its fourth channel, a SOCK_SEQPACKET socket): a call's bytes
 * go between us and the tool with no runner between. The warm harness
 * writes one ready line (and what its warm-up cost in CPU) before it reads
 * anything; the runner prepares the call (its leaf) and says so; at
 * dispatch we write the call's memory limit into the leaf, tell the runner
 * when the call began, and write the frame of exactly one request to the
 * tool, then EOF. We read and cap its output ourselves. The runner sends
 * the outcome as soon as the tool has exited as the sandbox's last process
 * and every writer of its output closed (early_end), and only then waits
 * for the namespaces' teardown: we answer on the outcome, not on the
 * runner's exit, and count the entry until it exits. The server's death
 * ends the runner (PDEATHSIG), whose death ends the sandbox (the child's
 * own PDEATHSIG), whose init's death ends its PID namespace. Runs in the
 * parent. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "json.h"
#include "serve-internal.h"
#include "toolcell/sandbox.h"
#include "util.h"

#define READY_PREFIX   "TOOLCELL-READY "
#define READY_LINE_MAX 64
#define ERR_KEEP_MAX   (64u << 10) /* bytes of a failed entry's stderr we show */
#define BACKOFF_MAX_MS 5000
/* A dispatched entry's refill waits this long for the call's answer: a
 * new runner's making (the spawner's fork, its start) would otherwise take
 * the call's CPU (a longer call gets its refill then; a call waiting for
 * an entry gets it at once) */
#define REFILL_DEFER_MS 20

static void entry_free(struct entry *e)
{
	tc_closep(&e->ctl);
	tc_closep(&e->mem_fd);
	tc_closep(&e->to);
	tc_closep(&e->from);
	tc_closep(&e->err);
	tc_closep(&e->status);
	tc_closep(&e->pidfd);
	tc_buf_release(&e->out);
	tc_buf_release(&e->errb);
	tc_buf_release(&e->st);
	tc_buf_release(&e->frame);
	free(e->outcome);
	free(e);
}

static unsigned waiting(const struct server *s, uid_t uid);

/* A new entry, its runner asked of the spawner (serve-spawn.c); hurried
 * unless low: it warms up at TC_SERVE_WARM_NICE (no call waits for it). */
static int spawn(struct server *s, uid_t uid)
{
	bool low = tc_serve_prio_can_lower() && !waiting(s, uid);
	struct entry *e = calloc(1, sizeof(*e));
	int r;

	if (!e)
		return -ENOMEM;
	e->ctl = e->to = e->from = e->err = e->status = e->pidfd = e->mem_fd = -1;
	r = tc_serve_spawn_ask(s, e);
	if (r < 0) {
		free(e);
		return r;
	}
	e->uid = uid;
	e->hurried = !low;
	e->setup = s->setup;
	e->state = ENTRY_STARTING;
	e->started_ns = tc_now_ns();
	e->next = s->entries;
	s->entries = e;
	s->n_entries++;
	return 0;
}

static unsigned count(const struct server *s, uid_t uid, enum entry_state st)
{
	unsigned n = 0;

	for (const struct entry *e = s->entries; e; e = e->next)
		n += e->uid == uid && e->state == st;
	return n;
}

static unsigned waiting(const struct server *s, uid_t uid)
{
	unsigned n = 0;

	for (const struct call *c = s->queue; c; c = c->next)
		n += c->conn && c->conn->uid == uid;
	return n;
}

/* uid's entries dispatched so recently that their refill waits */
static unsigned deferred(const struct server *s, uid_t uid)
{
	uint64_t now = tc_now_ns();
	unsigned n = 0;

	for (const struct entry *e = s->entries; e; e = e->next)
		n += e->uid == uid && e->state == ENTRY_BUSY && e->refill_ns > now;
	return n;
}

/* Keep `pool` ready (or starting) entries for uid, plus one for each call
 * of uid's that waits, within --max-sandboxes; an entry whose call was
 * dispatched within REFILL_DEFER_MS still counts, unless a call waits. */
static void fill_uid(struct server *s, uid_t uid)
{
	unsigned wait = waiting(s, uid), want = s->opt->pool + wait;
	unsigned have = count(s, uid, ENTRY_READY) + count(s, uid, ENTRY_STARTING) +
			(wait ? 0 : deferred(s, uid));

	while (have < want && s->n_entries < s->opt->max_sandboxes) {
		if (spawn(s, uid) < 0)
			break;
		have++;
	}
}

void tc_serve_pool_fill(struct server *s)
{
	uid_t self = geteuid();

	if (s->draining || tc_now_ns() < s->backoff_until_ns)
		return;
	/* the server's own uid always has a pool; every other caller's
	 * pool is made at its first call */
	fill_uid(s, self);
	for (struct conn *c = s->conns; c; c = c->next)
		if (c->uid != self)
			fill_uid(s, c->uid);
}

static void record_latency(struct server *s, uint64_t us)
{
	s->stats.latency_us[s->stats.n_latency % SERVE_LATENCIES] = us;
	s->stats.n_latency++;
}

/* A call that still runs this long after its dispatch gets its runner's
 * begin (its clock from the dispatch, its samples, the first due 10 ms
 * after it, the init's backstop); a shorter one's runner begins at the
 * tool's first event (serve-runner.c): nothing but the tool wakes at
 * dispatch, and a short call runs alone. */
#define BEGIN_DEFER_MS 2

static void send_begin(struct server *s, struct entry *e)
{
	struct call *c = e->call;
	struct serve_begin b = { c->req.limit[TC_LIMIT_MEMORY], e->setup->cfg->limit[TC_LIMIT_PIDS],
				 c->dispatch_ns };

	c->begin_ns = 0;
	if (write(e->ctl, &b, sizeof(b)) != (ssize_t)sizeof(b))
		tc_serve_entry_end(s, e);
}

static void dispatch(struct server *s, struct call *c, struct entry *e)
{
	uint64_t now = tc_now_ns();

	e->state = ENTRY_BUSY;
	e->call = c;
	c->dispatch_ns = now;
	c->begin_ns = now + BEGIN_DEFER_MS * 1000000ull;
	e->refill_ns = now + REFILL_DEFER_MS * 1000000ull;
	c->deadline_ns = now + c->req.limit_ms * 1000000ull;
	tc_buf_release(&e->out);
	tc_buf_release(&e->errb);
	c->limit_errno = -tc_serve_io_call_memory(e, c);
	if (c->limit_errno || tc_serve_io_frame(c, e->mem_fd >= 0, &e->frame) < 0) {
		kill(e->pid, SIGTERM);
		e->state = ENTRY_ENDING;
		return;
	}
	if (c->req.kind == TC_SERVE_SESSION)
		tc_serve_session_begin(s, c, e);
	/* the frame to the tool itself, after the limits: the tool is all
	 * that wakes (the runner's begin waits, send_begin) */
	tc_serve_entry_on_writable(e);
	record_latency(s, (now - c->queued_ns) / 1000);
	if (c->warm)
		s->stats.warm++;
	else
		s->stats.cold++;
}

static struct entry *ready_for(struct server *s, uid_t uid)
{
	struct entry *best = NULL;

	/* the oldest ready entry: its warm-up is the longest done */
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_READY && e->uid == uid &&
		    (!best || e->started_ns < best->started_ns))
			best = e;
	return best;
}

void tc_serve_pool_dispatch(struct server *s)
{
	struct call **pp = &s->queue;

	while (*pp) {
		struct call *c = *pp;
		struct entry *e = c->conn ? ready_for(s, c->conn->uid) : NULL;

		if (!e) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		if (s->queue_tail == &c->next)
			s->queue_tail = pp;
		c->next = NULL;
		s->n_queue--;
		dispatch(s, c, e);
	}
	tc_serve_pool_fill(s);
	for (struct call *c = s->queue; c; c = c->next)
		if (c->conn)
			tc_serve_prio_hurry(s, c->conn->uid);
}

void tc_serve_entry_end(struct server *s, struct entry *e)
{
	(void)s;
	if (e->state == ENTRY_ENDING)
		return;
	e->state = ENTRY_ENDING;
	/* the runner kills the sandbox, reaps it and reports; one not made
	 * yet gets no go (serve-spawn.c) */
	if (e->pid > 0)
		kill(e->pid, SIGTERM);
}

void tc_serve_pool_drain(struct server *s)
{
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_READY || e->state == ENTRY_STARTING)
			tc_serve_entry_end(s, e);
}

static void ready_line(struct server *s, struct entry *e)
{
	char *nl = memchr(e->out.p, '\n', e->out.len);
	char *end = NULL;
	unsigned long long cpu;

	if (!nl) {
		if (e->out.len > READY_LINE_MAX)
			tc_serve_entry_end(s, e);
		return;
	}
	*nl = '\0';
	cpu = tc_startswith(e->out.p, READY_PREFIX)
		      ? strtoull(e->out.p + strlen(READY_PREFIX), &end, 10)
		      : 0;
	if (!end || *end || (size_t)(nl - e->out.p) + 1 != SERVE_READY_LEN) {
		tc_serve_entry_end(s, e); /* not our harness's line: never used */
		return;
	}
	/* the figure is the harness's word only: the record's CPU counts from
	 * tc_sandbox_begin, which reads the whole sandbox's */
	(void)cpu;
	tc_buf_drop(&e->out, (size_t)(nl - e->out.p) + 1);
	/* its runner prepared the call before it handed us the pipes (the
	 * leaf's move waits for the kernel, the CPU base reads /proc: not on
	 * a call's path) */
	tc_serve_prio_ready(e);
	e->state = ENTRY_READY;
	s->backoff_ms = 0;
	s->ever_ready = true;
}

/* The tool's stdout, read from its own pipe: the ready line, then the
 * call's output, within its cap. */
static void on_output(struct server *s, struct entry *e, unsigned reads)
{
	if (tc_serve_session_relay(e, &e->from, "out"))
		return;
	tc_serve_io_read(e, &e->from, &e->out, READY_LINE_MAX + 1, TC_LIMIT_STDOUT, reads);
	if (e->state == ENTRY_STARTING && e->out.len)
		ready_line(s, e);
	if (e->state == ENTRY_READY && e->out.len)
		tc_serve_entry_end(s, e); /* it wrote before it was asked anything */
}

static void on_error(struct entry *e, unsigned reads)
{
	if (tc_serve_session_relay(e, &e->err, "err"))
		return;
	tc_serve_io_read(e, &e->err, &e->errb, ERR_KEEP_MAX, TC_LIMIT_STDERR, reads);
}

void tc_serve_entry_on_output(struct server *s, struct entry *e)
{
	on_output(s, e, SERVE_READS_A_TURN);
}

void tc_serve_entry_on_error(struct entry *e)
{
	on_error(e, SERVE_READS_A_TURN);
}

/* The whole outcome, or NULL while it has not all arrived (or never can). */
static struct wire_outcome *outcome_of(struct entry *e)
{
	if (!e->outcome && e->st.len && (e->outcome = malloc(sizeof(*e->outcome))) &&
	    tc_serve_wire_decode(e->st.p, e->st.len, e->outcome) < 0) {
		free(e->outcome);
		e->outcome = NULL;
	}
	return e->outcome;
}

/* The call's answer, from the outcome (NULL: the runner sent none). The
 * runner wrote all of the tool's output before its outcome. */
static void answer(struct server *s, struct entry *e, struct wire_outcome *w)
{
	struct call *c = e->call;

	/* every writer of the pipes is closed by now (the tool's exit seen,
	 * or the sandbox gone): what they hold is the rest, to their EOF */
	on_output(s, e, UINT_MAX);
	on_error(e, UINT_MAX);
	e->call = NULL;
	tc_serve_answer_call(s, c, e, w ? &w->o : NULL);
}

/* A note of the runner's, with the descriptors it carried. */
static void on_note(struct server *s, struct entry *e, const struct serve_note *n, int *fds,
		    size_t nfds)
{
	if (n->kind == SERVE_NOTE_READY && (nfds == 3 || nfds == 4) && e->to < 0 &&
	    e->state == ENTRY_STARTING) {
		/* the tool's own pipes, in place of the runner's stdout and
		 * stderr, which carry nothing */
		tc_closep(&e->from);
		tc_closep(&e->err);
		e->to = TAKE_FD(fds[0]);
		e->from = TAKE_FD(fds[1]);
		e->err = TAKE_FD(fds[2]);
		if (nfds == 4)
			e->mem_fd = TAKE_FD(fds[3]);
		fcntl(e->to, F_SETFL, O_NONBLOCK);
		fcntl(e->from, F_SETFL, O_NONBLOCK);
		fcntl(e->err, F_SETFL, O_NONBLOCK);
		on_output(s, e, SERVE_READS_A_TURN); /* its ready line is there */
	}
	for (size_t i = 0; i < nfds; i++)
		tc_closep(&fds[i]);
}

/* What the runner sent: its notes, then its outcome (one message each);
 * at EOF the socket is closed. */
static void status_read(struct server *s, struct entry *e)
{
	static char buf[sizeof(struct wire_outcome)];
	struct wire_outcome *w;

	while (e->status >= 0) {
		int fds[SERVE_NOTE_FDS];
		size_t nfds = 0;
		ssize_t n = tc_serve_wire_recv(e->status, buf, sizeof(buf), fds, &nfds);
		struct serve_note note;

		if (n == -EAGAIN)
			break;
		if (n <= 0 && n != -EMSGSIZE) {
			tc_closep(&e->status);
			break;
		}
		memcpy(&note, buf, sizeof(note));
		if (n == (ssize_t)sizeof(note) && note.magic == SERVE_NOTE_MAGIC) {
			on_note(s, e, &note, fds, nfds);
			continue;
		}
		for (size_t i = 0; i < nfds; i++)
			tc_closep(&fds[i]);
		if (n > 0 && e->st.len < sizeof(struct wire_outcome))
			(void)tc_buf_add(&e->st, buf, (size_t)n);
	}
	w = outcome_of(e);
	if (!w || !e->call)
		return;
	/* the sandbox is being torn down: the entry counts until its runner
	 * exits, but answers now */
	answer(s, e, w);
	e->state = ENTRY_ENDING;
}

void tc_serve_entry_on_status(struct server *s, struct entry *e)
{
	status_read(s, e);
	/* a ready entry takes a waiting call */
	if (e->state == ENTRY_READY)
		tc_serve_pool_dispatch(s);
}

static void unlink_entry(struct server *s, struct entry *e)
{
	for (struct entry **pp = &s->entries; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	s->n_entries--;
}

/* An entry that ended before it was ever ready: say why once, and wait
 * longer before the next try (a broken rootfs must not spin us). The
 * calls waiting for its uid get the failure, as a one-shot run would; a
 * refusal before any entry was ever ready (a policy this host cannot run)
 * ends the server with 125, as the one-shot verbs refuse it. */
static void failed_start(struct server *s, struct entry *e, const struct wire_outcome *w)
{
	char msg[TC_ERROR_MESSAGE_MAX + 64];

	snprintf(msg, sizeof(msg), "the sandbox could not be built: %s",
		 w && w->o.err.message[0] ? w->o.err.message : "its runner ended");
	for (struct call **pp = &s->queue; *pp;) {
		struct call *q = *pp;
		if (!q->conn || q->conn->uid != e->uid) {
			pp = &q->next;
			continue;
		}
		*pp = q->next;
		if (s->queue_tail == &q->next)
			s->queue_tail = pp;
		s->n_queue--;
		q->conn->calls--;
		tc_serve_answer_error(s, q->conn, q->req.id, "SandboxError", msg);
		tc_serve_request_release(&q->req);
		free(q);
	}
	if (!s->ever_ready && w && w->o.status == TC_STATUS_SANDBOX_ERROR) {
		fprintf(stderr, "toolcell: serve: cannot start: %s\n", msg);
		s->exit_status = 125;
		s->draining = true;
		tc_serve_pool_drain(s);
		return;
	}
	s->backoff_ms = s->backoff_ms ? s->backoff_ms * 2 : 100;
	if (s->backoff_ms > BACKOFF_MAX_MS)
		s->backoff_ms = BACKOFF_MAX_MS;
	s->backoff_until_ns = tc_now_ns() + s->backoff_ms * 1000000ull;
	if (s->backoff_ms == 100)
		fprintf(stderr,
			"toolcell: serve: a pool entry ended before it was ready (%s%s%.*s)\n",
			w ? tc_status_name(w->o.status) : "no outcome",
			w && w->o.err.message[0] ? ": " : "", w ? 300 : 0,
			w ? w->o.err.message : "");
}

void tc_serve_entry_on_exit(struct server *s, struct entry *e)
{
	struct wire_outcome *w = NULL;

	/* the runner has exited (its pidfd said so): all it wrote is there.
	 * Reaped last, its pid stays its own while what it wrote is read (a
	 * READY read now sets the priority of its processes, tc_serve_prio_ready) */
	status_read(s, e); /* answers, if the outcome came */
	tc_serve_entry_on_output(s, e);
	tc_serve_entry_on_error(e);
	w = outcome_of(e);
	unlink_entry(s, e);
	if (e->call) {
		answer(s, e, NULL); /* the runner died before its outcome */
	} else if (e->state == ENTRY_STARTING) {
		failed_start(s, e, w);
	}
	waitpid(e->pid, NULL, 0);
	entry_free(e);
	tc_serve_spawn_reap_strays(s);
	tc_serve_pool_fill(s);
}

void tc_serve_pool_unspawned(struct server *s, struct entry *e)
{
	unlink_entry(s, e);
	entry_free(e);
}

void tc_serve_pool_on_deadlines(struct server *s, uint64_t now)
{
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_BUSY && e->call && e->call->begin_ns &&
		    now >= e->call->begin_ns)
			send_begin(s, e);
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->state == ENTRY_BUSY && e->call && now >= e->call->deadline_ns) {
			e->call->timed_out = true;
			tc_serve_entry_end(s, e);
		}
}

/* The caller went away: its waiting calls are dropped, its running ones
 * killed with their sandboxes. */
void tc_serve_pool_forget_conn(struct server *s, struct conn *c)
{
	struct call **pp = &s->queue;

	while (*pp) {
		struct call *q = *pp;
		if (q->conn != c) {
			pp = &q->next;
			continue;
		}
		*pp = q->next;
		if (s->queue_tail == &q->next)
			s->queue_tail = pp;
		s->n_queue--;
		s->stats.abandoned++;
		tc_serve_request_release(&q->req);
		free(q);
	}
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->call && e->call->conn == c) {
			e->call->conn = NULL;
			s->stats.abandoned++;
			tc_serve_entry_end(s, e);
		}
}
