/* The command-line clients of `toolcell serve` (see serve.h):
 * `toolcell call --server SOCKET TOOL.py < request` and `toolcell python
 * --server SOCKET SCRIPT [ARGS]`. The caller reads its own tool or script
 * and stdin, sends them to the server as one request line with the limits
 * of its command line (a call's own limits: they only tighten the
 * server's), and gives the answer back as the one-shot verb would: the
 * envelope (call), or the script's stdout, stderr and exit status, signals
 * included (python). Runs in the caller's process; no sandbox is made
 * here. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base64.h"
#include "cli.h"
#include "json.h"
#include "protocol.h"
#include "result.h"
#include "serve-internal.h"
#include "status.h"
#include "util.h"

#define EXIT_TIMEOUT  124
#define EXIT_TOOLCELL 125
#define ANSWER_MAX    (512u << 20) /* bytes of one answer line we accept */
#define READ_ROOM     16384u	   /* free bytes in the buffer before each read */

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_vdiag(fmt, ap);
	va_end(ap);
	return EXIT_TOOLCELL;
}

/* ---- the command line: what applies to a call through a server ---- */

/* The first option of the command line a server cannot take: the server's
 * policy, rootfs, binds and environment are its own. NULL when none. */
const char *tc_serve_client_unsendable(const struct tc_cli *cli)
{
	const struct tc_overrides *o = &cli->overrides;

	const struct {
		bool given;
		const char *option;
	} fixed[] = {
		{ cli->policy_path, "--policy" },
		{ o->rootfs, "--rootfs" },
		{ o->n_binds, o->n_binds && o->binds[0].writable ? "--bind" : "--ro-bind" },
		{ o->workspace, "--workspace" },
		{ o->n_env, "--env" },
		{ o->n_pass_env, "--pass-env" },
		{ o->cgroup_parent, "--cgroup-parent" },
		{ cli->script_dir, "--script-dir" },
		{ cli->verbose, "--verbose" },
	};

	for (size_t i = 0; i < TC_ARRAY_SIZE(fixed); i++)
		if (fixed[i].given)
			return fixed[i].option;
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		if (o->has[i] && !tc_serve_limit_per_call((enum tc_limit_id)i))
			return tc_limit_info[i].option;
	return NULL;
}

/* The request's "limits": the command line's own (only those a call may
 * set; tc_serve_client_unsendable() refused the rest), in the policy's units. */
void tc_serve_client_add_limits(struct cJSON *doc, const struct tc_cli *cli)
{
	cJSON *l = NULL;
	char num[32];

	for (int i = 0; i < TC_LIMIT__MAX; i++) {
		if (!cli->overrides.has[i])
			continue;
		if (!l)
			l = cJSON_AddObjectToObject(doc, "limits");
		if (tc_limit_info[i].unit == TC_UNIT_MS)
			snprintf(num, sizeof(num), "%.3f", (double)cli->overrides.limit[i] / 1000);
		else
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)cli->overrides.limit[i]);
		cJSON_AddItemToObject(l, tc_limit_info[i].name, cJSON_CreateRaw(num));
	}
}

/* The tool's name inside (/tool/NAME): the file's own when the server
 * takes it, else NULL (the server's default, tool.py). */
static const char *tool_name(const char *path, char *buf, size_t n)
{
	const char *b;
	size_t len;

	snprintf(buf, n, "%s", path); /* basename(3) may write to it */
	b = basename(buf);
	len = strlen(b);
	if (len < 4 || len > TC_SERVE_NAME_MAX || b[0] == '.' || strcmp(b + len - 3, ".py"))
		return NULL;
	return b;
}

/* The tool's or script's source text at path (what: "tool" or "script"),
 * after refusing what a server cannot take; 0, or the exit status 125
 * with the reason said. */
