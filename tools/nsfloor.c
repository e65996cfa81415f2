/* tools/bench's `floor` variant: the least a namespace sandbox of
 * toolcell's shape asks of the kernel, and nothing else, so that the bench
 * shows how much of a one-shot run's added time is the kernel's.
 *
 *   toolcell-nsfloor [--ro /FILE]... /PROGRAM [ARGS...]
 *
 * One clone3 with a user, mount, PID, network, IPC, UTS and cgroup
 * namespace; the parent writes the id maps (the caller's uid and gid as 0,
 * so it runs unprivileged too); the child makes its mounts private, builds
 * a root on a tmpfs (/usr bound read-only, the usual links, /proc, a /tmp
 * tmpfs, /dev/null, each --ro FILE read-only at its own absolute path: a
 * regular file outside /usr, /proc and /dev, named without "." or ".."),
 * pivots into it and detaches the old root, brings lo up, forks PROGRAM
 * (it stays as the namespace's init, as toolcell's and bubblewrap's do,
 * and dies with its parent) and passes its exit status on (127: PROGRAM
 * could not be run; 125: a set-up step failed, named on stderr). No
 * seccomp, Landlock, rlimits, cgroup, capability drop, masking of /proc
 * or record: a yardstick, not a sandbox. Not installed. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define STAGE  "/tmp"
#define MAX_RO 64 /* --ro files */

static void die(const char *what)
{
	fprintf(stderr, "toolcell-nsfloor: %s: %s\n", what, strerror(errno));
	_exit(125);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

static void maps(pid_t pid)
{
	char path[64], line[64];

	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	snprintf(line, sizeof(line), "0 %u 1\n", getuid());
	write_file(path, line);
	snprintf(path, sizeof(path), "/proc/%d/setgroups", pid);
	write_file(path, "deny");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	snprintf(line, sizeof(line), "0 %u 1\n", getgid());
	write_file(path, line);
}

static void must(int r, const char *what)
{
	if (r < 0)
		die(what);
}

/* Read-only, submounts too; set as toolcell sets it (a remount would be
 * refused where the source's nosuid, nodev or noexec are locked) */
static void read_only(const char *path)
{
	struct mount_attr a = { .attr_set = MOUNT_ATTR_RDONLY };

	must((int)syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE | AT_SYMLINK_NOFOLLOW, &a,
			  sizeof(a)),
	     path);
}

/* An absolute path with no empty, "." or ".." part: staged under STAGE,
 * it cannot lead out of it */
static int plain_path(const char *p)
{
	if (p[0] != '/')
		return 0;
	for (const char *c = p; *c; c++)
		if (c[0] == '/' &&
		    (c[1] == '/' || c[1] == '\0' ||
		     (c[1] == '.' && (c[2] == '/' || c[2] == '\0' ||
				      (c[2] == '.' && (c[3] == '/' || c[3] == '\0'))))))
			return 0;
	return 1;
}

/* FILE read-only at its own path inside the new root (its folders made) */
static void bind_file(const char *file, int fd)
{
	char path[4096], src[64];

	if (snprintf(path, sizeof(path), STAGE "%s", file) >= (int)sizeof(path))
		die(file);
	for (char *p = path + strlen(STAGE) + 1; (p = strchr(p, '/')); *p++ = '/') {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			die(path);
	}
	must(mknod(path, S_IFREG | 0444, 0), path);
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	must(mount(src, path, NULL, MS_BIND, NULL), file);
	close(fd);
	read_only(path);
}

static void build_root(char **ro, int n_ro)
{
	static const char *const links[][2] = {
		{ "usr/bin", STAGE "/bin" },
		{ "usr/lib", STAGE "/lib" },
		{ "usr/lib64", STAGE "/lib64" },
	};
	static const char *const dirs[] = { STAGE "/usr", STAGE "/proc", STAGE "/tmp",
					    STAGE "/dev" };

	int fd[MAX_RO];

	/* opened before the staging tmpfs can hide them */
	for (int i = 0; i < n_ro; i++)
		if ((fd[i] = open(ro[i], O_PATH | O_CLOEXEC)) < 0)
			die(ro[i]);
	must(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), "private mounts");
	must(mount("tmpfs", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m"), "root");
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		must(symlink(links[i][0], links[i][1]), "symlink");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		must(mkdir(dirs[i], 0755), "mkdir");
	must(mknod(STAGE "/dev/null", S_IFREG | 0444, 0), "mknod");
	must(mount("/usr", STAGE "/usr", NULL, MS_BIND | MS_REC, NULL), "bind /usr");
	read_only(STAGE "/usr");
	must(mount("/dev/null", STAGE "/dev/null", NULL, MS_BIND, NULL), "bind /dev/null");
	must(mount("proc", STAGE "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL), "proc");
	must(mount("tmpfs", STAGE "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777,size=64m"),
	     "tmp");
	for (int i = 0; i < n_ro; i++)
		bind_file(ro[i], fd[i]);
	must(chdir(STAGE), "chdir");
	must((int)syscall(SYS_pivot_root, ".", "."), "pivot_root");
	must(umount2(".", MNT_DETACH), "detach the old root");
	must(chdir("/"), "chdir /");
}

static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("lo");
	ifr.ifr_flags |= IFF_UP;
	must(ioctl(s, SIOCSIFFLAGS, &ifr), "lo up");
	close(s);
}

/* The namespace's init: the program as its child, its status passed on. */
static _Noreturn void child(int go, char **ro, int n_ro, char **argv)
{
	char c;
	pid_t pid;
	int status;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || read(go, &c, 1) != 1)
		_exit(125);
	build_root(ro, n_ro);
	lo_up();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execv(argv[0], argv);
		fprintf(stderr, "toolcell-nsfloor: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

int main(int argc, char **argv)
{
	struct clone_args ca = {
		.flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
			 CLONE_NEWUTS | CLONE_NEWCGROUP,
		.exit_signal = SIGCHLD,
	};
	int go[2], status, first = 1;
	pid_t pid;

	while (first + 1 < argc && !strcmp(argv[first], "--ro") && plain_path(argv[first + 1]))
		first += 2;
	if (first >= argc || argv[first][0] != '/' || first / 2 > MAX_RO) {
		fprintf(stderr,
			"usage: toolcell-nsfloor [--ro /FILE]... /PROGRAM [ARGS...] (at most 64 files, "
			"each named without \".\" or \"..\")\n");
		return 125;
	}
	/* the --ro values, argv[2], argv[4], ..., packed to argv[1..] */
	for (int i = 1; i < first / 2 + 1; i++)
		argv[i] = argv[2 * i];
	if (pipe2(go, O_CLOEXEC) < 0)
		die("pipe");
	pid = (pid_t)syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid < 0)
		die("clone3");
	if (pid == 0) {
		close(go[1]);
		child(go[0], argv + 1, first / 2, argv + first);
	}
	close(go[0]);
	maps(pid);
	if (write(go[1], "", 1) != 1)
		die("go");
	close(go[1]);
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
