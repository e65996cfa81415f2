/* Unit tests for `toolcell serve`'s priorities (serve-prio.c): when an
 * entry gets ready, its runner and the runner's children and grandchildren
 * (the init, the tool, every thread of each) are set back to the server's
 * priority, a hurried entry's too, and no other process is touched. Needs root (CAP_SYS_NICE
 * to set a priority back). */
#include "tc-test.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve-internal.h"

/* A thread that writes its id to the fd it is given, then waits */
static void *idle_thread(void *arg)
{
	pid_t tid = gettid();

	(void)!write((int)(intptr_t)arg, &tid, sizeof(tid));
	for (;;)
		pause();
	return NULL;
}

/* A process at nice 19 that waits to be killed. With report, it first
 * forks one more such process (the "tool"), which starts a thread (at
 * 19 too, as a preimport's would be) and writes its id to report_thread,
 * and writes the tool's pid to report. */
static pid_t sleeper(int report, int report_thread)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* a failed test leaves nothing behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
		if (report >= 0) {
			pid_t kid = sleeper(-1, report_thread);

			(void)!write(report, &kid, sizeof(kid));
		} else if (report_thread >= 0) {
			pthread_t t;

			if (pthread_create(&t, NULL, idle_thread, (void *)(intptr_t)report_thread))
				_exit(1);
		}
		for (;;)
			pause();
	}
	return pid;
}

/* The "runner": our child at nice 19, with one child of its own (the
 * "init") at nice 19, which has one (the "tool", with a thread); the
 * runner writes the init's pid to report, the init the tool's to
 * report_tool, the tool's thread its id to report_thread. The runner
 * reaps what ends. */
static pid_t runner(int report, int report_tool, int report_thread)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t kid;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, TC_SERVE_WARM_NICE);
		kid = sleeper(report_tool, report_thread);
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
		fail_msg("needs root (CAP_SYS_NICE)");
	skip();
	return 0;
}

static pid_t read_pid(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	pid_t pid = 0;

	/* a writer that failed (its thread not made) fails the test, never hangs it */
	assert_int_equal(poll(&p, 1, 10000), 1);
	assert_int_equal(read(fd, &pid, sizeof(pid)), sizeof(pid));
	/* it has set its own priority once it is 19 */
	for (int i = 0; i < 1000 && nice_of(pid) != TC_SERVE_WARM_NICE; i++)
		usleep(1000);
	assert_int_equal(nice_of(pid), TC_SERVE_WARM_NICE);
	return pid;
}

/* e.pid a runner with an init and a tool with a thread, all at nice 19,
 * as they warm up */
static void warm_entry(struct entry *e, pid_t *ret_init, pid_t *ret_tool, pid_t *ret_thread)
{
	int p[2], q[2], r[2];

	memset(e, 0, sizeof(*e));
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(pipe2(q, O_CLOEXEC), 0);
	assert_int_equal(pipe2(r, O_CLOEXEC), 0);
	e->pid = runner(p[1], q[1], r[1]);
	assert_true(e->pid > 0);
	*ret_init = read_pid(p[0]);
	*ret_tool = read_pid(q[0]);
	*ret_thread = read_pid(r[0]);
	for (int i = 0; i < 2; i++) {
		close(p[i]);
		close(q[i]);
		close(r[i]);
	}
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
	pid_t init, tool, thread, other = sleeper(-1, -1);

	(void)state;
	warm_entry(&e, &init, &tool, &thread);
	for (int i = 0; i < 1000 && nice_of(other) != TC_SERVE_WARM_NICE; i++)
		usleep(1000);
	tc_serve_prio_ready(&e);
	assert_int_equal(nice_of(e.pid), 0);
	assert_int_equal(nice_of(init), 0);
	assert_int_equal(nice_of(tool), 0);
	assert_int_equal(nice_of(thread), 0);
	/* not the runner's: left alone */
	assert_int_equal(nice_of(other), TC_SERVE_WARM_NICE);
	end(other);
	end(e.pid);
}

static void test_hurried_set_back(void **state)
{
	struct entry e;
	pid_t init, tool, thread;

	(void)state;
	warm_entry(&e, &init, &tool, &thread);
	/* hurried, a process still inside its clone when the hurry walked
	 * kept the 19 it copied: ready sets it back all the same */
	e.hurried = true;
	tc_serve_prio_ready(&e);
	assert_int_equal(nice_of(e.pid), 0);
	assert_int_equal(nice_of(init), 0);
	assert_int_equal(nice_of(tool), 0);
	assert_int_equal(nice_of(thread), 0);
	end(e.pid);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test_setup(test_ready_sets_back, root_only),
	     cmocka_unit_test_setup(test_hurried_set_back, root_only))
