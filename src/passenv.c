/* The environment the policy drops (passenv.h). Pure; parent side. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "passenv.h"
#include "util.h"

/* What a shell (a wrapper script such as tools/toolcell-python) exports of its
 * own accord, never the caller's choice. */
static bool shell_own(const char *name, size_t k)
{
	static const char *const own[] = { "PWD", "OLDPWD", "SHLVL", "_" };

	for (size_t i = 0; i < TC_ARRAY_SIZE(own); i++)
		if (strlen(own[i]) == k && !strncmp(name, own[i], k))
			return true;
	return false;
}

size_t tc_passenv_dropped(char *const envp[], const struct tc_config *cfg,
			  char names[TC_PASSENV_LINE_MAX], size_t *ret_more)
{
	size_t len = 0, n = 0, k, j;

	names[0] = '\0';
	*ret_more = 0;
	for (char *const *e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		k = eq ? (size_t)(eq - *e) : strlen(*e);
		if (k == 0 || (k >= 9 && !strncmp(*e, "TOOLCELL_", 9)) || shell_own(*e, k) ||
		    tc_env_find(cfg->env, cfg->n_env, *e, k) < cfg->n_env)
			continue;
		if (len + 2 + TC_PASSENV_NAME_MAX + 4 >= TC_PASSENV_LINE_MAX) {
			(*ret_more)++;
			continue;
		}
		len += (size_t)snprintf(names + len, TC_PASSENV_LINE_MAX - len, "%s",
					n ? ", " : "");
		for (j = 0; j < k && j < TC_PASSENV_NAME_MAX; j++)
			names[len++] = (*e)[j] > ' ' && (*e)[j] < 0x7f ? (*e)[j] : '?';
		if (j < k)
			len += (size_t)snprintf(names + len, TC_PASSENV_LINE_MAX - len, "...");
		names[len] = '\0';
		n++;
	}
	return n;
}
