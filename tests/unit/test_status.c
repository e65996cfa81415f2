/* Unit tests for the words of a run's end: the envelope's error types, the
 * limit sentences, whose fault a refusal was, and the explaining line. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tc-test.h"
#include "status.h"
#include "util.h"

static void test_error_types(void **state)
{
	(void)state;
	assert_null(tc_status_error_type(TC_STATUS_OK));
	assert_null(tc_status_error_type(TC_STATUS_EXIT_NONZERO));
	assert_string_equal(tc_status_error_type(TC_STATUS_SIGNALED), "Signaled");
	assert_string_equal(tc_status_error_type(TC_STATUS_TIMEOUT), "Timeout");
	assert_string_equal(tc_status_error_type(TC_STATUS_MEMORY_LIMIT), "MemoryLimit");
	assert_string_equal(tc_status_error_type(TC_STATUS_PIDS_LIMIT), "PidsLimit");
	assert_string_equal(tc_status_error_type(TC_STATUS_OUTPUT_LIMIT), "OutputLimit");
	assert_string_equal(tc_status_error_type(TC_STATUS_SYSCALL_DENIED), "SyscallDenied");
	assert_string_equal(tc_status_error_type(TC_STATUS_REJECTED), "BadRequest");
	assert_string_equal(tc_status_error_type(TC_STATUS_SANDBOX_ERROR), "SandboxError");
	/* not a status: never success */
	assert_string_equal(tc_status_error_type((enum tc_status)99), "SandboxError");
	assert_null(tc_status_limit_words((enum tc_status)99));
}

static void test_limit_words(void **state)
{
	(void)state;
	assert_string_equal(tc_status_limit_words(TC_STATUS_TIMEOUT),
			    "the tool reached its time limit");
	assert_string_equal(tc_status_limit_words(TC_STATUS_OUTPUT_LIMIT),
			    "the tool exceeded its output limit and was stopped");
	assert_null(tc_status_limit_words(TC_STATUS_OK));
	assert_null(tc_status_limit_words(TC_STATUS_SIGNALED));
	assert_null(tc_status_limit_words(TC_STATUS_SANDBOX_ERROR));
}

/* Every stage with the name the record writes and whose fault it is,
 * written out here apart from error.c's and status.c's tables: a changed row
 * in either fails this test. */
static const struct {
	enum tc_stage stage;
	const char *name;
	enum tc_fault fault;
} every_stage[] = {
	{ TC_STAGE_NONE, "", TC_FAULT_TOOLCELL },
	{ TC_STAGE_CLI, "cli", TC_FAULT_CALLER },
	{ TC_STAGE_POLICY, "policy", TC_FAULT_CALLER },
	{ TC_STAGE_REQUEST, "request", TC_FAULT_CALLER },
	{ TC_STAGE_CONFIG, "config", TC_FAULT_SITE },
	{ TC_STAGE_MAIN, "main", TC_FAULT_TOOLCELL },
	{ TC_STAGE_AUDIT, "audit", TC_FAULT_TOOLCELL },
	{ TC_STAGE_ROOTFS, "rootfs", TC_FAULT_TOOLCELL },
	{ TC_STAGE_WORKSPACE, "workspace", TC_FAULT_TOOLCELL },
	{ TC_STAGE_CGROUP, "cgroup", TC_FAULT_TOOLCELL },
	{ TC_STAGE_KLIMITS, "klimits", TC_FAULT_TOOLCELL },
	{ TC_STAGE_SPAWN, "spawn", TC_FAULT_TOOLCELL },
	{ TC_STAGE_CLONE, "clone", TC_FAULT_TOOLCELL },
	{ TC_STAGE_SUPERVISE, "supervise", TC_FAULT_TOOLCELL },
	{ TC_STAGE_RESPONSE, "response", TC_FAULT_TOOLCELL },
	{ TC_STAGE_SERVE, "serve", TC_FAULT_TOOLCELL },
	{ TC_STAGE_ANSWER, "answer", TC_FAULT_TOOLCELL },
	{ TC_STAGE_USERNS, "userns", TC_FAULT_TOOLCELL },
	{ TC_STAGE_MOUNT, "mount", TC_FAULT_TOOLCELL },
	{ TC_STAGE_PROC, "proc", TC_FAULT_TOOLCELL },
	{ TC_STAGE_NET, "net", TC_FAULT_TOOLCELL },
	{ TC_STAGE_UTS, "uts", TC_FAULT_TOOLCELL },
	{ TC_STAGE_KEYRING, "keyring", TC_FAULT_TOOLCELL },
	{ TC_STAGE_CAPS, "caps", TC_FAULT_TOOLCELL },
	{ TC_STAGE_LANDLOCK, "landlock", TC_FAULT_TOOLCELL },
	{ TC_STAGE_SECCOMP, "seccomp", TC_FAULT_TOOLCELL },
	{ TC_STAGE_RLIMIT, "rlimit", TC_FAULT_TOOLCELL },
	{ TC_STAGE_EXEC, "exec", TC_FAULT_TOOLCELL },
	{ TC_STAGE_INIT, "init", TC_FAULT_TOOLCELL },
};

