/* One run's identity and its audit trail: a run id (a UUID v4 from
 * getrandom), when it started and ended, which verb, and who called; and
 * the one structured line per run that goes to the system log (syslog
 * key=value, which journald keeps). Formatting is pure; sending is one
 * non-blocking datagram, so a stuck or missing logger never holds a run.
 * Runs in the parent, before clone and after the tool ended. */
#ifndef TOOLCELL_AUDIT_H
#define TOOLCELL_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include "toolcell/error.h"

#define TC_RECORD_VERSION 1    /* the record's shape; bumped when a field changes meaning */
#define TC_AUDIT_LINE_MAX 1024 /* one syslog line, header included */

struct tc_outcome;

struct tc_run {
	char id[37];	     /* UUID v4, lower-case, "" before tc_run_begin */
	uint64_t started_ms; /* wall-clock milliseconds since the epoch */
	uint64_t ended_ms;   /* 0 until tc_run_end */
	const char *verb;    /* "run", "python", "call", "session", "check" */
	uint32_t caller_uid; /* the real uid that started toolcell */
	int32_t caller_pid;  /* toolcell's own pid: the caller's process for the run */
};

/* Format 16 random bytes as a UUID v4 (version and variant bits set) into
 * out. Pure. */
void tc_uuid4_format(const unsigned char bytes[16], char out[37]);

/* Start a run: a run id from getrandom (fail closed: -errno with err set
 * when the kernel gives no randomness), the start time, verb and caller. */
int tc_run_begin(struct tc_run *r, const char *verb, struct tc_error *err);

/* The end time (idempotent: the first call counts). */
void tc_run_end(struct tc_run *r);

/* ms since the epoch as RFC 3339 UTC with milliseconds,
 * "2026-11-24T00:18:03.123Z". Pure. */
void tc_rfc3339(uint64_t ms, char out[32]);

/* The audit line's message (no syslog header): space-separated key=value
 * pairs, values without spaces, nothing from the request, the tool's output
 * or the environment. o may be NULL (a run refused before it had an
 * outcome; status then says rejected or sandbox_error). Pure. */
void tc_audit_format(const struct tc_run *r, const struct tc_outcome *o, const char *status,
		     char *buf, size_t n);

/* Send message to the syslog socket at path (AF_UNIX datagram, facility
 * authpriv, severity info, tag "toolcell"), without blocking. 0 or -errno;
 * the caller ignores a failure (no logger is no reason to fail a run). */
int tc_audit_send(const char *path, const char *message);

#endif
