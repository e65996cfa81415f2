/* struct tc_error helpers. Safe on both sides of clone: they format into the
 * caller's fixed buffer and touch nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "toolcell/error.h"

__attribute__((format(printf, 5, 0))) static int error_vset(struct tc_error *e, const char *stage,
							    int err, bool with_errno,
							    const char *fmt, va_list ap)
{
	if (e) {
		size_t n;

		snprintf(e->stage, sizeof(e->stage), "%s", stage);
		e->err = err;
		vsnprintf(e->message, sizeof(e->message), fmt, ap);
		n = strlen(e->message);
		if (with_errno && err && n < sizeof(e->message))
			snprintf(e->message + n, sizeof(e->message) - n, ": %s", strerror(err));
	}
	return err ? -err : -EINVAL;
}

int tc_error_set(struct tc_error *e, const char *stage, int err, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_vset(e, stage, err, false, fmt, ap);
	va_end(ap);
	return r;
}

int tc_error_errno(struct tc_error *e, const char *stage, int err, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = error_vset(e, stage, err, true, fmt, ap);
	va_end(ap);
	return r;
}

void tc_error_clear(struct tc_error *e)
{
	memset(e, 0, sizeof(*e));
}
