/* What the verbs share (verb.h): the policy and rootfs a run uses, the
 * result record, the audit line, the refusal path and the end of a relayed
 * run. Parent side, before clone and after the sandbox. */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "passenv.h"
#include "protocol.h"
#include "require.h"
#include "result.h"
#include "rootfs.h"
#include "status.h"
#include "util.h"
#include "verb.h"

#define TC_PYTHON "/usr/bin/python3"

extern char **environ;

void tc_verb_audit(struct tc_invocation *v, const struct tc_outcome *o, const char *status)
{
	char line[TC_AUDIT_LINE_MAX];

	if (!v->run.id[0] || !v->site.conf.audit || v->audited)
		return;
	v->audited = true;
	tc_run_end(&v->run);
	tc_audit_format(&v->run, o, status, line, sizeof(line));
	(void)tc_audit_send(v->site.conf.audit_socket, line); /* no logger fails no run */
}

/* In call mode a refusal is still one envelope on stdout. */
static void refusal_envelope(const struct tc_error *e)
{
	struct tc_response none = { 0 };
	struct tc_outcome o;
	char *json;

	tc_outcome_init(&o);
	o.status =
		tc_error_fault(e) == TC_FAULT_CALLER ? TC_STATUS_REJECTED : TC_STATUS_SANDBOX_ERROR;
	o.err = *e;
	json = tc_envelope_to_json(&o, &none, tc_status_error_type(o.status), e->message);
	if (json)
		tc_write_all(STDOUT_FILENO, json, strlen(json));
	free(json);
}

int tc_verb_fail(struct tc_invocation *v, const struct tc_error *err)
{
	tc_verb_audit(v, NULL,
		      tc_error_fault(err) == TC_FAULT_TOOLCELL ? "sandbox_error" : "rejected");
	tc_diag("%s", err->message);
	if (v->cli.verb == TC_VERB_CALL)
		refusal_envelope(err);
	return TC_EXIT_TOOLCELL;
}

/* The verbs that run a harness of the rootfs's (rootfs/harness.py,
 * session.py, serve.py) and so speak its protocol. */
static bool uses_harness(enum tc_verb verb)
{
	return verb == TC_VERB_CALL || verb == TC_VERB_SESSION; /* serve: serve-verb.c */
}

/* The rootfs: the policy's variant or the caller's allowed choice, present,
 * held and made by the builder. */
static int choose_rootfs(struct tc_invocation *v, struct tc_error *e)
{
	const char *asked = v->cli.overrides.rootfs;
	_cleanup_free_ char *dir = NULL;
	char py[PATH_MAX + 32];
	const char *name = asked && !strchr(asked, '/') ? asked : v->policy.rootfs_name;
	bool named = name && strcmp(name, "default");
	int r;

	r = tc_rootfs_choose(&v->policy, asked, &v->layout, &dir, e);
	if (r < 0)
		return r;
	snprintf(py, sizeof(py), "%s%s", dir, TC_PYTHON);
	if (access(py, X_OK) < 0)
		return tc_error_set(e, TC_STAGE_ROOTFS, errno,
				    "no Python rootfs at %s (%s); build it with 'toolcell rootfs "
				    "build%s%s' (as root) or pass --rootfs DIR where the policy "
				    "allows it",
				    dir, strerror(errno), named ? " --name " : "",
				    named ? name : "");
	v->rootfs_lock = tc_rootfs_hold(dir, &v->rootfs, e);
	if (v->rootfs_lock < 0)
		return v->rootfs_lock;
	/* the caller's choice was checked in full (its manifest hashed); the
	 * policy's own is checked for its shape and manifest only */
	if (!asked && (r = tc_rootfs_verify(v->rootfs, false, e)) < 0)
		return r;
	if (asked && strchr(asked, '/'))
		snprintf(v->rootfs_rebuild, sizeof(v->rootfs_rebuild),
			 "'toolcell rootfs build --dest %s'", asked);
	else
		snprintf(v->rootfs_rebuild, sizeof(v->rootfs_rebuild),
			 "'toolcell rootfs build%s%s' (as root)", named ? " --name " : "",
			 named ? name : "");
	/* a tree from other harnesses would fail its first call in words of
	 * Python's, not ours */
	if (uses_harness(v->cli.verb) &&
	    (r = tc_rootfs_check_harness(v->rootfs, v->rootfs_rebuild, e)) < 0)
		return r;
	v->cli.overrides.rootfs = NULL;
	return 0;
}

