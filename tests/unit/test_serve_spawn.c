/* Unit tests for how `toolcell serve` takes its spawner's replies
 * (serve-spawn.c, tc_serve_spawn_on_event): a whole reply gives its entry
 * the runner and its five descriptors; any other (too few or too many
 * descriptors, too many bytes, a runner nobody asked for) gives none, its
 * descriptors closed and its runner killed and reaped; an empty message,
 * its EOF, keeps none of the descriptors it brings. A test's spawner is
 * the other end of a socketpair, its runner a child of the test that
 * waits. */
#include "tc-test.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve-internal.h"

struct rig {
	struct server s;
	int peer;     /* the spawner's end */
	int fds;      /* our open descriptors before the test */
	pid_t runner; /* the test's, ended at its end if it failed */
};

/* A child that waits to be killed, or for the test's end */
static pid_t waiter(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(1);
		for (;;)
			pause();
	}
	return pid;
}

/* pid killed and reaped, unless it was reaped already */
static void end_child(pid_t pid)
{
	if (pid > 0 && waitpid(pid, NULL, WNOHANG) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static int setup(void **state)
{
	struct rig *g = calloc(1, sizeof(*g));
	int sv[2];

	if (!g || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	g->s.spawner.sock = sv[0];
	g->s.spawner.pid = waiter(); /* stands for the spawner: never asked */
	g->s.queue_tail = &g->s.queue;
	g->peer = sv[1];
	g->fds = tc_test_open_fds();
	*state = g;
	return 0;
}

static int teardown(void **state)
{
	struct rig *g = *state;

	while (g->s.entries)
		tc_serve_pool_unspawned(&g->s, g->s.entries);
	end_child(g->s.spawner.pid);
	end_child(g->runner);
	close(g->s.spawner.sock);
	close(g->peer);
	free(g);
	return 0;
}

/* An entry waiting for the runner asked for with seq */
static struct entry *asking(struct server *s, uint64_t seq)
{
	struct entry *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->ctl = e->to = e->from = e->err = e->status = e->mem_fd = e->pidfd = -1;
	e->spawn_seq = seq;
	e->next = s->entries;
	s->entries = e;
	s->n_entries++;
	s->spawner.pending++;
	return e;
}

/* The spawner's reply: r and n descriptors, then len - sizeof(r) more bytes */
static void reply(struct rig *g, const struct spawn_reply *r, size_t n, size_t len)
{
	char buf[64] = { 0 };

	assert_true(len <= sizeof(buf));
	memcpy(buf, r, sizeof(*r));
	assert_int_equal(tc_test_send_fds(g->peer, n, buf, len), (ssize_t)len);
	tc_serve_spawn_on_event(&g->s, POLLIN);
}

static void test_whole_reply(void **state)
{
	struct rig *g = *state;
	struct entry *e = asking(&g->s, 1);
	pid_t runner = g->runner = waiter();
	struct spawn_reply r = { .seq = 1, .pid = runner };

	reply(g, &r, SPAWN_FDS, sizeof(r));
	assert_ptr_equal(g->s.entries, e);
	assert_int_equal(e->pid, runner);
	assert_true(e->ctl >= 0 && e->from >= 0 && e->err >= 0 && e->status >= 0 && e->pidfd >= 0);
	assert_int_equal(tc_test_open_fds(), g->fds + SPAWN_FDS);
	assert_int_equal(g->s.spawner.pending, 0);
	assert_int_equal(g->s.backoff_until_ns, 0);
	/* not hurried: it warms up behind the running calls */
	errno = 0;
	assert_int_equal(getpriority(PRIO_PROCESS, (id_t)runner), TC_SERVE_WARM_NICE);
	assert_int_equal(errno, 0);
	kill(runner, SIGKILL);
	assert_int_equal(waitpid(runner, NULL, 0), runner);
	tc_serve_pool_unspawned(&g->s, e);
	assert_int_equal(tc_test_open_fds(), g->fds);
	if (getpriority(PRIO_PROCESS, 0) == TC_SERVE_WARM_NICE)
		skip(); /* the runner had that priority from us: not shown */
}

/* A reply that is refused: its runner was killed and reaped, its entry
 * (when one asked for it) is gone, no descriptor is left and the next
 * entry waits SPAWN_BACKOFF_MS */
static void refused(struct rig *g, pid_t runner, bool entry_gone)
{
	assert_int_equal(waitpid(runner, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	if (entry_gone) {
		assert_null(g->s.entries);
		assert_int_equal(g->s.n_entries, 0);
	}
	assert_int_equal(g->s.spawner.pending, 0);
	assert_int_equal(tc_test_open_fds(), g->fds);
	assert_true(g->s.backoff_until_ns > 0);
}

/* An entry's runner comes with a reply of n descriptors and len bytes,
 * which is refused */
static void refuse(struct rig *g, size_t n, size_t len)
{
	pid_t runner = g->runner = waiter();
	struct spawn_reply r = { .seq = 2, .pid = runner };

	asking(&g->s, 2);
	reply(g, &r, n, len);
	refused(g, runner, true);
}

static void test_too_many_fds(void **state)
{
	/* on LP64 six fit the control buffer (CMSG_SPACE rounds five ints up
	 * to six) and come whole, without MSG_CTRUNC; elsewhere the sixth is
	 * cut (MSG_CTRUNC), which refuses it too */
	refuse(*state, SPAWN_FDS + 1, sizeof(struct spawn_reply));
}

static void test_too_few_fds(void **state)
{
	refuse(*state, SPAWN_FDS - 1, sizeof(struct spawn_reply));
}

static void test_too_many_bytes(void **state)
{
	refuse(*state, SPAWN_FDS, sizeof(struct spawn_reply) + 8); /* cut: MSG_TRUNC */
}

static void test_unasked(void **state)
{
	struct rig *g = *state;
	struct entry *e = asking(&g->s, 5);
	pid_t runner = g->runner = waiter();
	struct spawn_reply r = { .seq = 6, .pid = runner };

	reply(g, &r, SPAWN_FDS, sizeof(r));
	refused(g, runner, false);
	/* the entry that asked still waits for its own */
	assert_ptr_equal(g->s.entries, e);
	assert_int_equal(g->s.n_entries, 1);
	assert_int_equal(e->pid, 0);
}

/* An empty message is the spawner's end to take_reply (a real EOF brings
 * no descriptors; one sent anyway are closed) */
static void test_empty_is_eof(void **state)
{
	struct rig *g = *state;

	asking(&g->s, 7);
	reply(g, &(struct spawn_reply){ 0 }, 2, 0);
	assert_int_equal(tc_test_open_fds(), g->fds);
	assert_int_equal(g->s.spawner.pending, 1);
	assert_int_equal(g->s.entries->pid, 0);
	assert_int_equal(g->s.backoff_until_ns, 0);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test_setup_teardown(test_whole_reply, setup, teardown),
	     cmocka_unit_test_setup_teardown(test_too_many_fds, setup, teardown),
	     cmocka_unit_test_setup_teardown(test_too_few_fds, setup, teardown),
	     cmocka_unit_test_setup_teardown(test_too_many_bytes, setup, teardown),
	     cmocka_unit_test_setup_teardown(test_unasked, setup, teardown),
	     cmocka_unit_test_setup_teardown(test_empty_is_eof, setup, teardown))
