/* `toolcell serve`'s priorities (see serve-internal.h): an entry warms up
 * (its sandbox built, its interpreter started) at nice TC_SERVE_WARM_NICE
 * and is set back to ours once ready (idle until its call), so that
 * refills never take CPU from the calls that run; one a call already
 * waits for warms at ours. Setting a priority back needs CAP_SYS_NICE
 * (the tool's own RLIMIT_NICE is 0), so without it entries warm at our
 * priority. Runs in the server. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "caps.h"
#include "serve-internal.h"
#include "supervise.h"
#include "util.h"

/* Whether we may set a priority back (CAP_SYS_NICE). */
bool tc_serve_prio_can_lower(void)
{
	static int known = -1;

	if (known < 0)
		known = (tc_caps_effective() >> CAP_SYS_NICE) & 1;
	return known == 1;
}

/* Our own nice value (the server's, as the operator started it: nice -n,
 * systemd's Nice=), which entries are set back to: never a higher
 * priority than ours. */
static int ours(void)
{
	static int nice = -100;

	if (nice == -100) {
		errno = 0;
		nice = getpriority(PRIO_PROCESS, 0);
		if (nice == -1 && errno)
			nice = 0;
	}
	return nice;
}

/* The pids /proc lists as pid's children, into pids (0 for none). */
static void children_of(pid_t pid, pid_t *pids, size_t n)
{
	char path[64], buf[256], *p = buf, *end;
	_cleanup_close_ int fd = -1;
	ssize_t len;
	size_t i = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	len = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[len > 0 ? len : 0] = '\0';
	for (long v; i < n && (v = strtol(p, &end, 10)) > 0; p = end)
		pids[i++] = (pid_t)v;
}

/* pid's parent, as /proc says now (0: gone or unreadable). */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[1024];
	_cleanup_close_ int fd = -1;
	uint64_t ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (tc_supervise_pread(fd, buf, sizeof(buf)) < 0 ||
	    tc_supervise_stat_field(buf, 4, &ppid) < 0)
		return 0;
	return (pid_t)ppid;
}

/* Whether the process behind pidfd is still there: running, or a zombie
 * not reaped yet (its pid stays its own until then). */
static bool present(int pidfd)
{
	return pidfd >= 0 && (pidfd_send_signal(pidfd, 0, NULL, 0) == 0 || errno == EPERM);
}

/* pid, a child of parent's, with a pidfd that holds on to it: 0, or -1
 * when it is not (any more) parent's child. The pid read from /proc may
 * have been reused by the time pidfd_open runs; the process the pidfd
 * names is parent's child if /proc says so while it is still there. */
static int hold(pid_t pid, pid_t parent, pid_t *ret_pid, int *ret_pidfd)
{
	int fd = (int)pidfd_open(pid, 0);

	if (fd < 0 || parent_of(pid) != parent || !present(fd)) {
		tc_closep(&fd);
		return -1;
	}
	*ret_pid = pid;
	*ret_pidfd = fd;
	return 0;
}

/* pid (held) back to our priority, every thread of it: a nice value is a
 * thread's, and a thread that a preimport started in the warm-up (numpy's
 * BLAS, say) would run its call at 19. The main thread first: a thread
 * made meanwhile by it inherits ours. The pidfd holds the leader only: a
 * thread's id is checked to be pid's (its /proc/PID/task entry) right
 * before it is set, as hold() checks a child; only a thread that ended
 * and a pid counter that went round in between could make it another's. */
static void set_back(pid_t pid)
{
	char path[64];
	DIR *d;

	setpriority(PRIO_PROCESS, (id_t)pid, ours());
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	for (struct dirent *t; (t = readdir(d));) {
		char *end;
		long tid = strtol(t->d_name, &end, 10);

		if (tid > 0 && !*end && tid != pid &&
		    faccessat(dirfd(d), t->d_name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			setpriority(PRIO_PROCESS, (id_t)tid, ours());
	}
	closedir(d);
}

/* parent's children (and theirs, depth levels down) back to our priority,
 * each right after its parent: a child forked before its parent was set
 * back is listed by then, one forked after inherits ours */
static void restore_below(pid_t parent, int depth)
{
	pid_t kids[4] = { 0 }, pid;
	int fd;

	children_of(parent, kids, TC_ARRAY_SIZE(kids));
	for (size_t i = 0; i < TC_ARRAY_SIZE(kids) && kids[i]; i++) {
		if (hold(kids[i], parent, &pid, &fd) < 0)
			continue;
		set_back(pid);
		close(fd);
		if (depth > 1)
			restore_below(pid, depth - 1);
	}
}

/* The entry got ready: its runner and its sandbox (the init, its child
 * the tool) back to our priority, where its call will run. Idle until
 * that call (each of them blocked, the tool in its read of the frame), it
 * takes no CPU from a running call at ours, and the dispatch sets nothing
 * on the call's path. Only toolcell's code has run in them so far. A
 * hurried entry too: a child still inside its clone when the hurry walked
 * (not listed yet, with the nice it copied at the clone's start) is
 * listed now. */
void tc_serve_prio_ready(struct entry *e)
{
	if (!tc_serve_prio_can_lower())
		return;
	setpriority(PRIO_PROCESS, (id_t)e->pid, ours());
	restore_below(e->pid, 2);
}

/* A call waits for uid's next entry: the ones warming for it go at our
 * priority from now on (nothing but toolcell's code has run in them),
 * top down, since they are still making processes. */
void tc_serve_prio_hurry(struct server *s, uid_t uid)
{
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->uid == uid && e->state == ENTRY_STARTING && !e->hurried) {
			e->hurried = true;
			/* a runner not made yet is not lowered (serve-spawn.c) */
			if (!tc_serve_prio_can_lower() || e->pid == 0)
				continue;
			setpriority(PRIO_PROCESS, (id_t)e->pid, ours());
			restore_below(e->pid, 2); /* the init and the tool */
		}
}