static int read_source(const struct tc_cli *cli, const char *what, const char *path,
		       size_t request_max, char **ret, size_t *ret_len)
{
	const char *opt = tc_serve_client_unsendable(cli);
	int r;

	if (opt)
		return fail("%s cannot be used with --server: the server's policy sets it (a "
			    "call may only set its own limits: --timeout, --memory, --cpu-time, "
			    "--file-size, --open-files, --stdout-size, --stderr-size)",
			    opt);
	if (!path)
		return fail("python --server needs a script file: toolcell python --server SOCKET "
			    "SCRIPT [ARGS] (stdin is the script's, not its source)");
	if (!strcmp(what, "script") && cli->script_index != 0)
		return fail("python --server runs a script file: toolcell python --server SOCKET "
			    "SCRIPT [ARGS] (python3's own options, such as %s, cannot be sent to a "
			    "server)",
			    cli->argv[0]);
	r = tc_read_file(path, request_max, false, ret, ret_len);
	if (r < 0)
		return fail("cannot read the %s %s: %s", what, path,
			    r == -EINVAL ? "not a regular file" : strerror(-r));
	if (!tc_utf8_valid(*ret, *ret_len) || memchr(*ret, '\0', *ret_len))
		return fail("the %s %s is not UTF-8 text (the server takes source text)", what,
			    path);
	return 0;
}

/* ---- the connection ---- */

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Straight into the heap buffer (32 KiB at first, below malloc's mmap
 * threshold): a 64 KiB chunk on the stack cost 16 page faults before the
 * first byte came. */
static char *read_line(int fd)
{
	struct tc_buf b = { 0 };
	char *nl = NULL;

	while (!nl) {
		ssize_t n;

		if (tc_reserve(&b.p, &b.cap, b.len + READ_ROOM + 1) < 0)
			break;
		n = read(fd, b.p + b.len, b.cap - b.len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || b.len + (size_t)n > ANSWER_MAX)
			break;
		nl = memchr(b.p + b.len, '\n', (size_t)n);
		b.len += (size_t)n;
	}
	if (!nl) {
		tc_buf_release(&b);
		return NULL;
	}
	*nl = '\0';
	return b.p;
}

/* Send one request line, return the answer line (heap), or NULL with the
 * reason said. */
static char *ask(const char *socket_path, const char *line)
{
	_cleanup_close_ int fd = connect_to(socket_path);
	char *answer;

	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		tc_diag("cannot connect to the server at %s: %s (the socket's owner, group and mode "
			"do not let this caller in: ask for its group)",
			socket_path, strerror(errno));
		return NULL;
	}
	if (fd < 0) {
		tc_diag("cannot connect to the server at %s: %s (is 'toolcell serve' running?)",
			socket_path, strerror(errno));
		return NULL;
	}
	/* a refused caller still reads why: the server answers before it closes */
	(void)tc_write_all(fd, line, strlen(line));
	answer = read_line(fd);
	if (!answer)
		tc_diag("the server at %s closed the connection without an answer", socket_path);
	return answer;
}

/* The answer's members by key (raw JSON, heap, or NULL); false when it is
 * no JSON object. */
static bool members(const char *answer, const char *const *keys, size_t n, char **m)
{
	struct tc_error e = { 0 };

	if (tc_json_members_made(answer, strlen(answer), ANSWER_MAX, TC_STAGE_ANSWER, keys, n, m,
				 &e) < 0) {
		tc_diag("the server's answer is not a JSON object: %s", e.message);
		return false;
	}
	return true;
}

/* toolcell's own refusal or failure in an "error" member (125, as for the
 * one-shot verbs), said on stderr; false for the tool's own. */
static bool toolcell_error(const char *raw_error)
{
	static const char *const own[] = { "SandboxError", "BadRequest", "Busy",
					   "PermissionDenied" };
	cJSON *err = raw_error ? cJSON_Parse(raw_error) : NULL;
	const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(err, "type"));
	const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(err, "source"));
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItem(err, "message"));
	bool mine = false;

	for (size_t i = 0; type && src && !strcmp(src, "toolcell") && i < TC_ARRAY_SIZE(own); i++)
		mine |= !strcmp(type, own[i]);
	if (mine)
		tc_diag("%s", msg ? msg : type);
	cJSON_Delete(err);
	return mine;
}

/* The answer's record to --result FILE or --result-fd N, one JSON line. */
static int write_record(const struct tc_cli *cli, const char *record)
{
	struct tc_config none = { 0 };
	struct tc_error e = { 0 };
	int fd = -1;

	if (!record || (!cli->result_path && cli->result_fd < 0))
		return 0;
	if (tc_result_open(&none, cli->result_path, cli->result_fd, &fd, &e) < 0)
		return fail("%s", e.message);
	if (tc_write_all(fd, record, strlen(record)) < 0 || tc_write_all(fd, "\n", 1) < 0) {
		int err = errno;
		if (cli->result_path)
			close(fd);
		return fail("cannot write the result record: %s (the record is incomplete)",
			    strerror(err));
	}
	if (cli->result_path && close(fd) < 0)
		return fail("cannot write the result record to %s: %s", cli->result_path,
			    strerror(errno));
	return 0;
}

