/* The socket-buffer clamp, parent side. Without cgroup v2 nothing charges
 * a socket's buffers to the memory limit, and SO_SNDBUF/SO_RCVBUF let a
 * socket ask for up to twice the host's net.core.wmem_max/rmem_max (global
 * sysctls no namespace can lower): 32 sockets held 293 MiB under
 * --memory 64M. The filter sends setsockopt(SOL_SOCKET, SO_SNDBUF,
 * SO_RCVBUF, SO_SNDBUFFORCE, SO_RCVBUFFORCE) to the listener, and the
 * supervisor performs the call itself on a duplicate of the tool's socket
 * (pidfd_getfd) with the value clamped to a per-socket cap, then answers
 * with its result. The kernel never reads the tool's memory for the call,
 * so what the tool writes there afterwards changes nothing. */
#ifndef TOOLCELL_SOCKBUF_H
#define TOOLCELL_SOCKBUF_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>

/* The cap: a socket may ask for at most 1/TC_SOCKBUF_SHARE of the memory
 * limit per buffer (the kernel doubles what it is given), and never less
 * than TC_SOCKBUF_FLOOR, so a small limit still leaves ordinary buffers. */
#define TC_SOCKBUF_SHARE 256
#define TC_SOCKBUF_FLOOR (64u << 10)

/* The largest value a SO_SNDBUF/SO_RCVBUF request keeps under memory_max
 * (bytes; 0 or UINT64_MAX: no limit, the kernel's own maximum stands). */
uint32_t tc_sockbuf_cap(uint64_t memory_max);

/* req is a setsockopt the clamp answers (SOL_SOCKET and one of the four
 * buffer options, compared on the whole registers as the filter does). */
bool tc_sockbuf_claims(const struct seccomp_notif *req);

/* Parent: perform the claimed call req for the tool with the value clamped
 * to tc_sockbuf_cap(memory_max), and fill resp (error 0 or -errno, as
 * setsockopt would have answered). Returns 1 when resp is to be sent, 0
 * when the notification went stale meanwhile (the caller is gone: no
 * answer). */
int tc_sockbuf_answer(int listener, const struct seccomp_notif *req, uint64_t memory_max,
		      struct seccomp_notif_resp *resp);

#endif
