/* Error context for every fallible function: a fixed-size record that needs
 * no heap, so the child can fill it after clone and send it to the parent
 * over the sync socket as bytes (HACKING.md, style rule 6). Functions return >= 0 on
 * success and -errno on failure; the struct says where and why. */
#ifndef TOOLCELL_ERROR_H
#define TOOLCELL_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

#define TC_ERROR_STAGE_MAX   32
#define TC_ERROR_MESSAGE_MAX 1024

struct tc_error {
	char stage[TC_ERROR_STAGE_MAX];	    /* "policy", "mount", "userns", ... */
	int err;			    /* errno, or 0 when none applies */
	char message[TC_ERROR_MESSAGE_MAX]; /* complete sentence, no prefix, no newline */
};

/* Fill *e (when not NULL) and return -err, or -EINVAL when err is 0. The
 * message is formatted with vsnprintf into the fixed buffer and truncated;
 * with_errno appends ": strerror(err)". Safe in the child after clone:
 * formats into the caller's struct only. */
int tc_error_format(struct tc_error *e, const char *stage, int err, bool with_errno,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* tc_error_format without, and with, ": strerror(err)". */
#define tc_error_set(e, stage, err, ...)   tc_error_format((e), (stage), (err), false, __VA_ARGS__)
#define tc_error_errno(e, stage, err, ...) tc_error_format((e), (stage), (err), true, __VA_ARGS__)

/* Reset to "no error". */
void tc_error_clear(struct tc_error *e);

#endif
