/* cgroup v2 limits (README.md, "cgroup v2 limits"): memory, pids and cpu for the whole
 * sandbox, where the host delegates a cgroup v2 subtree to toolcell.
 *
 * Layout: one delegated parent P (named by --cgroup-parent or the policy,
 * or the parent of toolcell's own cgroup when that is delegated to it:
 * owned by the caller, or marked by systemd's trusted.delegate /
 * user.delegate xattr). toolcell enables memory, pids and cpu in P's
 * cgroup.subtree_control once, under a lock on P, if they are not already,
 * and makes one leaf per run, P/toolcell-run-PID-N, locked (flock on the
 * leaf's directory) while its toolcell lives. The sandbox is born in the
 * leaf (CLONE_INTO_CGROUP); a warm one moves to a new leaf when its call
 * begins. After the run: cgroup.kill, the figures, rmdir.
 * Leaves a killed toolcell left are removed by the next one, once empty and
 * unlocked. toolcell never writes the root of a hierarchy, and finds "no
 * usable subtree" on a v1/v2 hybrid without writing anything. */
#ifndef TOOLCELL_CGROUP_H
#define TOOLCELL_CGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "toolcell/config.h"
#include "toolcell/error.h"

#define TC_CGROUP_WHY_MAX 320

struct tc_cgroup {
	int parent_fd; /* the delegated parent, O_DIRECTORY; -1 when none */
	int leaf_fd;   /* this run's leaf, O_DIRECTORY, flock'ed; -1 */
	int pids_fd;   /* the leaf's pids.current, for the supervisor's samples */
	char parent[TC_PATH_MAX];
	char leaf[TC_PATH_MAX];	     /* the leaf's full path, for the record */
	char name[64];		     /* the leaf's name in parent */
	bool has_swap;		     /* memory.swap.max exists (swap accounting) */
	char why[TC_CGROUP_WHY_MAX]; /* when there is no parent: why not */
};

/* What the leaf's files said after the run; a missing file leaves its
 * value unknown. */
struct tc_cgroup_stats {
	bool memory_peak_known, oom_known, pids_peak_known, cpu_known, pids_events_known;
	uint64_t memory_peak;		 /* memory.peak */
	uint64_t oom_kills;		 /* memory.events oom_kill */
	uint64_t pids_peak;		 /* pids.peak */
	uint64_t pids_max_events;	 /* pids.events max: forks refused at pids.max */
	uint64_t user_usec, system_usec; /* cpu.stat */
};

/* Find the delegated parent: explicit (a path, or NULL to look at
 * toolcell's own cgroup). A parent the caller named (from_caller) must be
 * delegated too: marked by systemd, or owned by a caller other than root;
 * the policy's own is the operator's word. 1: found (cg->parent_fd open); 0: no usable
 * subtree, cg->why says why (only when explicit is NULL); <0: explicit
 * names a directory toolcell cannot use (err says why and what to do).
 * Reads only; writes nothing. */
int tc_cgroup_find(const char *explicit, bool from_caller, struct tc_cgroup *cg,
		   struct tc_error *err);

/* What a host without a usable subtree should do, for messages. */
const char *tc_cgroup_how_to_delegate(void);

/* Make this run's leaf under the parent found: enable the controllers in
 * the parent once, remove stale leaves, mkdir, lock, and write memory.max,
 * memory.swap.max=0, memory.oom.group=1, pids.max (the tool's limit + 1
 * for the sandbox's init) and cpu.max from limit[]. */
int tc_cgroup_create(struct tc_cgroup *cg, const uint64_t *limit, struct tc_error *err);

/* A warm sandbox's call gets a leaf of its own (sandbox-call.c), with move:
 * a new leaf beside the warm one, with limit[], takes the sandbox's
 * processes, and the warm leaf is removed. cgroup v2 leaves a process's
 * memory charges where they were made (the removed leaf keeps them,
 * counted in the parent), so the new leaf's memory.max, memory.peak and
 * memory.events, and its cpu.stat, count only what comes after the move,
 * on every kernel; its pids.current counts the processes moved. The
 * sandbox must be idle (blocked on a read): a process forked during the
 * move could stay behind. The move write-locks the kernel's
 * cgroup_threadgroup_rwsem, which waits for an RCU grace period (unless
 * the hierarchy is mounted favordynmods): milliseconds, so a server moves
 * an entry once its warm-up is done, not at dispatch. Without move: the
 * leaf's limits are written again from limit[] (a call's own may be
 * lower). -errno when the leaf could not be made, the processes moved or
 * the limits written (err says why; the caller kills the sandbox). */
int tc_cgroup_begin(struct tc_cgroup *cg, const uint64_t *limit, bool move, struct tc_error *err);

/* `toolcell serve` under systemd (Delegate=yes): move this process into
 * NAME, a child of its own cgroup, so that the delegated cgroup holds no
 * process and its other children can be the calls' leaves (a cgroup with
 * controllers for its children may hold no process itself). Leaves an
 * earlier server left are removed first. 1: moved (where names the
 * child); 0: not delegated by systemd, nothing written (why says so);
 * -errno. Call before any child process is made. */
int tc_cgroup_enter_subgroup(const char *name, char *where, size_t n, char *why, size_t wn);

/* Kill every process in the leaf (cgroup.kill). */
void tc_cgroup_kill(const struct tc_cgroup *cg);

/* Tasks in the leaf now (pids.current), the init included; -errno. */
int tc_cgroup_pids_current(const struct tc_cgroup *cg, uint64_t *ret);

/* Read the figures: once the leaf is empty, or holds the sandbox's init alone
 * (an early end: the tool's figures are final). */
void tc_cgroup_read_stats(const struct tc_cgroup *cg, struct tc_cgroup_stats *ret);

/* The end of a run: cgroup.kill, wait (at most a second) for the leaf to
 * empty, read its figures into stats (unless NULL), remove it. */
int tc_cgroup_finish(struct tc_cgroup *cg, struct tc_cgroup_stats *stats);

void tc_cgroup_init(struct tc_cgroup *cg);
void tc_cgroup_release(struct tc_cgroup *cg);

#endif
