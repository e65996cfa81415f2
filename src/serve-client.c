/* `toolcell call --server SOCKET TOOL.py < request` (see serve.h): the
 * caller reads its own tool file and request, sends them to the server as
 * one `call` line and prints the answer's envelope exactly as a one-shot
 * `toolcell call` prints it (ok, data or error, meta; data byte for byte).
 * Runs in the caller's process; no sandbox is made here. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "protocol.h"
#include "serve-internal.h"
#include "util.h"

#define EXIT_TOOLCELL 125
#define ANSWER_MAX    (512u << 20) /* bytes of one answer line we accept */

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tc_vdiag(fmt, ap);
	va_end(ap);
	return EXIT_TOOLCELL;
}

static bool ends_py(const char *s)
{
	return !strcmp(s + strlen(s) - 3, ".py");
}

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

/* The request line: the source as a JSON string, the request's bytes as
 * "args" (line breaks in it are white space: spaces keep it one line). */
static char *request_line(const char *name, const char *src, char *req, size_t req_len)
{
	cJSON *doc = cJSON_CreateObject();
	struct tc_buf b = { 0 };
	char *head, *line = NULL;

	for (size_t i = 0; i < req_len; i++)
		if (req[i] == '\n' || req[i] == '\r')
			req[i] = ' ';
	cJSON_AddNumberToObject(doc, "id", 1);
	cJSON_AddStringToObject(doc, "kind", "call");
	if (name && strlen(name) <= TC_SERVE_NAME_MAX && name[0] != '.')
		cJSON_AddStringToObject(doc, "name", name);
	cJSON_AddStringToObject(doc, "source", src);
	head = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	if (head && tc_buf_add(&b, head, strlen(head) - 1) == 0 &&
	    tc_buf_add(&b, ",\"args\":", 8) == 0 && tc_buf_add(&b, req, req_len) == 0 &&
	    tc_buf_add(&b, "}\n", 2) == 0)
		line = TAKE_PTR(b.p);
	cJSON_free(head);
	tc_buf_release(&b);
	return line;
}

static char *read_line(int fd)
{
	struct tc_buf b = { 0 };
	char chunk[65536];

	while (!b.len || !memchr(b.p, '\n', b.len)) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || b.len + (size_t)n > ANSWER_MAX ||
		    tc_buf_add(&b, chunk, (size_t)n) < 0) {
			tc_buf_release(&b);
			return NULL;
		}
	}
	*(char *)memchr(b.p, '\n', b.len) = '\0';
	return b.p;
}

/* Print {"ok", "data" | "error", "meta"} of the answer; the exit status
 * `call` gives it. */
static int print_envelope(const char *answer)
{
	static const char *const keys[] = { "ok", "data", "error", "meta" };
	char *m[4] = { 0 };
	struct tc_error e = { 0 };
	struct tc_buf b = { 0 };
	int code = 1;

	if (tc_json_members(answer, strlen(answer), ANSWER_MAX, TC_STAGE_ANSWER, keys, 4, m, &e) <
		    0 ||
	    !m[0])
		return fail("the server's answer is not an envelope: %s", e.message);
	tc_buf_add(&b, "{\"ok\":", 6);
	tc_buf_add(&b, m[0], strlen(m[0]));
	for (size_t i = 1; i < 4; i++)
		if (m[i]) {
			tc_buf_add(&b, ",\"", 2);
			tc_buf_add(&b, keys[i], strlen(keys[i]));
			tc_buf_add(&b, "\":", 2);
			tc_buf_add(&b, m[i], strlen(m[i]));
		}
	tc_buf_add(&b, "}\n", 2);
	if (!strcmp(m[0], "true")) {
		code = 0;
	} else if (m[2]) {
		/* toolcell's own refusals and failures are 125, as for `call` */
		cJSON *err = cJSON_Parse(m[2]);
		const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(err, "type"));
		const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(err, "source"));
		if (type && src && !strcmp(src, "toolcell") &&
		    (!strcmp(type, "SandboxError") || !strcmp(type, "BadRequest") ||
		     !strcmp(type, "Busy") || !strcmp(type, "PermissionDenied"))) {
			fprintf(stderr, "toolcell: %s\n",
				cJSON_GetStringValue(cJSON_GetObjectItem(err, "message")));
			code = EXIT_TOOLCELL;
		}
		cJSON_Delete(err);
	}
	if (b.p && tc_write_all(STDOUT_FILENO, b.p, b.len) < 0)
		code = EXIT_TOOLCELL;
	tc_buf_release(&b);
	for (size_t i = 0; i < 4; i++)
		free(m[i]);
	return code;
}

int tc_serve_client_call(const char *socket_path, const char *tool_path, size_t request_max)
{
	_cleanup_free_ char *src = NULL, *req = NULL, *line = NULL, *answer = NULL;
	char copy[PATH_MAX];
	_cleanup_close_ int fd = -1;
	size_t src_len = 0, req_len = 0;
	struct tc_error e = { 0 };
	int r;

	r = tc_read_file(tool_path, request_max, false, &src, &src_len);
	if (r < 0)
		return fail("cannot read the tool %s: %s", tool_path, strerror(-r));
	if (!tc_utf8_valid(src, src_len) || memchr(src, '\0', src_len))
		return fail("the tool %s is not UTF-8 text (the server takes source text)",
			    tool_path);
	r = tc_read_fd(STDIN_FILENO, request_max, &req, &req_len);
	if (r < 0)
		return fail("cannot read the request from stdin: %s",
			    r == -EFBIG ? "larger than the limit" : strerror(-r));
	if (tc_json_validate(req, req_len, request_max, TC_STAGE_REQUEST, &e) < 0)
		return fail("%s", e.message);
	/* the server shows the tool as /tool/NAME: a NAME it takes, or its default */
	snprintf(copy, sizeof(copy), "%s", tool_path); /* basename(3) may write to it */
	line = request_line(strlen(basename(copy)) > 3 && ends_py(basename(copy)) ? basename(copy)
										  : NULL,
			    src, req, req_len);
	if (!line)
		return fail("out of memory");
	fd = connect_to(socket_path);
	if (fd < 0)
		return fail("cannot connect to the server at %s: %s (is 'toolcell serve' running?)",
			    socket_path, strerror(errno));
	/* a refused caller still reads why: the server answers before it closes */
	(void)tc_write_all(fd, line, strlen(line));
	answer = read_line(fd);
	if (!answer)
		return fail("the server at %s closed the connection without an answer",
			    socket_path);
	return print_envelope(answer);
}