/* ---- toolcell call --server ---- */

/* The request line: the source as a JSON string, the request's bytes as
 * "args" (line breaks in it are white space: spaces keep it one line). */
static char *call_line(const struct tc_cli *cli, const char *name, const char *src, char *req,
		       size_t req_len)
{
	_cleanup_cjson_ cJSON *doc = cJSON_CreateObject();
	bool failed = false;

	for (size_t i = 0; i < req_len; i++)
		if (req[i] == '\n' || req[i] == '\r')
			req[i] = ' ';
	/* raw: cJSON prints a number with %1.15g and reads it back with sscanf */
	cJSON_AddItemToObject(doc, "id", cJSON_CreateRaw("1"));
	cJSON_AddStringToObject(doc, "kind", "call");
	if (name)
		cJSON_AddStringToObject(doc, "name", name);
	cJSON_AddStringToObject(doc, "source", src);
	tc_serve_client_add_limits(doc, cli);
	/* the request as it came (validated), never parsed and printed again */
	tc_json_add(&failed, doc, "args", tc_json_raw(req, req_len));
	return failed ? NULL : tc_json_document(doc, false);
}

enum {
	A_OK,
	A_DATA,
	A_ERROR,
	A_META,
	A_RECORD,
	A__MAX
};

/* Print {"ok", "data" | "error", "meta"} of the answer; the exit status
 * `call` gives it. */
static int print_envelope(const struct tc_cli *cli, const char *answer)
{
	static const char *const keys[A__MAX] = { "ok", "data", "error", "meta", "record" };
	char *m[A__MAX] = { 0 };
	struct tc_buf b = { 0 };
	int code = 1;

	if (!members(answer, keys, A__MAX, m)) {
		code = EXIT_TOOLCELL;
		goto out;
	}
	if (!m[A_OK]) {
		code = fail("the server's answer is not an envelope");
		goto out;
	}
	tc_buf_add(&b, "{\"ok\":", 6);
	tc_buf_add(&b, m[A_OK], strlen(m[A_OK]));
	for (size_t i = A_DATA; i <= A_META; i++)
		if (m[i]) {
			tc_buf_add(&b, ",\"", 2);
			tc_buf_add(&b, keys[i], strlen(keys[i]));
			tc_buf_add(&b, "\":", 2);
			tc_buf_add(&b, m[i], strlen(m[i]));
		}
	tc_buf_add(&b, "}\n", 2);
	if (!strcmp(m[A_OK], "true"))
		code = 0;
	else if (toolcell_error(m[A_ERROR]))
		code = EXIT_TOOLCELL;
	if (b.p && tc_write_all(STDOUT_FILENO, b.p, b.len) < 0)
		code = EXIT_TOOLCELL;
	if (write_record(cli, m[A_RECORD]) != 0)
		code = EXIT_TOOLCELL;
out:
	tc_buf_release(&b);
	for (size_t i = 0; i < A__MAX; i++)
		free(m[i]);
	return code;
}

int tc_serve_client_call(const struct tc_cli *cli, size_t request_max)
{
	_cleanup_free_ char *src = NULL, *req = NULL, *line = NULL, *answer = NULL;
	const char *tool_path = cli->argv[0];
	char copy[PATH_MAX];
	size_t src_len = 0, req_len = 0;
	struct tc_error e = { 0 };
	int r;

	if (read_source(cli, "tool", tool_path, request_max, &src, &src_len) != 0)
		return EXIT_TOOLCELL;
	r = tc_read_fd(STDIN_FILENO, request_max, &req, &req_len);
	if (r < 0)
		return fail("cannot read the request from stdin: %s",
			    r == -EFBIG ? "larger than the limit" : strerror(-r));
	if (tc_json_validate(req, req_len, request_max, TC_STAGE_REQUEST, &e) < 0)
		return fail("%s", e.message);
	line = call_line(cli, tool_name(tool_path, copy, sizeof(copy)), src, req, req_len);
	if (!line)
		return fail("out of memory");
	answer = ask(cli->server, line);
	return answer ? print_envelope(cli, answer) : EXIT_TOOLCELL;
}

/* ---- toolcell python --server ---- */

