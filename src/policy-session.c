/* The policy's "session" section: what `toolcell session` lets code
 * import. Checked here and handed to the session harness as JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy-internal.h"
#include "toolcell/util.h"

#define IMPORTS_MAX 256 /* modules in allowed_imports, aliases in default_imports */

enum {
	I_ALLOWED,
	I_DEFAULT,
	I__MAX
};
static const char *const session_keys[I__MAX] = { "allowed_imports", "default_imports" };

/* "json" or "xml.etree.ElementTree": dotted Python identifiers (ASCII) */
static bool module_name(const char *s, bool dotted)
{
	size_t len = strlen(s);

	if (len == 0 || len > 128)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool start = i == 0 || s[i - 1] == '.';
		if (c == '.' && dotted && !start && i + 1 < len)
			continue;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
		      (!start && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

int parse_session(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[I__MAX], *it;
	cJSON *out = NULL, *allowed, *defaults;
	char sub[KEY_PATH_MAX];
	size_t i = 0;
	int r;

	r = object_fields(c, obj, "session", session_keys, I__MAX, f);
	if (r < 0)
		return r;
	out = cJSON_CreateObject();
	allowed = cJSON_AddArrayToObject(out, "allowed_imports");
	defaults = cJSON_AddObjectToObject(out, "default_imports");
	if (!allowed || !defaults) {
		cJSON_Delete(out);
		return oom(c->err);
	}
	if (f[I_ALLOWED] && !cJSON_IsArray(f[I_ALLOWED]))
		r = expect(c, "session.allowed_imports", "an array of module names", f[I_ALLOWED]);
	const cJSON *list = r < 0 ? NULL : f[I_ALLOWED];
	cJSON_ArrayForEach(it, list)
	{
		const char *name = cJSON_GetStringValue(it);
		snprintf(sub, sizeof(sub), "session.allowed_imports[%zu]", i++);
		if (i > IMPORTS_MAX) {
			r = perr(c, "session.allowed_imports", "more than %d modules", IMPORTS_MAX);
			break;
		}
		if (!name || !module_name(name, false)) {
			r = expect(c, sub, "a top-level module name such as \"json\"", it);
			break;
		}
		if (!json_add(allowed, NULL, cJSON_CreateString(name))) {
			r = oom(c->err);
			break;
		}
	}
	i = 0;
	if (r >= 0 && f[I_DEFAULT] && !cJSON_IsObject(f[I_DEFAULT]))
		r = expect(c, "session.default_imports", "an object of alias: module",
			   f[I_DEFAULT]);
	list = r < 0 ? NULL : f[I_DEFAULT];
	cJSON_ArrayForEach(it, list)
	{
		const char *module = cJSON_GetStringValue(it);
		path_key(sub, sizeof(sub), "session.default_imports", it->string);
		if (++i > IMPORTS_MAX) {
			r = perr(c, "session.default_imports", "more than %d aliases", IMPORTS_MAX);
			break;
		}
		if (!module_name(it->string, false)) {
			r = perr(c, sub, "an alias is a Python identifier");
			break;
		}
		if (!module || !module_name(module, true)) {
			r = expect(c, sub, "a module name such as \"numpy\" or \"os.path\"", it);
			break;
		}
		if (!json_add(defaults, it->string, cJSON_CreateString(module))) {
			r = oom(c->err);
			break;
		}
	}
	if (r >= 0) {
		p->session_json = cJSON_PrintUnformatted(out);
		if (!p->session_json)
			r = oom(c->err);
	}
	cJSON_Delete(out);
	return r;
}

cJSON *session_to_json(const struct tc_policy *p)
{
	return p->session_json ? cJSON_Parse(p->session_json) : NULL;
}
