/* Host probing for `toolcell check` (see host.h). Each probe either reads a
 * file or tries the operation in a throw-away child, so nothing here
 * changes the host. */
#include <linux/landlock.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "toolcell/host.h"
#include "toolcell/util.h"

int tc_host_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? -errno : (int)abi;
}

/* fork a child that tries unshare(flags); its errno comes back as status */
static int try_unshare(int flags)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(unshare(flags) < 0 ? (errno & 0xff) : 0);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
}

static void read_line(const char *path, char *buf, size_t size)
{
	char *text = NULL;

	buf[0] = '\0';
	if (tc_read_file(path, 4096, false, &text, NULL) >= 0) {
		snprintf(buf, size, "%s", text);
		buf[strcspn(buf, "\n")] = '\0';
	}
	free(text);
}

static void report_cgroup(FILE *out)
{
	char line[256], path[512], ctl[256];
	char *mounts = NULL;
	bool v2_at_root;

	read_line("/proc/self/cgroup", line, sizeof(line));
	if (tc_read_file("/proc/self/mounts", 1 << 20, false, &mounts, NULL) < 0) {
		fprintf(out, "cgroup2: unknown (cannot read /proc/self/mounts)\n");
		return;
	}
	v2_at_root = strstr(mounts, " /sys/fs/cgroup cgroup2 ") != NULL;
	free(mounts);
	if (!v2_at_root) {
		fprintf(out, "cgroup2: no unified hierarchy at /sys/fs/cgroup (v1 or hybrid); "
			     "limits fall back to rlimits\n");
		return;
	}
	/* our own cgroup's controllers (read only) */
	read_line("/proc/self/cgroup", line, sizeof(line));
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cgroup.controllers",
		 tc_startswith(line, "0::") ? line + 3 : "/");
	read_line(path, ctl, sizeof(ctl));
	fprintf(out,
		"cgroup2: mounted; controllers here: %s (cgroup v2 limits arrive with a "
		"later release; limits fall back to rlimits)\n",
		ctl[0] ? ctl : "none");
}

bool tc_host_report(FILE *out)
{
	char buf[64];
	bool ok = true;
	int r, abi;

	r = try_unshare(CLONE_NEWUSER);
	if (r < 0) {
		read_line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", buf,
			  sizeof(buf));
		fprintf(out, "user namespaces: unavailable: %s%s\n", strerror(-r),
			strcmp(buf, "1") == 0
				? " (kernel.apparmor_restrict_unprivileged_userns=1 blocks them)"
				: "");
		ok = false;
	} else {
		fprintf(out, "user namespaces: ok\n");
	}
	r = try_unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
			CLONE_NEWUTS | CLONE_NEWCGROUP);
	fprintf(out, "all namespaces: %s%s\n", r < 0 ? "unavailable: " : "ok",
		r < 0 ? strerror(-r) : "");
	if (r < 0)
		ok = false;
	report_cgroup(out);
	r = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	fprintf(out, "seccomp: %s\n",
		r >= 0 ? "available (toolcell loads its syscall filter with a listener)"
		       : "unavailable: toolcell cannot run here");
	if (r < 0)
		ok = false;
	abi = tc_host_landlock_abi();
	if (abi > 0)
		fprintf(out, "landlock: ABI %d (toolcell applies it to the tool)\n", abi);
	else
		fprintf(out, "landlock: unavailable (%s)\n", strerror(-abi));
	return ok;
}
