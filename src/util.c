/* I/O loops and small helpers shared by every module. Parent side, except
 * tc_write_all, tc_take_fds and tc_now_ns, which are also safe in the
 * child. */
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <sys/pidfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util.h"

int tc_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t tc_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int tc_read_fd(int fd, size_t max, char **ret_buf, size_t *ret_len)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > max) {
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[len] = '\0';
	*ret_buf = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
}

int tc_read_file(const char *path, size_t max, bool nofollow, char **ret_buf, size_t *ret_len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size > max)
		return -EFBIG;
	return tc_read_fd(fd, max, ret_buf, ret_len);
}

int tc_write_file(const char *path, const char *s)
{
	return tc_write_file_at(AT_FDCWD, path, s);
}

int tc_write_file_at(int dirfd, const char *path, const char *s)
{
	_cleanup_close_ int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	return tc_write_all(fd, s, strlen(s));
}

size_t tc_take_fds(struct msghdr *mh, int *fds, size_t max)
{
	size_t n = 0;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		bool rights = c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
			      c->cmsg_len >= CMSG_LEN(0);
		size_t k = rights ? (c->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;

		for (size_t i = 0; i < k; i++, n++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (n < max)
				fds[n] = fd;
			else
				close(fd);
		}
	}
	return n;
}

uint64_t tc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int tc_pathq_push(struct tc_pathq *q, const char *s)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 64;
		char **v = realloc(q->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n] = strdup(s);
	return q->v[q->n++] ? 0 : -ENOMEM;
}

void tc_pathq_free(struct tc_pathq *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->v[i]);
	free(q->v);
	memset(q, 0, sizeof(*q));
}

void tc_vdiag(const char *fmt, va_list ap)
{
	fputs("toolcell: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tc_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_vdiag(fmt, ap);
	va_end(ap);
}

void tc_pidfd_kill_reap(int *pidfd, siginfo_t *ret_si, struct rusage *ret_ru)
{
	siginfo_t si = { 0 };

	if (*pidfd < 0)
		return;
	pidfd_send_signal(*pidfd, SIGKILL, NULL, 0);
	/* the raw waitid takes a rusage; glibc's does not */
	if (syscall(SYS_waitid, P_PIDFD, *pidfd, &si, WEXITED, ret_ru) < 0 && ret_ru)
		memset(ret_ru, 0, sizeof(*ret_ru));
	if (ret_si)
		*ret_si = si;
	tc_closep(pidfd);
}

int tc_poll_timeout(uint64_t at_ns)
{
	uint64_t now = tc_now_ns(), ms;

	if (at_ns <= now)
		return 0;
	ms = (at_ns - now + 999999) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

int tc_reserve(char **buf, size_t *cap, size_t need)
{
	size_t c = *cap ? *cap : 4096;
	char *p;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	p = realloc(*buf, c);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = c;
	return 0;
}

int tc_buf_add(struct tc_buf *b, const void *p, size_t n)
{
	if (tc_reserve(&b->p, &b->cap, b->len + n + 1) < 0)
		return -ENOMEM;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

void tc_buf_drop(struct tc_buf *b, size_t n)
{
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
	if (b->p)
		b->p[b->len] = '\0';
}

void tc_buf_release(struct tc_buf *b)
{
	free(b->p);
	*b = (struct tc_buf){ 0 };
}
