/* One sandboxed run, end to end: the parent prepares everything, clones the
 * sandbox, supervises it and fills struct tc_outcome. This is the launcher's
 * public entry point; sandbox.c implements it on top of the per-concept
 * modules (userns, mount, net, caps, child, relay, supervise). */
#ifndef TOOLCELL_SANDBOX_H
#define TOOLCELL_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "toolcell/record.h"

#define TC_TOOL_UID 1000u /* the tool's uid and gid inside every sandbox */
#define TC_TOOL_GID 1000u

/* Where the tool's stdin comes from and where its stdout goes. */
enum tc_io_mode {
	TC_IO_RELAY,  /* toolcell's own fd 0 / fd 1 */
	TC_IO_MEMORY, /* stdin from spec->stdin_buf; stdout captured into the result */
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
};

/* What the run produced besides the outcome. */
struct tc_sandbox_result {
	char *stdout_buf; /* TC_IO_MEMORY: the captured stdout (NUL-terminated); owned */
	size_t stdout_len;
	int exec_errno;	     /* the tool's execve failed with this errno (0: it did not) */
	int toolcell_signal; /* toolcell got SIGTERM/SIGINT/SIGHUP and stopped the run */
};

/* Build the sandbox, run spec->argv in it, supervise it to the end and fill
 * out (every field the launcher knows). Returns 0 when the tool ran (whatever
 * its outcome), or -errno when the sandbox could not be built, with err and
 * out->err saying why; no process is left behind in either case. */
int tc_sandbox_run(const struct tc_sandbox_spec *spec, struct tc_outcome *out,
		   struct tc_sandbox_result *res, struct tc_error *err);

void tc_sandbox_result_release(struct tc_sandbox_result *res);

#endif
