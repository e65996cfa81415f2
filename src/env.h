/* The tool's environment: what a variable name may be, NAME=VALUE entries
 * and looking a name up, shared by the command line (--env, --pass-env),
 * the policy's env and pass_env, and the merge of both. Pure; runs in the
 * parent before clone. */
#ifndef TOOLCELL_ENV_H
#define TOOLCELL_ENV_H

#include <stdbool.h>
#include <stddef.h>

/* name[0..len) is a variable name: [A-Za-z_][A-Za-z0-9_]*. */
bool tc_env_name_valid(const char *name, size_t len);

/* NULL when name[0..len) may be set in the tool's environment, else why
 * not: not a variable name, or one of toolcell's own TOOLCELL_* settings. */
const char *tc_env_name_problem(const char *name, size_t len);

/* A heap "NAME=VALUE" from name[0..name_len) and value; NULL with errno
 * E2BIG past TC_ENV_ENTRY_MAX, ENOMEM when out of memory. */
char *tc_env_entry(const char *name, size_t name_len, const char *value);

/* Index of the entry in env[0..n) that sets name[0..name_len), or n. */
size_t tc_env_find(char *const *env, size_t n, const char *name, size_t name_len);

/* The value name has in the NULL-terminated envp ("" when set empty), or
 * NULL when it is not set there (or envp is NULL). */
const char *tc_env_get(char *const *envp, const char *name);

#endif
