/* What serve.c (connections, protocol framing, the loop) and serve-pool.c
 * (the warm entries and their runners) share. Not part of toolcell's
 * interface. */
#ifndef TOOLCELL_SERVE_INTERNAL_H
#define TOOLCELL_SERVE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "record-tree.h"
#include "toolcell/record.h"
#include "serve.h"
#include "util.h"

#define SERVE_LATENCIES 1024 /* dispatch latencies kept for the stats' percentiles */
/* The warm harness's ready line, "TOOLCELL-READY %010d\n": an entry's stdout
 * cap is the policy's plus this, and the record counts the tool's bytes only */
#define SERVE_READY_LEN 26
/* A call's frame is padded to at least this many bytes, so the harness
 * reads a frame of that size in one read of known size and never a byte of
 * the request after it (rootfs/serve.py's BLOCK) */
#define SERVE_FRAME_BLOCK 4096

/* What a connection carries: request lines, or one session's stream. */
enum conn_mode {
	CONN_REQUESTS,	   /* JSON request lines, answered as they finish */
	CONN_SESSION_WAIT, /* its session request waits for an entry */
	CONN_SESSION,	   /* a stream to its session's entry (serve-session.c) */
	CONN_SESSION_OVER, /* its session ended: what the caller sends is dropped */
};

struct entry;

struct conn {
	struct conn *next;
	int fd;
	uid_t uid;
	gid_t gid;
	pid_t pid;
	struct tc_buf in, out;
	bool skipping;	/* discarding the rest of a line over the limit */
	bool rd_eof;	/* the peer will send no more (it may still read) */
	unsigned calls; /* its calls queued or running */
	enum conn_mode mode;
	struct entry *session; /* CONN_SESSION: the entry its session runs in */
	bool requesting;       /* its session request is being taken (in still holds it) */
	bool closing;	       /* its session is over: closed once out is sent */
};

struct call {
	struct call *next; /* in the queue */
	struct conn *conn; /* NULL once the caller went away */
	struct tc_serve_request req;
	uint64_t queued_ns, dispatch_ns, deadline_ns;
	uint64_t until_ns;	       /* a session's end at the latest (its lifetime, a drain's) */
	unsigned idle_s;	       /* a session's end after this long without a byte */
	bool warm;		       /* an entry was ready when the call came */
	bool timed_out;		       /* the server ended it at its deadline */
	bool over_stdout, over_stderr; /* it wrote past the call's own cap and was ended */
	uint64_t err_relayed;	       /* a session: bytes of its stderr passed on */
	bool stdin_eof;		       /* a session: the harness gets EOF once its input is sent */
	int limit_errno;	       /* its memory limit could not be written into its leaf */
	uint64_t begin_ns; /* when its runner's begin goes, if it still runs (0: sent) */
	unsigned char tool_sha256[32];
};

enum entry_state {
	ENTRY_STARTING, /* the sandbox is being built, the harness warming up */
	ENTRY_READY,	/* blocked reading its one request */
	ENTRY_BUSY,	/* running a call */
	ENTRY_ENDING,	/* told to end (drained, or its caller left) */
};

/* One sandbox, run by a runner child of ours. */
struct entry {
	struct entry *next;
	pid_t pid;
	int pidfd;
	int ctl;       /* the runner's stdin: struct serve_begin */
	int to;	       /* the tool's stdin (the runner's READY note) */
	int from, err; /* the tool's stdout, stderr (the READY note; the runner's before) */
	int status;    /* the runner's note and outcome */
	int mem_fd;    /* its call leaf's memory.max (the READY note), or -1 */
	uid_t uid;     /* the pool key: the caller it is for */
	const struct tc_serve_setup *setup; /* the policy and rootfs it was made with */
	enum entry_state state;
	struct tc_buf out, errb, st, frame;
	struct wire_outcome *outcome; /* st decoded, once it all came */
	size_t sent;		      /* of frame */
	uint64_t started_ns;
	uint64_t refill_ns; /* busy: its refill waits for its answer until then */
	struct call *call;
	bool hurried;	    /* warming at our priority: a call waits for it */
	uint64_t spawn_seq; /* its runner's request to the spawner (pid 0 until it came) */
};

/* The process that makes our runners (serve-spawn.c), for one setup. */
struct spawner {
	pid_t pid; /* 0: none running */
	int sock;  /* our end of its socketpair */
	const struct tc_serve_setup *setup;
	unsigned pending; /* runners asked for, not answered yet */
	uint64_t seq;
	bool lost; /* one died: a runner it made may be a child no entry knows */
};

/* A served record's unknown.warm_up: what its figures count of the warm
 * entry's start, with a cgroup leaf and without */
#define SERVE_WARM_UP_LEAF                                                                                  \
	"memory_peak_bytes, oom_kills, pids_peak and the CPU figures are the call's own cgroup "            \
	"leaf's, made once its warm-up was done: the warm entry's start (the interpreter, the harness and " \
	"serve.preimport, about 5 MiB resident with the default modules) was charged before it "            \
	"and is left out, of limits.memory too"
