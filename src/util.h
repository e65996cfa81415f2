/* Small helpers shared by every module: cleanup attributes, ownership
 * hand-off, array sizes, and I/O loops that retry EINTR. Nothing here
 * allocates unless its name says so. */
#ifndef TOOLCELL_UTIL_H
#define TOOLCELL_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define TC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* AddressSanitizer's runtime makes calls of its own and keeps track of
 * each thread's stack: code it cannot follow (a small seccomp filter, a
 * clone on a stack of ours) takes the plain way in a sanitized build. */
#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN 1
#endif
#endif
#ifndef TC_ASAN
#define TC_ASAN 0
#endif

/* Close *fd unless it is -1, and set it to -1. */
static inline void tc_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd); /* never retried on EINTR (HACKING.md, style rule 10) */
		errno = saved;
		*fd = -1;
	}
}

static inline void tc_freep(void *p)
{
	free(*(void **)p);
}

/* free() each of v[0..n), n at most max (a count read from a struct is
 * never trusted past its array). */
static inline void tc_free_each(char **v, size_t n, size_t max)
{
	for (size_t i = 0; i < n && i < max; i++)
		free(v[i]);
}

#define _cleanup_close_ __attribute__((cleanup(tc_closep)))
#define _cleanup_free_	__attribute__((cleanup(tc_freep)))

/* Take ownership away from a cleanup variable. */
#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int _tfd = (fd);                                                                   \
		(fd) = -1;                                                                         \
		_tfd;                                                                              \
	})
#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		__typeof__(p) _tp = (p);                                                           \
		(p) = NULL;                                                                        \
		_tp;                                                                               \
	})

/* Write all of buf, retrying EINTR and short writes. Returns 0 or -errno. */
int tc_write_all(int fd, const void *buf, size_t len);

/* Read up to len bytes, retrying EINTR, stopping at EOF. Returns the number
 * of bytes read or -errno. */
ssize_t tc_read_full(int fd, void *buf, size_t len);

/* Read a whole regular file of at most max bytes into a NUL-terminated heap
 * buffer. -EFBIG when larger than max, -EISDIR for a directory, -EINVAL for
 * any other kind of file. Opens with O_NOFOLLOW when nofollow, and always
 * with O_NONBLOCK, so a FIFO (or a device) named there cannot hang us. */
int tc_read_file(const char *path, size_t max, bool nofollow, char **ret_buf, size_t *ret_len);

/* Read all of fd (at most max bytes) into a NUL-terminated heap buffer;
 * -EFBIG when there is more. */
int tc_read_fd(int fd, size_t max, char **ret_buf, size_t *ret_len);

/* Write a small string to a file, as for /proc/PID/uid_map. Returns 0 or -errno. */
int tc_write_file(const char *path, const char *s);

/* The same, path relative to the directory dirfd (or AT_FDCWD). Plain
 * syscalls: safe after clone. */
int tc_write_file_at(int dirfd, const char *path, const char *s);

/* "toolcell: ", the formatted line and a newline on stderr: a diagnostic of
 * toolcell's own. Parent side only (stdio). */
void tc_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tc_vdiag(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
struct rusage;
struct msghdr;

/* The descriptors that a message received into mh brought (SCM_RIGHTS, in
 * every control message): the first max into fds, the rest closed. How
 * many came, so more than max says some were closed. Safe in the child. */
size_t tc_take_fds(struct msghdr *mh, int *fds, size_t max);

/* SIGKILL the process behind *pidfd (a zombie takes no harm), reap it,
 * close the pidfd and set it to -1; nothing when *pidfd is -1. ret_si and
 * ret_ru (either may be NULL) get how it ended and its rusage, its reaped
 * children's included. Parent side. */
void tc_pidfd_kill_reap(int *pidfd, siginfo_t *ret_si, struct rusage *ret_ru);

/* Milliseconds from now until the CLOCK_MONOTONIC time at_ns (rounded up),
 * as poll's timeout: 0 when it has passed, at most INT_MAX. */
int tc_poll_timeout(uint64_t at_ns);

/* Make the heap buffer *buf hold at least need bytes (doubling from 4
 * KiB); 0 or -ENOMEM, which leaves it as it was. */
int tc_reserve(char **buf, size_t *cap, size_t need);

/* A growable byte buffer, always NUL-terminated once it holds anything. */
struct tc_buf {
	char *p;
	size_t len, cap;
};

/* Append n bytes (allocates: 0 or -ENOMEM). */
int tc_buf_add(struct tc_buf *b, const void *p, size_t n);
/* Remove the first n bytes (n <= b->len). */
void tc_buf_drop(struct tc_buf *b, size_t n);
/* Free and zero. */
void tc_buf_release(struct tc_buf *b);

/* Monotonic clock in nanoseconds. */
uint64_t tc_now_ns(void);

/* A queue of strings (copies): the relative paths still to visit in a
 * breadth-first walk of a tree, which never recurses. */
struct tc_pathq {
	char **v;
	size_t head, n, cap;
};

/* Append a copy of s: 0 or -ENOMEM. */
int tc_pathq_push(struct tc_pathq *q, const char *s);
void tc_pathq_free(struct tc_pathq *q);

/* true when s starts with prefix. */
static inline bool tc_startswith(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

#endif
