/* A warm sandbox's tool, watched through /proc (supervise.h): found when the
 * entry is ready, as the init's only child, single-threaded with no child of
 * its own (the harness, blocked on its read); its /proc directory and the
 * two schedstat files (the init's, the tool's) stay open, so that a later
 * read costs a pread, not a path walk, and names that process even when
 * its pid is reused (the directory's reads fail with ESRCH once it is
 * reaped). Parent side. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	tc_closep(&s->tool_dir);
	tc_closep(&s->sched_fd[0]);
	tc_closep(&s->sched_fd[1]);
	s->tool_pid = 0;
}

int tc_supervise_find_tool(struct tc_supervisor *s)
{
	char path[64], buf[512];
	uint64_t threads, ppid;
	char *end;
	long pid;
	int r;

	if (s->tool_dir >= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", s->pid, s->pid);
	r = read_at(AT_FDCWD, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	pid = strtol(buf, &end, 10);
	if (end == buf || pid <= 0 || strspn(end, " \n") != strlen(end))
		return -EBUSY; /* none, or more than one */
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	s->tool_dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/%d/schedstat", s->pid);
	s->sched_fd[0] = open(path, O_RDONLY | O_CLOEXEC);
	if (s->tool_dir >= 0)
		s->sched_fd[1] = openat(s->tool_dir, "schedstat", O_RDONLY | O_CLOEXEC);
	s->tool_pid = (pid_t)pid;
	snprintf(path, sizeof(path), "task/%ld/children", pid);
	/* opened after the children were read: the same process if its
	 * parent is still the init (a reused pid would name another) */
	if (s->tool_dir < 0 || s->sched_fd[0] < 0 || s->sched_fd[1] < 0 ||
	    read_at(s->tool_dir, "stat", buf, sizeof(buf)) < 0 ||
	    tc_supervise_stat_field(buf, 4, &ppid) < 0 || ppid != (uint64_t)s->pid ||
	    tc_supervise_stat_field(buf, 20, &threads) < 0 || threads != 1 ||
	    read_at(s->tool_dir, path, buf, sizeof(buf)) != 0) {
		tc_supervise_tool_release(s);
		return -EBUSY;
	}
	return 0;
}

int tc_supervise_idle_mark(const struct tc_supervisor *s, uint64_t ret_ns[2])
{
	for (int i = 0; i < 2; i++) {
		char buf[128];
		int r = tc_supervise_pread(s->sched_fd[i], buf, sizeof(buf));

		if (r <= 0)
			return r < 0 ? r : -EIO;
		ret_ns[i] = strtoull(buf, NULL, 10);
	}
	return 0;
}
