/* The places the tool may write, in one list: the sandbox's own /tmp and
 * /dev/shm, the writable binds and the workspace. The mount plan mounts
 * them, Landlock allows writing beneath them and nowhere else, and the
 * result file is refused inside any of their host folders (the tool could
 * replace the record there). Pure, but for the realpath of
 * tc_writable_holding. */
#ifndef TOOLCELL_WRITABLE_H
#define TOOLCELL_WRITABLE_H

#include <stddef.h>

#include "toolcell/config.h"

enum tc_writable_kind {
	TC_WRITABLE_TMP,       /* /tmp: a tmpfs of the sandbox's own */
	TC_WRITABLE_SHM,       /* /dev/shm: a tmpfs of the sandbox's own */
	TC_WRITABLE_BIND,      /* a --bind: the host folder itself */
	TC_WRITABLE_WORKSPACE, /* the workspace: a layer over the host folder */
};

struct tc_writable {
	enum tc_writable_kind kind;
	const char *inside; /* as the tool sees it */
	const char *host;   /* the host folder behind it; NULL for a tmpfs */
	size_t bind;	    /* TC_WRITABLE_BIND: its index in cfg->binds */
};

/* /tmp, /dev/shm, every bind, the workspace */
#define TC_WRITABLE_MAX (2 + TC_MAX_BINDS + 1)

/* Every place the tool may write under cfg, in the order the mount plan
 * mounts them: /tmp, /dev/shm, the writable binds in cfg's order, the
 * workspace. Returns how many (at most TC_WRITABLE_MAX); strings point into
 * cfg. */
size_t tc_writable_places(const struct tc_config *cfg, struct tc_writable ret[TC_WRITABLE_MAX]);

/* The host folder (as cfg names it) of a place the tool may write that holds
 * dir, a real path (realpath'ed by the caller), or NULL when none does. A
 * host folder that does not resolve is passed over: its bind fails later
 * with its own message. */
const char *tc_writable_holding(const struct tc_config *cfg, const char *dir);

#endif
