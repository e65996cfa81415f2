/* A warm sandbox's tool, watched through /proc (supervise.h): found when the
 * entry is ready, as the init's only child, single-threaded with no child of
 * its own (the harness, blocked on its read); its /proc directory and the
 * two schedstat files (the init's, the tool's) stay open, so that a later
 * read costs a pread, not a path walk, and names that process even when
 * its pid is reused (the directory's reads fail with ESRCH once it is
 * reaped). Parent side. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "supervise.h"
#include "util.h"

int tc_supervise_pread(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	/* /proc's files make their text anew for a read at offset 0 */
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

static int read_at(int dir, const char *name, char *buf, size_t size)
{
	_cleanup_close_ int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : tc_supervise_pread(fd, buf, size);
}

int tc_supervise_stat_field(const char *stat, int field, uint64_t *ret)
{
	const char *p = strrchr(stat, ')');

	if (!p || field < 3)
		return -EINVAL;
	/* fields 1 and 2 are the pid and the (comm): count from after it */
	for (int f = 3; *++p; f++) {
		char *end;

		while (*p == ' ')
			p++;
		if (f == field) {
			*ret = strtoull(p, &end, 10);
			return end == p ? -EINVAL : 0;
		}
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
	}
	return -EINVAL;
}

void tc_supervise_tool_release(struct tc_supervisor *s)
{
	for (int i = 0; i < TC_TOOL_FD__N; i++)
		tc_closep(&s->tool_fd[i]);
	s->tool_pid = 0;
}

/* kB of a /proc/PID/status text's field (VmHWM:) */
static int status_kib(const char *status, const char *key, uint64_t *ret)
{
	const char *p = strstr(status, key);

	if (!p)
		return -ENOENT;
	*ret = strtoull(p + strlen(key), NULL, 10);
	return 0;
}

/* Whether a single thread's children file (held open) lists none. */
static bool childless(int fd)
{
	char buf[64];

	return tc_supervise_pread(fd, buf, sizeof(buf)) == 0;
}

/* Whether the init's only child is the tool (or, with tool 0, which): from
 * its children file held open (fd), or else opened now. */
static int only_child(int fd, pid_t init, pid_t *tool)
{
	char path[64], buf[256];
	char *end;
	long pid;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", init, init);
	r = fd >= 0 ? tc_supervise_pread(fd, buf, sizeof(buf))
		    : read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	pid = strtol(buf, &end, 10);
	if (end == buf || pid <= 0 || strspn(end, " \n") != strlen(end))
		return -EBUSY; /* none, or more than one */
	if (*tool && pid != *tool)
		return -EBUSY;
	*tool = (pid_t)pid;
	return 0;
}