static char *exec_line(const struct tc_cli *cli, const char *name, const char *src, const char *in,
		       size_t in_len)
{
	cJSON *doc = cJSON_CreateObject(), *argv;
	char *line, *enc = NULL;

	/* raw: cJSON prints a number with %1.15g and reads it back with sscanf */
	cJSON_AddItemToObject(doc, "id", cJSON_CreateRaw("1"));
	cJSON_AddStringToObject(doc, "kind", "exec");
	if (name)
		cJSON_AddStringToObject(doc, "name", name);
	cJSON_AddStringToObject(doc, "source", src);
	argv = cJSON_AddArrayToObject(doc, "argv");
	for (int i = 1; argv && i < cli->argc; i++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(cli->argv[i]));
	/* stdin's bytes as text when they are, else base64 */
	if (tc_utf8_valid(in, in_len) && !memchr(in, '\0', in_len))
		cJSON_AddStringToObject(doc, "stdin", in);
	else if ((enc = tc_base64_encode(in, in_len)))
		cJSON_AddStringToObject(doc, "stdin_base64", enc);
	tc_serve_client_add_limits(doc, cli);
	line = tc_json_document(doc, false);
	cJSON_Delete(doc);
	free(enc);
	return line;
}

/* Write the answer's stdout or stderr (text, or key_base64) to fd. */
static int relay(const char *raw, const char *raw64, int fd)
{
	cJSON *v = cJSON_Parse(raw ? raw : raw64 ? raw64 : "\"\"");
	const char *s = cJSON_GetStringValue(v);
	char *bytes = NULL;
	size_t n = 0;
	int r = -EINVAL;

	if (s && !raw && tc_base64_decode(s, strlen(s), &bytes, &n) == 0)
		r = tc_write_all(fd, bytes, n);
	else if (s && raw)
		r = tc_write_all(fd, s, strlen(s));
	free(bytes);
	cJSON_Delete(v);
	return r;
}

static int signal_number(const char *abbrev)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sigabbrev_np(sig) && !strcmp(sigabbrev_np(sig), abbrev))
			return sig;
	return 0;
}

enum {
	X_STATUS,
	X_EXIT,
	X_SIGNAL,
	X_STDOUT,
	X_STDOUT64,
	X_STDERR,
	X_STDERR64,
	X_ERROR,
	X_RECORD,
	X__MAX
};

/* What the one-shot `python` says on stderr of how the run ended, from
 * the answer's record: the same words (tc_status_explain) from the
 * record's status, signal, denied call, error and limits. */
static void explain(const struct tc_cli *cli, enum tc_status status, const char *record)
{
	cJSON *r = cJSON_Parse(record ? record : "null"), *limits, *it;
	cJSON *denied = cJSON_GetObjectItem(r, "denied_syscall");
	const char *msg = cJSON_GetStringValue(
		cJSON_GetObjectItem(cJSON_GetObjectItem(r, "error"), "message"));
	uint64_t limit[TC_LIMIT__MAX] = { 0 };
	static struct tc_outcome o; /* large: not on the stack */
	char line[TC_ERROR_MESSAGE_MAX + 256];

	tc_outcome_init(&o);
	o.status = status;
	o.status_inferred = cJSON_IsTrue(cJSON_GetObjectItem(r, "status_inferred"));
	o.signaled = cJSON_IsNumber(cJSON_GetObjectItem(r, "signal"));
	o.signal = o.signaled ? cJSON_GetObjectItem(r, "signal")->valueint : 0;
	o.stdout_truncated = cJSON_IsTrue(cJSON_GetObjectItem(r, "stdout_truncated"));
	if (cJSON_GetStringValue(cJSON_GetObjectItem(denied, "name"))) {
		o.has_denied_syscall = true;
		snprintf(o.denied_syscall_name, sizeof(o.denied_syscall_name), "%s",
			 cJSON_GetStringValue(cJSON_GetObjectItem(denied, "name")));
		it = cJSON_GetObjectItem(denied, "nr");
		o.denied_syscall_nr = cJSON_IsNumber(it) ? it->valueint : -1;
	}
	if (msg)
		snprintf(o.err.message, sizeof(o.err.message), "%s", msg);
	limits = cJSON_GetObjectItem(r, "limits");
	for (int i = 0; i < TC_LIMIT__MAX; i++)
		if ((it = cJSON_GetObjectItem(cJSON_GetObjectItem(limits, tc_limit_info[i].name),
					      "value")) &&
		    cJSON_IsNumber(it))
			limit[i] = (uint64_t)it->valuedouble;
	if (tc_status_explain(&o, limit, cli->quiet, line, sizeof(line)))
		tc_diag("%s", line);
	cJSON_Delete(r);
}

