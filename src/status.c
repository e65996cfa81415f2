/* The words for how a run ended (status.h): one table row per status, and the
 * stages whose refusals are not toolcell's fault. Pure; parent side, after the sandbox. */
#include <signal.h>
#include <stdio.h>

#include "status.h"
#include "util.h"

static const struct {
	const char *error_type;
	const char *limit_words;
} status_words[] = {
	/* ok and exit_nonzero: any error is the tool's own */
	[TC_STATUS_OK] = { NULL, NULL },
	[TC_STATUS_EXIT_NONZERO] = { NULL, NULL },
	[TC_STATUS_SIGNALED] = { "Signaled", NULL },
	[TC_STATUS_TIMEOUT] = { "Timeout", "the tool reached its time limit" },
	[TC_STATUS_MEMORY_LIMIT] = { "MemoryLimit", "the tool reached its memory limit" },
	[TC_STATUS_PIDS_LIMIT] = { "PidsLimit", "the tool reached its process limit" },
	[TC_STATUS_OUTPUT_LIMIT] = { "OutputLimit",
				     "the tool exceeded its output limit and was stopped" },
	[TC_STATUS_SYSCALL_DENIED] = { "SyscallDenied", "the tool made a forbidden system call" },
	[TC_STATUS_REJECTED] = { "BadRequest", NULL },
	[TC_STATUS_SANDBOX_ERROR] = { "SandboxError", NULL },
};

const char *tc_status_error_type(enum tc_status s)
{
	/* not a status: never claim success */
	return (size_t)s < TC_ARRAY_SIZE(status_words) ? status_words[s].error_type
						       : "SandboxError";
}

const char *tc_status_limit_words(enum tc_status s)
{
	return (size_t)s < TC_ARRAY_SIZE(status_words) ? status_words[s].limit_words : NULL;
}

/* Whose fault an error of each stage is: the caller's input, the site's
 * configuration, or (every stage not named here) toolcell's own. */
static const enum tc_fault stage_fault[TC_STAGE__MAX] = {
	[TC_STAGE_CLI] = TC_FAULT_CALLER,
	[TC_STAGE_POLICY] = TC_FAULT_CALLER,
	[TC_STAGE_REQUEST] = TC_FAULT_CALLER,
	[TC_STAGE_CONFIG] = TC_FAULT_SITE,
};

enum tc_fault tc_error_fault(const struct tc_error *err)
{
	return (size_t)err->stage < TC_ARRAY_SIZE(stage_fault) ? stage_fault[err->stage]
							       : TC_FAULT_TOOLCELL;
}

/* Which time limit fired, and which setting raises it. */
static void explain_timeout(const struct tc_outcome *o, const uint64_t limit[TC_LIMIT__MAX],
			    const char *w, char *buf, size_t n)
{
	bool cpu = o->signaled && (o->signal == SIGXCPU || o->status_inferred);
	uint64_t ms = limit[cpu ? TC_LIMIT_CPU_TIME : TC_LIMIT_WALL];

	if (cpu)
		snprintf(buf, n,
			 "%s (CPU time): toolcell's own limit of %g s, not its caller's (raise "
			 "--cpu-time or the policy's limits.cpu_time)",
			 w, (double)ms / 1000);
	else
		snprintf(buf, n,
			 "%s (wall clock): toolcell's own limit of %g s, not its caller's (raise "
			 "--timeout, TOOLCELL_TIMEOUT or the policy's limits.timeout)",
			 w, (double)ms / 1000);
}

bool tc_status_explain(const struct tc_outcome *o, const uint64_t limit[TC_LIMIT__MAX], bool quiet,
		       char *buf, size_t n)
{
	const char *w = tc_status_limit_words(o->status);

	buf[0] = '\0';
	if (o->status == TC_STATUS_SANDBOX_ERROR || o->err.message[0]) {
		snprintf(buf, n, "%s", o->err.message);
		return buf[0] != '\0';
	}
	if (quiet || !w)
		return false;
	if (o->status == TC_STATUS_TIMEOUT)
		explain_timeout(o, limit, w, buf, n);
	else if (o->status == TC_STATUS_SYSCALL_DENIED && o->has_denied_syscall)
		snprintf(buf, n, "%s (%s, number %d)", w, o->denied_syscall_name,
			 o->denied_syscall_nr);
	else if (o->status == TC_STATUS_OUTPUT_LIMIT)
		snprintf(buf, n, "%s (%s)", w, o->stdout_truncated ? "stdout" : "stderr");
	else if (o->status == TC_STATUS_SYSCALL_DENIED)
		snprintf(buf, n,
			 "%s (a system call of another architecture: x32 or int 0x80; SIGSYS)", w);
	else
		snprintf(buf, n, "%s%s", w,
			 o->status_inferred ? " (inferred from its last words)" : "");
	return true;
}
