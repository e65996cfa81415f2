/* What a failed set-up says about the host: the cause toolcell can name
 * from the error (stage and errno) and a few facts of the host, with what
 * fixes it. Pure code: the facts are gathered once, by host.c, and only
 * after a failure; everything here is strings in, strings out, and runs in
 * the parent. */
#ifndef TOOLCELL_HINT_H
#define TOOLCELL_HINT_H

#include <stdbool.h>
#include <stddef.h>

#include "toolcell/error.h"

#define TC_HINT_EXAMPLE_MAX 64

/* What the host looked like when a set-up failed. */
struct tc_host_facts {
	/* kernel.apparmor_restrict_unprivileged_userns: 1, 0, or -1 where the
	 * sysctl is absent or unreadable */
	int apparmor_restrict_userns;
	bool privileged; /* toolcell runs as host root (the restriction spares it) */
	/* file systems mounted over parts of our /proc (Docker and
	 * Kubernetes mask /proc/kcore, /proc/acpi, ... so), and one of them */
	unsigned proc_overmounts;
	char proc_overmount_example[TC_HINT_EXAMPLE_MAX];
};

/* Count the mounts below /proc (not /proc itself) in the text of a
 * /proc/self/mountinfo, and copy the first one's mount point to example
 * (size bytes). */
unsigned tc_hint_proc_overmounts(const char *mountinfo, char *example, size_t size);

/* The hint for a set-up failure in stage with errno err on a host with
 * facts f, written to buf as " (...)" to append to the message; false (and
 * buf "") when toolcell knows no cause to name. Only EPERM in a stage that
 * makes namespaces or acts in them has one: the "proc" stage (the mount of
 * the sandbox's own /proc) under a masked host /proc, and any of them
 * under the AppArmor user namespace restriction, which spares root. */
bool tc_hint_for(enum tc_stage stage, int err, const struct tc_host_facts *f, char *buf,
		 size_t size);

/* Append the hint (if any) to e->message, as far as it fits. */
void tc_hint_apply(struct tc_error *e, const struct tc_host_facts *f);

#endif
