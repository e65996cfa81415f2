/* User namespace ids and maps (see userns.h). The pool lock is one file,
 * /run/toolcell/uidpool.lock; a sandbox's pair H, H+1 is taken with an open
 * file description lock on the bytes at offsets H and H+1, so policies with
 * different ranges never hand out the same uid twice. The kernel drops the
 * lock when the last holder of the description exits, so a killed toolcell
 * never leaks a pair, and the sandbox's init keeps its copy of the fd, so
 * the pair stays taken while anything of the sandbox lives. */
#include <fcntl.h>
#include <grp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toolcell/sandbox.h"
#include "userns.h"
#include "util.h"

#define TC_POOL_DIR  "/run/toolcell"
#define TC_POOL_LOCK TC_POOL_DIR "/uidpool.lock"

#define TC_IDMAP_STACK (16 * 1024) /* the idmap helper's stack: two syscalls deep */

void tc_userns_format_maps(struct tc_ids *ids)
{
	if (ids->pool) {
		snprintf(ids->uid_map, sizeof(ids->uid_map), "0 %u 1\n%u %u 1\n", ids->root_host,
			 TC_TOOL_UID, ids->tool_host_uid);
		snprintf(ids->gid_map, sizeof(ids->gid_map), "0 %u 1\n%u %u 1\n", ids->root_host,
			 TC_TOOL_GID, ids->tool_host_gid);
	} else {
		snprintf(ids->uid_map, sizeof(ids->uid_map), "%u %u 1\n", TC_TOOL_UID,
			 ids->tool_host_uid);
		snprintf(ids->gid_map, sizeof(ids->gid_map), "%u %u 1\n", TC_TOOL_GID,
			 ids->tool_host_gid);
	}
}

bool tc_userns_overlaps_subids(const char *text, uint64_t base, uint64_t count)
{
	const char *line = text;

	while (line && *line) {
		unsigned long long start, n;
		const char *colon = strchr(line, ':');
		const char *eol = strchr(line, '\n');

		if (colon && (!eol || colon < eol) &&
		    sscanf(colon + 1, "%llu:%llu", &start, &n) == 2 && n > 0) {
			if (start < base + count && base < start + n)
				return true;
		}
		line = eol ? eol + 1 : NULL;
	}
	return false;
}

static int check_subids(const char *path, uint64_t base, uint64_t count, struct tc_error *err)
{
	_cleanup_free_ char *text = NULL;
	int r = tc_read_file(path, 1 << 20, false, &text, NULL);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, -r, "cannot read %s", path);
	if (tc_userns_overlaps_subids(text, base, count))
		return tc_error_set(err, TC_STAGE_USERNS, EEXIST,
				    "the policy's uid_range %llu+%llu overlaps a range in %s; "
				    "choose a uid_range no user owns",
				    (unsigned long long)base, (unsigned long long)count, path);
	return 0;
}

static int pool_take(const struct tc_config *cfg, struct tc_ids *ids, struct tc_error *err)
{
	uint32_t slots = cfg->uid_count / 2;
	_cleanup_close_ int fd = -1;
	uint32_t first;
	int r;

	if (slots == 0)
		return tc_error_set(err, TC_STAGE_USERNS, EINVAL,
				    "the policy's uid_range is empty");
	r = check_subids("/etc/subuid", cfg->uid_base, cfg->uid_count, err);
	if (r >= 0)
		r = check_subids("/etc/subgid", cfg->uid_base, cfg->uid_count, err);
	if (r < 0)
		return r;
	if (mkdir(TC_POOL_DIR, 0755) < 0 && errno != EEXIST)
		return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot create %s", TC_POOL_DIR);
	fd = open(TC_POOL_LOCK, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot open %s", TC_POOL_LOCK);
	first = (uint32_t)getpid() % slots;
	for (uint32_t k = 0; k < slots; k++) {
		uint32_t slot = (first + k) % slots;
		/* the byte at the host uid itself: policies with other
		 * ranges never hand out the same uid twice */
		struct flock fl = {
			.l_type = F_WRLCK,
			.l_whence = SEEK_SET,
			.l_start = (off_t)cfg->uid_base + 2 * (off_t)slot,
			.l_len = 2,
		};

		if (fcntl(fd, F_OFD_SETLK, &fl) == 0) {
			ids->root_host = cfg->uid_base + 2 * slot;
			ids->tool_host_uid = ids->root_host + 1;
			ids->tool_host_gid = ids->root_host + 1;
			ids->lock_fd = TAKE_FD(fd);
			return 0;
		}
		if (errno != EAGAIN && errno != EACCES)
			return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot lock %s",
					      TC_POOL_LOCK);
	}
	return tc_error_set(err, TC_STAGE_USERNS, EBUSY,
			    "all %u uid pairs of the policy's uid_range are in use by running "
			    "sandboxes; widen uid_range",
			    slots);
}

