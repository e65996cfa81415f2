/* The sandbox's network namespace and its loopback (see net.h). No other
 * interface exists there, so the tool has no route off the machine and
 * cannot reach the host's own loopback either. */
#include <fcntl.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "child.h"
#include "net.h"
#include "util.h"

/* Two ioctls on a socket of the new namespace (no netlink library to load
 * at every start: one flag on one interface is all toolcell sets). */
static int lo_up(int fd, struct tc_error *err)
{
	struct ifreq ifr = { .ifr_name = "lo" };

	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
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

struct helper {
	int pidfd; /* the sandbox's init */
	int sock;  /* toolcell's end of the sync socket: NET_FD goes to the child */
	const struct tc_klimits *klimits;
};

/* The helper: joins the sandbox's user namespace, makes the network
 * namespace there (so the sandbox owns it) and hands it to the child
 * (NET_FD), then brings lo up and writes its sysctls while the child starts
 * the tool, and says so (NET_READY, which the tool waits for before its
 * filter and execve). It may run in
 * toolcell's own memory (CLONE_VM, toolcell waiting): plain syscalls on
 * its own stack, nothing allocated, nothing of toolcell's written. */
static int helper_main(void *arg)
{
	const struct helper *h = arg;
	struct tc_msg m = { .type = TC_MSG_NET_FD };
	int fd, netns_fd, proc_sys;

	/* toolcell's death ends us from the first line on */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* nothing of toolcell's stays open here: no pipe end or lock that
	 * would outlive it by our doing */
	close_all_but(h->pidfd, h->sock);
	/* joining the sandbox's user namespace first makes it the owner of
	 * the network namespace created next, as if the sandbox had made it */
	if (setns(h->pidfd, CLONE_NEWUSER) < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno,
			       "cannot join the sandbox's user namespace");
		goto fail;
	}
	if (unshare(CLONE_NEWNET) < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno, "cannot create the network namespace");
		goto fail;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno,
			       "cannot open a socket in the sandbox's network namespace");
		goto fail;
	}
	/* the socket's namespace, without a walk through /proc */
	netns_fd = ioctl(fd, SIOCGSKNS);
	if (netns_fd < 0) {
		tc_error_errno(&m.err, TC_STAGE_NET, errno, "cannot open the network namespace");
		goto fail;
	}
	/* the namespace to the child as soon as it exists: it joins it and
	 * starts the tool while we bring lo up and write the sysctls; the
	 * tool waits for NET_READY before its filter and execve */
	if (tc_msg_send(h->sock, &m, netns_fd) < 0)
		_exit(1);
	close(netns_fd);
	m.type = TC_MSG_NET_READY;
	if (lo_up(fd, &m.err) < 0)
		goto fail;
	/* the network namespace's own limits, and no more network namespaces
	 * (ours exists now; the child writes the other user namespace
	 * limits, klimits.h), through our /proc (each name under
	 * /proc/sys resolves in the opener's namespaces); a host whose
	 * /proc/sys is read-only could not give the sandbox a proc at all */
	if (h->klimits) {
		proc_sys = open("/proc/sys", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (proc_sys < 0) {
			tc_error_errno(&m.err, TC_STAGE_NET, errno, "cannot open /proc/sys");
			goto fail;
		}
		if (tc_klimits_write(h->klimits, true, proc_sys, &m.err) < 0)
			goto fail;
	}
	_exit(tc_msg_send(h->sock, &m, -1) < 0);
fail:
	m.type = TC_MSG_ERROR;
	tc_msg_send(h->sock, &m, -1);
	_exit(1);
}

int tc_net_helper_start(int pidfd, int sock, const struct tc_klimits *klimits, bool wait,
			struct tc_error *err)
{
	/* the helper's stack; with CLONE_VM it lives in our memory, which
	 * the helper shares until it exits (we wait) */
	static char stack[64 * 1024] __attribute__((aligned(16)));
	struct helper h = { .pidfd = pidfd, .sock = sock, .klimits = klimits };
	pid_t helper;

	/* waiting: no copy of our memory to make (nor its pages to copy on
	 * write after), and nothing for us to do meanwhile; else a fork, so
	 * that the caller compiles the filter while the helper works */
	if (wait && !TC_ASAN)
		helper = clone(helper_main, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD,
			       &h);
	else if ((helper = fork()) == 0)
		helper_main(&h);
	if (helper < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno, "cannot start the network helper");
	if (!wait)
		return helper;
	/* it has ended (an error of its own is the child's to report) */
	return tc_net_helper_reap(helper, 0, err);
}

int tc_net_helper_reap(pid_t helper, int ret, struct tc_error *err)
{
	int status = 0;

	while (waitpid(helper, &status, __WALL) < 0 && errno == EINTR)
		;
	/* killed before its last word (NET_READY, or an error the child
	 * reports): the tool would wait for it until its time limit, or, in
	 * a warm entry, for ever */
	if (ret >= 0 && WIFSIGNALED(status))
		return tc_error_set(
			err, TC_STAGE_NET, EIO,
			"the network helper was killed by signal %d before the sandbox's "
			"network namespace was ready",
			WTERMSIG(status));
	return ret;
}

int tc_net_enter(int netns_fd, struct tc_error *err)
{
	if (setns(netns_fd, CLONE_NEWNET) < 0)
		return tc_error_errno(err, TC_STAGE_NET, errno,
				      "cannot join the network namespace");
	return 0;
}
