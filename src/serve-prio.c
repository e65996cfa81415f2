/* `toolcell serve`'s priorities (see serve-internal.h): an entry warms up
 * (its sandbox built, its interpreter started) at nice TC_SERVE_WARM_NICE
 * and is set back to ours at dispatch, so that refills never take CPU from
 * the calls that run; one a call already waits for warms at ours. Setting a
 * priority back needs CAP_SYS_NICE (the tool's own RLIMIT_NICE is 0), so
 * without it entries warm at our priority. Runs in the server. */
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "caps.h"
#include "serve-internal.h"
#include "util.h"

/* Whether we may set a priority back (CAP_SYS_NICE). */
bool tc_serve_prio_can_lower(void)
{
	static int known = -1;

	if (known < 0)
		known = (tc_caps_effective() >> CAP_SYS_NICE) & 1;
	return known == 1;
}

/* The pids /proc lists as pid's children, into pids (0 for none). */
static void children_of(pid_t pid, pid_t *pids, size_t n)
{
	char path[64], buf[256], *p = buf, *end;
	_cleanup_close_ int fd = -1;
	ssize_t len;
	size_t i = 0;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	len = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	buf[len > 0 ? len : 0] = '\0';
	for (long v; i < n && (v = strtol(p, &end, 10)) > 0; p = end)
		pids[i++] = (pid_t)v;
}

/* The entry got ready: note its sandbox's processes, to set them back at
 * dispatch. Only toolcell's code has run in it so far. */
void tc_serve_prio_note(struct entry *e)
{
	pid_t top[2] = { 0 };
	size_t n = 0;

	memset(e->warm_pids, 0, sizeof(e->warm_pids));
	if (!tc_serve_prio_can_lower())
		return;
	children_of(e->pid, top, TC_ARRAY_SIZE(top));
	for (size_t i = 0; i < TC_ARRAY_SIZE(top) && top[i]; i++) {
		e->warm_pids[n++] = top[i];
		children_of(top[i], &e->warm_pids[n], 1);
		n += e->warm_pids[n] != 0;
		if (n + 2 > TC_ARRAY_SIZE(e->warm_pids))
			break;
	}
}

/* Dispatch: the call runs at our priority. */
void tc_serve_prio_restore(const struct entry *e)
{
	if (!tc_serve_prio_can_lower())
		return;
	setpriority(PRIO_PROCESS, (id_t)e->pid, 0);
	for (size_t i = 0; i < TC_ARRAY_SIZE(e->warm_pids) && e->warm_pids[i]; i++)
		setpriority(PRIO_PROCESS, (id_t)e->warm_pids[i], 0);
}

/* A call waits for uid's next entry: the ones warming for it go at our
 * priority from now on (nothing but toolcell's code has run in them). */
void tc_serve_prio_hurry(struct server *s, uid_t uid)
{
	for (struct entry *e = s->entries; e; e = e->next)
		if (e->uid == uid && e->state == ENTRY_STARTING && !e->hurried) {
			e->hurried = true;
			tc_serve_prio_note(e);
			tc_serve_prio_restore(e);
		}
}
