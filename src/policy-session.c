/* The policy's "session" section: what `toolcell session` lets code
 * import, and how far a caller's --allow-import and --default-import may
 * widen it (max_imports). Checked here and handed to the session harness
 * as JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy-internal.h"
#include "util.h"

#define IMPORTS_MAX 256 /* modules in allowed_imports, aliases in default_imports */
#define MODULE_MAX  128 /* characters of one dotted module name */

enum {
	I_ALLOWED,
	I_DEFAULT,
	I_MAX,
	I__MAX
};
static const char *const session_keys[I__MAX] = { "allowed_imports", "default_imports",
						  "max_imports" };

/* "json" or "xml.etree.ElementTree": Python identifiers (ASCII), dotted
 * when dotted is true */
static bool module_name(const char *s, bool dotted)
{
	size_t len = strlen(s);

	if (len == 0 || len > MODULE_MAX)
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

/* An array of dotted module names (with star: "*" allowed too) at path. */
static int parse_names(const struct parse_ctx *c, const cJSON *list, const char *path, bool star,
		       cJSON *out)
{
	char sub[KEY_PATH_MAX];
	const cJSON *it;
	size_t i = 0;

	if (list && !cJSON_IsArray(list))
		return tc_policy_expect(c, path, "an array of module names", list);
	cJSON_ArrayForEach(it, list)
	{
		const char *name = cJSON_GetStringValue(it);
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i++);
		if (i > IMPORTS_MAX)
			return tc_policy_err(c, path, "more than %d modules", IMPORTS_MAX);
		if (!name || !(module_name(name, true) || (star && !strcmp(name, "*"))))
			return tc_policy_expect(
				c, sub,
				star ? "a module name such as \"json\" or \"matplotlib.pyplot\", "
				       "or \"*\""
				     : "a module name such as \"json\" or \"matplotlib.pyplot\"",
				it);
		if (!tc_json_add(NULL, out, NULL, cJSON_CreateString(name)))
			return tc_policy_oom(c->err);
	}
	return 0;
}

int tc_policy_parse_session(const struct parse_ctx *c, const cJSON *obj, struct tc_policy *p)
{
	const cJSON *f[I__MAX], *it;
	cJSON *out = NULL, *allowed, *defaults, *max;
	char sub[KEY_PATH_MAX];
	size_t i = 0;
	int r;

	r = tc_policy_fields(c, obj, "session", session_keys, I__MAX, f);
	if (r < 0)
		return r;
	out = cJSON_CreateObject();
	allowed = cJSON_AddArrayToObject(out, "allowed_imports");
	defaults = cJSON_AddObjectToObject(out, "default_imports");
	max = cJSON_AddArrayToObject(out, "max_imports");
	if (!allowed || !defaults || !max) {
		cJSON_Delete(out);
		return tc_policy_oom(c->err);
	}
	r = parse_names(c, f[I_ALLOWED], "session.allowed_imports", false, allowed);
	if (r >= 0)
		r = parse_names(c, f[I_MAX], "session.max_imports", true, max);
	if (r >= 0 && f[I_DEFAULT] && !cJSON_IsObject(f[I_DEFAULT]))
		r = tc_policy_expect(c, "session.default_imports", "an object of alias: module",
				     f[I_DEFAULT]);
	const cJSON *list = r < 0 ? NULL : f[I_DEFAULT];
	cJSON_ArrayForEach(it, list)
	{
		const char *module = cJSON_GetStringValue(it);
		tc_policy_key(sub, sizeof(sub), "session.default_imports", it->string);
		if (++i > IMPORTS_MAX) {
			r = tc_policy_err(c, "session.default_imports", "more than %d aliases",
					  IMPORTS_MAX);
			break;
		}
		if (!module_name(it->string, false)) {
			r = tc_policy_err(c, sub, "an alias is a Python identifier");
			break;
		}
		if (!module || !module_name(module, true)) {
			r = tc_policy_expect(c, sub,
					     "a module name such as \"numpy\" or \"os.path\"", it);
			break;
		}
		if (!tc_json_add(NULL, defaults, it->string, cJSON_CreateString(module))) {
			r = tc_policy_oom(c->err);
			break;
		}
	}
	if (r >= 0) {
		p->session_json = tc_json_print(out, false);
		if (!p->session_json)
			r = tc_policy_oom(c->err);
	}
	cJSON_Delete(out);
	return r;
}

