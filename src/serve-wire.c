/* `toolcell serve`'s runner report (see serve-internal.h): a sandbox's
 * outcome, as a runner sends it to the server on its outcome pipe. The
 * struct tc_outcome goes with copies of its strings beside it, and on the
 * wire its denied[] array (36 KB, one slot per system call number) carries
 * only the n_denied entries in use: a report is about 8.6 KB, not 45. Pure;
 * the runner encodes (our child, after its sandbox's end), the server
 * decodes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "serve-internal.h"
#include "util.h"

/* the wire: the bytes before o.denied, then those from o.n_denied to the
 * struct's end (n_denied first), then the n_denied entries */
#define WIRE_HEAD  offsetof(struct wire_outcome, o.denied)
#define WIRE_TAIL  offsetof(struct wire_outcome, o.n_denied)
#define WIRE_ONE   sizeof(((struct tc_outcome *)0)->denied[0])
#define WIRE_SLOTS TC_ARRAY_SIZE(((struct tc_outcome *)0)->denied)

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

void tc_serve_wire_pack(const struct tc_outcome *o, int exec_errno, struct wire_outcome *w)
{
	memset(w, 0, sizeof(*w));
	w->o = *o;
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
	const char *p = (const char *)w;
	size_t n = w->o.n_denied < WIRE_SLOTS ? w->o.n_denied : WIRE_SLOTS;
	size_t tail = sizeof(*w) - WIRE_TAIL;

	memcpy(buf, p, WIRE_HEAD);
	memcpy(buf + WIRE_HEAD, p + WIRE_TAIL, tail);
	/* n_denied as sent says how many follow */
	memcpy(buf + WIRE_HEAD, &n, sizeof(n));
	memcpy(buf + WIRE_HEAD + tail, w->o.denied, n * WIRE_ONE);
	return WIRE_HEAD + tail + n * WIRE_ONE;
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
	size_t tail = sizeof(*w) - WIRE_TAIL, n;

	if (len < WIRE_HEAD + tail)
		return -EAGAIN;
	memcpy(&n, buf + WIRE_HEAD, sizeof(n));
	if (n > WIRE_SLOTS || len > WIRE_HEAD + tail + n * WIRE_ONE)
		return -EBADMSG;
	if (len < WIRE_HEAD + tail + n * WIRE_ONE)
		return -EAGAIN;
	memset(w, 0, sizeof(*w));
	memcpy(w, buf, WIRE_HEAD);
	memcpy((char *)w + WIRE_TAIL, buf + WIRE_HEAD, tail);
	memcpy(w->o.denied, buf + WIRE_HEAD + tail, n * WIRE_ONE);
	/* strings cut to their arrays, whatever the bytes said */
	w->seccomp[sizeof(w->seccomp) - 1] = w->landlock[sizeof(w->landlock) - 1] = '\0';
	w->cgroup[sizeof(w->cgroup) - 1] = w->cgroup_swap[sizeof(w->cgroup_swap) - 1] = '\0';
	w->kernel_memory[sizeof(w->kernel_memory) - 1] = '\0';
	w->mem_reason[sizeof(w->mem_reason) - 1] = w->oom_reason[sizeof(w->oom_reason) - 1] = '\0';
	w->pids_reason[sizeof(w->pids_reason) - 1] = '\0';
	w->not_applied[sizeof(w->not_applied) - 1] = '\0';
	unpack(w);
	return 0;
}
