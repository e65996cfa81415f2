/* Unit tests for the environment a policy drops: which names are listed,
 * which never are, and how a long list and a strange name are shown. */
#include <stdio.h>
#include <string.h>

#include "tc-test.h"
#include "passenv.h"

static void test_dropped(void **state)
{
	char *env[] = { "HOME=/root", "LANG=C", "OPENAI_API_KEY=sk-x", NULL };
	char *envp[] = { "HOME=/root",
			 "OPENAI_API_KEY=sk-x",
			 "TOOLCELL_POLICY=p",
			 "PWD=/x",
			 "OLDPWD=/y",
			 "SHLVL=1",
			 "_=/usr/bin/env",
			 "LANGUAGE=en",
			 "SECRET=1",
			 "NOEQUALS",
			 "=weird",
			 NULL };
	struct tc_config cfg = { .n_env = 3 };
	char names[TC_PASSENV_LINE_MAX];
	size_t more = 99;

	(void)state;
	memcpy(cfg.env, env, sizeof(env));
	/* a prefix of a passed name (LANG) does not pass LANGUAGE */
	assert_int_equal(tc_passenv_dropped(envp, &cfg, names, &more), 3);
	assert_string_equal(names, "LANGUAGE, SECRET, NOEQUALS");
	assert_int_equal(more, 0);
	/* nothing dropped: an empty line */
	char *same[] = { "HOME=/elsewhere", "TOOLCELL_X=1", NULL };
	assert_int_equal(tc_passenv_dropped(same, &cfg, names, &more), 0);
	assert_string_equal(names, "");
}

static void test_shown(void **state)
{
	char longname[200], line[260], *envp[3] = { NULL, "BAD\x01\xffNAME=1", NULL };
	struct tc_config cfg = { 0 };
	char names[TC_PASSENV_LINE_MAX], want[TC_PASSENV_NAME_MAX + 1];
	size_t more;

	(void)state;
	memset(longname, 'A', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	snprintf(line, sizeof(line), "%s=1", longname);
	envp[0] = line;
	assert_int_equal(tc_passenv_dropped(envp, &cfg, names, &more), 2);
	memset(want, 'A', TC_PASSENV_NAME_MAX);
	want[TC_PASSENV_NAME_MAX] = '\0';
	assert_int_equal(strncmp(names, want, TC_PASSENV_NAME_MAX), 0);
	assert_string_equal(names + TC_PASSENV_NAME_MAX, "..., BAD??NAME");
}

static void test_more(void **state)
{
	static char vars[40][32];
	char *envp[41];
	struct tc_config cfg = { 0 };
	char names[TC_PASSENV_LINE_MAX];
	size_t more, n;

	(void)state;
	for (int i = 0; i < 40; i++) {
		snprintf(vars[i], sizeof(vars[i]), "VARIABLE_NUMBER_%02d=x", i);
		envp[i] = vars[i];
	}
	envp[40] = NULL;
	n = tc_passenv_dropped(envp, &cfg, names, &more);
	/* the line holds what fits with room for one more name; the rest are counted */
	assert_true(n > 10 && n < 40);
	assert_int_equal(n + more, 40);
	assert_true(strlen(names) < TC_PASSENV_LINE_MAX);
	assert_int_equal(strncmp(names, "VARIABLE_NUMBER_00, VARIABLE_NUMBER_01", 38), 0);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_dropped), cmocka_unit_test(test_shown),
	     cmocka_unit_test(test_more))
