/* `toolcell serve`'s runner report (see serve-internal.h): a sandbox's
 * outcome, as a runner sends it to the server on its outcome socket, and
 * the notes with descriptors that go before it. The
 * struct tc_outcome goes with copies of its strings beside it, and on the
 * wire its denied[] array (36 KB, one slot per system call number) carries
 * only the n_denied entries in use and each string only its bytes: a
 * report is about 2.8 KB, not 45. Pure;
 * the runner encodes (our child, after its sandbox's end), the server
 * decodes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve-internal.h"
#include "util.h"

/* the wire: o's bytes before o.denied, then those from o.n_denied to o's
 * end (n_denied first), exec_errno, each of w's strings up to its NUL, then
 * the n_denied entries: the unused slots and the strings' unused bytes
 * (4 KB of cgroup path alone) stay home */
#define WIRE_HEAD  offsetof(struct wire_outcome, o.denied)
#define WIRE_TAIL  offsetof(struct wire_outcome, o.n_denied)
#define WIRE_REST  (sizeof(struct tc_outcome) - WIRE_TAIL)
#define WIRE_FIXED (WIRE_HEAD + WIRE_REST + sizeof(int))
#define WIRE_ONE   sizeof(((struct tc_outcome *)0)->denied[0])
#define WIRE_SLOTS TC_ARRAY_SIZE(((struct tc_outcome *)0)->denied)
#define WIRE_STR(m)                                                                                \
	{                                                                                          \
		offsetof(struct wire_outcome, m), sizeof(((struct wire_outcome *)0)->m)            \
	}

static const struct {
	size_t at, size;
} wire_strs[] = { WIRE_STR(seccomp),	 WIRE_STR(landlock),	  WIRE_STR(cgroup),
		  WIRE_STR(cgroup_swap), WIRE_STR(kernel_memory), WIRE_STR(mem_reason),
		  WIRE_STR(oom_reason),	 WIRE_STR(pids_reason),	  WIRE_STR(not_applied) };

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

static size_t denied_in_use(const struct tc_outcome *o)
{
	return o->n_denied < WIRE_SLOTS ? o->n_denied : WIRE_SLOTS;
}

void tc_serve_wire_pack(const struct tc_outcome *o, int exec_errno, struct wire_outcome *w)
{
	/* what is sent, no more: copying all of o's 36 KB array of denied
	 * slots (and zeroing them first) cost the runner's report its time */
	memcpy(&w->o, o, WIRE_HEAD);
	memcpy((char *)&w->o + WIRE_TAIL, (const char *)o + WIRE_TAIL, WIRE_REST);
	memcpy(w->o.denied, o->denied, denied_in_use(o) * WIRE_ONE);
	copy_str(w->seccomp, sizeof(w->seccomp), o->seccomp);
	copy_str(w->landlock, sizeof(w->landlock), o->landlock);
	copy_str(w->cgroup, sizeof(w->cgroup), o->cgroup);
	copy_str(w->cgroup_swap, sizeof(w->cgroup_swap), o->cgroup_swap);
	copy_str(w->kernel_memory, sizeof(w->kernel_memory), o->kernel_memory);
	copy_str(w->mem_reason, sizeof(w->mem_reason), o->memory_peak_bytes.reason);
	copy_str(w->oom_reason, sizeof(w->oom_reason), o->oom_kills.reason);
	copy_str(w->pids_reason, sizeof(w->pids_reason), o->pids_peak.reason);
	copy_str(w->not_applied, sizeof(w->not_applied), o->workspace.not_applied);
	w->exec_errno = exec_errno;
}

size_t tc_serve_wire_encode(const struct wire_outcome *w, char *buf)
{
	size_t n = denied_in_use(&w->o), at = WIRE_FIXED;

	memcpy(buf, w, WIRE_HEAD);
	memcpy(buf + WIRE_HEAD, (const char *)w + WIRE_TAIL, WIRE_REST);
	/* n_denied as sent says how many follow */
	memcpy(buf + WIRE_HEAD, &n, sizeof(n));
	memcpy(buf + WIRE_HEAD + WIRE_REST, &w->exec_errno, sizeof(int));
	for (size_t i = 0; i < TC_ARRAY_SIZE(wire_strs); i++) {
		const char *str = (const char *)w + wire_strs[i].at;
		size_t len = strnlen(str, wire_strs[i].size - 1);

		memcpy(buf + at, str, len);
		buf[at + len] = '\0';
		at += len + 1;
	}
	memcpy(buf + at, w->o.denied, n * WIRE_ONE);
	return at + n * WIRE_ONE;
}

