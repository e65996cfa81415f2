/* Workspace mode (a policy with "programs"): `run` starts only a program the
 * policy lists, by its bare name, in a run that has a workspace, and no
 * argument is an absolute path or climbs out with "..". A convenience for
 * honest agents, not the boundary: the sandbox is. Pure; parent side. */
#ifndef TOOLCELL_WORKSPACE_MODE_H
#define TOOLCELL_WORKSPACE_MODE_H

#include "toolcell/config.h"
#include "toolcell/error.h"

/* 0 when argv (argc words, argv[0] the program) may run under cfg, whose
 * policy is policy_path (for messages); -EINVAL or -EPERM with err saying
 * why (stage "workspace"). A policy without "programs" allows any. python3
 * is always listed; an argument of several lines is program text
 * (python3 -c), not a path. */
int tc_workspace_mode_check(const struct tc_config *cfg, const char *policy_path, int argc,
			    char *const argv[], struct tc_error *err);

#endif
