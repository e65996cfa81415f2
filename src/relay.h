/* Byte streams between toolcell and the tool: the tool's stdin, stdout and
 * stderr, each through a pipe, with a cap on what the tool may produce and
 * backpressure both ways (nothing is read that cannot be passed on). The
 * poll loop itself lives in supervise.c; this module moves bytes when poll
 * says an fd is ready. Parent side. */
#ifndef TOOLCELL_RELAY_H
#define TOOLCELL_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TC_RELAY_BUF (64 * 1024)

struct tc_stream {
	int src;	    /* fd to read, or -1 when the source is mem_in */
	int dst;	    /* fd to write, or -1 to capture into mem */
	bool own_src;	    /* src is ours to close (the tool's pipe), not the caller's */
	int own_dst;	    /* a private non-blocking reopening of the caller's dst, or -1 */
	bool dst_socket;    /* dst is a socket: send(MSG_DONTWAIT) */
	size_t dst_chunk;   /* largest write that cannot block after POLLOUT */
	const char *mem_in; /* source bytes when src < 0 */
	size_t mem_in_len;
	char *mem; /* captured bytes (NUL-terminated) when dst < 0 */
	size_t mem_len, mem_cap;
	size_t start, end; /* buf[start..end) waits for dst */
	uint64_t cap;	   /* most bytes passed on; more is an overflow */
	uint64_t passed;   /* bytes passed on (or captured) */
	bool src_eof, dst_gone, overflow;
	bool dropped;	/* bytes were lost because dst went away */
	char tail[256]; /* the last bytes read, for diagnosis (a MemoryError line) */
	size_t tail_len;
	char *buf; /* TC_RELAY_BUF bytes, malloc'ed: only pages that data reaches are touched */
	/* src is a copy of a read end that our caller reads (TC_IO_DIRECT):
	 * never read here, polled for its hang-up alone (every writer closed),
	 * which ends the stream */
	bool watch;
};

/* Set up a stream (0, or -ENOMEM). dst_is_ours: dst is our pipe end and may
 * be O_NONBLOCK. Otherwise dst is the caller's and is never made
 * non-blocking (that would change it for whoever shares it): a pipe, FIFO
 * or terminal is reopened through /proc/self/fd as a private non-blocking
 * description, a socket is written with MSG_DONTWAIT, a regular file as is.
 * A write never blocks the loop. */
int tc_stream_init(struct tc_stream *s, int src, int dst, bool dst_is_ours, uint64_t cap);

/* A stream that only watches fd (a copy of a read end that the caller
 * reads; the copy is ours to close) for its hang-up. 0, or -errno. */
int tc_stream_watch(struct tc_stream *s, int fd);

/* The destination is gone (nobody reads): close the source, so the tool
 * sees EPIPE as it would writing to the dead reader directly. */
void tc_stream_cut(struct tc_stream *s);

/* true when the source should be polled for input / dst for output. */
bool tc_stream_want_read(const struct tc_stream *s);
bool tc_stream_want_write(const struct tc_stream *s);

/* Read what is ready from src (or take the next slice of mem_in). Returns
 * 0, or -errno on a read error (the stream is then at EOF). Sets overflow
 * when the cap is exceeded: the bytes up to the cap are still passed on. */
int tc_stream_read(struct tc_stream *s);

/* Write what is buffered to dst (or append it to mem). */
int tc_stream_write(struct tc_stream *s);

/* true when nothing more will move: source at EOF and buffer drained (or
 * the destination is gone). */
bool tc_stream_done(const struct tc_stream *s);

void tc_stream_release(struct tc_stream *s);

/* Keep the last bytes of p[0..n) in the tail (bytes the caller relayed
 * itself, or read here). */
void tc_stream_keep_tail(struct tc_stream *s, const char *p, size_t n);

/* The last line of the tail that is not empty, copied into out (NUL-terminated). */
void tc_stream_last_line(const struct tc_stream *s, char *out, size_t size);

#endif