int tc_userns_prepare(const struct tc_config *cfg, struct tc_ids *ret, struct tc_error *err)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->lock_fd = -1;
	if (geteuid() == 0) {
		ret->pool = true;
		r = pool_take(cfg, ret, err);
		if (r < 0)
			return r;
	} else {
		ret->tool_host_uid = geteuid();
		ret->tool_host_gid = getegid();
	}
	tc_userns_format_maps(ret);
	return 0;
}

int tc_userns_setup_from_parent(const struct tc_ids *ids, pid_t pid, struct tc_error *err)
{
	_cleanup_close_ int dir = -1;
	char path[64];
	int r;

	/* one walk to /proc/PID for the three files */
	snprintf(path, sizeof(path), "/proc/%d", pid);
	dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot open %s", path);
	if (!ids->pool) {
		/* an unprivileged gid_map needs setgroups denied first */
		r = tc_write_file_at(dir, "setgroups", "deny");
		if (r < 0)
			return tc_error_errno(err, TC_STAGE_USERNS, -r, "cannot write %s/setgroups",
					      path);
	}
	r = tc_write_file_at(dir, "uid_map", ids->uid_map);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, -r,
				      "cannot write the sandbox's uid map");
	r = tc_write_file_at(dir, "gid_map", ids->gid_map);
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, -r,
				      "cannot write the sandbox's gid map");
	return 0;
}

int tc_userns_enter(const struct tc_ids *ids, struct tc_error *err)
{
	if (!ids->pool)
		return 0;
	/* The clone kept the host root uid, which the namespace does not map;
	 * files we create must belong to namespace root (host H). */
	if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot become namespace root");
	if (setgroups(0, NULL) < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, errno,
				      "cannot drop supplementary groups");
	return 0;
}

/* The idmap helper: nothing of toolcell's open (the pool's lock among
 * them), then it waits for EOF on the pipe's read end (its argument). It
 * may run in toolcell's memory (CLONE_VM): plain syscalls on its own
 * stack, nothing written. */
static int idmap_wait(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char c;

	if (fd > 0)
		close_range(0, (unsigned)fd - 1, 0);
	close_range((unsigned)fd + 1, ~0U, 0);
	(void)!read(fd, &c, 1);
	_exit(0);
}

int tc_userns_idmap_open(struct tc_ids *ids, int *ret_fd, struct tc_error *err)
{
	_cleanup_close_ int fd = -1;
	int p[2], r = 0;
	char path[64], map[64];
	pid_t pid;

	*ret_fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, errno, "cannot create a pipe");
	/* a child in a user namespace of its own, which waits for EOF on the
	 * pipe: the namespace lives as long as the fd we open on it. It shares
	 * our memory (no copy of our page tables to make, nor our pages to
	 * copy on write while it lives) on a stack of its own, freed once it
	 * is reaped; a sanitized build forks */
	ids->idmap_stack = TC_ASAN ? NULL : malloc(TC_IDMAP_STACK);
	if (ids->idmap_stack)
		pid = clone(idmap_wait, (char *)ids->idmap_stack + TC_IDMAP_STACK,
			    CLONE_VM | CLONE_NEWUSER | SIGCHLD, (void *)(intptr_t)p[0]);
	else if ((pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, NULL, NULL, NULL,
				       NULL)) == 0)
		idmap_wait((void *)(intptr_t)p[0]);
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		return tc_error_errno(err, TC_STAGE_USERNS, errno,
				      "cannot create the user namespace for idmapped binds");
	}
	/* the caller's ids appear as the tool's ids on the idmapped binds */
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)geteuid(), ids->tool_host_uid);
	r = tc_write_file(path, map);
	if (r >= 0) {
		snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
		snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)getegid(), ids->tool_host_gid);
		r = tc_write_file(path, map);
	}
	if (r >= 0) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		r = fd < 0 ? -errno : 0;
	}
	/* EOF ends the helper; it is reaped at release, not waited for here
	 * (on a busy machine its turn to run may come milliseconds later) */
	close(p[1]);
	ids->idmap_helper = pid;
	if (r < 0)
		return tc_error_errno(err, TC_STAGE_USERNS, -r,
				      "cannot map the user namespace for idmapped binds");
	*ret_fd = TAKE_FD(fd);
	return 0;
}

void tc_userns_release(struct tc_ids *ids)
{
	/* only pool mode holds a lock: zeroed ids (a run that failed before
	 * tc_userns_prepare) have lock_fd 0, which is not ours to close */
	if (ids->pool)
		tc_closep(&ids->lock_fd);
	ids->lock_fd = -1;
	if (ids->idmap_helper > 0)
		waitpid(ids->idmap_helper, NULL, 0);
	ids->idmap_helper = 0;
	/* its stack, once it has ended */
	free(ids->idmap_stack);
	ids->idmap_stack = NULL;
}
