/* Unit tests for the supervisor's end of a run (supervise.c): with
 * early_end, the run is over once the init has reported the tool's exit as
 * the sandbox's last process and both output streams are drained, before
 * the init's own exit; not while another process runs, output is pending,
 * a kill of toolcell's ended it, or without early_end. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "supervise.h"

static void stream_idle(struct tc_stream *st, bool eof)
{
	memset(st, 0, sizeof(*st));
	st->src = st->dst = st->own_dst = -1;
	st->src_eof = eof;
}

/* A warm supervisor (no clock, no samples) whose tool exited, alone when
 * alone, its figures sent. */
static void exited(struct tc_supervisor *s, bool early_end, bool alone)
{
	memset(s, 0, sizeof(*s));
	s->pid = -1;
	s->pidfd = s->sync_fd = s->sig_fd = s->listener = -1;
	s->workspace_fd = -1;
	s->warm = true;
	s->early_end = early_end;
	stream_idle(&s->in, true);
	stream_idle(&s->out, true);
	stream_idle(&s->err, true);
	tc_supervise_init(s);
	s->tool_status_known = true;
	s->tool_alone = alone;
}

static void test_alone_and_drained_ends_early(void **state)
{
	struct tc_supervisor s;

	(void)state;
	exited(&s, true, true);
	assert_true(tc_supervise_turn(&s));
	assert_true(s.ended_early);
	assert_true(s.end_ns > 0);
	assert_false(s.init_exited);
}

static void test_others_left_wait_for_the_init(void **state)
{
	struct tc_supervisor s;

	(void)state;
	exited(&s, true, false);
	assert_false(tc_supervise_turn(&s));
	assert_false(s.ended_early);
}

static void test_output_pending_waits(void **state)
{
	struct tc_supervisor s;

	(void)state;
	exited(&s, true, true);
	s.out.src_eof = false;
	assert_false(tc_supervise_turn(&s));
	exited(&s, true, true);
	s.err.src_eof = false;
	assert_false(tc_supervise_turn(&s));
	assert_false(s.ended_early);
}

static void test_a_kill_of_ours_waits(void **state)
{
	struct tc_supervisor s;

	(void)state;
	exited(&s, true, true);
	s.reason = TC_KILL_TIMEOUT;
	assert_false(tc_supervise_turn(&s));
	assert_false(s.ended_early);
}

static void test_without_early_end_waits(void **state)
{
	struct tc_supervisor s;

	(void)state;
	exited(&s, false, true);
	assert_false(tc_supervise_turn(&s));
	assert_false(s.ended_early);
	/* the init's exit ends it as always */
	s.init_exited = true;
	s.end_ns = 1;
	assert_true(tc_supervise_turn(&s));
	assert_false(s.ended_early);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone_and_drained_ends_early),
		cmocka_unit_test(test_others_left_wait_for_the_init),
		cmocka_unit_test(test_output_pending_waits),
		cmocka_unit_test(test_a_kill_of_ours_waits),
		cmocka_unit_test(test_without_early_end_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
