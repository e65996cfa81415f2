/* libFuzzer harness for the policy parser: any bytes go through
 * tc_policy_parse; a policy it accepts must print with tc_policy_to_json,
 * and that output must parse back to a policy that prints identically
 * (the round trip `toolcell policy check` relies on), and must apply with
 * no overrides. The same bytes, NUL-terminated, also feed the size,
 * duration and CPU parsers. Any refusal is fine; a crash, a leak, a
 * sanitizer report or a broken round trip is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const struct tc_policy *p)
{
	struct tc_overrides o = { 0 };
	struct tc_policy q;
	struct tc_config cfg;
	struct tc_error err;
	char *a, *b;

	a = tc_policy_to_json(p);
	if (!a)
		abort();
	if (tc_policy_parse(a, strlen(a), "to_json", &q, &err) != 0)
		abort(); /* to_json printed something parse refuses */
	b = tc_policy_to_json(&q);
	if (!b || strcmp(a, b))
		abort(); /* the round trip changed the policy */
	if (tc_policy_apply(&q, &o, NULL, "/rootfs", &cfg, &err) != 0)
		abort(); /* a valid policy with no overrides always applies */
	tc_config_release(&cfg);
	tc_policy_release(&q);
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_policy p;
	struct tc_error err;
	uint64_t v;
	char *s;

	if (tc_policy_parse((const char *)data, size, "fuzz", &p, &err) == 0) {
		round_trip(&p);
		tc_policy_release(&p);
	}
	if (size > 64)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	tc_parse_size(s, &v);
	tc_parse_seconds_ms(s, &v);
	tc_parse_millicpus(s, &v);
	free(s);
	return 0;
}
