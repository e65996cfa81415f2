/* One sandbox, from its start to its release. The parent prepares
 * everything, clones the sandbox, supervises it and fills struct
 * tc_outcome; sandbox.c implements it on top of the per-concept modules
 * (userns, mount, net, caps, child, relay, supervise, outcome).
 *
 * Two ways to use it:
 *  - tc_sandbox_run: one run, start to end, blocking (the one-shot verbs).
 *  - The lifecycle, for a caller that drives many sandboxes from one poll
 *    loop (a server, a session):
 *
 *	struct tc_sandbox *sb = NULL;
 *	if (tc_sandbox_start(&spec, &sb, &err) < 0)
 *		fail;				// nothing is left behind
 *	tc_sandbox_begin(sb, stdin, len);	// warm: the call is dispatched now
 *	for (bool over = false; !over;) {	// or tc_sandbox_supervise(sb)
 *		struct pollfd p[TC_SANDBOX_POLLFDS];	// and the caller's own
 *		tc_sandbox_pollfds(sb, p);
 *		poll(p, ..., tc_poll_timeout(tc_sandbox_deadline(sb)));
 *		over = tc_sandbox_on_events(sb, p);
 *	}
 *	tc_sandbox_finish(sb, &outcome, &res, &err);
 *	tc_sandbox_release(&sb);		// any time, also instead of finish
 *
 * Single-threaded: a parent thread that exits would fire the sandbox's
 * PDEATHSIG. */
#ifndef TOOLCELL_SANDBOX_H
#define TOOLCELL_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "toolcell/record.h"

struct pollfd;

#define TC_TOOL_UID 1000u /* the tool's uid and gid inside every sandbox */
#define TC_TOOL_GID 1000u

/* Where the tool's stdin comes from and where its stdout goes. */
enum tc_io_mode {
	TC_IO_RELAY,  /* toolcell's own fd 0 / fd 1 (stderr: fd 2) */
	TC_IO_MEMORY, /* stdin from spec->stdin_buf; stdout captured into the result */
	TC_IO_PIPES,  /* the caller relays: tc_sandbox_take_stdio gives it the tool's
		       * stdin write end and its stdout and stderr read ends; no
		       * output cap, no stdout/stderr counts, no stderr tail unless
		       * the caller hands it over (tc_sandbox_stderr_seen) */
	TC_IO_DIRECT, /* a server's warm sandbox: the caller takes the tool's stdin
		       * write end and its stdout and stderr read ends
		       * (tc_sandbox_take_stdio), writes the call's request
		       * (tc_sandbox_begin_direct) and reads the output itself: no
		       * output cap, no stdout/stderr counts, no stderr tail here
		       * (the caller's). toolcell keeps a copy of each read end
		       * that it never reads, polled for its hang-up alone (every
		       * writer closed): the output's end that early_end waits for */
};

struct tc_sandbox_spec {
	const struct tc_config *cfg;
	char *const *argv;	       /* program and arguments, as seen inside */
	const char *cwd;	       /* working directory inside, absolute */
	struct tc_bind extra_binds[2]; /* read-only binds toolcell adds (script, its folder) */
	size_t n_extra_binds;
	enum tc_io_mode io;
	const char *stdin_buf; /* TC_IO_MEMORY: bytes written to the tool's stdin, then EOF */
	size_t stdin_len;
	bool verbose; /* print the time of each set-up stage to stderr */
	/* A warm sandbox: built and started, waiting for its call. No wall
	 * clock runs (neither toolcell's nor the init's backstop) until
	 * tc_sandbox_begin; in TC_IO_MEMORY its stdin comes from there. */
	bool warm;
	/* SIGTERM, SIGINT and SIGHUP are the caller's (a server): toolcell
	 * neither blocks them nor reads them; the caller ends a sandbox with
	 * tc_sandbox_kill. Otherwise each ends the run (status signaled). */
	bool caller_signals;
	/* The run is over (tc_sandbox_on_events says so, finish may come) as
	 * soon as the tool has exited as the sandbox's last process, nothing
	 * of toolcell's ended it and its output is drained: the outcome is the
	 * same, from the init's rusage at that moment, and the namespaces'
	 * teardown (milliseconds) is left to tc_sandbox_release, which waits
	 * for it; a cgroup leaf's figures are read then (the init alone is
	 * left in it), and the leaf is removed by tc_sandbox_release.
	 * Otherwise (another process still ran, a limit or a signal ended the
	 * run) the run ends at the init's exit as without it. */
	bool early_end;
};