cJSON *tc_policy_session_to_json(const struct tc_policy *p)
{
	return p->session_json ? cJSON_Parse(p->session_json) : NULL;
}

/* module is on max (or under a package on it, or max has "*") */
static bool within(const cJSON *max, const char *module)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, max)
	{
		const char *m = cJSON_GetStringValue(it);
		size_t n = m ? strlen(m) : 0;
		if (m && (!strcmp(m, "*") ||
			  (!strncmp(module, m, n) && (module[n] == '\0' || module[n] == '.'))))
			return true;
	}
	return false;
}

static int beyond(const char *opt, const char *module, const cJSON *max, struct tc_error *err)
{
	char *list = cJSON_GetArraySize(max) ? tc_json_print(max, false) : NULL;
	int r = tc_error_set(err, STAGE, EPERM,
			     "%s %s: the policy's session.max_imports does not include %s "
			     "(it is %s); ask the operator to add it, or leave the import out",
			     opt, module, module, list ? list : "[]: a caller may add none");

	free(list);
	return r;
}

/* The caller's --allow-import and --default-import into cfg (parsed
 * session_json), each within max_imports. */
static int add_caller_imports(cJSON *cfg, const struct tc_overrides *o, struct tc_error *err)
{
	cJSON *allowed = cJSON_GetObjectItemCaseSensitive(cfg, "allowed_imports");
	cJSON *defaults = cJSON_GetObjectItemCaseSensitive(cfg, "default_imports");
	const cJSON *max = cJSON_GetObjectItemCaseSensitive(cfg, "max_imports");

	for (size_t i = 0; i < o->n_allow_import; i++) {
		const char *m = o->allow_import[i];
		if (!module_name(m, true))
			return tc_error_set(err, STAGE, EINVAL,
					    "--allow-import %s: expected a module name such as "
					    "\"json\" or \"matplotlib.pyplot\"",
					    m);
		if (!within(max, m))
			return beyond("--allow-import", m, max, err);
		if (!tc_json_add(NULL, allowed, NULL, cJSON_CreateString(m)))
			return tc_policy_oom(err);
	}
	for (size_t i = 0; i < o->n_default_import; i++) {
		const char *spec = o->default_import[i], *eq = strchr(spec, '=');
		char alias[MODULE_MAX + 1];
		size_t n = eq ? (size_t)(eq - spec) : 0;
		if (n)
			snprintf(alias, sizeof(alias), "%.*s",
				 (int)(n < MODULE_MAX ? n : MODULE_MAX), spec);
		if (!eq || n > MODULE_MAX || !module_name(alias, false) ||
		    !module_name(eq + 1, true))
			return tc_error_set(err, STAGE, EINVAL,
					    "--default-import %s: expected ALIAS=MODULE, such as "
					    "np=numpy or plt=matplotlib.pyplot",
					    spec);
		if (!within(max, eq + 1))
			return beyond("--default-import", eq + 1, max, err);
		cJSON_DeleteItemFromObjectCaseSensitive(defaults, alias);
		if (!tc_json_add(NULL, defaults, alias, cJSON_CreateString(eq + 1)))
			return tc_policy_oom(err);
	}
	return 0;
}

int tc_policy_session_config(const struct tc_policy *p, const struct tc_overrides *o,
			     uint64_t max_bytes, char **ret, struct tc_error *err)
{
	cJSON *cfg = p->session_json ? cJSON_Parse(p->session_json) : NULL;
	int r = 0;

	*ret = NULL;
	if (!cfg) {
		cfg = cJSON_CreateObject();
		if (!cfg || !cJSON_AddArrayToObject(cfg, "allowed_imports") ||
		    !cJSON_AddObjectToObject(cfg, "default_imports") ||
		    !cJSON_AddArrayToObject(cfg, "max_imports")) {
			cJSON_Delete(cfg);
			return tc_policy_oom(err);
		}
	}
	r = add_caller_imports(cfg, o, err);
	/* the harness needs no ceiling: the caller's names are checked */
	cJSON_DeleteItemFromObjectCaseSensitive(cfg, "max_imports");
	if (r >= 0 && !cJSON_AddNumberToObject(cfg, "max_bytes", (double)max_bytes))
		r = tc_policy_oom(err);
	if (r >= 0) {
		*ret = tc_json_print(cfg, false);
		if (!*ret)
			r = tc_policy_oom(err);
	}
	cJSON_Delete(cfg);
	return r;
}
