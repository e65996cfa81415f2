/* `toolcell session --server [SOCKET]` (see session.h): the same session
 * (session.c: the requests checked, each framed with its nonce, each
 * answer taken back, capped and timed by us), but each sandbox is a warm
 * entry of a running `toolcell serve`. A "session" request line asks for
 * one (the command line's imports and limits in it); the server's answer
 * line gives the session's limits under its policy, and the connection is
 * then the harness's stdin one way and, the other way, its stdout and
 * stderr in chunks ("out"/"err"/"end" heads, serve-session.c). Closing it
 * ends the sandbox; half-closing it is the harness's EOF. Runs in the
 * caller's process; no sandbox is made here. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "json.h"
#include "serve.h"
#include "session.h"
#include "util.h"

#define HEAD_LEN      14    /* "out 000000123\n" */
#define ANSWER_LINE   65536 /* bytes of the server's answer line we take */
#define START_WAIT_MS 60000 /* for the server to start the session */
#define EXIT_TOOLCELL 125

static int connect_to(const char *path, struct tc_error *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = -1;

	if (strlen(path) < sizeof(a.sun_path)) {
		strcpy(a.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
			tc_closep(&fd);
	} else {
		errno = ENAMETOOLONG;
	}
	if (fd < 0 && (errno == EACCES || errno == EPERM))
		return tc_error_set(
			err, TC_STAGE_SERVE, errno,
			"cannot connect to the server at %s: %s (the socket's owner, group "
			"and mode do not let this caller in: ask for its group, or leave "
			"out --server for a session of its own)",
			path, strerror(errno));
	if (fd < 0)
		return tc_error_set(err, TC_STAGE_SERVE, errno,
				    "cannot connect to the server at %s: %s (is 'toolcell serve' "
				    "running? start it with 'toolcell serve --socket %s', or leave "
				    "out --server for a session of its own)",
				    path, strerror(errno), path);
	return fd;
}

/* The server's answer line into *ret (heap), the bytes after it into rest. */
static int answer_line(int fd, const char *path, char **ret, struct tc_buf *rest,
		       struct tc_error *err)
{
	uint64_t until = tc_now_ns() + START_WAIT_MS * 1000000ull;
	char chunk[4096], *nl = NULL;

	while (!nl) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n = 0;

		if (poll(&p, 1, tc_poll_timeout(until)) == 0)
			return tc_error_set(
				err, TC_STAGE_SERVE, ETIMEDOUT,
				"the server at %s did not start the session within %d s", path,
				START_WAIT_MS / 1000);
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || rest->len + (size_t)n > ANSWER_LINE ||
		    tc_buf_add(rest, chunk, (size_t)n))
			return tc_error_set(err, TC_STAGE_SERVE, EPIPE,
					    "the server at %s closed the connection without "
					    "starting the session",
					    path);
		nl = memchr(rest->p, '\n', rest->len);
	}
	*ret = strndup(rest->p, (size_t)(nl - rest->p));
	tc_buf_drop(rest, (size_t)(nl - rest->p) + 1);
	return *ret ? 0 : tc_error_set(err, TC_STAGE_SERVE, ENOMEM, "out of memory");
}

static uint64_t number(const cJSON *o, const char *key, double scale)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble >= 0 ? (uint64_t)(v->valuedouble * scale) : 0;
}

/* The answer: the session's limits, or the server's refusal in its words. */
static int read_answer(const char *line, const char *path, struct tc_session_remote *rm,
		       struct tc_error *err)
{
	cJSON *doc = cJSON_Parse(line);
	const cJSON *sess = cJSON_GetObjectItemCaseSensitive(doc, "session");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
	int r = 0;

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "ok")) && cJSON_IsObject(sess)) {
		rm->request_ms = number(sess, "timeout_s", 1000);
		rm->answer_max = number(sess, "stdout_size", 1);
		rm->request_max = number(sess, "request_size", 1);
	}
	if (msg)
		r = tc_error_set(err, TC_STAGE_SERVE, EPERM,
				 "the server at %s refused the session: %s", path, msg);
	else if (!rm->request_ms || !rm->answer_max || !rm->request_max)
		r = tc_error_set(err, TC_STAGE_SERVE, EPROTO,
				 "the server at %s answered the session request with no session "
				 "(an older toolcell serve?)",
				 path);
	cJSON_Delete(doc);
	return r;
}

int tc_session_remote_start(const char *path, const char *request, struct tc_session_remote *ret,
			    struct tc_error *err)
{
	_cleanup_close_ int fd = connect_to(path, err);
	_cleanup_free_ char *line = NULL;
	int r;

