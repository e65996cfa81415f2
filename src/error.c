/* struct tc_error helpers. Safe on both sides of clone: they format into the
 * caller's fixed buffer and touch nothing else. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "toolcell/error.h"

int tc_error_format(struct tc_error *e, const char *stage, int err, bool with_errno,
		    const char *fmt, ...)
{
	if (e) {
		va_list ap;
		size_t n;

		snprintf(e->stage, sizeof(e->stage), "%s", stage);
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