#define SERVE_WARM_UP_RLIMIT                                                                       \
	"without cgroup v2 memory_peak_bytes is the sandbox's resident peak, which includes the "  \
	"warm entry's start (the interpreter, the harness and serve.preimport, about 5 MiB with "  \
	"the default modules), and "                                                               \
	"limits.memory (RLIMIT_AS) counts its address space too; the CPU figures count from "      \
	"dispatch"

/* What a runner reads on its stdin: the call's begin, sent at dispatch
 * beside the frame that the server writes to the tool's stdin itself: when
 * it was dispatched (the wall clock and the CPU count from then) and the
 * limits its cgroup leaf holds for the call (written by the server before
 * the frame, tc_sandbox_call_limits). The tool's output is the server's to
 * cap (a session's: its caller caps each answer). */
struct serve_begin {
	uint64_t memory, pids;
	uint64_t dispatch_ns;
};

/* A runner's note to the server, on its fd 3 (a SOCK_SEQPACKET socket,
 * which carries the outcome too: a message of this size is a note), with
 * the descriptors it names (SCM_RIGHTS). */
#define SERVE_NOTE_MAGIC 0x746e6f6eu
enum serve_note_kind {
	/* the harness wrote (its ready line) and the call is prepared
	 * (tc_sandbox_prepare_call: its leaf, its CPU base): the tool's stdin
	 * write end, stdout and stderr read ends, and the leaf's memory.max
	 * if there is one */
	SERVE_NOTE_READY,
};
struct serve_note {
	uint32_t magic, kind;
};
#define SERVE_NOTE_FDS 4 /* descriptors a note carries at most */

struct serve_stats {
	uint64_t by_status[TC_STATUS_SANDBOX_ERROR + 1];
	uint64_t busy, bad, abandoned, warm, cold;
	uint64_t sessions, sessions_ended; /* started (each in an entry of its own), ended */
	uint64_t latency_us[SERVE_LATENCIES];
	size_t n_latency;
};

struct server {
	const struct tc_serve_options *opt;
	const struct tc_serve_setup *setup;
	struct tc_config entry_cfg; /* cfg with an entry's own lifetime as its wall clock */
	const struct tc_serve_setup **retired; /* replaced by SIGHUP, still used by an entry */
	size_t n_retired;
	int lfd, sfd;
	struct conn *conns;
	struct entry *entries;
	struct call *queue, **queue_tail;
	unsigned n_queue, n_entries, n_conns;
	bool draining;
	bool ever_ready; /* an entry has been ready: the policy can run here */
	int exit_status; /* 125 once the server gave up starting */
	uint64_t backoff_until_ns, backoff_ms; /* entries keep failing to start */
	struct serve_stats stats;
	struct spawner spawner;
	struct tc_record_memo memo; /* the answers' records' parts that repeat */
};

/* serve-pool.c */
void tc_serve_pool_fill(struct server *s);
void tc_serve_pool_dispatch(struct server *s);
void tc_serve_pool_drain(struct server *s);
void tc_serve_entry_end(struct server *s, struct entry *e);
void tc_serve_entry_on_output(struct server *s, struct entry *e);
void tc_serve_entry_on_error(struct entry *e);
void tc_serve_entry_on_status(struct server *s, struct entry *e);
void tc_serve_entry_on_writable(struct entry *e);
void tc_serve_entry_on_exit(struct server *s, struct entry *e);
void tc_serve_pool_on_deadlines(struct server *s, uint64_t now);
void tc_serve_pool_forget_conn(struct server *s, struct conn *c);
void tc_serve_pool_unspawned(struct server *s, struct entry *e); /* its runner never came */

/* serve-spawn.c: the spawner, which makes the runners (the server's children) */
/* Its reply to a runner asked for: with a runner, SPAWN_FDS descriptors in
 * one SCM_RIGHTS (the runner's ctl, from, err and status ends, its pidfd) */
#define SPAWN_FDS 5
struct spawn_reply {
	uint64_t seq;
	int32_t pid;   /* the runner, our child; 0: none */
	int32_t error; /* errno when there is none */
};
int tc_serve_spawn_ask(struct server *s, struct entry *e);     /* e's runner, asked for */
int tc_serve_spawn_fd(const struct server *s);		       /* to poll for replies, or -1 */
void tc_serve_spawn_on_event(struct server *s, short revents); /* on its socket */
void tc_serve_spawn_reap_strays(struct server *s);
void tc_serve_spawn_release(struct server *s); /* at the end: its last replies, then it ends */
/* The setups replaced by a reload that no entry runs with any more (all of
 * them once the server ends) given back. */
void tc_serve_release_retired(struct server *s, bool all);

