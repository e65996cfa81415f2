/* How a run's end is put into words for its caller: the call envelope's
 * error type of each status, the sentence that names a limit the tool met
 * and how to raise it, and whose fault a refusal was (the caller's input,
 * the site's configuration, or toolcell's own failure). Pure tables; runs in
 * the parent after the sandbox ended (or instead of it). The record's status
 * names are record.c's (tc_status_name). */
#ifndef TOOLCELL_STATUS_H
#define TOOLCELL_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "toolcell/record.h"

/* The envelope's error type for a toolcell-observed end ("Timeout",
 * "MemoryLimit", ..., "BadRequest", "SandboxError"), or NULL for ok and
 * exit_nonzero, whose error (if any) is the tool's own. */
const char *tc_status_error_type(enum tc_status s);

/* "the tool reached its time limit" and the like, for the limit statuses;
 * NULL for the others. */
const char *tc_status_limit_words(enum tc_status s);

/* Whose fault a refusal before (or instead of) the sandbox was. */
enum tc_fault {
	TC_FAULT_TOOLCELL, /* (0: a stage the table leaves out) the sandbox could not be
			    * built: sandbox_error, SandboxError */
	TC_FAULT_CALLER,   /* bad option, policy or request: rejected, BadRequest */
	TC_FAULT_SITE,	   /* the site's toolcell.conf: rejected, but SandboxError to a caller */
};

/* The fault of err, by the stage that set it (a table, not names compared):
 * TC_STAGE_CLI, _POLICY and _REQUEST are the caller's, TC_STAGE_CONFIG the
 * site's, every other stage toolcell's. */
enum tc_fault tc_error_fault(const struct tc_error *err);

/* The line toolcell prints on stderr about how a run ended, without the
 * "toolcell: " prefix, into buf: the error's message when the outcome has
 * one; else, unless quiet, which limit the tool met and (for a time limit)
 * the setting that raises it, since a framework with a timeout of its own
 * must see that toolcell's fired first. limit is the run's limits (the
 * config's). false when there is nothing to say. */
bool tc_status_explain(const struct tc_outcome *o, const uint64_t limit[TC_LIMIT__MAX], bool quiet,
		       char *buf, size_t n);

#endif
