/* Unit tests for `toolcell serve`'s priorities (serve-prio.c): at
 * dispatch, the processes noted when an entry got ready are set back to
 * the server's priority while they live, and a pid reused since by an
 * unrelated process is left alone. Needs root (CAP_SYS_NICE to set a
 * priority back, CAP_SYS_ADMIN for clone3's set_tid to reuse a pid). */
#include "tc-test.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve-internal.h"

/* A process at nice 19 that waits to be killed; with set_tid, it gets
 * that pid. */
static pid_t sleeper(pid_t set_tid)
{
	struct clone_args a = { .exit_signal = SIGCHLD };
	pid_t pid;

	if (set_tid) {
		a.set_tid = (uint64_t)(uintptr_t)&set_tid;
		a.set_tid_size = 1;
	}
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0) {
		/* a failed test leaves nothing behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
		for (;;)
			pause();
	}
	return pid;
}

/* The "runner": our child, with one child of its own (the "init") at nice
 * 19, whose pid it writes to report; it reaps what ends. */
static pid_t runner(int report)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t kid;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		kid = sleeper(0);
		(void)!write(report, &kid, sizeof(kid));
		for (;;)
			if (wait(NULL) < 0)
				pause();
	}
	return pid;
}

static int nice_of(pid_t pid)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, (id_t)pid);
}

static int root_only(void **state)
{
	(void)state;
	if (geteuid() == 0)
		return 0;
	/* CI runs the unit tests as root: a skip there is a failure */
	if (getenv("CI"))
		fail_msg("needs root (CAP_SYS_NICE, clone3 set_tid)");
	skip();
	return 0;
}

/* e.pid a runner with an init at nice 19, noted as at READY */
static void ready_entry(struct entry *e, pid_t *ret_init)
{
	int p[2];

	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < TC_ARRAY_SIZE(e->warm_pidfds); i++)
		e->warm_pidfds[i] = -1;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	e->pid = runner(p[1]);
	assert_true(e->pid > 0);
	assert_int_equal(read(p[0], ret_init, sizeof(*ret_init)), sizeof(*ret_init));
	close(p[0]);
	close(p[1]);
	/* the init has set its own priority once it is 19 */
	for (int i = 0; i < 1000 && nice_of(*ret_init) != TC_SERVE_WARM_NICE; i++)
		usleep(1000);
	assert_int_equal(nice_of(*ret_init), TC_SERVE_WARM_NICE);
	tc_serve_prio_note(e);
	assert_int_equal(e->warm_pids[0], *ret_init);
	assert_true(e->warm_pidfds[0] >= 0);
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_live_init_set_back(void **state)
{
	struct entry e;
	pid_t init;

	(void)state;
	ready_entry(&e, &init);
	tc_serve_prio_restore(&e);
	assert_int_equal(nice_of(init), 0);
	/* the pidfds are given back with the pids */
	assert_int_equal(e.warm_pids[0], 0);
	assert_int_equal(e.warm_pidfds[0], -1);
	end(e.pid);
}

static void test_reused_pid_left_alone(void **state)
{
	struct entry e;
	pid_t init, other = -1;

	(void)state;
	ready_entry(&e, &init);
	/* the init dies idle and its runner reaps it; then an unrelated
	 * process of ours gets the same pid */
	kill(init, SIGKILL);
	for (int i = 0; i < 1000 && other < 0; i++) {
		other = sleeper(init);
		if (other < 0)
			usleep(1000); /* EEXIST: not reaped yet */
	}
	assert_int_equal(other, init);
	for (int i = 0; i < 1000 && nice_of(other) != TC_SERVE_WARM_NICE; i++)
		usleep(1000);
	tc_serve_prio_restore(&e);
	assert_int_equal(nice_of(other), TC_SERVE_WARM_NICE);
	end(other);
	end(e.pid);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test_setup(test_live_init_set_back, root_only),
	     cmocka_unit_test_setup(test_reused_pid_left_alone, root_only))
