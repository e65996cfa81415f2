/* `toolcell serve`'s runner (see serve-internal.h): the server's child that
 * drives one warm entry's sandbox through the lifecycle (sandbox.h), from
 * its start to its teardown. The tool's stdio is the server's (TC_IO_DIRECT:
 * it writes the request and reads the output on the tool's own pipes, which
 * we hand it in a note on our fd 3); we read the server's messages on our
 * stdin (the warm-up is done; the call was dispatched, under these limits),
 * watch the output's end without reading it, and send the outcome on fd 3
 * as soon as the call is over (early_end), before the namespaces'
 * teardown. The server's death ends us (PDEATHSIG), whose death ends the
 * sandbox. Runs in the parent (toolcell's side of clone). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "serve-internal.h"
#include "toolcell/sandbox.h"
#include "util.h"

/* The sandbox's loop, as tc_sandbox_supervise, but the call begins (its
 * clock from its dispatch, its CPU figures, the init's backstop, the
 * samples) when the server's begin arrives on our stdin: until then the
 * entry is idle, and costs no wake-up. The tool's pipes (stdio) are ours
 * until its ready line arrives, then the server's: the call's frame and
 * output go between it and the tool directly, not through us. */
static void runner_supervise(struct tc_sandbox *sb, int stdio[3])
{
	struct pollfd p[TC_SANDBOX_POLLFDS + 2];
	bool begun = false;

	for (bool over = false; !over;) {
		tc_sandbox_pollfds(sb, p);
		p[TC_SANDBOX_POLLFDS] = (struct pollfd){ .fd = begun ? -1 : 0, .events = POLLIN };
		/* until the harness's ready line: its stdout, for the line's
		 * arrival (the server reads it) */
		p[TC_SANDBOX_POLLFDS + 1] = (struct pollfd){ .fd = stdio[1], .events = POLLIN };
		if (poll(p, TC_ARRAY_SIZE(p), tc_poll_timeout(tc_sandbox_deadline(sb))) < 0 &&
		    errno != EINTR)
			return; /* finish kills it and says why */
		/* the warm-up is done, the harness on its way into its read:
		 * the call's leaf and CPU base now, then the tool's pipes and
		 * the leaf's memory.max to the server, which reads the line */
		if (stdio[1] >= 0 && p[TC_SANDBOX_POLLFDS + 1].revents) {
			int fds[4] = { stdio[0], stdio[1], stdio[2], -1 };

			stdio[0] = stdio[1] = stdio[2] = -1;
			/* failed (or the harness gone), the sandbox is killed
			 * or ends: its outcome says why, the entry never ready */
			if ((p[TC_SANDBOX_POLLFDS + 1].revents & POLLIN) &&
			    tc_sandbox_prepare_call(sb) == 0) {
				fds[3] = tc_sandbox_call_memory_fd(sb);
				tc_serve_wire_note(3, SERVE_NOTE_READY, fds, 4);
			}
			for (size_t i = 0; i < TC_ARRAY_SIZE(fds); i++)
				tc_closep(&fds[i]);
		}
		/* the tool's output ended before the server's begin came
		 * (which only a call that still runs a moment after its
		 * dispatch gets): the call began, its clock and deadline are
		 * the server's; an idle entry's output never ends */
		if (!begun && stdio[1] < 0 && !p[TC_SANDBOX_POLLFDS].revents &&
		    tc_sandbox_output_ended(sb, p)) {
			begun = true;
			(void)tc_sandbox_begin_ended(sb);
		}
		/* the call started at its dispatch, under the limits the
		 * server wrote into the leaf before the frame */
		if (!begun && p[TC_SANDBOX_POLLFDS].revents) {
			struct serve_begin b = { 0 };
			bool whole = tc_read_full(0, &b, sizeof(b)) == (ssize_t)sizeof(b);

			begun = true;
			if (whole)
				tc_sandbox_call_limits(sb, b.memory, b.pids);
			/* it fails only when the init is gone: the run ends anyway */
			(void)tc_sandbox_begin_direct(sb, b.dispatch_ns);
		}
		over = tc_sandbox_on_events(sb, p);
	}
	for (int i = 0; i < 3; i++)
		tc_closep(&stdio[i]);
}

_Noreturn void tc_serve_runner_main(const struct server *s, pid_t server, const int fds[4])
{
	const struct tc_serve_policy *sp = &s->setup->policy;
	static const char *const defaults[] = { "json", "re", "math", "datetime", "collections" };
	char imports[TC_SERVE_IMPORTS_MAX * 65] = "";
	char *argv[] = { "python3", "-I", (char *)s->setup->harness, imports, NULL };
	struct tc_sandbox_spec spec = { .cfg = &s->entry_cfg,
					.argv = argv,
					.cwd = "/",
					.io = TC_IO_DIRECT,
					.warm = true,
					.early_end = true };
	struct tc_sandbox_result res = { 0 };
	struct tc_sandbox *sb = NULL;
	struct tc_error e = { 0 };
	struct wire_outcome *w = malloc(sizeof(*w));
	char *wire = malloc(sizeof(*w));
	struct tc_outcome o;

	/* the server's death (even by SIGKILL) ends the runner, and so the sandbox */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != server || !w)
		_exit(1);
	for (int i = 0; i < 4; i++)
		if (dup2(fds[i], i) < 0)
			_exit(1);
	/* nothing of the server's (its socket, its callers) stays open here */
	close_range(4, ~0U, 0);
	for (size_t i = 0; i < (sp->has_preimport ? sp->n_preimport : TC_ARRAY_SIZE(defaults));
	     i++) {
		size_t n = strlen(imports);
		snprintf(imports + n, sizeof(imports) - n, "%s%s", n ? "," : "",
			 sp->has_preimport ? sp->preimport[i] : defaults[i]);
	}
	tc_outcome_init(&o);
	/* the server sets our priority (which the sandbox's processes inherit)
	 * before this byte: set by us, it could come after a waiting call's
	 * tc_serve_prio_hurry had set it back */
	if (tc_read_full(0, &(char){ 0 }, 1) != 1)
		_exit(1);
	if (tc_sandbox_start(&spec, &sb, &e) < 0) {
		o.status = TC_STATUS_SANDBOX_ERROR;
		o.err = e;
	} else {
		int stdio[3];

		/* the server writes the call's frame to the tool and reads its
		 * output itself, once the entry is ready */
		tc_sandbox_take_stdio(sb, stdio);
		runner_supervise(sb, stdio);
		tc_sandbox_finish(sb, &o, &res, &e);
	}
	tc_serve_wire_pack(&o, res.exec_errno, w);
	/* the answer goes now; the sandbox's teardown follows, off its path */
	if (wire)
		(void)tc_write_all(3, wire, tc_serve_wire_encode(w, wire));
	close_range(0, 3, 0);
	/* the teardown (done by the init's exit, the last process of the
	 * namespaces) yields to the calls that run; raising a nice value
	 * needs no privilege */
	if (sb)
		setpriority(PRIO_PROCESS, (id_t)tc_sandbox_pid(sb), TC_SERVE_WARM_NICE);
	setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
	tc_sandbox_release(&sb);
	_exit(0);
}
