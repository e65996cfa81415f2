/* `toolcell serve`'s side of a call's bytes (see serve-internal.h): the
 * server writes the call's memory limit into the entry's leaf and the
 * request's frame into the tool's stdin, and reads the tool's stdout and
 * stderr, all on the tool's own pipes and leaf files that the runner handed
 * over (no runner between), holding the output caps itself. Every
 * descriptor is non-blocking: a tool that reads nothing or writes without
 * end never holds the server. Runs in the parent. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "json.h"
#include "serve-internal.h"
#include "util.h"

/* The call's own rlimits, which the harness lowers for the tool's
 * interpreter before the tool's code runs (an entry's own were set when
 * it started, with the policy's values). In a cgroup leaf memory is the
 * leaf's, as in a one-shot run: no RLIMIT_AS. */
static void frame_rlimits(cJSON *meta, const struct tc_serve_request *r, bool leaf)
{
	static const struct {
		enum tc_limit_id id;
		const char *name;
	} rl[] = { { TC_LIMIT_MEMORY, "as" },
		   { TC_LIMIT_CPU_TIME, "cpu_ms" },
		   { TC_LIMIT_FILE_SIZE, "fsize" },
		   { TC_LIMIT_OPEN_FILES, "nofile" } };
	cJSON *o = cJSON_AddObjectToObject(meta, "rlimits");

	for (size_t i = 0; o && i < TC_ARRAY_SIZE(rl); i++)
		if (r->asked[rl[i].id] && !(leaf && rl[i].id == TC_LIMIT_MEMORY))
			cJSON_AddNumberToObject(o, rl[i].name, (double)r->limit[rl[i].id]);
}

#define FRAME_SIZE_MAX 10000000000ull /* a size the frame's head holds: ten digits */

int tc_serve_io_frame(const struct call *c, bool leaf, struct tc_buf *f)
{
	/* by enum tc_serve_kind */
	static const char *const kinds[] = { "call", "exec", "none", "sess" };
	cJSON *meta = cJSON_CreateObject(), *argv = cJSON_AddArrayToObject(meta, "argv");
	size_t end = f->len + SERVE_FRAME_BLOCK;
	char head[64], *m;
	int n, r;

	cJSON_AddStringToObject(meta, "name", c->req.name);
	for (size_t i = 0; argv && i < c->req.argc; i++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(c->req.argv[i]));
	frame_rlimits(meta, &c->req, leaf);
	m = tc_json_print(meta, false);
	cJSON_Delete(meta);
	if (!m)
		return -ENOMEM;
	/* fixed width, ten digits each (the source and the request are at
	 * most limits.request_size, 1 GiB; the meta's argv is refused above
	 * that); the request's size, so a tool in run mode reads it with one
	 * read of known size, not to its EOF */
	if (strlen(m) >= FRAME_SIZE_MAX || c->req.source_len >= FRAME_SIZE_MAX ||
	    (c->req.input && c->req.input_len >= FRAME_SIZE_MAX)) {
		free(m);
		return -E2BIG;
	}
	n = snprintf(head, sizeof(head), "%-4s %010zu %010zu %010zu\n", kinds[c->req.kind],
		     c->req.source_len, strlen(m), c->req.input ? c->req.input_len : 0);
	r = tc_buf_add(f, head, (size_t)n);
	if (r >= 0)
		r = tc_buf_add(f, m, strlen(m));
	if (r >= 0)
		r = tc_buf_add(f, c->req.source, c->req.source_len);
	/* blanks up to the block, which the harness reads whole */
	if (r >= 0 && f->len < end && (r = tc_reserve(&f->p, &f->cap, end + 1)) >= 0) {
		memset(f->p + f->len, ' ', end - f->len);
		f->len = end;
		f->p[f->len] = '\0';
	}
	if (r >= 0 && c->req.input)
		r = tc_buf_add(f, c->req.input, c->req.input_len);
	free(m);
	return r;
}

void tc_serve_entry_on_writable(struct entry *e)
{
	bool broken = false;

	while (e->to >= 0 && e->sent < e->frame.len) {
		ssize_t w = write(e->to, e->frame.p + e->sent, e->frame.len - e->sent);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w <= 0) {
			/* no reader (EPIPE): the sandbox is gone (its outcome
			 * says why) or the tool closed its stdin */
			broken = true;
			break;
		}
		e->sent += (size_t)w;
	}
	/* a session's stdin stays open for its caller's next bytes, unless
	 * nothing can read them: polled for POLLOUT, a pipe without a reader
	 * reports POLLERR at once, again and again */
	if (!broken && tc_serve_session_keep_open(e))
		return;
	/* EOF after the one request: the harness reads to it */
	tc_closep(&e->to);
	e->to = -1;
	tc_buf_release(&e->frame);
}

/* The call's own memory limit, when lower than the policy's, into its
 * leaf (tc_sandbox_call_memory_fd): in force before the frame can be read.
 * The leaf was made once the entry was idle; nothing of the tool's has run
 * in it, so the kernel has nothing to reclaim and the write returns at
 * once. 0 or -errno. */
int tc_serve_io_call_memory(const struct entry *e, const struct call *c)
{
	uint64_t m = c->req.limit[TC_LIMIT_MEMORY];
	char v[32];
	int n;

	if (e->mem_fd < 0 || m >= e->setup->cfg->limit[TC_LIMIT_MEMORY])
		return 0;
	n = snprintf(v, sizeof(v), "%" PRIu64, m);
	return pwrite(e->mem_fd, v, (size_t)n, 0) == n ? 0 : -errno;
}

/* Read at most reads times what the fd has, into b while it stays within
 * keep bytes (the rest is read and dropped, so a writer never waits on us);
 * at EOF close it (*fd -1), or poll would report its hang-up again and
 * again while the runner tears its sandbox down. */
static void drain_into(int *fd, struct tc_buf *b, size_t keep, unsigned reads)
{
	char chunk[65536];
	ssize_t n = -1;

	while (*fd >= 0 && reads &&
	       ((n = read(*fd, chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR))) {
		if (n > 0 && b->len < keep)
			(void)tc_buf_add(b, chunk,
					 (size_t)n < keep - b->len ? (size_t)n : keep - b->len);
		reads -= n > 0;
	}
	if (*fd >= 0 && n == 0)
		tc_closep(fd);
}

/* The most of a stream of the tool's the answer takes: the policy's cap,
 * or the call's own below it. */
uint64_t tc_serve_io_cap(const struct entry *e, enum tc_limit_id id)
{
	uint64_t cap = e->setup->cfg->limit[id];

	if (e->call->req.asked[id] && e->call->req.limit[id] < cap)
		cap = e->call->req.limit[id];
	return cap;
}

/* The tool's output past its cap (we keep one byte more to see it) is
 * dropped and the call ended: OutputLimit (serve-answer.c). */
static void cap_check(struct entry *e, struct tc_buf *b, enum tc_limit_id id, bool *over)
{
	uint64_t cap = tc_serve_io_cap(e, id);

	if (b->len <= cap)
		return;
	b->len = cap;
	b->p[cap] = '\0';
	if (!*over)
		tc_serve_entry_end(NULL, e);
	*over = true;
}

void tc_serve_io_read(struct entry *e, int *fd, struct tc_buf *b, size_t keep, enum tc_limit_id id,
		      unsigned reads)
{
	if (!e->call) {
		drain_into(fd, b, keep, reads);
		return;
	}
	drain_into(fd, b, tc_serve_io_cap(e, id) + 1, reads);
	cap_check(e, b, id, id == TC_LIMIT_STDOUT ? &e->call->over_stdout : &e->call->over_stderr);
}
