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
#include <errno.h>
#include <string.h>
#include <unistd.h>

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

/* A /proc/PID/stat text whose comm (the tool's to set, up to 15 bytes) holds
 * ") R" and numbers: the fields count from the last ')'. */
static const char hostile_stat[] =
	"42 (x) 1 2 3 4 5) S 7 42 42 0 -1 4194560 1216 0 2 0 150 30 4 1 20 0 1 0 99 0 0 "
	"18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 768\n";

static void test_stat_fields_count_from_the_last_paren(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 4, &v), 0);
	assert_int_equal(v, 7); /* ppid */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 9, &v), 0);
	assert_int_equal(v, 4194560); /* flags */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 10, &v), 0);
	assert_int_equal(v, 1216); /* minflt */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 12, &v), 0);
	assert_int_equal(v, 2); /* majflt */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 20, &v), 0);
	assert_int_equal(v, 1); /* num_threads */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 23, &v), 0);
	assert_int_equal(v, 0); /* vsize */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 52, &v), 0);
	assert_int_equal(v, 768); /* exit_code */
	assert_int_equal(tc_supervise_stat_field(hostile_stat, 53, &v), -EINVAL);
	assert_int_equal(tc_supervise_stat_field("no paren 1 2 3", 4, &v), -EINVAL);
	assert_int_equal(tc_supervise_stat_field("1 (a) S", 4, &v), -EINVAL);
}

/* ticks 150 user, 30 system, 4 and 1 of reaped children: an exact run time
 * above the ticks' is split as they split it; below, the ticks stand */
static void test_add_cpu_splits_the_exact_run_time(void **state)
{
	uint64_t tick = 1000000000u / (uint64_t)sysconf(_SC_CLK_TCK), ns[2] = { 0, 0 };
	uint64_t run = 181 * tick;

	(void)state;
	assert_int_equal(tc_supervise_add_cpu(hostile_stat, run, ns), 0);
	assert_int_equal(ns[0] + ns[1], run + 5 * tick);
	assert_int_equal(ns[0], run * 150 / 180 + 4 * tick);
	ns[0] = ns[1] = 0;
	assert_int_equal(tc_supervise_add_cpu(hostile_stat, 0, ns), 0);
	assert_int_equal(ns[0], 154 * tick);
	assert_int_equal(ns[1], 31 * tick);
	assert_int_equal(tc_supervise_add_cpu("garbage", 0, ns), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone_and_drained_ends_early),
		cmocka_unit_test(test_others_left_wait_for_the_init),
		cmocka_unit_test(test_output_pending_waits),
		cmocka_unit_test(test_a_kill_of_ours_waits),
		cmocka_unit_test(test_without_early_end_waits),
		cmocka_unit_test(test_stat_fields_count_from_the_last_paren),
		cmocka_unit_test(test_add_cpu_splits_the_exact_run_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
