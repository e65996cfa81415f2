/* Unit tests for how a relayed run's end becomes toolcell's own: the tool's
 * exit status passed through, 124 for a time limit, 126/127 when the
 * program could not start, 125 for toolcell's failure, and a signal death
 * (the tool's, or toolcell's own SIGTERM) left to main as end_signal. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "tc-test.h"
#include "verb.h"

/* no record file, no run id (so no audit line), quiet */
static struct tc_invocation v;

static int end(enum tc_status status, int exit_code, int sig, int exec_errno, int toolcell_sig)
{
	struct tc_sandbox_result res = { .exec_errno = exec_errno,
					 .toolcell_signal = toolcell_sig };

	memset(&v, 0, sizeof(v));
	v.result_fd = -1;
	v.rootfs_lock = -1;
	v.cli.quiet = true;
	tc_outcome_init(&v.out);
	v.out.status = status;
	v.out.exited = sig == 0;
	v.out.exit_code = exit_code;
	v.out.signaled = sig != 0;
	v.out.signal = sig;
	return tc_verb_finish_relay(&v, &res);
}

static void test_exit_status(void **state)
{
	(void)state;
	assert_int_equal(end(TC_STATUS_OK, 0, 0, 0, 0), 0);
	assert_int_equal(v.end_signal, 0);
	assert_int_equal(end(TC_STATUS_EXIT_NONZERO, 3, 0, 0, 0), 3);
	/* a tool's own 124-127 passes through unchanged */
	assert_int_equal(end(TC_STATUS_EXIT_NONZERO, 125, 0, 0, 0), 125);
	assert_int_equal(end(TC_STATUS_TIMEOUT, 0, SIGKILL, 0, 0), TC_EXIT_TIMEOUT);
	assert_int_equal(v.end_signal, 0);
	assert_int_equal(end(TC_STATUS_EXIT_NONZERO, 127, 0, ENOENT, 0), TC_EXIT_NOTFOUND);
	assert_int_equal(end(TC_STATUS_EXIT_NONZERO, 127, 0, ENOTDIR, 0), TC_EXIT_NOTFOUND);
	assert_int_equal(end(TC_STATUS_EXIT_NONZERO, 126, 0, EACCES, 0), TC_EXIT_NOEXEC);
	assert_int_equal(end(TC_STATUS_SANDBOX_ERROR, 0, 0, 0, 0), TC_EXIT_TOOLCELL);
}

static void test_signals(void **state)
{
	(void)state;
	/* the tool's death by a signal: main ends toolcell by the same */
	assert_int_equal(end(TC_STATUS_SIGNALED, 0, SIGSEGV, 0, 0), TC_EXIT_TOOLCELL);
	assert_int_equal(v.end_signal, SIGSEGV);
	assert_int_equal(end(TC_STATUS_MEMORY_LIMIT, 0, SIGKILL, 0, 0), TC_EXIT_TOOLCELL);
	assert_int_equal(v.end_signal, SIGKILL);
	/* toolcell's own SIGTERM first, whatever the tool did */
	assert_int_equal(end(TC_STATUS_SIGNALED, 0, SIGKILL, 0, SIGTERM), TC_EXIT_TOOLCELL);
	assert_int_equal(v.end_signal, SIGTERM);
	/* a time limit by SIGKILL is 124, not a signal death */
	assert_int_equal(end(TC_STATUS_TIMEOUT, 0, SIGXCPU, 0, 0), TC_EXIT_TIMEOUT);
	assert_int_equal(v.end_signal, 0);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_exit_status), cmocka_unit_test(test_signals))
