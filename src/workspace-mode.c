/* Workspace mode's rules for `run` (workspace-mode.h). Pure; parent side. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "workspace-mode.h"

#define STAGE TC_STAGE_WORKSPACE

/* true when a names ".." as one of its components */
static bool climbs(const char *a)
{
	for (const char *p = a; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "..", 2) && (p[2] == '/' || p[2] == '\0'))
			return true;
	return false;
}

static int check_arguments(int argc, char *const argv[], struct tc_error *err)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strchr(a, '\n'))
			continue; /* program text (python3 -c), not a path */
		if (a[0] == '/')
			return tc_error_set(
				err, STAGE, EINVAL,
				"argument %d ('%s') is an absolute path; in a workspace "
				"paths are relative to it",
				i, a);
		if (climbs(a))
			return tc_error_set(
				err, STAGE, EINVAL,
				"argument %d ('%s') climbs out with '..'; in a workspace "
				"paths stay inside it",
				i, a);
	}
	return 0;
}

int tc_workspace_mode_check(const struct tc_config *cfg, const char *policy_path, int argc,
			    char *const argv[], struct tc_error *err)
{
	char list[512] = "python3";
	bool listed = !strcmp(argv[0], "python3");

	if (!cfg->n_programs)
		return 0;
	for (size_t i = 0; i < cfg->n_programs; i++) {
		listed = listed || !strcmp(argv[0], cfg->programs[i]);
		if (strcmp(cfg->programs[i], "python3"))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), ", %s",
				 cfg->programs[i]);
	}
	if (!cfg->workspace)
		return tc_error_set(err, STAGE, EINVAL,
				    "%s is a workspace policy: give the run a workspace "
				    "(--workspace DIR)",
				    policy_path);
	if (strchr(argv[0], '/'))
		return tc_error_set(err, STAGE, EINVAL,
				    "'%s': in a workspace a program is run by its name (one of: "
				    "%s), not by a path",
				    argv[0], list);
	if (!listed)
		return tc_error_set(err, STAGE, EPERM,
				    "'%s' is not one of the programs %s allows (%s)", argv[0],
				    policy_path, list);
	return check_arguments(argc, argv, err);
}
