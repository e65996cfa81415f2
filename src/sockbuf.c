/* The socket-buffer clamp (see sockbuf.h). Parent side: the supervisor
 * calls it for a notification the filter sent; it reads the tool's memory
 * once (the option's value) and acts on a duplicate of the tool's socket. */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sockbuf.h"
#include "util.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9: a pidfd for one thread */
#endif

/* Closes a closer thread may have under way at once: past them the call is
 * refused (ENOBUFS) rather than one more socket held (see close_aside). */
#define TC_SOCKBUF_CLOSERS 16

static atomic_uint closers;

uint32_t tc_sockbuf_cap(uint64_t memory_max)
{
	uint64_t cap = memory_max / TC_SOCKBUF_SHARE;

	if (memory_max == 0 || memory_max == UINT64_MAX)
		return INT_MAX;
	if (cap < TC_SOCKBUF_FLOOR)
		cap = TC_SOCKBUF_FLOOR;
	return cap > INT_MAX ? INT_MAX : (uint32_t)cap;
}

bool tc_sockbuf_claims(const struct seccomp_notif *req)
{
	const __u64 *a = req->data.args;

	return req->data.nr == SYS_setsockopt && a[1] == SOL_SOCKET &&
	       (a[2] == SO_SNDBUF || a[2] == SO_RCVBUF || a[2] == SO_SNDBUFFORCE ||
		a[2] == SO_RCVBUFFORCE);
}

static void *closer(void *arg)
{
	close((int)(intptr_t)arg);
	atomic_fetch_sub(&closers, 1);
	return NULL;
}

/* Our duplicate is the last reference when another thread of the tool
 * closed its socket meanwhile; a TCP socket the tool set to linger then
 * makes close() wait until its queue drains (or the linger time ends,
 * which the tool chose): in a thread of its own, never in the loop. */
static void close_aside(int fd)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64u << 10);
	atomic_fetch_add(&closers, 1);
	if (pthread_create(&t, &attr, closer, (void *)(intptr_t)fd) != 0) {
		atomic_fetch_sub(&closers, 1);
		close(fd);
	}
	pthread_attr_destroy(&attr);
}

/* A pidfd for the thread that made the call: its own descriptor table
 * (a thread made without CLONE_FILES has one). Before Linux 6.9 only a
 * whole process has a pidfd: its thread group's leader, from /proc. */
static int thread_pidfd(pid_t tid)
{
	char path[64], buf[1024];
	const char *p;
	int fd = pidfd_open(tid, PIDFD_THREAD);
	ssize_t n;

	if (fd >= 0 || errno != EINVAL)
		return fd >= 0 ? fd : -errno;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	_cleanup_close_ int st = open(path, O_RDONLY | O_CLOEXEC);
	if (st < 0)
		return -errno;
	n = tc_read_full(st, buf, sizeof(buf) - 1);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	p = strstr(buf, "\nTgid:");
	if (!p)
		return -ESRCH;
	fd = pidfd_open((pid_t)strtol(p + 6, NULL, 10), 0);
	return fd >= 0 ? fd : -errno;
}

/* The option's value as the tool passed it (an int, as the kernel reads
 * it) into *ret: 0, -EFAULT for memory the tool could not read either,
 * or -ESRCH when we cannot read the tool's memory at all. */
static int read_value(pid_t tid, const struct seccomp_notif *req, int *ret)
{
	struct iovec local = { .iov_base = ret, .iov_len = sizeof(*ret) };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)req->data.args[3],
				.iov_len = sizeof(*ret) };

	if (process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(*ret))
		return 0;
	return errno == EFAULT || errno == ENOMEM ? -EFAULT : -ESRCH;
}

/* Perform the call on the tool's socket: 0 or the -errno setsockopt would
 * have answered; -ESRCH when we could not reach the calling thread. */
static int perform(int listener, const struct seccomp_notif *req, uint32_t cap)
{
	int value = 0, opt = (int)req->data.args[2], len = (int)req->data.args[4], r;
	_cleanup_close_ int pidfd = -1;
	const int *optval = &value;
	int sock;

	/* the tool holds no CAP_NET_ADMIN: the kernel's own answer, and one
	 * that toolcell's own capabilities must not change */
	if (opt == SO_SNDBUFFORCE || opt == SO_RCVBUFFORCE)
		return -EPERM;
	pidfd = thread_pidfd((pid_t)req->pid);
	if (pidfd < 0)
		return -ESRCH;
	if (atomic_load(&closers) >= TC_SOCKBUF_CLOSERS)
		return -ENOBUFS;
	sock = pidfd_getfd(pidfd, (int)req->data.args[0], 0);
	if (sock < 0)
		return errno == EBADF ? -EBADF : -ESRCH;
	/* a short length, or memory the tool cannot read: the kernel answers
	 * as it would have (ENOTSOCK first, then EINVAL or EFAULT) */
	if (len >= (int)sizeof(int)) {
		r = read_value((pid_t)req->pid, req, &value);
		if (r == -EFAULT)
			optval = NULL;
		else if (r < 0)
			goto out;
		len = sizeof(int);
	}
	/* the thread is still blocked in this very call: the pidfd, the
	 * value and the descriptor were its own (a tid is reused only after
	 * the thread is gone, and then the notification is gone too) */
	r = -ESRCH;
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
		goto out;
	/* the kernel reads the value as unsigned (a negative one asks for
	 * its maximum) */
	if ((uint32_t)value > cap)
		value = (int)cap;
	r = setsockopt(sock, SOL_SOCKET, opt, optval, (socklen_t)len) < 0 ? -errno : 0;
out:
	close_aside(sock);
	return r;
}

int tc_sockbuf_answer(int listener, const struct seccomp_notif *req, uint64_t memory_max,
		      struct seccomp_notif_resp *resp)
{
	int r = perform(listener, req, tc_sockbuf_cap(memory_max));

	if (r == -ESRCH) {
		/* gone: nothing is owed; else fail closed, the call did nothing */
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
			return 0;
		r = -EPERM;
	}
	resp->id = req->id;
	resp->val = 0;
	resp->error = r;
	resp->flags = 0;
	return 1;
}