/* Point the outcome's strings at the copies beside it (the runner's
 * pointers mean nothing here); "" was NULL. */
static void unpack(struct wire_outcome *w)
{
	struct tc_outcome *o = &w->o;

	o->seccomp = w->seccomp[0] ? w->seccomp : NULL;
	o->landlock = w->landlock[0] ? w->landlock : NULL;
	o->cgroup = w->cgroup[0] ? w->cgroup : NULL;
	o->cgroup_swap = w->cgroup_swap[0] ? w->cgroup_swap : NULL;
	o->kernel_memory = w->kernel_memory[0] ? w->kernel_memory : NULL;
	o->warm_up = NULL; /* the server's to say (serve-answer.c) */
	o->memory_peak_bytes.reason = w->mem_reason[0] ? w->mem_reason : NULL;
	o->oom_kills.reason = w->oom_reason[0] ? w->oom_reason : NULL;
	o->pids_peak.reason = w->pids_reason[0] ? w->pids_reason : NULL;
	o->workspace.not_applied = w->not_applied[0] ? w->not_applied : NULL;
	o->policy_path = NULL;
	o->tool_path = NULL;
	o->run = NULL;
}

int tc_serve_wire_decode(const char *buf, size_t len, struct wire_outcome *w)
{
	size_t at = WIRE_FIXED, n;

	if (len < WIRE_FIXED)
		return -EAGAIN;
	memcpy(&n, buf + WIRE_HEAD, sizeof(n));
	if (n > WIRE_SLOTS)
		return -EBADMSG;
	memset(w, 0, sizeof(*w));
	memcpy(w, buf, WIRE_HEAD);
	memcpy((char *)w + WIRE_TAIL, buf + WIRE_HEAD, WIRE_REST);
	memcpy(&w->exec_errno, buf + WIRE_HEAD + WIRE_REST, sizeof(int));
	/* each string within its array, NUL and all */
	for (size_t i = 0; i < TC_ARRAY_SIZE(wire_strs); i++) {
		size_t room = len - at < wire_strs[i].size ? len - at : wire_strs[i].size;
		const char *nul = memchr(buf + at, '\0', room);

		if (!nul)
			return room < wire_strs[i].size ? -EAGAIN : -EBADMSG;
		memcpy((char *)w + wire_strs[i].at, buf + at, (size_t)(nul - buf) + 1 - at);
		at = (size_t)(nul - buf) + 1;
	}
	if (len < at + n * WIRE_ONE)
		return -EAGAIN;
	if (len > at + n * WIRE_ONE)
		return -EBADMSG;
	memcpy(w->o.denied, buf + at, n * WIRE_ONE);
	unpack(w);
	return 0;
}

void tc_serve_wire_note(int fd, enum serve_note_kind kind, int *fds, size_t n)
{
	struct serve_note m = { SERVE_NOTE_MAGIC, kind };
	union {
		char buf[CMSG_SPACE(SERVE_NOTE_FDS * sizeof(int))];
		struct cmsghdr align;
	} u = { 0 };
	struct iovec iov = { &m, sizeof(m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int keep[SERVE_NOTE_FDS];
	size_t k = 0;

	for (size_t i = 0; i < n && k < SERVE_NOTE_FDS; i++)
		if (fds[i] >= 0)
			keep[k++] = fds[i];
	if (k) {
		struct cmsghdr *c;

		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(k * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(k * sizeof(int));
		memcpy(CMSG_DATA(c), keep, k * sizeof(int));
	}
	/* lost, the server never uses the entry (it ends it) */
	while (sendmsg(fd, &mh, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
	for (size_t i = 0; i < n; i++)
		tc_closep(&fds[i]);
}

ssize_t tc_serve_wire_recv(int fd, char *buf, size_t size, int fds[SERVE_NOTE_FDS], size_t *nfds)
{
	union {
		char buf[CMSG_SPACE(SERVE_NOTE_FDS * sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { buf, size };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	ssize_t n;

	*nfds = 0;
	do
		n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n >= 0)
		*nfds = tc_take_fds(&mh, fds, SERVE_NOTE_FDS);
	if (*nfds > SERVE_NOTE_FDS)
		*nfds = SERVE_NOTE_FDS; /* the rest closed */
	/* an empty message is EOF to a SOCK_SEQPACKET reader: its
	 * descriptors go with it */
	if (n == 0 || (n > 0 && (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))) {
		for (size_t i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
		return n == 0 ? 0 : -EMSGSIZE;
	}
	return n < 0 ? -errno : n;
}
