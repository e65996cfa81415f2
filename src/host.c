/* Host probing for `toolcell check` (see host.h). Each probe either reads a
 * file or tries the operation in a throw-away child, so nothing here
 * changes the host. */
#include <linux/landlock.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "cgroup.h"
#include "host.h"
#include "util.h"

int tc_host_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? -errno : (int)abi;
}

/* In a probe's child, first thing: it dies with toolcell, and leaves at
 * once if toolcell died before the prctl (it has a new parent then). */
static void die_with(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(EIO);
}

/* Run try(flags) in a throw-away child that dies with toolcell: the errno
 * it returns (0: it worked) comes back negated, as the child's status. */
static int probe(int (*try)(int), int flags)
{
	int status;
	pid_t self = getpid(), pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		die_with(self);
		_exit(try(flags) & 0xff);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EIO;
}

static int unshare_errno(int flags)
{
	return unshare(flags) < 0 ? errno : 0;
}

static int try_unshare(int flags)
{
	return probe(unshare_errno, flags);
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

void tc_host_facts_read(struct tc_host_facts *f)
{
	char line[16], *mounts = NULL;

	memset(f, 0, sizeof(*f));
	read_line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", line, sizeof(line));
	f->apparmor_restrict_userns = !strcmp(line, "1") ? 1 : !strcmp(line, "0") ? 0 : -1;
	f->privileged = geteuid() == 0;
	if (tc_read_file("/proc/self/mountinfo", 1 << 20, false, &mounts, NULL) >= 0)
		f->proc_overmounts = tc_hint_proc_overmounts(mounts, f->proc_overmount_example,
							     sizeof(f->proc_overmount_example));
	free(mounts);
}

/* The cgroup v2 mount, and where this run's limits would come from. */
static bool report_cgroup(FILE *out, const char *parent, bool from_caller)
{
	struct tc_cgroup cg;
	struct tc_error e = { 0 };
	char *mounts = NULL, *p;
	int r;

	if (tc_read_file("/proc/self/mountinfo", 1 << 20, false, &mounts, NULL) < 0) {
		fprintf(out, "cgroup2 mount: unknown (cannot read /proc/self/mountinfo)\n");
	} else if ((p = strstr(mounts, " - cgroup2 "))) {
		char mnt[256] = "?";
		while (p > mounts && p[-1] != '\n')
			p--;
		sscanf(p, "%*s %*s %*s %*s %255s", mnt);
		fprintf(out, "cgroup2 mount: %s%s\n", mnt,
			strcmp(mnt, "/sys/fs/cgroup") ? " (not at /sys/fs/cgroup: a v1/v2 hybrid)"
						      : "");
	} else {
		fprintf(out, "cgroup2 mount: none\n");
	}
	free(mounts);
	r = tc_cgroup_find(parent, from_caller, &cg, &e);
	if (r > 0)
		fprintf(out,
			"cgroup delegation: %s (memory, pids and cpu limits by cgroup v2; a "
			"leaf per run; %s)\n",
			cg.parent,
			cg.has_swap ? "swap 0"
				    : "no memory.swap.max here: swap is not limited, the kernel "
				      "has no swap accounting");
	else if (r == 0)
		fprintf(out, "cgroup delegation: none: %s; limits fall back to rlimits\n", cg.why);
	else
		fprintf(out, "cgroup delegation: unusable: %s\n", e.message);
	tc_cgroup_release(&cg);
	return r >= 0;
}

/* In the probe's child: a fresh /proc in new user, mount and PID
 * namespaces, by a grandchild (the first process of the PID namespace). */
static int proc_mount_errno(int unused)
{
	int status;
	pid_t in;

	(void)unused;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID) < 0)
		return errno;
	in = fork();
	if (in < 0)
		return errno;
	if (in == 0) {
		/* (its parent outside its PID namespace, getppid() says 0: a
		 * parent gone before the prctl leaves it one mount and an exit,
		 * nothing that waits) */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		_exit(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
				      mount("proc", "/proc", "proc",
					    MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0
			      ? (errno & 0xff)
			      : 0);
	}
	return waitpid(in, &status, 0) == in && WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
}

/* Refused where the host's /proc is partly masked (inside some containers). */
static int try_proc_mount(void)
{
	return probe(proc_mount_errno, 0);
}

bool tc_host_report(FILE *out, const char *cgroup_parent, bool from_caller)
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
	r = try_proc_mount();
	{
		struct tc_host_facts f;
		char hint[512] = "";

		if (r < 0) {
			tc_host_facts_read(&f);
			tc_hint_for(TC_STAGE_PROC, -r, &f, hint, sizeof(hint));
		}
		fprintf(out, "proc mount: %s%s%s\n", r < 0 ? "refused: " : "ok",
			r < 0 ? strerror(-r) : "", hint);
	}
	if (r < 0)
		ok = false;
	if (!report_cgroup(out, cgroup_parent, from_caller))
		ok = false;
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
