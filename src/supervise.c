/* The supervisor's poll loop (see supervise.h). Parent side, after the
 * maps are written. */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "child.h"
#include "sockbuf.h"
#include "supervise.h"
#include "util.h"

#define TC_FLUSH_GRACE_MS 2000 /* after the end, how long output may take to drain */
#define TC_WALK_MAX	  8192 /* processes a sample follows at most */
/* A tool may reach its process limit and cope with EAGAIN; a fork bomb
 * stays there. Kill only after the count has sat at the limit this long. */
#define TC_PIDS_GRACE_MS 250
/* A tool that makes refused calls in a loop would have toolcell answer as
 * fast as it asks, a CPU of ours per CPU of its own, counted nowhere. At
 * most this many answers per tick (2,000 a second, far more than a tool
 * that only probes makes): a call past them waits in the kernel, its
 * caller asleep, for the next tick. */
#define TC_REFUSALS_PER_TICK 20
#define TC_REFUSAL_TICK_MS   10

static int walk(pid_t pid, bool precise, uint64_t *ret_rss, uint64_t *ret_tasks, uint64_t tick_ns,
		uint64_t *cpu);

static void count_then_kill(struct tc_supervisor *s)
{
	/* the processes the kill takes are never reaped by the init, so their
	 * CPU never reaches its rusage: count it now */
	if (!s->killed_cpu_known && tc_supervise_cpu(s->pid, s->killed_cpu_ms) == 0)
		s->killed_cpu_known = true;
	pidfd_send_signal(s->pidfd, SIGKILL, NULL, 0);
}

void tc_supervise_kill(struct tc_supervisor *s, enum tc_kill_reason why)
{
	if (s->init_exited)
		return;
	/* the first reason observed wins; within one turn of the loop the
	 * checks run in the tie order of HACKING.md */
	if (s->reason == TC_KILL_NONE)
		s->reason = why;
	count_then_kill(s);
}

static int read_small(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = tc_read_full(fd, buf, size - 1);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return (int)n;
}

/* One process's /proc/PID/stat: rss (bytes), num_threads, and its CPU
 * in clock ticks, user and system, its own and its reaped children's. */
struct proc_stat {
	uint64_t rss, threads, user, sys, cuser, csys;
};

static int parse_stat(const char *buf, struct proc_stat *st)
{
	/* utime, stime, cutime, cstime, num_threads, rss (proc(5)) */
	static const int field[] = { 14, 15, 16, 17, 20, 24 };
	uint64_t *to[] = { &st->user, &st->sys, &st->cuser, &st->csys, &st->threads, &st->rss };

	for (size_t i = 0; i < TC_ARRAY_SIZE(field); i++)
		if (tc_supervise_stat_field(buf, field[i], to[i]) < 0)
			return -EINVAL;
	st->rss *= (uint64_t)sysconf(_SC_PAGESIZE);
	return 0;
}

static int stat_of(pid_t pid, struct proc_stat *st)
{
	char path[64], buf[1024];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ESRCH;
	return parse_stat(buf, st);
}

/* append the children of one task (pid's thread tid) to list */
static size_t children_of_task(pid_t pid, long tid, pid_t *list, size_t n, size_t max)
{
	char path[96], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/task/%ld/children", pid, tid);
	if (read_small(path, buf, sizeof(buf)) > 0)
		for (char *p = buf, *end; *p && n < max; p = end) {
			long c = strtol(p, &end, 10);
			if (end == p)
				break;
			list[n++] = (pid_t)c;
		}
	return n;
}

/* append the children of every task of pid to list */
static size_t children_of(pid_t pid, uint64_t threads, pid_t *list, size_t n, size_t max)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	if (threads <= 1)
		return children_of_task(pid, pid, list, n, max);
	/* several threads: each may have forked */
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return n;
	while ((de = readdir(d)) && n < max) {
		long tid = strtol(de->d_name, NULL, 10);
		if (tid > 0)
			n = children_of_task(pid, tid, list, n, max);
	}
	closedir(d);
	return n;
}

/* proportional set size: shared pages split between their users */
static uint64_t pss_of(pid_t pid)
{
	char path[64], buf[2048];
	const char *p;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	if (read_small(path, buf, sizeof(buf)) < 0 || !(p = strstr(buf, "\nPss:")))
		return 0;
	return strtoull(p + 5, NULL, 10) * 1024;
}

