/* The verbs of toolcell's command line (run, python, call, session, check,
 * policy check) and what they share: the state of one invocation, the
 * policy and rootfs it runs with, the result record's file, the audit line,
 * the refusal path, and how a relayed run's end becomes an exit status. A
 * verb returns the exit status (or sets end_signal); only main.c exits.
 * Parent side: everything here runs before clone or after the sandbox. */
#ifndef TOOLCELL_VERB_H
#define TOOLCELL_VERB_H

#include <limits.h>
#include <stdbool.h>

#include "layout.h"
#include "audit.h"
#include "cli.h"
#include "policy.h"
#include "site.h"
#include "toolcell/config.h"
#include "toolcell/error.h"
#include "toolcell/record.h"
#include "toolcell/sandbox.h"

/* toolcell's own exit statuses (the tool's pass through unchanged) */
#define TC_EXIT_TIMEOUT	 124 /* a toolcell time limit ended the tool */
#define TC_EXIT_TOOLCELL 125 /* toolcell refused or failed */
#define TC_EXIT_NOEXEC	 126 /* run: the program is not executable inside */
#define TC_EXIT_NOTFOUND 127 /* run: no such program inside */

/* One invocation of toolcell. */
struct tc_invocation {
	struct tc_cli cli;
	const char *exe_dir;	 /* the binary's folder: build tree or install */
	struct tc_layout layout; /* where toolcell's own files are (tc_verb_load) */
	struct tc_run run;	 /* this run's id, times, verb and caller (audit.h) */
	struct tc_site site;	 /* toolcell.conf and the site folder */
	struct tc_policy policy;
	char *policy_path; /* the policy file used */
	struct tc_config cfg;
	char *rootfs;			    /* the chosen rootfs (real path) */
	char rootfs_rebuild[PATH_MAX + 64]; /* the command that rebuilds it, quoted */
	int rootfs_lock;		    /* shared flock on it, held until toolcell exits */
	int result_fd;			    /* the record's descriptor, or -1 */
	bool audited;			    /* one audit line per run */
	struct tc_outcome out;
	int end_signal; /* set by a verb: toolcell ends by this signal, as the tool did */
};

/* `toolcell version`: the version line; with --paths, where this toolcell
 * finds its own files (layout.h), as NAME PATH lines, one NAME's path, or
 * a JSON object. Returns the exit status (125 for an unknown NAME). */
int tc_verb_version(struct tc_invocation *v);
/* Its options, one row each (tc_cli_help(TC_VERB_VERSION) shows them). */
extern const struct tc_cli_subopt tc_version_opts[];
extern const size_t tc_version_n_opts;

/* A refusal before (or instead of) the sandbox: the audit line, the
 * message on stderr and, for call, one envelope on stdout. Returns the
 * exit status (125). */
int tc_verb_fail(struct tc_invocation *v, const struct tc_error *err);

/* The policy (site's, caller's or shipped), its rootfs chosen and held,
 * the caller's overrides applied, its requirements met (check reports
 * them instead). -errno with err set. */
int tc_verb_load(struct tc_invocation *v, struct tc_error *err);

/* tc_verb_load, then the result file opened and the outcome started. */
int tc_verb_init(struct tc_invocation *v, struct tc_error *err);

/* The audit line of the run (o NULL: no outcome), where toolcell.conf
 * leaves it on; once per run. */
void tc_verb_audit(struct tc_invocation *v, const struct tc_outcome *o, const char *status);

/* The record written whole (and the audit line): false after saying why
 * on stderr, and toolcell exits 125, whatever the tool did. */
bool tc_verb_write_result(struct tc_invocation *v);

/* After a relayed run (run, python): the record, the line that explains a
 * limit, and the exit status: the tool's own, 124 for a time limit, 126 or
 * 127 when the program could not start, 125 for toolcell's failure; or
 * end_signal when the tool (or toolcell) was killed by a signal. */
int tc_verb_finish_relay(struct tc_invocation *v, const struct tc_sandbox_result *res);

int tc_verb_run(struct tc_invocation *v);
int tc_verb_python(struct tc_invocation *v);
int tc_verb_call(struct tc_invocation *v);
int tc_verb_session(struct tc_invocation *v);
int tc_verb_check(struct tc_invocation *v);
int tc_verb_policy_check(struct tc_invocation *v);
/* `toolcell serve`, with its own command line (argv[1] is "serve"). */
int tc_verb_serve(struct tc_invocation *v, int argc, char **argv);

#endif
