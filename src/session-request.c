/* `toolcell session`'s requests (see session.h): one line from the caller,
 * its untrusted input, checked into struct tc_session_request before any
 * of it reaches the harness. Pure: a string in, a struct out; the same for
 * a session of our own and one started from a server (session-remote.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "session.h"
#include "util.h"

int tc_session_request_parse(const char *line, size_t len, size_t max_bytes, uint64_t ceiling_ms,
			     struct tc_session_request *ret, struct tc_error *err)
{
	static const char *const keys[] = { "id", "op", "code", "timeout_s" };
	char *m[TC_ARRAY_SIZE(keys)] = { 0 };
	int r;

	*ret = (struct tc_session_request){ .op = TC_SESSION_CODE, .limit_ms = ceiling_ms };
	r = tc_json_members(line, len, max_bytes, TC_STAGE_REQUEST, keys, TC_ARRAY_SIZE(keys), m,
			    err);
	if (r < 0)
		return r;
	ret->id = m[0];
	if (m[1] && !strcmp(m[1], "\"shutdown\"")) {
		ret->op = TC_SESSION_SHUTDOWN;
	} else if (m[1] && !strcmp(m[1], "\"reset\"")) {
		ret->op = TC_SESSION_RESET;
	} else if (m[1]) {
		r = tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
				 "request: \"op\" must be \"reset\" or \"shutdown\" (or absent, "
				 "with \"code\")");
	} else if (!m[2] || m[2][0] != '"') {
		r = tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
				 "request: \"code\" must be a string");
	} else if (m[3]) {
		char *end = NULL;
		double t = strtod(m[3], &end);
		/* a JSON number (members are valid JSON), so strtod reads all of it */
		if (!end || *end || !(t > 0))
			r = tc_error_set(err, TC_STAGE_REQUEST, EINVAL,
					 "request: \"timeout_s\" must be a number above 0 "
					 "(seconds; the session's limit is %.3f s)",
					 (double)ceiling_ms / 1000);
		else if (t * 1000 > (double)ceiling_ms)
			ret->clamped_ms = ceiling_ms; /* Rustic asks 60 s by default */
		else
			ret->limit_ms = (uint64_t)(t * 1000 + 0.999);
	}
	if (!ret->limit_ms)
		ret->limit_ms = 1;
	for (size_t i = 1; i < TC_ARRAY_SIZE(m); i++)
		free(m[i]);
	return r;
}

void tc_session_request_release(struct tc_session_request *r)
{
	free(r->id);
	r->id = NULL;
}
