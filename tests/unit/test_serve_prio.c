/* Unit tests for `toolcell serve`'s priorities (serve-prio.c): when an
 * entry gets ready, its runner and the runner's children and grandchildren
 * (the init, the tool) are set back to the server's priority, and no other
 * process is touched. Needs root (CAP_SYS_NICE to set a priority back). */
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

/* A process at nice 19 that waits to be killed. */
static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* a failed test leaves nothing behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
		for (;;)
			pause();
	}
	return pid;
}

/* The "runner": our child at nice 19, with one child of its own (the
 * "init") at nice 19, whose pid it writes to report; it reaps what ends. */
static pid_t runner(int report)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t kid;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
		kid = sleeper();
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

/* e.pid a runner with an init, both at nice 19, as they warm up */
static void warm_entry(struct entry *e, pid_t *ret_init)
{
	int p[2];

	memset(e, 0, sizeof(*e));
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
	assert_int_equal(nice_of(e->pid), TC_SERVE_WARM_NICE);
}

static void end(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_ready_sets_back(void **state)
{
	struct entry e;
	pid_t init, other = sleeper();

	(void)state;
	warm_entry(&e, &init);
	for (int i = 0; i < 1000 && nice_of(other) != TC_SERVE_WARM_NICE; i++)
		usleep(1000);
	tc_serve_prio_ready(&e);
	assert_int_equal(nice_of(e.pid), 0);
	assert_int_equal(nice_of(init), 0);
	/* not the runner's: left alone */
	assert_int_equal(nice_of(other), TC_SERVE_WARM_NICE);
	end(other);
	end(e.pid);
}

static void test_hurried_untouched(void **state)
{
	struct entry e;
	pid_t init;

	(void)state;
	warm_entry(&e, &init);
	/* hurried, it is at ours already (tc_serve_prio_hurry): nothing to do */
	e.hurried = true;
	tc_serve_prio_ready(&e);
	assert_int_equal(nice_of(e.pid), TC_SERVE_WARM_NICE);
	assert_int_equal(nice_of(init), TC_SERVE_WARM_NICE);
	end(e.pid);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test_setup(test_ready_sets_back, root_only),
	     cmocka_unit_test_setup(test_hurried_untouched, root_only))