static int open_files(struct tc_supervisor *s)
{
	static const char *const in_dir[] = { [TC_TOOL_FD_STAT] = "stat",
					      [TC_TOOL_FD_STATUS] = "status",
					      [TC_TOOL_FD_SCHED] = "schedstat" };
	char path[64], buf[2048];
	int *fd = s->tool_fd;

	/* the pidfd first: while it names a live process, the pid names it */
	fd[TC_TOOL_FD_PIDFD] = (int)pidfd_open(s->tool_pid, 0);
	snprintf(path, sizeof(path), "/proc/%d", s->tool_pid);
	fd[TC_TOOL_FD_DIR] = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (int i = TC_TOOL_FD_STAT; i <= TC_TOOL_FD_SCHED; i++)
		fd[i] = fd[TC_TOOL_FD_DIR] < 0
				? -1
				: openat(fd[TC_TOOL_FD_DIR], in_dir[i], O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/stat", s->pid);
	fd[TC_TOOL_FD_INIT_STAT] = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", s->pid);
	fd[TC_TOOL_FD_INIT_SCHED] = open(path, O_RDONLY | O_CLOEXEC);
	/* each a single thread's (the tool's, blocked in its read; the
	 * init's): a process's children are its threads' */
	snprintf(path, sizeof(path), "task/%d/children", s->tool_pid);
	fd[TC_TOOL_FD_CHILDREN] = fd[TC_TOOL_FD_DIR] < 0
					  ? -1
					  : openat(fd[TC_TOOL_FD_DIR], path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", s->pid, s->pid);
	fd[TC_TOOL_FD_INIT_CHILDREN] = open(path, O_RDONLY | O_CLOEXEC);
	for (int i = 0; i < TC_TOOL_FD__N; i++)
		if (fd[i] < 0)
			return -errno;
	/* the init's own peak: it allocates nothing more while it waits */
	snprintf(path, sizeof(path), "/proc/%d/status", s->pid);
	if (read_at(AT_FDCWD, path, buf, sizeof(buf)) < 0 ||
	    status_kib(buf, "\nVmHWM:", &s->init_hwm_kib) < 0)
		return -EIO;
	return pidfd_send_signal(fd[TC_TOOL_FD_PIDFD], 0, NULL, 0) < 0 ? -errno : 0;
}

int tc_supervise_find_tool(struct tc_supervisor *s)
{
	char buf[512];
	uint64_t threads, ppid;
	pid_t tool = 0;
	int r;

	if (s->tool_fd[TC_TOOL_FD_DIR] >= 0)
		return 0;
	r = only_child(-1, s->pid, &tool);
	if (r < 0)
		return r;
	s->tool_pid = tool;
	/* opened after the children were read: the same process while its
	 * parent is the init (a reused pid would name another), the pidfd's
	 * (alive when checked after the directory was opened) */
	/* the quick end's looks for the exit sleep 20 us: a slack of 5 us,
	 * not the default 50 (set here, once, off the call's path) */
	(void)prctl(PR_SET_TIMERSLACK, 5000UL, 0, 0, 0);
	if (open_files(s) < 0 ||
	    tc_supervise_pread(s->tool_fd[TC_TOOL_FD_STAT], buf, sizeof(buf)) < 0 ||
	    tc_supervise_stat_field(buf, 4, &ppid) < 0 || ppid != (uint64_t)s->pid ||
	    tc_supervise_stat_field(buf, 20, &threads) < 0 || threads != 1 ||
	    !childless(s->tool_fd[TC_TOOL_FD_CHILDREN])) {
		tc_supervise_tool_release(s);
		return -EBUSY;
	}
	return 0;
}

int tc_supervise_idle_mark(const struct tc_supervisor *s, uint64_t ret_ns[2])
{
	const int fd[2] = { s->tool_fd[TC_TOOL_FD_INIT_SCHED], s->tool_fd[TC_TOOL_FD_SCHED] };

	for (int i = 0; i < 2; i++) {
		char buf[128];
		int r = tc_supervise_pread(fd[i], buf, sizeof(buf));

		if (r <= 0)
			return r < 0 ? r : -EIO;
		ret_ns[i] = strtoull(buf, NULL, 10);
	}
	return 0;
}

/* ---- the quick end ---- */

#define PF_EXITING     0x4	  /* include/linux/sched.h: set by do_exit's first step */
#define QUICK_GO       SIGURG	  /* ignored by default: a tool that did not ask loses nothing */
#define QUICK_WATCH_NS 2000000ull /* how long we look for the exit after the go */
#define QUICK_LOOK_NS  20000	  /* between two looks */

/* The figures of one /proc/PID/stat reading the quick end needs. */
struct tool_stat {
	char text[1024];
	uint64_t flags, faults[2], threads, vsize, exit_code;
};

static int tool_stat(const struct tc_supervisor *s, struct tool_stat *t)
{
	int r = tc_supervise_pread(s->tool_fd[TC_TOOL_FD_STAT], t->text, sizeof(t->text));

	if (r < 0)
		return r;
	/* flags, minflt, majflt, num_threads, vsize, exit_code (proc(5)) */
	if (tc_supervise_stat_field(t->text, 9, &t->flags) < 0 ||
	    tc_supervise_stat_field(t->text, 10, &t->faults[0]) < 0 ||
	    tc_supervise_stat_field(t->text, 12, &t->faults[1]) < 0 ||
	    tc_supervise_stat_field(t->text, 20, &t->threads) < 0 ||
	    tc_supervise_stat_field(t->text, 23, &t->vsize) < 0 ||
	    tc_supervise_stat_field(t->text, 52, &t->exit_code) < 0)
		return -EINVAL;
	return 0;
}

/* Exited past the point of no return: do_exit sets PF_EXITING, then
 * exit_code, then (exit_mm) drops the memory map, which /proc shows as a
 * vsize of 0; so with both seen, exit_code is final, as wait will say it
 * (a single thread's exit_code is its group's). */
static bool exited(const struct tool_stat *t)
{
	return (t->flags & PF_EXITING) && t->vsize == 0 && t->threads == 1;
}

/* Whether the process of this stat text has reaped no process (cminflt
 * and cmajflt 0: a child that ran faulted, at its exec at the latest). A
 * reaped child's peak is kept only for its parent's rusage (cmaxrss),
 * which no /proc file shows, and its CPU only in whole clock ticks. */
static bool reaped_none(const char *stat)
{
	uint64_t c[2];

	return tc_supervise_stat_field(stat, 11, &c[0]) == 0 &&
	       tc_supervise_stat_field(stat, 13, &c[1]) == 0 && c[0] == 0 && c[1] == 0;
}

/* Whether the tool's stat counts more CPU than its one thread's run time
 * (ns): a thread of it that ended, whose CPU the kernel keeps for the
 * process in whole clock ticks only (each figure cut: up to two short) */
static bool dead_threads(const char *stat, uint64_t run)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t u, s;

	return hz <= 0 || tc_supervise_stat_field(stat, 14, &u) < 0 ||
	       tc_supervise_stat_field(stat, 15, &s) < 0 ||
	       (u + s) * (1000000000u / (uint64_t)hz) > run;
}

/* The sandbox's CPU now (ns: user, system), the init and the tool;
 * -EBUSY when either has reaped a process (the init: an orphan of the
 * tool's) or a thread of the tool's ended with CPU beyond a tick's cut */
static int cpu_now(const struct tc_supervisor *s, const struct tool_stat *t, uint64_t ns[2])
{
	char init_stat[1024];
	uint64_t run[2];

	ns[0] = ns[1] = 0;
	if (tc_supervise_idle_mark(s, run) < 0 ||
	    tc_supervise_pread(s->tool_fd[TC_TOOL_FD_INIT_STAT], init_stat, sizeof(init_stat)) < 0)
		return -EIO;
	if (!reaped_none(init_stat) || !reaped_none(t->text) || dead_threads(t->text, run[1]))
		return -EBUSY;
	if (tc_supervise_add_cpu(init_stat, run[0], ns) < 0 ||
	    tc_supervise_add_cpu(t->text, run[1], ns) < 0)
		return -EIO;
	return 0;
}

void tc_supervise_quick_end(struct tc_supervisor *s)
{
	char status[2048];
	struct tool_stat before, after;
	uint64_t hwm = 0, until, ns[2];
	pid_t tool = s->tool_pid;

	s->end_seen = true;
	/* its peak while it lives and can no longer write to us; then the go
	 * (the harness waits for it, HACKING.md), even when we give up */
	if (tool_stat(s, &before) < 0 || (before.flags & PF_EXITING) || before.threads != 1 ||
	    tc_supervise_pread(s->tool_fd[TC_TOOL_FD_STATUS], status, sizeof(status)) < 0 ||
	    status_kib(status, "\nVmHWM:", &hwm) < 0)
		hwm = 0;
	(void)pidfd_send_signal(s->tool_fd[TC_TOOL_FD_PIDFD], QUICK_GO, NULL, 0);
	if (!hwm)
		return;
	/* a sleep, not a spin: on a busy machine the tool may wait for our
	 * CPU; and first, as the tool has yet to wake up */
	for (until = tc_now_ns() + QUICK_WATCH_NS;;) {
		nanosleep(&(struct timespec){ .tv_nsec = QUICK_LOOK_NS }, NULL);
		if (tool_stat(s, &after) < 0)
			return; /* reaped already: the init's report follows */
		if (exited(&after))
			break;
		if (tc_now_ns() >= until)
			return;
	}
	/* no page faulted in since the peak was read: it is the exit's; no
	 * other process (the tool's children first: a child it leaves goes
	 * to the init, never the other way); then the CPU */
	if (memcmp(before.faults, after.faults, sizeof(before.faults)) != 0 ||
	    !childless(s->tool_fd[TC_TOOL_FD_CHILDREN]) ||
	    only_child(s->tool_fd[TC_TOOL_FD_INIT_CHILDREN], s->pid, &tool) < 0 ||
	    cpu_now(s, &after, ns) < 0)
		return;
	/* the rest of its exit (the kernel freeing its memory) yields to
	 * what answers and to the caller, as the init's teardown does (nice
	 * 19: SCHED_IDLE would starve it on a busy machine, and the entry
	 * counts until it is gone); the pid is the tool's: unreaped a moment
	 * ago, and a freed pid is taken again only when the counter wraps */
	(void)setpriority(PRIO_PROCESS, (id_t)tool, 19);
	s->exited_ns = tc_now_ns();
	s->tool_status_known = true;
	s->tool_status = (int)after.exit_code;
	s->tool_alone = true;
	s->alone_cpu_us[0] = ns[0] / 1000u;
	s->alone_cpu_us[1] = ns[1] / 1000u;
	s->alone_maxrss_kib = hwm > s->init_hwm_kib ? hwm : s->init_hwm_kib;
}
