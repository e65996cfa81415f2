/* Error context for every fallible function: a fixed-size record that needs
 * no heap, so the child can fill it after clone and send it to the parent
 * over the sync socket as bytes (HACKING.md, style rule 6). Functions return >= 0 on
 * success and -errno on failure; the struct says where and why. */
#ifndef TOOLCELL_ERROR_H
#define TOOLCELL_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

#define TC_ERROR_MESSAGE_MAX 1024

/* Where an error was made. The record's error.stage is its name
 * (tc_stage_name); whose fault it was is status.c's table (tc_error_fault),
 * never a comparison of names. A new stage needs a name in error.c's table,
 * which the unit test checks. */
enum tc_stage {
	TC_STAGE_NONE, /* no error */
	/* the caller's input */
	TC_STAGE_CLI,
	TC_STAGE_POLICY,
	TC_STAGE_REQUEST,
	/* the site's configuration (toolcell.conf, the site folder) */
	TC_STAGE_CONFIG,
	/* toolcell's own work, in the parent */
	TC_STAGE_MAIN,
	TC_STAGE_AUDIT,
	TC_STAGE_ROOTFS,
	TC_STAGE_WORKSPACE,
	TC_STAGE_CGROUP,
	TC_STAGE_KLIMITS,
	TC_STAGE_SPAWN,
	TC_STAGE_CLONE,
	TC_STAGE_SUPERVISE,
	TC_STAGE_RESPONSE,
	TC_STAGE_SERVE,
	TC_STAGE_ANSWER,
	/* the sandbox's set-up, mostly in the child */
	TC_STAGE_USERNS,
	TC_STAGE_MOUNT,
	TC_STAGE_PROC,
	TC_STAGE_NET,
	TC_STAGE_UTS,
	TC_STAGE_KEYRING,
	TC_STAGE_CAPS,
	TC_STAGE_LANDLOCK,
	TC_STAGE_SECCOMP,
	TC_STAGE_RLIMIT,
	TC_STAGE_EXEC,
	TC_STAGE_INIT,
	TC_STAGE__MAX
};

struct tc_error {
	enum tc_stage stage;		    /* where; TC_STAGE_NONE when there is no error */
	int err;			    /* errno, or 0 when none applies */
	char message[TC_ERROR_MESSAGE_MAX]; /* complete sentence, no prefix, no newline */
};

/* The stage's name as the record writes it ("policy", "mount", ...); "" for
 * TC_STAGE_NONE, and "spawn" for a value outside the enum. */
const char *tc_stage_name(enum tc_stage s);

/* Fill *e (when not NULL) and return -err, or -EINVAL when err is 0. The
 * message is formatted with vsnprintf into the fixed buffer and truncated;
 * with_errno appends ": strerror(err)". Safe in the child after clone:
 * formats into the caller's struct only. */
int tc_error_format(struct tc_error *e, enum tc_stage stage, int err, bool with_errno,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* tc_error_format without, and with, ": strerror(err)". */
#define tc_error_set(e, stage, err, ...)   tc_error_format((e), (stage), (err), false, __VA_ARGS__)
#define tc_error_errno(e, stage, err, ...) tc_error_format((e), (stage), (err), true, __VA_ARGS__)

/* Reset to "no error". */
void tc_error_clear(struct tc_error *e);

/* Copy an error that came from another process (the child, the net helper)
 * into *dst, held to the struct's own terms whatever it said: the message
 * NUL-terminated, a stage outside the enum taken as TC_STAGE_SPAWN. */
void tc_error_take(struct tc_error *dst, const struct tc_error *src);

#endif
