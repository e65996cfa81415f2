/* toolcell.conf (conf.h): a strict "key = value" parser and its loader.
 * Runs in the parent before anything else; the parser is pure and fuzzed
 * (tests/fuzz/fuzz_conf.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "rootfs.h"
#include "util.h"

#define STAGE TC_STAGE_CONFIG

void tc_conf_init(struct tc_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->audit = true;
	snprintf(c->audit_socket, sizeof(c->audit_socket), "/dev/log");
}

bool tc_conf_policy_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > TC_CONF_POLICY_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '.' || s[i] == '-'))
			return false;
	return true;
}

/* An absolute path: printable ASCII, no "." or ".." component. */
static bool clean_path(const char *s)
{
	if (s[0] != '/')
		return false;
	for (const char *p = s; *p; p++)
		if (*p == '/' && (!strncmp(p, "/./", 3) || !strcmp(p, "/.") ||
				  !strncmp(p, "/../", 4) || !strcmp(p, "/..")))
			return false;
	return true;
}

struct line {
	const char *file;
	unsigned no;
	struct tc_error *err;
};

static int bad(const struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const struct line *l, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return tc_error_set(l->err, STAGE, EINVAL, "%s:%u: %s", l->file, l->no, what);
}

/* One "key = value" line, both trimmed, already free of control bytes. */
static int conf_set(const struct line *l, const char *key, const char *value, struct tc_conf *c,
		    unsigned *seen)
{
	static const char *const keys[] = { "policy", "rootfs", "audit", "audit_socket" };
	size_t k;

	for (k = 0; k < TC_ARRAY_SIZE(keys); k++)
		if (!strcmp(key, keys[k]))
			break;
	if (k == TC_ARRAY_SIZE(keys))
		return bad(l,
			   "unknown key '%.40s' (expected policy, rootfs, audit or audit_socket)",
			   key);
	if (*seen & (1u << k))
		return bad(l, "'%s' is set twice", key);
	*seen |= 1u << k;
	if (!*value)
		return bad(l, "'%s' has no value", key);
	switch (k) {
	case 0:
		if (!clean_path(value) && !tc_conf_policy_name(value))
			return bad(l,
				   "policy: expected an absolute path or a policy's name such as "
				   "production, got '%.60s'",
				   value);
		if (strlen(value) >= sizeof(c->policy))
			return bad(l, "policy: path too long");
		snprintf(c->policy, sizeof(c->policy), "%s", value);
		return 0;
	case 1:
		if (!tc_rootfs_name_valid(value) || strlen(value) >= sizeof(c->rootfs))
			return bad(
				l,
				"rootfs: expected a rootfs variant's name ([a-z0-9][a-z0-9_-]*, as "
				"'toolcell rootfs build --name' makes), got '%.60s'",
				value);
		snprintf(c->rootfs, sizeof(c->rootfs), "%s", value);
		return 0;
	case 2:
		if (strcmp(value, "on") && strcmp(value, "off"))
			return bad(l, "audit: expected on or off, got '%.40s'", value);
		c->audit = !strcmp(value, "on");
		return 0;
	default:
		if (!clean_path(value) || strlen(value) >= sizeof(c->audit_socket))
			return bad(l,
				   "audit_socket: expected the absolute path of a syslog socket "
				   "(at most %d bytes), got '%.60s'",
				   TC_CONF_SOCKET_MAX - 1, value);
		snprintf(c->audit_socket, sizeof(c->audit_socket), "%s", value);
		return 0;
	}
}

static void trim(const char **s, const char **end)
{
	while (*s < *end && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*end > *s && ((*end)[-1] == ' ' || (*end)[-1] == '\t'))
		(*end)--;
}

int tc_conf_parse(const char *text, size_t len, const char *file, struct tc_conf *c,
		  struct tc_error *err)
{
	struct line l = { file, 0, err };
	unsigned seen = 0;
	size_t pos = 0;

	if (len > TC_CONF_BYTES_MAX)
		return tc_error_set(err, STAGE, EFBIG, "%s: larger than %d bytes", file,
				    TC_CONF_BYTES_MAX);
	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		const char *end = nl ? nl : text + len, *eq;
		char key[32], value[TC_CONF_LINE_MAX + 1];
		int r;

		l.no++;
		pos = (size_t)(end - text) + 1;
		if ((size_t)(end - s) > TC_CONF_LINE_MAX)
			return bad(&l, "line longer than %d bytes", TC_CONF_LINE_MAX);
		for (const char *p = s; p < end; p++)
			if (((unsigned char)*p < 0x20 && *p != '\t') || (unsigned char)*p >= 0x7f)
				return bad(&l, "a byte that is not printable ASCII or a tab");
		trim(&s, &end);
		if (s == end || *s == '#')
			continue;
		eq = memchr(s, '=', (size_t)(end - s));
		if (!eq)
			return bad(&l, "expected 'key = value'");
		{
			const char *ks = s, *ke = eq, *vs = eq + 1, *ve = end;

			trim(&ks, &ke);
			trim(&vs, &ve);
			if (ke == ks || (size_t)(ke - ks) >= sizeof(key))
				return bad(&l, "expected 'key = value'");
			memcpy(key, ks, (size_t)(ke - ks));
			key[ke - ks] = '\0';
			memcpy(value, vs, (size_t)(ve - vs));
			value[ve - vs] = '\0';
		}
		if (strchr(value, '#'))
			return bad(&l, "'#' in a value (a comment takes a line of its own)");
		r = conf_set(&l, key, value, c, &seen);
		if (r < 0)
			return r;
	}
	return 0;
}

int tc_conf_load(const char *path, struct tc_conf *c, struct tc_error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	ssize_t n;

	tc_conf_init(c);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return tc_error_errno(err, STAGE, errno, "cannot open %s", path);
	if (fstat(fd, &st) < 0)
		return tc_error_errno(err, STAGE, errno, "cannot stat %s", path);
	if (!S_ISREG(st.st_mode))
		return tc_error_set(err, STAGE, EINVAL, "%s: not a regular file", path);
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022))
		return tc_error_set(err, STAGE, EPERM,
				    "%s: must be owned by root and writable by no one else "
				    "(owner uid %u, mode %04o): fix with chown root: and chmod 644",
				    path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	if (st.st_size > TC_CONF_BYTES_MAX)
		return tc_error_set(err, STAGE, EFBIG, "%s: larger than %d bytes", path,
				    TC_CONF_BYTES_MAX);
	buf = malloc(TC_CONF_BYTES_MAX + 1);
	if (!buf)
		return tc_error_set(err, STAGE, ENOMEM, "out of memory");
	n = tc_read_full(fd, buf, TC_CONF_BYTES_MAX + 1);
	if (n < 0)
		return tc_error_errno(err, STAGE, errno, "cannot read %s", path);
	return tc_conf_parse(buf, (size_t)n, path, c, err);
}