/* The one-shot `python`'s line on stderr for a limit, and its exit status
 * (or *ret_signal): the tool's own code, 124 for a time limit, the
 * tool's signal (a memory, process or output limit's kill is SIGKILL). */
static int exec_status(const struct tc_cli *cli, char *const *m, int *ret_signal)
{
	cJSON *st = cJSON_Parse(m[X_STATUS] ? m[X_STATUS] : "null"), *sig = NULL;
	const char *name = cJSON_GetStringValue(st);
	enum tc_status status = TC_STATUS_SANDBOX_ERROR;
	int code = EXIT_TOOLCELL;

	for (int i = 0; name && i <= TC_STATUS_SANDBOX_ERROR; i++)
		if (!strcmp(name, tc_status_name((enum tc_status)i)))
			status = (enum tc_status)i;
	if (!name) {
		tc_diag("the server's answer has no status");
		goto out;
	}
	explain(cli, status, m[X_RECORD]);
	if (status == TC_STATUS_SANDBOX_ERROR)
		goto out;
	sig = cJSON_Parse(m[X_SIGNAL] ? m[X_SIGNAL] : "null");
	if (status == TC_STATUS_TIMEOUT)
		code = EXIT_TIMEOUT;
	else if (status == TC_STATUS_OUTPUT_LIMIT)
		*ret_signal = SIGKILL;
	else if (cJSON_GetStringValue(sig))
		*ret_signal = signal_number(cJSON_GetStringValue(sig));
	else if (m[X_EXIT] && strcmp(m[X_EXIT], "null"))
		code = atoi(m[X_EXIT]) & 0xff;
out:
	cJSON_Delete(st);
	cJSON_Delete(sig);
	return code;
}

static int print_exec(const struct tc_cli *cli, const char *answer, int *ret_signal)
{
	static const char *const keys[X__MAX] = { "status",	   "exit_code",	    "signal",
						  "stdout",	   "stdout_base64", "stderr",
						  "stderr_base64", "error",	    "record" };
	char *m[X__MAX] = { 0 };
	int code = EXIT_TOOLCELL;

	if (!members(answer, keys, X__MAX, m))
		goto out;
	if (m[X_ERROR] && !m[X_STATUS]) {
		if (!toolcell_error(m[X_ERROR]))
			tc_diag("the server answered with an error it did not name");
		goto out;
	}
	if (relay(m[X_STDOUT], m[X_STDOUT64], STDOUT_FILENO) < 0 ||
	    relay(m[X_STDERR], m[X_STDERR64], STDERR_FILENO) < 0) {
		tc_diag("cannot pass on the script's output: %s", strerror(errno));
		goto out;
	}
	code = exec_status(cli, m, ret_signal);
	if (write_record(cli, m[X_RECORD]) != 0) {
		*ret_signal = 0;
		code = EXIT_TOOLCELL;
	}
out:
	for (size_t i = 0; i < X__MAX; i++)
		free(m[i]);
	return *ret_signal ? EXIT_TOOLCELL : code;
}

int tc_serve_client_python(const struct tc_cli *cli, size_t request_max, int *ret_signal)
{
	_cleanup_free_ char *src = NULL, *in = NULL, *line = NULL, *answer = NULL;
	char copy[PATH_MAX];
	size_t src_len = 0, in_len = 0;
	int r;

	*ret_signal = 0;
	if (read_source(cli, "script", cli->argc ? cli->argv[0] : NULL, request_max, &src,
			&src_len) != 0)
		return EXIT_TOOLCELL;
	if (cli->argc - 1 > TC_SERVE_ARGV_MAX)
		return fail("python --server sends at most %d arguments after the script",
			    TC_SERVE_ARGV_MAX);
	/* the server takes stdin whole, with the request */
	r = tc_read_fd(STDIN_FILENO, request_max, &in, &in_len);
	if (r < 0)
		return fail("cannot read stdin: %s",
			    r == -EFBIG ? "larger than the limit" : strerror(-r));
	line = exec_line(cli, tool_name(cli->argv[0], copy, sizeof(copy)), src, in, in_len);
	if (!line)
		return fail("out of memory");
	answer = ask(cli->server, line);
	return answer ? print_exec(cli, answer, ret_signal) : EXIT_TOOLCELL;
}