	*ret = (struct tc_session_remote){ .fd = -1 };
	if (fd < 0)
		return fd;
	/* a refused caller still reads why: the server answers before it closes */
	(void)tc_write_all(fd, request, strlen(request));
	r = answer_line(fd, path, &line, &ret->rest, err);
	if (r >= 0)
		r = read_answer(line, path, ret, err);
	if (r < 0) {
		tc_buf_release(&ret->rest);
		return r;
	}
	ret->fd = TAKE_FD(fd);
	return 0;
}

/* The end chunk: {"status": NAME, "message": TEXT}. */
static int take_end(const char *p, size_t n, struct tc_session_end *ret)
{
	cJSON *doc = cJSON_ParseWithLength(p, n);
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "status"));
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "message"));
	int r = -EPROTO;

	for (int i = 0; name && i <= TC_STATUS_SANDBOX_ERROR; i++)
		if (!strcmp(name, tc_status_name((enum tc_status)i))) {
			ret->status = (enum tc_status)i;
			snprintf(ret->message, sizeof(ret->message), "%s", msg ? msg : "");
			r = 1;
		}
	cJSON_Delete(doc);
	return r;
}

int tc_session_remote_take(struct tc_buf *buf, struct tc_buf *out, int err_fd,
			   struct tc_session_end *ret_end)
{
	while (buf->len >= HEAD_LEN) {
		char head[HEAD_LEN + 1], *end = NULL;
		unsigned long long n;
		int r = 0;

		memcpy(head, buf->p, HEAD_LEN);
		head[HEAD_LEN] = '\0';
		n = strtoull(head + 4, &end, 10);
		if (head[3] != ' ' || end != head + 13 || *end != '\n' || head[4] < '0' ||
		    head[4] > '9' || n > TC_SESSION_CHUNK_MAX)
			return -EPROTO;
		if (buf->len - HEAD_LEN < n)
			return 0; /* the rest of the chunk is on its way */
		if (!memcmp(head, "out", 3))
			r = tc_buf_add(out, buf->p + HEAD_LEN, n);
		else if (!memcmp(head, "err", 3))
			(void)tc_write_all(err_fd, buf->p + HEAD_LEN, n);
		else if (!memcmp(head, "end", 3))
			r = take_end(buf->p + HEAD_LEN, n, ret_end);
		else
			r = -EPROTO;
		tc_buf_drop(buf, HEAD_LEN + n);
		if (r != 0)
			return r;
	}
	return 0;
}

/* The session request: the command line's imports and limits. */
static char *request_line(const struct tc_cli *cli)
{
	const struct tc_overrides *o = &cli->overrides;
	cJSON *doc = cJSON_CreateObject(), *allow, *defaults;
	char *line;

	/* raw: cJSON prints a number with %1.15g and reads it back with sscanf */
	cJSON_AddItemToObject(doc, "id", cJSON_CreateRaw("1"));
	cJSON_AddStringToObject(doc, "kind", "session");
	allow = o->n_allow_import ? cJSON_AddArrayToObject(doc, "allow_imports") : NULL;
	for (size_t i = 0; allow && i < o->n_allow_import; i++)
		cJSON_AddItemToArray(allow, cJSON_CreateString(o->allow_import[i]));
	defaults = o->n_default_import ? cJSON_AddArrayToObject(doc, "default_imports") : NULL;
	for (size_t i = 0; defaults && i < o->n_default_import; i++)
		cJSON_AddItemToArray(defaults, cJSON_CreateString(o->default_import[i]));
	tc_serve_client_add_limits(doc, cli);
	line = tc_json_document(doc, false);
	cJSON_Delete(doc);
	return line;
}

int tc_session_client(const struct tc_cli *cli)
{
	static const struct tc_config none; /* the server's limits come with each session */
	struct tc_session_spec spec = {
		.cfg = &none, .cwd = "/tmp", .in_fd = STDIN_FILENO, .out_fd = STDOUT_FILENO
	};
	const char *opt = tc_serve_client_unsendable(cli);
	_cleanup_free_ char *line = NULL;
	char def[4096];

	if (opt) {
		tc_diag("%s cannot be used with --server: the server's policy sets it (a session "
			"may only set its own limits: --timeout, --memory, --cpu-time, --file-size, "
			"--open-files, --stdout-size, --stderr-size; and its imports)",
			opt);
		return EXIT_TOOLCELL;
	}
	spec.server = cli->server[0] ? cli->server : tc_serve_default_socket(def, sizeof(def));
	if (!spec.server) {
		tc_diag("session --server: no default socket, as XDG_RUNTIME_DIR is not set (give "
			"--server SOCKET)");
		return EXIT_TOOLCELL;
	}
	line = request_line(cli);
	if (!line) {
		tc_diag("out of memory");
		return EXIT_TOOLCELL;
	}
	spec.server_request = line;
	return tc_session_serve(&spec);
}
