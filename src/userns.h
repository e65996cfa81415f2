/* User namespace ids: which host uids the sandbox maps, and the maps
 * themselves. As host root, each sandbox takes a pair of unprivileged host
 * ids from a pool (namespace root -> H, the tool -> H+1) held by an
 * open-file-description lock for as long as the sandbox lives; nothing ever
 * maps to host uid 0. As an unprivileged caller, the caller's own uid and
 * gid are mapped to the tool's ids. prepare runs in the parent before
 * clone, setup_from_parent after it, enter in the child. */
#ifndef TOOLCELL_USERNS_H
#define TOOLCELL_USERNS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "toolcell/config.h"
#include "toolcell/error.h"

struct tc_ids {
	bool pool;			       /* host-root mode: ids from the pool */
	uint32_t root_host;		       /* pool: host id of namespace root (uid and gid) */
	uint32_t tool_host_uid, tool_host_gid; /* what the tool is on the host */
	int lock_fd;			       /* pool: holds the slot's lock; -1 otherwise */
	pid_t idmap_helper;		       /* tc_userns_idmap_open's child, reaped at release */
	void *idmap_stack;		       /* its stack (CLONE_VM), freed at release */
	char uid_map[96], gid_map[96];
};

/* Format the maps (pure). pool: "0 H 1\n1000 H+1 1\n"; otherwise
 * "1000 UID 1\n". */
void tc_userns_format_maps(struct tc_ids *ids);

/* Pure: true when [base, base+count) overlaps any range of an
 * /etc/subuid-style text ("name:start:count" lines; junk lines ignored). */
bool tc_userns_overlaps_subids(const char *text, uint64_t base, uint64_t count);

/* Parent, before clone: choose the ids (and lock a pool slot as root). */
int tc_userns_prepare(const struct tc_config *cfg, struct tc_ids *ret, struct tc_error *err);

/* Parent, after clone: write setgroups (unprivileged: "deny" first, as the
 * kernel requires before an unprivileged gid_map), uid_map and gid_map. */
int tc_userns_setup_from_parent(const struct tc_ids *ids, pid_t pid, struct tc_error *err);

/* Child, once the maps exist: become namespace root in pool mode (the
 * clone left us with the unmapped host root uid); no-op otherwise. */
int tc_userns_enter(const struct tc_ids *ids, struct tc_error *err);

/* Parent, before clone (pool mode): a user namespace that maps the
 * caller's euid and egid to the tool's host ids and nothing else, for
 * idmapping binds, so the tool reads what the caller handed it and what it
 * writes in a live bind is the caller's.
 * *ret_fd is its /proc/PID/ns/user fd. The helper process that made it
 * exits on its own and is reaped by tc_userns_release. */
int tc_userns_idmap_open(struct tc_ids *ids, int *ret_fd, struct tc_error *err);

/* Drop the pool slot's lock (pool mode) and reap the idmap helper. Safe on
 * zeroed ids, and twice. */
void tc_userns_release(struct tc_ids *ids);

#endif
