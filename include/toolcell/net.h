/* The sandbox's network: a fresh network namespace with only `lo`, brought
 * up through libnl-route-3. libnl allocates, so it never runs in the child:
 * the child opens a NETLINK_ROUTE socket inside its namespace and hands it
 * to the parent, which brings `lo` up on that socket (the socket acts in
 * the namespace it was created in). */
#ifndef TOOLCELL_NET_H
#define TOOLCELL_NET_H

#include "toolcell/error.h"

/* Child: a NETLINK_ROUTE socket in the sandbox's network namespace. */
int tc_net_socket_enter(struct tc_error *err);

/* Parent: bring `lo` up through fd (taken: closed on return). */
int tc_net_lo_up_from_parent(int fd, struct tc_error *err);

#endif
