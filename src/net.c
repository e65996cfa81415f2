/* The sandbox's network namespace and its loopback (see net.h). No other
 * interface exists there, so the tool has no route off the machine and
 * cannot reach the host's own loopback either. */
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "child.h"
#include "net.h"
#include "util.h"

/* Two ioctls on a socket of the new namespace (no netlink library to load
 * at every start: one flag on one interface is all toolcell sets). */
static int lo_up(struct tc_error *err)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return tc_error_errno(
			err, TC_STAGE_NET, errno,
			"cannot read the flags of lo in the sandbox's network namespace");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno,
				      "cannot bring up lo in the sandbox's network namespace");
	return 0;
}

/* close every descriptor above 2 but a and b */
static void close_all_but(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	close_range(3, (unsigned)lo - 1, 0);
	if (hi > lo + 1)
		close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
	close_range((unsigned)hi + 1, ~0U, 0);
}

_Noreturn static void helper_main(int userns_fd, int sock, pid_t toolcell,
				  const struct tc_klimits *klimits)
{
	struct tc_msg m = { .type = TC_MSG_NET_FD };
	int netns_fd;

	/* toolcell's death ends us from the first line on; if it died before
	 * the line, we have a new parent already */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != toolcell)
		_exit(1);
	/* nothing of toolcell's stays open here: no pipe end or lock that
	 * would outlive it by our doing */
	close_all_but(userns_fd, sock);
	/* joining the sandbox's user namespace first makes it the owner of
	 * the network namespace created next, as if the sandbox had made it */
	if (setns(userns_fd, CLONE_NEWUSER) < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno,
			       "cannot join the sandbox's user namespace");
		goto fail;
	}
	if (unshare(CLONE_NEWNET) < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno, "cannot create the network namespace");
		goto fail;
	}
	if (lo_up(&m.err) < 0)
		goto fail;
	/* the user and network namespaces' own limits (no more namespaces of
	 * any kind: ours exists now), through our /proc (/proc/sys follows the
	 * writer's namespaces); a host whose /proc/sys is read-only could not
	 * give the sandbox a proc at all */
	if (klimits && tc_klimits_write(klimits, true, "/proc/sys", &m.err) < 0)
		goto fail;
	netns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (netns_fd < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno, "cannot open the network namespace");
		goto fail;
	}
	_exit(tc_msg_send(sock, &m, netns_fd) < 0);
fail:
	m.type = TC_MSG_ERROR;
	tc_msg_send(sock, &m, -1);
	_exit(1);
}

int tc_net_helper_start(pid_t pid, int sock, const struct tc_klimits *klimits, struct tc_error *err)
{
	_cleanup_close_ int userns_fd = -1;
	char path[64];
	pid_t helper, self = getpid();
	int pidfd, r;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	userns_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (userns_fd < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno, "cannot open %s", path);
	helper = fork();
	if (helper < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno, "cannot start the network helper");
	if (helper == 0)
		helper_main(userns_fd, sock, self, klimits);
	pidfd = pidfd_open(helper, 0);
	if (pidfd < 0) {
		r = tc_error_errno(err, TC_STAGE_NET, errno, "cannot open a pidfd");
		kill(helper, SIGKILL);
		waitpid(helper, NULL, 0);
		return r;
	}
	return pidfd;
}

int tc_net_enter(int netns_fd, struct tc_error *err)
{
	if (setns(netns_fd, CLONE_NEWNET) < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno,
				      "cannot join the network namespace");
	return 0;
}