static void test_fault(void **state)
{
	struct tc_error e = { 0 };

	(void)state;
	/* every stage once, in the enum's order */
	assert_int_equal(TC_ARRAY_SIZE(every_stage), TC_STAGE__MAX);
	for (size_t i = 0; i < TC_ARRAY_SIZE(every_stage); i++) {
		assert_int_equal(every_stage[i].stage, i);
		e.stage = every_stage[i].stage;
		assert_string_equal(tc_stage_name(e.stage), every_stage[i].name);
		assert_int_equal(tc_error_fault(&e), every_stage[i].fault);
	}
	/* a value from outside the enum (a child's bytes) is toolcell's fault */
	e.stage = TC_STAGE__MAX;
	assert_int_equal(tc_error_fault(&e), TC_FAULT_TOOLCELL);
	assert_string_equal(tc_stage_name(e.stage), "spawn");
	e.stage = (enum tc_stage) - 1;
	assert_int_equal(tc_error_fault(&e), TC_FAULT_TOOLCELL);
	/* what a set error carries */
	assert_int_equal(tc_error_set(&e, TC_STAGE_POLICY, EINVAL, "x"), -EINVAL);
	assert_int_equal(tc_error_fault(&e), TC_FAULT_CALLER);
}

/* An error another process sent is held to the struct's terms. */
static void test_error_take(void **state)
{
	struct tc_error in, out;

	(void)state;
	memset(&in, 'x', sizeof(in));
	in.stage = (enum tc_stage)1000;
	in.err = EPERM;
	tc_error_take(&out, &in);
	assert_int_equal(out.stage, TC_STAGE_SPAWN);
	assert_int_equal(out.err, EPERM);
	assert_int_equal(strlen(out.message), sizeof(out.message) - 1);
	in.stage = TC_STAGE_MOUNT;
	tc_error_take(&out, &in);
	assert_int_equal(out.stage, TC_STAGE_MOUNT);
}

static void test_explain(void **state)
{
	uint64_t limit[TC_LIMIT__MAX] = { 0 };
	struct tc_outcome o;
	char buf[512];

	(void)state;
	limit[TC_LIMIT_WALL] = 1500;
	limit[TC_LIMIT_CPU_TIME] = 2000;
	tc_outcome_init(&o);
	assert_false(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	o.status = TC_STATUS_TIMEOUT;
	assert_true(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	assert_string_equal(buf, "the tool reached its time limit (wall clock): toolcell's own "
				 "limit of 1.5 s, not its caller's (raise --timeout, "
				 "TOOLCELL_TIMEOUT or the policy's limits.timeout)");
	o.signaled = true;
	o.signal = SIGXCPU;
	assert_true(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	assert_string_equal(buf, "the tool reached its time limit (CPU time): toolcell's own "
				 "limit of 2 s, not its caller's (raise --cpu-time or the "
				 "policy's limits.cpu_time)");
	/* quiet: no limit line */
	assert_false(tc_status_explain(&o, limit, true, buf, sizeof(buf)));
	tc_outcome_init(&o);
	o.status = TC_STATUS_SYSCALL_DENIED;
	o.has_denied_syscall = true;
	strcpy(o.denied_syscall_name, "ptrace");
	o.denied_syscall_nr = 101;
	assert_true(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	assert_string_equal(buf, "the tool made a forbidden system call (ptrace, number 101)");
	o.status = TC_STATUS_OUTPUT_LIMIT;
	o.stdout_truncated = true;
	assert_true(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	assert_string_equal(buf, "the tool exceeded its output limit and was stopped (stdout)");
	o.status = TC_STATUS_MEMORY_LIMIT;
	o.status_inferred = true;
	assert_true(tc_status_explain(&o, limit, false, buf, sizeof(buf)));
	assert_string_equal(buf,
			    "the tool reached its memory limit (inferred from its last words)");
	/* an error is said even when quiet */
	o.status = TC_STATUS_SANDBOX_ERROR;
	strcpy(o.err.message, "cannot mount /tmp: No space left on device");
	assert_true(tc_status_explain(&o, limit, true, buf, sizeof(buf)));
	assert_string_equal(buf, "cannot mount /tmp: No space left on device");
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_error_types), cmocka_unit_test(test_limit_words),
	     cmocka_unit_test(test_fault), cmocka_unit_test(test_error_take),
	     cmocka_unit_test(test_explain))