/* The run time of pid's live threads in ns (/proc's schedstat: exact,
 * where stat's CPU figures are cut to whole clock ticks). */
static uint64_t run_ns(pid_t pid, uint64_t threads)
{
	char path[96], buf[128];
	uint64_t sum = 0;
	struct dirent *de;
	DIR *d;

	if (threads <= 1) {
		snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
		return read_small(path, buf, sizeof(buf)) > 0 ? strtoull(buf, NULL, 10) : 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);
		char file[96];

		snprintf(file, sizeof(file), "/proc/%d/task/%ld/schedstat", pid, tid);
		if (tid > 0 && read_small(file, buf, sizeof(buf)) > 0)
			sum += strtoull(buf, NULL, 10);
	}
	closedir(d);
	return sum;
}

/* Add one process's CPU to ns (user, system). Its own ticks are the
 * kernel's split of its run time cut to whole ticks (10 ms at 100 Hz): a
 * warm entry's CPU at dispatch would be up to a tick short per figure and
 * the call's that much long. So the total is the exact run time where the
 * live threads hold all of it, split as the ticks are (all user when no
 * tick was counted, as the kernel's own rusage does); reaped children
 * count in ticks, the only unit the kernel keeps them in. */
static void add_cpu_run(const struct proc_stat *st, uint64_t run, uint64_t tick_ns, uint64_t ns[2])
{
	uint64_t u = st->user * tick_ns, s = st->sys * tick_ns;

	if (run > u + s) {
		u = st->user + st->sys
			    ? (uint64_t)((unsigned __int128)run * st->user / (st->user + st->sys))
			    : run;
		s = run - u;
	}
	ns[0] += u + st->cuser * tick_ns;
	ns[1] += s + st->csys * tick_ns;
}

static void add_cpu(pid_t pid, const struct proc_stat *st, uint64_t tick_ns, uint64_t ns[2])
{
	add_cpu_run(st, run_ns(pid, st->threads), tick_ns, ns);
}

int tc_supervise_add_cpu(const char *stat, uint64_t run, uint64_t ns[2])
{
	struct proc_stat st;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || parse_stat(stat, &st) < 0)
		return -EINVAL;
	add_cpu_run(&st, run, 1000000000u / (uint64_t)hz, ns);
	return 0;
}

/* Walk the processes below the init at pid; with cpu (ns, user and system,
 * one clock tick being tick_ns), the init itself counts too (its reaped
 * children's CPU). */
static int walk(pid_t pid, bool precise, uint64_t *ret_rss, uint64_t *ret_tasks, uint64_t tick_ns,
		uint64_t *cpu)
{
	static pid_t list[TC_WALK_MAX];
	uint64_t rss_sum = 0, tasks = 0;
	struct proc_stat st;
	size_t n = 0;

	if (stat_of(pid, &st) < 0)
		return -ESRCH;
	if (cpu) {
		cpu[0] = cpu[1] = 0;
		add_cpu(pid, &st, tick_ns, cpu);
	}
	n = children_of(pid, st.threads, list, 0, TC_WALK_MAX);
	for (size_t i = 0; i < n; i++) {
		if (stat_of(list[i], &st) < 0)
			continue; /* gone meanwhile */
		rss_sum += precise ? pss_of(list[i]) : st.rss;
		tasks += st.threads;
		if (cpu)
			add_cpu(list[i], &st, tick_ns, cpu);
		n = children_of(list[i], st.threads, list, n, TC_WALK_MAX);
	}
	*ret_rss = rss_sum;
	*ret_tasks = tasks;
	return 0;
}

int tc_supervise_cpu(pid_t pid, uint64_t ret_ms[2])
{
	uint64_t rss, tasks, ns[2];
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || walk(pid, false, &rss, &tasks, 1000000000u / (uint64_t)hz, ns) < 0)
		return -ESRCH;
	ret_ms[0] = ns[0] / 1000000u;
	ret_ms[1] = ns[1] / 1000000u;
	return 0;
}