/* serve.c */
bool tc_serve_enqueue(struct server *s, struct conn *c, struct tc_serve_request *req);

/* serve-session.c: a session's connection and entry */
void tc_serve_session_request(struct server *s, struct conn *c, struct tc_serve_request *req);
void tc_serve_session_begin(struct server *s, struct call *c, struct entry *e);
void tc_serve_session_input(struct server *s, struct conn *c, const char *p, size_t n, bool eof);
void tc_serve_session_flush(struct conn *c);
bool tc_serve_session_want_input(const struct conn *c);
bool tc_serve_session_want_output(const struct entry *e);
bool tc_serve_session_relay(struct entry *e, int *fd, const char *tag);
bool tc_serve_session_keep_open(struct entry *e);
void tc_serve_session_end(struct server *s, struct call *c, const struct tc_outcome *o);
void tc_serve_session_drain(struct server *s);
void tc_serve_session_stats(const struct server *s, struct cJSON *doc);

/* serve-io.c: a call's bytes on the tool's own pipes */
#define SERVE_READS_A_TURN 16 /* reads of a tool's output an event makes at most */
/* The frame of c's request into f (leaf: its memory limit is the leaf's,
 * not an rlimit). 0 or -errno. */
int tc_serve_io_frame(const struct call *c, bool leaf, struct tc_buf *f);
/* c's own memory limit, when below e's policy's, into e's leaf (before the
 * frame): 0 or -errno. */
int tc_serve_io_call_memory(const struct entry *e, const struct call *c);
/* A call's cap on its tool's stdout or stderr (id): its own where it asked
 * a lower one, else its policy's. */
uint64_t tc_serve_io_cap(const struct entry *e, enum tc_limit_id id);
/* At most reads reads of *fd (closed at EOF) into b: before a call, at most
 * keep bytes; during it, within the call's cap for id (stdout, stderr):
 * past it the rest is dropped, the call marked over and the entry ended. */
void tc_serve_io_read(struct entry *e, int *fd, struct tc_buf *b, size_t keep, enum tc_limit_id id,
		      unsigned reads);

/* serve-runner.c: the child the spawner makes for an entry (ours, by
 * CLONE_PARENT), with the ends of its four channels (its stdin, stdout,
 * stderr and the notes and outcome socket); never returns */
_Noreturn void tc_serve_runner_main(const struct server *s, pid_t server, const int fds[4]);

/* serve-prio.c */
#define TC_SERVE_WARM_NICE 19	    /* a warming entry's: the running calls' CPU comes first */
bool tc_serve_prio_can_lower(void); /* may a warming entry go low (and back)? */
void tc_serve_prio_ready(struct entry *e);	       /* ready: back to ours, runner and sandbox */
void tc_serve_prio_hurry(struct server *s, uid_t uid); /* a call of uid's waits */

/* serve-answer.c */
void tc_serve_answer_call(struct server *s, struct call *c, struct entry *e, struct tc_outcome *o);
void tc_serve_answer_error(struct server *s, struct conn *c, const char *id, const char *type,
			   const char *message);
void tc_serve_answer_stats(struct server *s, struct conn *c, const char *id);
void tc_serve_conn_send(struct conn *c, const char *line, size_t len);

/* The outcome as the runner sends it: the struct with its strings beside it
 * (serve-wire.c). */
struct wire_outcome {
	struct tc_outcome o;
	char seccomp[160], landlock[512], cgroup[4096], cgroup_swap[160], kernel_memory[640];
	char mem_reason[256], oom_reason[256], pids_reason[256], not_applied[160];
	int exec_errno;
};

/* o and its strings into w. */
void tc_serve_wire_pack(const struct tc_outcome *o, int exec_errno, struct wire_outcome *w);
/* w as sent, into buf (sizeof(*w) bytes at most): only the n_denied
 * entries of o.denied in use go, and each string up to its NUL. Returns
 * the length. */
size_t tc_serve_wire_encode(const struct wire_outcome *w, char *buf);
/* The len bytes received so far back into w, its strings pointed at their
 * copies: 0, -EAGAIN while more are due, -EBADMSG when they cannot be a
 * report. */
int tc_serve_wire_decode(const char *buf, size_t len, struct wire_outcome *w);

/* A note to the server on fd (the runner's): kind and the descriptors of
 * fds[0..n) that are not -1, which are closed here then. */
void tc_serve_wire_note(int fd, enum serve_note_kind kind, int *fds, size_t n);
/* One message from fd (the server's end, non-blocking) into buf, and the
 * descriptors it carried (O_CLOEXEC, the caller's) into fds: its length,
 * 0 at EOF (or an empty message), -EAGAIN when none waits, -EMSGSIZE when
 * it did not fit, or -errno; descriptors are kept only with a length. */
ssize_t tc_serve_wire_recv(int fd, char *buf, size_t size, int fds[SERVE_NOTE_FDS], size_t *nfds);

#endif