/* The running sandbox (sandbox.c); the caller holds a pointer. */
struct tc_sandbox;

/* How many struct pollfd tc_sandbox_pollfds fills. */
#define TC_SANDBOX_POLLFDS 10

/* What the run produced besides the outcome. */
struct tc_sandbox_result {
	char *stdout_buf; /* TC_IO_MEMORY: the captured stdout (NUL-terminated); owned */
	size_t stdout_len;
	int exec_errno;	     /* the tool's execve failed with this errno (0: it did not) */
	int toolcell_signal; /* toolcell got SIGTERM/SIGINT/SIGHUP and stopped the run */
};

/* Prepare everything, clone the sandbox and hand it the maps and the
 * filter; *ret is the running sandbox. spec (and what it points to) must
 * outlive it. -errno when it could not be built, err saying why; nothing
 * is left behind then. */
int tc_sandbox_start(const struct tc_sandbox_spec *spec, struct tc_sandbox **ret,
		     struct tc_error *err);

/* The call starts now: the wall clock (toolcell's and the init's backstop)
 * and the CPU figures count from here, not from the start. For a warm
 * sandbox in TC_IO_MEMORY, stdin_buf (which must outlive the run) is the
 * tool's stdin, then EOF; otherwise stdin_buf is ignored. Once per
 * sandbox; 0 or -errno (the init could not be told: kill it). */
int tc_sandbox_begin(struct tc_sandbox *sb, const char *stdin_buf, size_t stdin_len);

/* A warm sandbox whose warm-up is done (its harness blocked on a read:
 * nothing may fork meanwhile) moves, with a cgroup leaf, into a new leaf
 * of its own, so that the leaf's figures and memory.max leave the warm-up
 * out; a move waits for the kernel (milliseconds), off the call's path.
 * Without a leaf, the CPU base the call's figures count from is taken now
 * (tc_sandbox_begin keeps it if no process of the sandbox ran since).
 * Without it tc_sandbox_begin does both. A failure kills the sandbox (its
 * outcome says why: -errno). Before tc_sandbox_begin. */
int tc_sandbox_prepare_call(struct tc_sandbox *sb);

/* TC_IO_DIRECT, after tc_sandbox_prepare_call: the call's leaf's
 * memory.max, opened for writing (O_CLOEXEC, the caller's to close), into
 * which the caller that dispatches the call writes a lower limit of the
 * call's own before the tool can read its request; -1 without a leaf. */
int tc_sandbox_call_memory_fd(const struct tc_sandbox *sb);

/* TC_IO_DIRECT: the call was dispatched at dispatch_ns (tc_now_ns's clock)
 * by the caller, which wrote its lower memory limit (if any) into the
 * leaf and the request to the tool itself. As tc_sandbox_begin, but the
 * wall clock counts from dispatch_ns, the limits of tc_sandbox_call_limits
 * are only noted (in force already), and the CPU base is the one
 * tc_sandbox_prepare_call took while the entry was idle (nothing of the
 * sandbox runs between it and the dispatch: the harness is blocked in
 * its read), or taken now if it could not be. */
int tc_sandbox_begin_direct(struct tc_sandbox *sb, uint64_t dispatch_ns);

/* TC_IO_DIRECT: as tc_sandbox_begin_direct from now, when the tool's
 * output ended before the call began (tc_sandbox_output_ended): its quick
 * end is tried at the next tc_sandbox_on_events, and the init's backstop
 * starts only if that does not end the run (a warm sandbox's init is
 * told of its call then, not woken for a call already over). */
int tc_sandbox_begin_ended(struct tc_sandbox *sb);

/* A warm sandbox's call may run under lower memory and pids limits than
 * the spec's (each at most the spec's): with a cgroup leaf,
 * tc_sandbox_begin writes these into the call's leaf. Call before
 * tc_sandbox_begin; without a leaf it changes nothing (a server lowers
 * the rlimits inside). */
void tc_sandbox_call_limits(struct tc_sandbox *sb, uint64_t memory, uint64_t pids);

/* TC_IO_PIPES: the tool's stdin write end and stdout, stderr read ends
 * (O_CLOEXEC, blocking), now the caller's to close; -1 once taken.
 * TC_IO_DIRECT: the same, the caller's to make non-blocking if it wants. */
void tc_sandbox_take_stdio(struct tc_sandbox *sb, int ret_fds[3]);

