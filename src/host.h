/* What isolation this host can give: user namespaces (and what blocks
 * them), cgroup v2 delegation, seccomp, landlock. Read-only probing: it
 * never writes under /sys/fs/cgroup. Parent side, for `toolcell check`. */
#ifndef TOOLCELL_HOST_H
#define TOOLCELL_HOST_H

#include <stdbool.h>
#include <stdio.h>

#include "hint.h"

/* Gather the facts a set-up failure's hint needs (hint.h): the AppArmor
 * user namespace sysctl, whether we run as root, and what is mounted over
 * parts of our /proc. Reads files only. */
void tc_host_facts_read(struct tc_host_facts *f);

/* Landlock ABI version, or -errno when unavailable. */
int tc_host_landlock_abi(void);

/* Print one line per facility to out; false when something toolcell needs
 * (user namespaces) is missing. */
bool tc_host_report(FILE *out, const char *cgroup_parent, bool from_caller);

#endif
