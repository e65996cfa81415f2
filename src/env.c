/* The tool's environment's rules (see env.h): variable names, NAME=VALUE
 * entries, lookups. Pure; runs in the parent before clone. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolcell/config.h"
#include "env.h"

#define OWN_PREFIX "TOOLCELL_"

bool tc_env_name_valid(const char *name, size_t len)
{
	if (len == 0 || (name[0] >= '0' && name[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

const char *tc_env_name_problem(const char *name, size_t len)
{
	if (!tc_env_name_valid(name, len))
		return "is not a variable name ([A-Za-z_][A-Za-z0-9_]*)";
	if (len >= strlen(OWN_PREFIX) && !memcmp(name, OWN_PREFIX, strlen(OWN_PREFIX)))
		return "starts with TOOLCELL_: toolcell's own settings are never passed to the tool";
	return NULL;
}

char *tc_env_entry(const char *name, size_t name_len, const char *value)
{
	size_t vlen = strlen(value);
	char *e;

	if (name_len + 1 + vlen > TC_ENV_ENTRY_MAX) {
		errno = E2BIG;
		return NULL;
	}
	e = malloc(name_len + vlen + 2);
	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(e, name, name_len);
	e[name_len] = '=';
	memcpy(e + name_len + 1, value, vlen + 1);
	return e;
}

size_t tc_env_find(char *const *env, size_t n, const char *name, size_t name_len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(env[i], name, name_len) && env[i][name_len] == '=')
			break;
	return i;
}

const char *tc_env_get(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}
