/* Run identity and the audit line (audit.h). Runs in the parent. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "toolcell/record.h"
#include "util.h"

#define STAGE TC_STAGE_AUDIT

void tc_uuid4_format(const unsigned char bytes[16], char out[37])
{
	unsigned char b[16];
	size_t o = 0;

	memcpy(b, bytes, sizeof(b));
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	for (size_t i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = "0123456789abcdef"[b[i] >> 4];
		out[o++] = "0123456789abcdef"[b[i] & 15];
	}
	out[o] = '\0';
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int tc_run_begin(struct tc_run *r, const char *verb, struct tc_error *err)
{
	unsigned char b[16];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	/* GRND_NONBLOCK: never wait for the pool at boot; no id means no run */
	do
		n = getrandom(b, sizeof(b), GRND_NONBLOCK);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(b))
		return tc_error_errno(err, STAGE, n < 0 ? errno : EIO,
				      "cannot make a run id: getrandom gave no randomness");
	tc_uuid4_format(b, r->id);
	r->started_ms = now_ms();
	r->verb = verb;
	r->caller_uid = (uint32_t)getuid();
	r->caller_pid = (int32_t)getpid();
	return 0;
}

void tc_run_end(struct tc_run *r)
{
	if (!r->ended_ms)
		r->ended_ms = now_ms();
}

void tc_rfc3339(uint64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	size_t n;

	gmtime_r(&t, &tm);
	n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03uZ", (unsigned)(ms % 1000));
}

void tc_audit_format(const struct tc_run *r, const struct tc_outcome *o, const char *status,
		     char *buf, size_t n)
{
	char peak[24] = "unknown", code[16] = "-", sig[16] = "-";

	if (o && o->memory_peak_bytes.known)
		snprintf(peak, sizeof(peak), "%llu",
			 (unsigned long long)o->memory_peak_bytes.value);
	if (o && o->exited)
		snprintf(code, sizeof(code), "%d", o->exit_code);
	if (o && o->signaled)
		snprintf(sig, sizeof(sig), "%d", o->signal);
	snprintf(buf, n,
		 "run_id=%s verb=%s status=%s exit=%s signal=%s wall_ms=%llu "
		 "cpu_ms=%llu memory_peak_bytes=%s policy_sha256=%s tool_sha256=%s caller_uid=%u "
		 "caller_pid=%d",
		 r->id[0] ? r->id : "-", r->verb ? r->verb : "-", status, code, sig,
		 (unsigned long long)(o ? o->wall_ms : 0),
		 (unsigned long long)(o ? o->cpu_user_ms + o->cpu_system_ms : 0), peak,
		 o && o->policy_sha256[0] ? o->policy_sha256 : "-",
		 o && o->tool_sha256[0] ? o->tool_sha256 : "-", r->caller_uid, r->caller_pid);
}

int tc_audit_send(const char *path, const char *message)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[TC_AUDIT_LINE_MAX], stamp[32];
	time_t t = time(NULL);
	struct tm tm;
	int len;

	if (fd < 0)
		return -errno;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* a logger first: without one (a container has none), the local time
	 * (tzset reads /etc/localtime) and the line are work for nothing */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	/* RFC 3164, as glibc's syslog(3) writes it: journald and rsyslog parse it */
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", &tm);
	len = snprintf(line, sizeof(line), "<%d>%s toolcell[%d]: %s", LOG_AUTHPRIV | LOG_INFO,
		       stamp, (int)getpid(), message);
	if (len < 0)
		return -EINVAL;
	if ((size_t)len >= sizeof(line))
		len = (int)sizeof(line) - 1;
	if (send(fd, line, (size_t)len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return -errno;
	return 0;
}
