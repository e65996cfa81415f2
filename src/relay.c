/* Stream buffers for the tool's stdio (see relay.h). Nothing here polls or
 * blocks: supervise.c calls read and write only when poll said so, and the
 * caller's own descriptors are never switched to O_NONBLOCK (that would
 * change them for whoever shares them). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "relay.h"
#include "util.h"

int tc_stream_init(struct tc_stream *s, int src, int dst, bool dst_is_ours, uint64_t cap)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	s->own_dst = -1;
	s->buf = malloc(TC_RELAY_BUF);
	if (!s->buf)
		return -ENOMEM;
	s->src = src;
	s->dst = dst;
	s->cap = cap;
	s->dst_chunk = TC_RELAY_BUF;
	if (dst < 0)
		return 0;
	if (dst_is_ours) {
		fcntl(dst, F_SETFL, fcntl(dst, F_GETFL) | O_NONBLOCK);
		return 0;
	}
	if (fstat(dst, &st) < 0 || S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		return 0; /* a file never makes us wait */
	if (S_ISSOCK(st.st_mode)) {
		s->dst_socket = true;
		return 0;
	}
	/* a pipe, FIFO or terminal: our own non-blocking description of it */
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", dst);
		s->own_dst = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
		if (s->own_dst >= 0)
			s->dst = s->own_dst;
		else
			s->dst_chunk = PIPE_BUF; /* POLLOUT promises this much room */
	}
	return 0;
}

int tc_stream_watch(struct tc_stream *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->own_dst = s->dst = -1;
	s->cap = UINT64_MAX;
	s->own_src = s->watch = true;
	s->src = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	return s->src < 0 ? -errno : 0;
}

void tc_stream_cut(struct tc_stream *s)
{
	if (!s->src_eof || s->start != s->end)
		s->dropped = true;
	if (s->src >= 0 && s->own_src) {
		close(s->src);
		s->src = -1;
	}
	s->src_eof = true;
	s->start = s->end = 0;
}

bool tc_stream_want_read(const struct tc_stream *s)
{
	return !s->watch && !s->src_eof && !s->dst_gone && s->end < TC_RELAY_BUF;
}

bool tc_stream_want_write(const struct tc_stream *s)
{
	return s->dst >= 0 && !s->dst_gone && s->end > s->start;
}

void tc_stream_keep_tail(struct tc_stream *s, const char *p, size_t n)
{
	if (n >= sizeof(s->tail)) {
		memcpy(s->tail, p + n - sizeof(s->tail), sizeof(s->tail));
		s->tail_len = sizeof(s->tail);
		return;
	}
	if (s->tail_len + n > sizeof(s->tail)) {
		size_t drop = s->tail_len + n - sizeof(s->tail);
		memmove(s->tail, s->tail + drop, s->tail_len - drop);
		s->tail_len -= drop;
	}
	memcpy(s->tail + s->tail_len, p, n);
	s->tail_len += n;
}

static void take(struct tc_stream *s, size_t n)
{
	/* the bytes past the cap are read (so the tool does not block on a
	 * full pipe while we kill it) but never passed on */
	uint64_t room = s->cap > s->passed + (s->end - s->start)
				? s->cap - s->passed - (s->end - s->start)
				: 0;

	tc_stream_keep_tail(s, s->buf + s->end, n);
	if (n > room) {
		s->overflow = true;
		n = (size_t)room;
	}
	s->end += n;
}

static int capture(struct tc_stream *s)
{
	size_t n = s->end - s->start;

	if (tc_reserve(&s->mem, &s->mem_cap, s->mem_len + n + 1) < 0)
		return -ENOMEM;
	memcpy(s->mem + s->mem_len, s->buf + s->start, n);
	s->mem_len += n;
	s->mem[s->mem_len] = '\0';
	s->passed += n;
	s->start = s->end = 0;
	return 0;
}

int tc_stream_read(struct tc_stream *s)
{
	ssize_t n;

	if (s->start == s->end)
		s->start = s->end = 0;
	if (s->src < 0) {
		size_t k = s->mem_in_len < TC_RELAY_BUF - s->end ? s->mem_in_len
								 : TC_RELAY_BUF - s->end;
		memcpy(s->buf + s->end, s->mem_in, k);
		s->mem_in += k;
		s->mem_in_len -= k;
		take(s, k);
		if (s->mem_in_len == 0)
			s->src_eof = true;
		return s->dst < 0 ? capture(s) : 0;
	}
	n = read(s->src, s->buf + s->end, TC_RELAY_BUF - s->end);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		s->src_eof = true;
		return -errno;
	}
	if (n == 0) {
		s->src_eof = true;
		return 0;
	}
	take(s, (size_t)n);
	return s->dst < 0 ? capture(s) : 0;
}

int tc_stream_write(struct tc_stream *s)
{
	size_t n = s->end - s->start;
	ssize_t w;

	if (s->dst < 0)
		return capture(s);
	if (n > s->dst_chunk)
		n = s->dst_chunk;
	w = s->dst_socket ? send(s->dst, s->buf + s->start, n, MSG_DONTWAIT | MSG_NOSIGNAL)
			  : write(s->dst, s->buf + s->start, n);
	if (w < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		/* EPIPE and friends: nobody reads any more */
		s->dst_gone = true;
		return -errno;
	}
	s->start += (size_t)w;
	s->passed += (uint64_t)w;
	if (s->start == s->end)
		s->start = s->end = 0;
	return 0;
}

bool tc_stream_done(const struct tc_stream *s)
{
	return s->dst_gone || (s->src_eof && s->start == s->end);
}

void tc_stream_release(struct tc_stream *s)
{
	if (s->own_src && s->src >= 0)
		close(s->src);
	s->src = -1;
	tc_closep(&s->own_dst);
	free(s->buf);
	s->buf = NULL;
	free(s->mem);
	s->mem = NULL;
	s->mem_len = s->mem_cap = 0;
}

void tc_stream_last_line(const struct tc_stream *s, char *out, size_t size)
{
	size_t end = s->tail_len, start;

	while (end > 0 && (s->tail[end - 1] == '\n' || s->tail[end - 1] == '\r'))
		end--;
	start = end;
	while (start > 0 && s->tail[start - 1] != '\n')
		start--;
	if (end - start >= size)
		start = end - (size - 1);
	memcpy(out, s->tail + start, end - start);
	out[end - start] = '\0';
}
