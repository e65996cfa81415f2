/* libFuzzer harness for the stream of a session started from a server
 * (`toolcell session --server`): the bytes the server relays, whose
 * payloads a sandbox's harness wrote. On arbitrary bytes, fed in two
 * pieces as a socket may deliver them, tc_session_remote_take must never
 * crash, must answer 0, 1 (the end came), -EPROTO or -ENOMEM, take whole
 * chunks only (never more "out" bytes than came in, never a chunk over
 * TC_SESSION_CHUNK_MAX) and, at the end, name a status toolcell has. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int null_fd = -1;
	struct tc_buf in = { 0 }, out = { 0 };
	struct tc_session_end end = { 0 };
	size_t cut = size ? data[0] % (size + 1) : 0;
	int r = 0;

	if (null_fd < 0)
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	for (int piece = 0; piece < 2 && r == 0; piece++) {
		const uint8_t *p = piece ? data + cut : data;
		size_t n = piece ? size - cut : cut;

		if (n && tc_buf_add(&in, (const char *)p, n) < 0)
			break;
		r = tc_session_remote_take(&in, &out, null_fd, &end);
	}
	if (r != 0 && r != 1 && r != -EPROTO && r != -ENOMEM)
		abort();
	if (out.len > size || in.len > size)
		abort();
	if (r == 1 && (end.status > TC_STATUS_SANDBOX_ERROR || !tc_status_name(end.status)))
		abort();
	tc_buf_release(&in);
	tc_buf_release(&out);
	return 0;
}