/* The names the policy drops, where it asks to be told (warn_env_not_passed). */
static void warn_env_not_passed(const struct tc_config *cfg)
{
	char names[TC_PASSENV_LINE_MAX];
	size_t more = 0, n = tc_passenv_dropped(environ, cfg, names, &more);

	if (!n)
		return;
	if (more)
		tc_diag("not passed to the tool, as the policy's pass_env does not list them: %s and "
			"%zu more (add each the tool needs to pass_env)",
			names, more);
	else
		tc_diag("not passed to the tool, as the policy's pass_env does not list %s: %s (add "
			"%s to pass_env if the tool needs %s)",
			n == 1 ? "it" : "them", names, n == 1 ? "it" : "them",
			n == 1 ? "it" : "them");
}

int tc_verb_load(struct tc_invocation *v, struct tc_error *e)
{
	const char *shipped = v->layout.path[TC_LAYOUT_POLICIES];
	char why[TC_ERROR_MESSAGE_MAX];
	const char *pinned_rootfs;
	int r;

	tc_layout_find(v->exe_dir, NULL, &v->layout);
	/* the administrator's toolcell.conf and policies come first */
	if ((r = tc_site_load(v->layout.path[TC_LAYOUT_SITE], &v->site, e)) < 0 ||
	    (r = tc_site_policy(&v->site, v->cli.policy_path, shipped, &v->policy_path, e)) < 0 ||
	    (r = tc_policy_load(v->policy_path, &v->policy, e)) < 0 ||
	    (r = tc_site_rootfs(&v->site, v->cli.overrides.rootfs, &pinned_rootfs, e)) < 0)
		return r;
	if (pinned_rootfs) {
		/* the pin stands in for the policy's own variant, not a caller's choice */
		free(v->policy.rootfs_name);
		v->policy.rootfs_name =
			strcmp(pinned_rootfs, "default") ? strdup(pinned_rootfs) : NULL;
		v->cli.overrides.rootfs = NULL;
	}
	if ((r = choose_rootfs(v, e)) < 0 ||
	    (r = tc_policy_apply(&v->policy, &v->cli.overrides, environ, v->rootfs, &v->cfg, e)) <
		    0)
		return r;
	/* check reports an unmet requirement instead of stopping at it */
	if (v->cli.verb != TC_VERB_CHECK &&
	    tc_require_unmet(&v->cfg, v->policy_path, why, sizeof(why)))
		return tc_error_set(e, TC_STAGE_POLICY, EOPNOTSUPP, "%s", why);
	if (v->cli.verb != TC_VERB_CHECK && v->policy.warn_env_not_passed && !v->cli.quiet)
		warn_env_not_passed(&v->cfg);
	return 0;
}

int tc_verb_init(struct tc_invocation *v, struct tc_error *e)
{
	int r = tc_verb_load(v, e);

	if (r < 0)
		return r;
	r = tc_result_open(&v->cfg, v->cli.result_path, v->cli.result_fd, &v->result_fd, e);
	if (r < 0)
		return r;
	tc_outcome_init(&v->out);
	v->out.run = &v->run;
	return 0;
}

bool tc_verb_write_result(struct tc_invocation *v)
{
	int r;

	tc_run_end(&v->run);
	tc_verb_audit(v, &v->out, tc_status_name(v->out.status));
	if (v->result_fd < 0)
		return true;
	r = tc_result_write(v->result_fd, v->cli.result_path != NULL, &v->out);
	if (v->cli.result_path)
		v->result_fd = -1;
	if (r == 0)
		return true;
	if (v->cli.result_path)
		tc_diag("cannot write the result record to %s: %s (the record is incomplete; "
			"free space there or name another --result)",
			v->cli.result_path, strerror(-r));
	else
		tc_diag("cannot write the result record to descriptor %d: %s (the record is "
			"incomplete)",
			v->cli.result_fd, strerror(-r));
	return false;
}

int tc_verb_finish_relay(struct tc_invocation *v, const struct tc_sandbox_result *res)
{
	const struct tc_outcome *o = &v->out;
	bool recorded = tc_verb_write_result(v);
	char line[TC_ERROR_MESSAGE_MAX + 256];

	if (tc_status_explain(o, v->cfg.limit, v->cli.quiet, line, sizeof(line)))
		tc_diag("%s", line);
	fflush(stderr);
	if (!recorded)
		return TC_EXIT_TOOLCELL;
	/* the status of a signal death is main's to give: end_signal */
	v->end_signal = res->toolcell_signal;
	if (v->end_signal)
		return TC_EXIT_TOOLCELL;
	if (o->status == TC_STATUS_SANDBOX_ERROR)
		return TC_EXIT_TOOLCELL;
	if (res->exec_errno)
		return res->exec_errno == ENOENT || res->exec_errno == ENOTDIR ? TC_EXIT_NOTFOUND
									       : TC_EXIT_NOEXEC;
	if (o->status == TC_STATUS_TIMEOUT)
		return TC_EXIT_TIMEOUT;
	if (o->signaled) {
		v->end_signal = o->signal;
		return TC_EXIT_TOOLCELL;
	}
	return o->exited ? o->exit_code : TC_EXIT_TOOLCELL;
}
