/* What of toolcell's own environment the tool's will lack: for a policy
 * with "warn_env_not_passed", since a caller such as OpenFang passes
 * exactly the variables it means the tool to have (its allowed_env_vars),
 * and one the policy drops must not vanish silently. Pure; parent side,
 * before clone. */
#ifndef TOOLCELL_PASSENV_H
#define TOOLCELL_PASSENV_H

#include <stddef.h>

#include "toolcell/config.h"

#define TC_PASSENV_NAME_MAX 64	/* bytes of one name shown; longer ones end in "..." */
#define TC_PASSENV_LINE_MAX 512 /* the whole list */

/* The names in envp (NAME=VALUE strings, NULL-terminated) that cfg's
 * environment does not hold, TOOLCELL_* and a shell's own (PWD, OLDPWD,
 * SHLVL, _) aside: ", "-separated into names, each cut at
 * TC_PASSENV_NAME_MAX and shown printable ('?' for any other byte). Returns
 * how many are listed; *ret_more counts those left out for room. */
size_t tc_passenv_dropped(char *const envp[], const struct tc_config *cfg,
			  char names[TC_PASSENV_LINE_MAX], size_t *ret_more);

#endif