int tc_supervise_sample(pid_t pid, bool precise, uint64_t *ret_rss, uint64_t *ret_tasks)
{
	return walk(pid, precise, ret_rss, ret_tasks, 0, NULL);
}

/* an fd a message carried, kept once */
static void take_fd(int *dst, int *fd)
{
	if (*fd >= 0 && *dst < 0)
		*dst = TAKE_FD(*fd);
}

static void on_sync(struct tc_supervisor *s)
{
	struct tc_msg m;
	int fd = -1, r;

	r = tc_msg_recv(s->sync_fd, &m, &fd);
	if (r == -EAGAIN || r == -EINTR)
		return;
	if (r < 0) {
		/* EOF: the init is gone (its pidfd says so too) */
		tc_closep(&s->sync_fd);
		return;
	}
	switch ((enum tc_msg_type)m.type) {
	case TC_MSG_ERROR:
		tc_error_take(&s->setup_err, &m.err);
		tc_supervise_kill(s, TC_KILL_SETUP);
		break;
	case TC_MSG_EXEC_FAILED:
		tc_error_take(&s->tool_err, &m.err);
		s->exec_errno = m.err.err;
		break;
	case TC_MSG_EXITED:
		s->tool_status_known = true;
		s->tool_status = m.value;
		s->exited_ns = tc_now_ns();
		s->tool_alone = m.alone == 1;
		memcpy(s->alone_cpu_us, m.cpu_us, sizeof(s->alone_cpu_us));
		s->alone_maxrss_kib = m.maxrss_kib;
		/* the tool left processes running: the init waits for us to
		 * count them and end the run (no kill reason: the tool ended) */
		if (!s->tool_alone && !s->init_exited)
			count_then_kill(s);
		break;
	case TC_MSG_LISTENER:
		take_fd(&s->listener, &fd);
		s->tool_creds_known = true;
		s->tool_no_new_privs = m.value == 1;
		s->tool_cap_eff = m.cap_eff;
		break;
	case TC_MSG_STAGES:
		memcpy(s->stages, m.t, sizeof(s->stages));
		break;
	case TC_MSG_DEADLINE:
		/* we were stopped or starved past the wall limit: the init
		 * kept it for us */
		tc_supervise_kill(s, TC_KILL_TIMEOUT);
		break;
	case TC_MSG_WORKSPACE:
		take_fd(&s->workspace_fd, &fd);
		break;
	case TC_MSG_MAPS_DONE:
	case TC_MSG_NET_FD:
	case TC_MSG_NET_READY:
		break;
	}
	tc_closep(&fd);
}

/* One call the filter sent us: answer it, or end the sandbox for it. Only
 * the number and the arguments in the notification are read, never the
 * tool's memory (but the one int of a socket's buffer size, sockbuf.c). */
static void on_listener(struct tc_supervisor *s)
{
	static struct seccomp_notif_sizes sizes;
	/* the kernel says how large its structures are; newer ones may grow */
	union {
		struct seccomp_notif n;
		char bytes[512];
	} req_buf;
	union {
		struct seccomp_notif_resp r;
		char bytes[512];
	} resp_buf;
	struct seccomp_notif *req = &req_buf.n;
	struct seccomp_notif_resp *resp = &resp_buf.r;
	int nr;

	/* Without the sizes no call can be answered, and a caller left waiting
	 * would hang the tool until the deadline: fail closed. */
	if (!sizes.seccomp_notif && syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0) {
		tc_error_errno(&s->setup_err, TC_STAGE_SECCOMP, errno,
			       "cannot read the seccomp notification sizes");
		tc_supervise_kill(s, TC_KILL_SETUP);
		tc_closep(&s->listener);
		return;
	}
	if (sizes.seccomp_notif > sizeof(req_buf) || sizes.seccomp_notif_resp > sizeof(resp_buf)) {
		tc_error_set(&s->setup_err, TC_STAGE_SECCOMP, EOVERFLOW,
			     "the kernel's seccomp notifications (%u and %u bytes) are larger than "
			     "toolcell knows",
			     sizes.seccomp_notif, sizes.seccomp_notif_resp);
		tc_supervise_kill(s, TC_KILL_SETUP);
		tc_closep(&s->listener);
		return;
	}
	memset(&req_buf, 0, sizeof(req_buf));
	memset(&resp_buf, 0, sizeof(resp_buf));
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
		if (errno != EINTR && errno != ENOENT) /* ENOENT: the caller died */
			tc_closep(&s->listener);
		return;
	}
	nr = req->data.nr;
	/* a socket's buffer size: performed for the tool, clamped (sockbuf.h) */
	if (s->filter->clamp_sockbuf && tc_sockbuf_claims(req)) {
		s->refusals_in_tick++;
		if (tc_sockbuf_answer(s->listener, req, s->memory_max, resp))
			ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
		return;
	}
	if (tc_seccomp_is_kill(s->filter, nr)) {
		if (s->denied_nr < 0)
			s->denied_nr = nr;
		tc_supervise_kill(s, TC_KILL_SYSCALL);
		return; /* no answer: the caller dies waiting */
	}
	s->refusals_in_tick++;
	if (nr >= 0 && nr < TC_SYSCALL_MAX && s->denied[nr] < UINT32_MAX)
		s->denied[nr]++;
	else if ((nr < 0 || nr >= TC_SYSCALL_MAX) && s->denied_out_of_range < UINT32_MAX)
		s->denied_out_of_range++;
	resp->id = req->id;
	resp->error = -tc_seccomp_refusal(nr);
	ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
}

