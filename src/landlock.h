/* Landlock, where the kernel has it: the tool may read and execute
 * anywhere it can see, write only in /tmp, /dev/shm, the workspace and
 * writable binds (and to the /dev nodes), and on ABI 6+ neither reach
 * abstract UNIX sockets nor signal processes outside its own domain (the
 * init, toolcell). Only the rights the running ABI knows are handled; the
 * network rights are not (handling them would block loopback TCP), nor are
 * device ioctls (that would break terminal ioctls). Applied in the tool's
 * branch after NO_NEW_PRIVS and before seccomp; plain syscalls. */
#ifndef TOOLCELL_LANDLOCK_H
#define TOOLCELL_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"
#include "writable.h"

struct tc_landlock {
	int abi;	     /* 0: unavailable */
	uint64_t fs_handled; /* the file system rights handled */
	uint64_t scoped;     /* ABI 6+: LANDLOCK_SCOPE_* bits */
	/* inside paths the tool may write beneath (writable.h's list) */
	const char *writable[TC_WRITABLE_MAX];
	size_t n_writable;
};

/* Parent: what this kernel supports, and the paths the tool may write
 * under cfg (strings point into cfg). */
void tc_landlock_prepare(struct tc_landlock *ret, const struct tc_config *cfg);

/* Child (the tool): restrict itself. 0 when applied or unavailable. */
int tc_landlock_enter(const struct tc_landlock *l, struct tc_error *err);

/* For the record: "ABI 7: ...", or "unavailable (...)". Static string. */
const char *tc_landlock_describe(const struct tc_landlock *l);

#endif
