/* A policy's "require": what it asks of the host (cgroup v2 limits, a
 * Landlock ABI) and whether this host has it, with the fix when it does
 * not. Reads the host (cgroup mounts, the Landlock ABI); writes nothing.
 * Parent side, before anything is built. */
#ifndef TOOLCELL_REQUIRE_H
#define TOOLCELL_REQUIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "toolcell/config.h"

/* true when cfg's requirements (the policy at policy_path's) are not met
 * here, with why (n bytes) saying which and how to provide it; false when
 * they are (why untouched). */
bool tc_require_unmet(const struct tc_config *cfg, const char *policy_path, char *why, size_t n);

#endif
