/* libFuzzer harness for toolcell.conf's parser: any bytes go through
 * tc_conf_parse. Accepted or refused, every field must stay a terminated
 * string within its buffer, and a refusal must carry a message. A crash, a
 * leak or a sanitizer report is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_conf c;
	struct tc_error err = { 0 };
	int r;

	tc_conf_init(&c);
	r = tc_conf_parse((const char *)data, size, "fuzz.conf", &c, &err);
	if (memchr(c.policy, 0, sizeof(c.policy)) == NULL ||
	    memchr(c.rootfs, 0, sizeof(c.rootfs)) == NULL ||
	    memchr(c.audit_socket, 0, sizeof(c.audit_socket)) == NULL)
		abort();
	if (r < 0 && !err.message[0])
		abort();
	if (r == 0 && c.audit_socket[0] != '/')
		abort();
	return 0;
}