static void on_signal(struct tc_supervisor *s)
{
	struct signalfd_siginfo si;

	if (read(s->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (s->reason == TC_KILL_NONE)
			s->reason_signal = (int)si.ssi_signo;
		tc_supervise_kill(s, TC_KILL_SIGNAL);
	}
}

static void on_pidfd(struct tc_supervisor *s)
{
	s->init_exited = true;
	s->end_ns = tc_now_ns();
	/* the tool can no longer read its stdin */
	if (s->in.dst >= 0) {
		tc_closep(&s->in.dst);
		s->in.dst_gone = true;
	}
}

static void sample(struct tc_supervisor *s)
{
	uint64_t rss = 0, tasks;

	if (s->cgroup) {
		/* memory.max is the kernel's; pids.current counts the init */
		if (tc_cgroup_pids_current(s->cgroup, &tasks) < 0)
			return;
		tasks = tasks ? tasks - 1 : 0;
	} else if (tc_supervise_sample(s->pid, false, &rss, &tasks) < 0) {
		return;
	}
	/* RSS counts a page shared after fork once per process: when the
	 * cheap sum crosses the limit, measure again with PSS, which splits
	 * shared pages (and costs a page-table walk per process) */
	if (!s->cgroup && rss >= s->memory_max &&
	    tc_supervise_sample(s->pid, true, &rss, &tasks) < 0)
		return;
	s->sampled = true;
	if (rss > s->rss_peak)
		s->rss_peak = rss;
	if (tasks > s->tasks_peak)
		s->tasks_peak = tasks;
	if (!s->cgroup && rss >= s->memory_max)
		tc_supervise_kill(s, TC_KILL_MEMORY);
	if (tasks < s->tasks_max) {
		s->at_limit_since = 0;
	} else if (!s->at_limit_since) {
		s->at_limit_since = tc_now_ns();
	} else if (tc_now_ns() - s->at_limit_since >= TC_PIDS_GRACE_MS * 1000000ull) {
		tc_supervise_kill(s, TC_KILL_PIDS);
	}
}

enum {
	SLOT_SYNC,
	SLOT_PIDFD,
	SLOT_LISTENER,
	SLOT_SIG,
	SLOT_IN_SRC,
	SLOT_IN_DST,
	SLOT_OUT_SRC,
	SLOT_OUT_DST,
	SLOT_ERR_SRC,
	SLOT_ERR_DST,
	SLOT__N
};
_Static_assert(SLOT__N == TC_SUPERVISE_POLLFDS, "supervise.h counts the slots");

static void add(struct pollfd *p, int slot, int fd, short ev)
{
	p[slot].fd = fd >= 0 && ev ? fd : -1;
	p[slot].events = ev;
	p[slot].revents = 0;
}

static void stream_io(struct tc_stream *st, const struct pollfd *src, const struct pollfd *dst)
{
	if (st->watch) { /* our caller reads it: every writer closed */
		if (src->fd >= 0 && src->revents) {
			st->src_eof = true;
			tc_closep(&st->src);
		}
		return;
	}
	if (src->fd >= 0 && (src->revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
		if (src->revents & POLLNVAL)
			st->src_eof = true;
		else
			tc_stream_read(st);
	}
	if (dst->fd >= 0 && (dst->revents & (POLLOUT | POLLERR | POLLHUP | POLLNVAL))) {
		if (dst->revents & POLLNVAL)
			st->dst_gone = true;
		else
			tc_stream_write(st);
	}
}

void tc_supervise_init(struct tc_supervisor *s)
{
	/* a warm sandbox runs only our harness until its call: no clock, no
	 * samples (dozens may wait at once) */
	s->deadline_ns = s->warm ? UINT64_MAX : s->start_ns + s->wall_ms * 1000000ull;
	s->next_sample_ns = s->warm ? UINT64_MAX : s->start_ns + s->sample_ms * 1000000ull;
}

void tc_supervise_begin(struct tc_supervisor *s, uint64_t start_ns)
{
	s->start_ns = start_ns;
	s->deadline_ns = s->start_ns + s->wall_ms * 1000000ull;
	s->next_sample_ns = s->start_ns + s->sample_ms * 1000000ull;
	s->wake_ns = tc_now_ns(); /* the next turn sees the new clock */
	s->begun = true;
}

/* the streams' part of a turn */
static void streams_turn(struct tc_supervisor *s)
{
	/* stdin from memory needs no poll to be read */
	if (s->in.src < 0 && tc_stream_want_read(&s->in))
		tc_stream_read(&s->in);
	if (tc_stream_done(&s->in) && s->in.dst >= 0)
		tc_closep(&s->in.dst); /* the tool sees EOF */
	/* a reader of ours that went away: the tool gets EPIPE */
	if (s->out.dst_gone && s->out.src >= 0)
		tc_stream_cut(&s->out);
	if (s->err.dst_gone && s->err.src >= 0)
		tc_stream_cut(&s->err);
}

bool tc_supervise_turn(struct tc_supervisor *s)
{
	uint64_t now = tc_now_ns(), until, tick_end;

	if (s->done)
		return true;
	streams_turn(s);
	/* within one turn, the tie order (outcome.h): memory and processes
	 * (the sample), then output, then time */
	if (!s->init_exited && now >= s->next_sample_ns) {
		sample(s);
		s->next_sample_ns = now + s->sample_ms * 1000000ull;
	}
	if (s->out.overflow || s->err.overflow)
		tc_supervise_kill(s, TC_KILL_OUTPUT);
	if (s->init_exited && tc_stream_done(&s->out) && tc_stream_done(&s->err))
		return s->done = true;
	/* a served call's tool closed its output: it may be exiting */
	if (s->early_end && s->begun && !s->end_seen && s->tool_pid && !s->tool_status_known &&
	    s->reason == TC_KILL_NONE && tc_stream_done(&s->out) && tc_stream_done(&s->err))
		tc_supervise_quick_end(s);
	/* nothing of the tool's is left and nothing ended it: the init's exit
	 * (the namespaces' teardown) can add nothing to the outcome */
	if (s->early_end && s->tool_alone && s->reason == TC_KILL_NONE && tc_stream_done(&s->out) &&
	    tc_stream_done(&s->err)) {
		s->end_ns = now;
		s->ended_early = true;
		return s->done = true;
	}
	if (!s->init_exited) {
		if (now >= s->deadline_ns)
			tc_supervise_kill(s, TC_KILL_TIMEOUT);
		until = s->deadline_ns < s->next_sample_ns ? s->deadline_ns : s->next_sample_ns;
	} else {
		until = s->end_ns + TC_FLUSH_GRACE_MS * 1000000ull;
		if (now >= until) {
			/* the caller does not take the output: give up */
			if (s->out.dst >= 0)
				tc_stream_cut(&s->out);
			if (s->err.dst >= 0)
				tc_stream_cut(&s->err);
			return s->done = true;
		}
	}
	if (now >= s->refusal_tick_ns + TC_REFUSAL_TICK_MS * 1000000ull) {
		s->refusal_tick_ns = now;
		s->refusals_in_tick = 0;
	}
	tick_end = s->refusal_tick_ns + TC_REFUSAL_TICK_MS * 1000000ull;
	s->throttled = s->refusals_in_tick >= TC_REFUSALS_PER_TICK;
	if (s->throttled && tick_end < until)
		until = tick_end;
	s->wake_ns = until;
	return false;
}

/* A watched stream asks for nothing but its hang-up, which poll reports
 * anyway: a write (a wake-up for POLLIN only) never wakes us. */
static short src_events(const struct tc_stream *st)
{
	if (st->watch)
		return st->src_eof ? 0 : POLLHUP;
	return tc_stream_want_read(st) ? POLLIN : 0;
}

void tc_supervise_pollfds(const struct tc_supervisor *s, struct pollfd *p)
{
	add(p, SLOT_SYNC, s->sync_fd, POLLIN);
	add(p, SLOT_PIDFD, s->init_exited ? -1 : s->pidfd, POLLIN);
	add(p, SLOT_LISTENER, s->throttled || s->listener_gone ? -1 : s->listener, POLLIN);
	add(p, SLOT_SIG, s->sig_fd, POLLIN);
	add(p, SLOT_IN_SRC, s->init_exited ? -1 : s->in.src,
	    tc_stream_want_read(&s->in) ? POLLIN : 0);
	add(p, SLOT_IN_DST, s->in.dst, tc_stream_want_write(&s->in) ? POLLOUT : 0);
	add(p, SLOT_OUT_SRC, s->out.src, src_events(&s->out));
	add(p, SLOT_OUT_DST, s->out.dst, tc_stream_want_write(&s->out) ? POLLOUT : 0);
	add(p, SLOT_ERR_SRC, s->err.src, src_events(&s->err));
	add(p, SLOT_ERR_DST, s->err.dst, tc_stream_want_write(&s->err) ? POLLOUT : 0);
}

void tc_supervise_events(struct tc_supervisor *s, const struct pollfd *p)
{
	/* output first: a tool that wrote and exited keeps its bytes */
	stream_io(&s->out, &p[SLOT_OUT_SRC], &p[SLOT_OUT_DST]);
	stream_io(&s->err, &p[SLOT_ERR_SRC], &p[SLOT_ERR_DST]);
	stream_io(&s->in, &p[SLOT_IN_SRC], &p[SLOT_IN_DST]);
	if (p[SLOT_LISTENER].revents & POLLIN)
		on_listener(s);
	else if (p[SLOT_LISTENER].revents & POLLHUP) /* every filtered process is gone */
		s->listener_gone = true;
	/* POLLERR alone: the listener's lock was contended while a signal of
	 * ours was pending (a stop, a freeze); the next poll looks again */
	if (p[SLOT_SYNC].revents)
		on_sync(s);
	if (p[SLOT_SIG].revents)
		on_signal(s);
	if (p[SLOT_PIDFD].revents) {
		/* read what the init sent before it died */
		while (s->sync_fd >= 0) {
			struct pollfd q = { .fd = s->sync_fd, .events = POLLIN };
			if (poll(&q, 1, 0) <= 0)
				break;
			on_sync(s);
		}
		on_pidfd(s);
	}
}

bool tc_supervise_output_hup(const struct tc_supervisor *s, const struct pollfd *p)
{
	return (s->out.watch && p[SLOT_OUT_SRC].fd >= 0 && p[SLOT_OUT_SRC].revents) ||
	       (s->err.watch && p[SLOT_ERR_SRC].fd >= 0 && p[SLOT_ERR_SRC].revents);
}

int tc_supervise(struct tc_supervisor *s)
{
	struct pollfd p[TC_SUPERVISE_POLLFDS];

	while (!tc_supervise_turn(s)) {
		tc_supervise_pollfds(s, p);
		if (poll(p, TC_SUPERVISE_POLLFDS, tc_poll_timeout(s->wake_ns)) < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			tc_error_errno(&s->setup_err, TC_STAGE_SUPERVISE, e, "poll failed");
			tc_supervise_kill(s, TC_KILL_SETUP);
			return -e;
		}
		tc_supervise_events(s, p);
	}
	return 0;
}
