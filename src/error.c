/* struct tc_error helpers and the stages' names. Safe on both sides of
 * clone: they format into the caller's fixed buffer and touch nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "toolcell/error.h"
#include "util.h"

/* the record's error.stage, one row per stage (HACKING.md, style rule 17) */
static const char *const stage_names[] = {
	[TC_STAGE_NONE] = "",
	[TC_STAGE_CLI] = "cli",
	[TC_STAGE_POLICY] = "policy",
	[TC_STAGE_REQUEST] = "request",
	[TC_STAGE_CONFIG] = "config",
	[TC_STAGE_MAIN] = "main",
	[TC_STAGE_AUDIT] = "audit",
	[TC_STAGE_ROOTFS] = "rootfs",
	[TC_STAGE_WORKSPACE] = "workspace",
	[TC_STAGE_CGROUP] = "cgroup",
	[TC_STAGE_KLIMITS] = "klimits",
	[TC_STAGE_SPAWN] = "spawn",
	[TC_STAGE_CLONE] = "clone",
	[TC_STAGE_SUPERVISE] = "supervise",
	[TC_STAGE_RESPONSE] = "response",
	[TC_STAGE_SERVE] = "serve",
	[TC_STAGE_ANSWER] = "answer",
	[TC_STAGE_USERNS] = "userns",
	[TC_STAGE_MOUNT] = "mount",
	[TC_STAGE_PROC] = "proc",
	[TC_STAGE_NET] = "net",
	[TC_STAGE_UTS] = "uts",
	[TC_STAGE_KEYRING] = "keyring",
	[TC_STAGE_CAPS] = "caps",
	[TC_STAGE_LANDLOCK] = "landlock",
	[TC_STAGE_SECCOMP] = "seccomp",
	[TC_STAGE_RLIMIT] = "rlimit",
	[TC_STAGE_EXEC] = "exec",
	[TC_STAGE_INIT] = "init",
};
_Static_assert(TC_ARRAY_SIZE(stage_names) == TC_STAGE__MAX, "a stage without a name");

const char *tc_stage_name(enum tc_stage s)
{
	return (size_t)s < TC_ARRAY_SIZE(stage_names) ? stage_names[s]
						      : stage_names[TC_STAGE_SPAWN];
}

int tc_error_format(struct tc_error *e, enum tc_stage stage, int err, bool with_errno,
		    const char *fmt, ...)
{
	if (e) {
		va_list ap;
		size_t n;

		e->stage = stage;
		e->err = err;
		va_start(ap, fmt);
		vsnprintf(e->message, sizeof(e->message), fmt, ap);
		va_end(ap);
		n = strlen(e->message);
		if (with_errno && err && n < sizeof(e->message))
			snprintf(e->message + n, sizeof(e->message) - n, ": %s", strerror(err));
	}
	return err ? -err : -EINVAL;
}

void tc_error_clear(struct tc_error *e)
{
	memset(e, 0, sizeof(*e));
}

void tc_error_take(struct tc_error *dst, const struct tc_error *src)
{
	*dst = *src;
	dst->message[sizeof(dst->message) - 1] = '\0';
	if ((size_t)dst->stage >= TC_STAGE__MAX)
		dst->stage = TC_STAGE_SPAWN;
}
