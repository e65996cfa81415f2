/* Causes and fixes for host set-up failures (see hint.h). Pure: no I/O. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hint.h"

unsigned tc_hint_proc_overmounts(const char *mountinfo, char *example, size_t size)
{
	unsigned n = 0;

	if (size)
		example[0] = '\0';
	for (const char *line = mountinfo; line && *line;) {
		const char *eol = strchr(line, '\n');
		const char *p = line;
		size_t len;

		/* the fifth field is the mount point (octal escapes and all) */
		for (int field = 1; field < 5 && p; field++) {
			p = strchr(p, ' ');
			if (p && (!eol || p < eol))
				p++;
			else
				p = NULL;
		}
		if (p) {
			const char *end = strchr(p, ' ');

			const char *fs = strstr(p, " - ");

			len = end && (!eol || end < eol) ? (size_t)(end - p) : 0;
			/* binfmt_misc sits on an empty folder of /proc/sys on
			 * many hosts, which hides nothing and blocks nothing */
			if (fs && (!eol || fs < eol) && strncmp(fs, " - binfmt_misc ", 15) == 0)
				len = 0;
			if (len > 6 && strncmp(p, "/proc/", 6) == 0) {
				if (n++ == 0 && size)
					snprintf(example, size, "%.*s", (int)len, p);
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return n;
}

/* The stages that make namespaces and act in them: where a capability the
 * host withheld shows as EPERM (a file's permissions say EACCES). */
static const bool namespace_stage[TC_STAGE__MAX] = {
	[TC_STAGE_CLONE] = true,   [TC_STAGE_USERNS] = true, [TC_STAGE_MOUNT] = true,
	[TC_STAGE_PROC] = true,	   [TC_STAGE_NET] = true,    [TC_STAGE_UTS] = true,
	[TC_STAGE_KEYRING] = true, [TC_STAGE_CAPS] = true,   [TC_STAGE_INIT] = true,
};

bool tc_hint_for(enum tc_stage stage, int err, const struct tc_host_facts *f, char *buf,
		 size_t size)
{
	if (size)
		buf[0] = '\0';
	if (err != EPERM || (size_t)stage >= TC_STAGE__MAX || !namespace_stage[stage])
		return false;
	if (stage == TC_STAGE_PROC && f->proc_overmounts > 0) {
		snprintf(buf, size,
			 " (this host's /proc has %u file system%s mounted over parts of it, such "
			 "as %s, the way Docker and Kubernetes mask it, and the kernel refuses a "
			 "new /proc while any part of the old one is hidden; run the container "
			 "with /proc unmasked: docker run --security-opt systempaths=unconfined, "
			 "or Kubernetes securityContext.procMount: Unmasked with hostUsers: false)",
			 f->proc_overmounts, f->proc_overmounts == 1 ? "" : "s",
			 f->proc_overmount_example);
		return true;
	}
	if (f->apparmor_restrict_userns == 1 && !f->privileged) {
		snprintf(buf, size,
			 " (this host sets kernel.apparmor_restrict_unprivileged_userns=1, which "
			 "leaves the user namespaces of unconfined programs without capabilities; "
			 "run toolcell as root, give it an AppArmor profile that allows userns, "
			 "or set the sysctl to 0)");
		return true;
	}
	return false;
}

void tc_hint_apply(struct tc_error *e, const struct tc_host_facts *f)
{
	char hint[512];
	size_t len = strnlen(e->message, sizeof(e->message));

	/* a message that names the sysctl already (clone's) needs no more */
	if (strstr(e->message, "apparmor_restrict_unprivileged_userns") &&
	    e->stage != TC_STAGE_PROC)
		return;
	if (tc_hint_for(e->stage, e->err, f, hint, sizeof(hint)) && len < sizeof(e->message) - 1)
		snprintf(e->message + len, sizeof(e->message) - len, "%s", hint);
}