/* TC_IO_PIPES: bytes of the tool's stderr that the caller relayed, so the
 * classification sees its last line (a MemoryError) as in other modes. */
void tc_sandbox_stderr_seen(struct tc_sandbox *sb, const char *buf, size_t len);

/* TC_IO_PIPES: the tool's stderr went past a cap the caller holds (it
 * passed on what came before): the sandbox is killed now, as for a cap of
 * toolcell's own: status output_limit, stderr_truncated. */
void tc_sandbox_stderr_over(struct tc_sandbox *sb);

/* TC_IO_DIRECT: whether poll reported, in p as tc_sandbox_pollfds filled
 * it, the end of the tool's stdout or stderr (every writer closed). */
bool tc_sandbox_output_ended(const struct tc_sandbox *sb, const struct pollfd *p);

/* Fill p[0 .. TC_SANDBOX_POLLFDS) with what to watch (fd -1: nothing). */
void tc_sandbox_pollfds(const struct tc_sandbox *sb, struct pollfd *p);

/* After poll (whether it reported anything for these entries or its
 * timeout came): handle what it reported in the entries tc_sandbox_pollfds
 * filled, then one turn of the supervisor (samples, limits, the deadline).
 * true when the run is over: then tc_sandbox_finish. */
bool tc_sandbox_on_events(struct tc_sandbox *sb, const struct pollfd *p);

/* The CLOCK_MONOTONIC time (tc_now_ns) by which tc_sandbox_on_events must
 * be called even if poll reports nothing; UINT64_MAX: none. */
uint64_t tc_sandbox_deadline(const struct tc_sandbox *sb);

/* The whole loop, blocking, until the run is over: 0, or -errno when poll
 * failed (the sandbox is killed; finish reports a sandbox_error). */
int tc_sandbox_supervise(struct tc_sandbox *sb);

/* End the run for a reason of the caller's: its own signal (the record
 * says "toolcell received SIG..."), a client gone, a server draining. The
 * run ends as signaled, once tc_sandbox_on_events says it is over. */
void tc_sandbox_kill(struct tc_sandbox *sb, int signal);

/* Apply the workspace's layer to the host folder now, while the sandbox
 * lives (a session, after each request), filling *st; finish applies it
 * again at the end. 0 (nothing to do without a workspace), or -errno:
 * -ENOENT when the layer has not arrived, as tc_workspace_apply else. */
int tc_sandbox_apply_workspace_now(struct tc_sandbox *sb, struct tc_workspace_stats *st);

/* The sandbox's init, as seen from the host (for logs and tests). */
pid_t tc_sandbox_pid(const struct tc_sandbox *sb);

/* After the run is over (a run not over yet is killed first): reap, read
 * the figures, classify, apply the workspace, fill out and res. Returns 0
 * when the tool ran (whatever its outcome), or -errno when the sandbox
 * could not be built, with err (unless NULL) and out->err saying why. Once
 * per sandbox. */
int tc_sandbox_finish(struct tc_sandbox *sb, struct tc_outcome *out, struct tc_sandbox_result *res,
		      struct tc_error *err);

/* Kill and reap whatever is left, close everything, free the sandbox and
 * set *sb to NULL. Nothing when *sb is NULL; safe at any step. */
void tc_sandbox_release(struct tc_sandbox **sb);

/* Build the sandbox, run spec->argv in it, supervise it to the end and fill
 * out (every field the launcher knows). Returns 0 when the tool ran (whatever
 * its outcome), or -errno when the sandbox could not be built, with err and
 * out->err saying why. The run ends early (spec->early_end, without a
 * workspace): its init, in its exit, is reaped by tc_sandbox_reap_deferred,
 * which runs at exit() and at the next run, so that no process is left
 * behind once the process ends. It takes the process to be a one-shot
 * one: it raises malloc's M_TRIM_THRESHOLD to 64 MiB (the heap is given
 * back at exit, not trimmed on the way). */
int tc_sandbox_run(const struct tc_sandbox_spec *spec, struct tc_outcome *out,
		   struct tc_sandbox_result *res, struct tc_error *err);

/* Reap the init of the last tc_sandbox_run that ended early (its teardown
 * done); nothing if there is none. A caller that ends by other means than
 * exit() (a signal of its own) calls it first. */
void tc_sandbox_reap_deferred(void);

void tc_sandbox_result_release(struct tc_sandbox_result *res);

#endif
