/* Loopback in the sandbox's network namespace (see net.h). No other
 * interface exists there, so the tool has no route off the machine and
 * cannot reach the host's own loopback either. */
#include <linux/netlink.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include "toolcell/net.h"
#include "toolcell/util.h"

int tc_net_socket_enter(struct tc_error *err)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return tc_error_errno(err, "net", errno, "cannot open a netlink socket");
	return fd;
}

int tc_net_lo_up_from_parent(int fd, struct tc_error *err)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct rtnl_link *lo = NULL, *change = NULL;
	int r;

	if (!sk) {
		close(fd);
		return tc_error_set(err, "net", ENOMEM, "cannot allocate a netlink socket");
	}
	/* libnl owns fd from here and closes it in nl_socket_free */
	r = nl_socket_set_fd(sk, NETLINK_ROUTE, fd);
	if (r < 0) {
		close(fd);
		nl_socket_free(sk);
		return tc_error_set(err, "net", EIO, "cannot use the sandbox's netlink socket: %s",
				    nl_geterror(r));
	}
	r = rtnl_link_get_kernel(sk, 0, "lo", &lo);
	if (r >= 0) {
		change = rtnl_link_alloc();
		if (!change) {
			r = -NLE_NOMEM;
		} else {
			rtnl_link_set_flags(change, IFF_UP);
			r = rtnl_link_change(sk, lo, change, 0);
		}
	}
	rtnl_link_put(change);
	rtnl_link_put(lo);
	nl_socket_free(sk);
	if (r < 0)
		return tc_error_set(err, "net", EIO,
				    "cannot bring up lo in the sandbox's network namespace: %s",
				    nl_geterror(r));
	return 0;
}
