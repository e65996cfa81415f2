/* Capabilities and privilege locks, child side. */
#ifndef TOOLCELL_CAPS_H
#define TOOLCELL_CAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "toolcell/error.h"

/* Lock the securebits (no root privileges by uid, no set-uid fixups, no
 * ambient raise, all locked) and empty the bounding set. The effective,
 * permitted and inheritable sets stay as they are. Needs CAP_SETPCAP. */
int tc_caps_bound(struct tc_error *err);

/* Empty the ambient set, switch to uid/gid with no supplementary groups
 * when set_ids, empty the permitted, effective and inheritable sets, and
 * set NO_NEW_PRIVS. Needs the full capability set of the namespace on
 * entry, and tc_caps_bound done already, by this process or by the one it
 * was forked from (a process can only shrink its bounding set; a new user
 * namespace would start a full one, and no process makes one after it). */
int tc_caps_drop_all(bool set_ids, uid_t uid, gid_t gid, struct tc_error *err);

/* The calling process's effective capability mask (for tests and check). */
uint64_t tc_caps_effective(void);

#endif
