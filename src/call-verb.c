/* `toolcell call`: one JSON request in, one JSON envelope out. The tool file
 * and the request are checked before any sandbox is built; the in-sandbox
 * harness runs the tool; toolcell builds the envelope from its own
 * observations and the tool's validated response. Parent side. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "outcome.h"
#include "paths.h"
#include "protocol.h"
#include "provenance.h"
#include "rootfs.h"
#include "script.h"
#include "status.h"
#include "util.h"
#include "verb.h"

/* The envelope on stdout after the record: the exit status code, or 125
 * when the record could not be written (the envelope still goes out: the
 * caller reads one in every case). */
static int print_envelope(struct tc_invocation *v, const struct tc_response *resp, const char *type,
			  const char *message, int code)
{
	char *json = tc_envelope_to_json(&v->out, resp, type, message);

	if (!tc_verb_write_result(v))
		code = TC_EXIT_TOOLCELL;
	if (!json) {
		tc_diag("out of memory");
		return TC_EXIT_TOOLCELL;
	}
	if (tc_write_all(STDOUT_FILENO, json, strlen(json)) < 0)
		tc_diag("cannot write the envelope: %s", strerror(errno));
	free(json);
	return code;
}

/* A request or tool refused once the run has a record: both say BadRequest. */
static int call_refused(struct tc_invocation *v, const struct tc_error *e)
{
	struct tc_response none = { 0 };

	v->out.status = TC_STATUS_REJECTED;
	v->out.err = *e;
	if (!v->cli.quiet)
		tc_diag("%s", e->message);
	return print_envelope(v, &none, "BadRequest", e->message, TC_EXIT_TOOLCELL);
}

/* The tool: a regular file (not a link) that the tool's uid can read. */
static int check_tool(const struct tc_invocation *v, const char *given, char tool[PATH_MAX],
		      struct tc_error *e)
{
	struct stat st;

	if (!tc_path_absolute(given, NULL, tool) || lstat(tool, &st) < 0)
		return tc_error_errno(e, TC_STAGE_REQUEST, errno, "cannot use the tool %s", given);
	if (!S_ISREG(st.st_mode))
		return tc_error_set(e, TC_STAGE_REQUEST, EINVAL,
				    "cannot use the tool %s: it is not a regular file%s", tool,
				    S_ISLNK(st.st_mode) ? " but a symbolic link; name the real file"
							: "");
	return 0;
}

/* The request from stdin: at most the request limit, strict JSON. */
static int read_request(const struct tc_invocation *v, char **req, size_t *len, struct tc_error *e)
{
	uint64_t max = v->cfg.limit[TC_LIMIT_REQUEST];
	int r = tc_read_fd(STDIN_FILENO, max, req, len);

	if (r == -EFBIG)
		return tc_error_set(e, TC_STAGE_REQUEST, E2BIG,
				    "request: larger than the %llu-byte limit",
				    (unsigned long long)max);
	if (r < 0)
		return tc_error_errno(e, TC_STAGE_REQUEST, -r,
				      "cannot read the request from stdin");
	return tc_json_validate(*req, *len, max, TC_STAGE_REQUEST, e);
}

/* The envelope of a run that ended: toolcell's word for a failure or a
 * limit, else the tool's validated response. */
static int answer(struct tc_invocation *v, const struct tc_sandbox_result *res)
{
	const char *type = tc_status_error_type(v->out.status);
	char msg[TC_ERROR_MESSAGE_MAX + 64], line[TC_ERROR_MESSAGE_MAX + 256];
	struct tc_response resp = { 0 };
	struct tc_error e = { 0 };
	int r;

	if (v->out.status == TC_STATUS_SANDBOX_ERROR) {
		if (!v->cli.quiet)
			tc_diag("%s", v->out.err.message);
		return print_envelope(v, &resp, type, v->out.err.message, TC_EXIT_TOOLCELL);
	}
	if (type) {
		const char *w = tc_status_limit_words(v->out.status);

		if (tc_status_explain(&v->out, v->cfg.limit, v->cli.quiet, line, sizeof(line)))
			tc_diag("%s", line);
		snprintf(msg, sizeof(msg), "%s", w ? w : type);
		return print_envelope(v, &resp, type, msg, 1);
	}
	r = tc_response_parse(res->stdout_buf ? res->stdout_buf : "", res->stdout_len,
			      v->cfg.limit[TC_LIMIT_REQUEST], &resp, &e);
	if (r < 0 || (v->out.exit_code != 0 && resp.ok)) {
		if (r >= 0)
			snprintf(msg, sizeof(msg), "the tool exited with status %d",
				 v->out.exit_code);
		else if (v->out.exit_code != 0)
			snprintf(msg, sizeof(msg), "the tool exited with status %d: %s",
				 v->out.exit_code, e.message);
		else
			snprintf(msg, sizeof(msg), "%s", e.message);
		tc_response_release(&resp);
		memset(&resp, 0, sizeof(resp));
		return print_envelope(v, &resp, "InvalidResponse", msg, 1);
	}
	if (!resp.ok && resp.err_type && strcmp(resp.err_type, "MemoryError") == 0 &&
	    v->out.memory_peak_bytes.known &&
	    TC_MEMORY_PEAK_AT_LIMIT(v->out.memory_peak_bytes.value,
				    v->cfg.limit[TC_LIMIT_MEMORY])) {
		/* the tool's word, and the measured peak at the cap */
		v->out.status = TC_STATUS_MEMORY_LIMIT;
		v->out.status_inferred = true;
	}
	r = print_envelope(v, &resp, NULL, NULL, resp.ok ? 0 : 1);
	tc_response_release(&resp);
	return r;
}

int tc_verb_call(struct tc_invocation *v)
{
	struct tc_sandbox_spec spec = { .cfg = &v->cfg, .io = TC_IO_MEMORY };
	struct tc_sandbox_result res = { 0 };
	struct tc_error e = { 0 };
	char tool[PATH_MAX], dir[PATH_MAX];
	int status;
	char *argv[] = { "python3", "-I", TC_ROOTFS_HARNESS, tool, NULL };
	_cleanup_free_ char *cwd = NULL, *req = NULL, *inside = NULL;
	size_t req_len = 0;

	if (tc_verb_init(v, &e) < 0)
		return tc_verb_fail(v, &e);
	/* before the tool is checked: a refusal's record names the policy and rootfs */
	tc_provenance_run(&v->out, v->policy.sha256, v->policy_path, v->cfg.rootfs);
	if (check_tool(v, v->cli.argv[0], tool, &e) < 0)
		return call_refused(v, &e);
	tc_provenance_tool(&v->out, tool);
	if (read_request(v, &req, &req_len, &e) < 0)
		return call_refused(v, &e);
	inside = tc_script_show(&v->cfg, tool, false, &spec.extra_binds[0], dir, &e);
	if (!inside)
		return call_refused(v, &e);
	spec.n_extra_binds = spec.extra_binds[0].host ? 1 : 0;
	argv[3] = inside;
	cwd = strdup(v->cfg.workspace ? v->cfg.workspace_inside : "/");
	spec.argv = argv;
	spec.cwd = cwd;
	spec.stdin_buf = req;
	spec.stdin_len = req_len;
	spec.verbose = v->cli.verbose;
	tc_sandbox_run(&spec, &v->out, &res, &e);
	status = answer(v, &res);
	tc_sandbox_result_release(&res);
	return status;
}
