/* Unit tests for the words of a run's end: the envelope's error types, the
 * limit sentences, whose fault a refusal was, and the explaining line. */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "status.h"

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

static void test_fault(void **state)
{
	struct tc_error e = { 0 };

	(void)state;
	strcpy(e.stage, "cli");
	assert_int_equal(tc_error_fault(&e), TC_FAULT_CALLER);
	strcpy(e.stage, "policy");
	assert_int_equal(tc_error_fault(&e), TC_FAULT_CALLER);
	strcpy(e.stage, "request");
	assert_int_equal(tc_error_fault(&e), TC_FAULT_CALLER);
	strcpy(e.stage, "config");
	assert_int_equal(tc_error_fault(&e), TC_FAULT_SITE);
	strcpy(e.stage, "mount");
	assert_int_equal(tc_error_fault(&e), TC_FAULT_TOOLCELL);
	strcpy(e.stage, "clip"); /* a prefix match is no match */
	assert_int_equal(tc_error_fault(&e), TC_FAULT_TOOLCELL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_types),
		cmocka_unit_test(test_limit_words),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_explain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
