/* libFuzzer harness for request validation: tc_json_validate on arbitrary
 * bytes must never crash, must answer 0, -EINVAL or -E2BIG, must fill a
 * message on refusal, and whatever it accepts cJSON must accept too. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "toolcell/protocol.h"

#define FUZZ_MAX_BYTES 65536

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_error err = { 0 };
	int r = tc_json_validate((const char *)data, size, FUZZ_MAX_BYTES, "request", &err);

	if (r != 0 && r != -EINVAL && r != -E2BIG && r != -ENOMEM)
		abort();
	if (r < 0) {
		if (!err.message[0] || strcmp(err.stage, "request") != 0)
			abort();
		if (strncmp(err.message, "request: ", 9) != 0)
			abort();
	} else {
		/* accepted: valid UTF-8, and cJSON parses it whole */
		char *copy = malloc(size + 1);
		cJSON *j;

		if (!copy)
			return 0;
		if (!tc_utf8_valid((const char *)data, size))
			abort();
		memcpy(copy, data, size);
		copy[size] = '\0';
		j = cJSON_ParseWithLengthOpts(copy, size + 1, NULL, 1);
		if (!j)
			abort();
		cJSON_Delete(j);
		free(copy);
	}
	return 0;
}
