/* Unit tests for conf.c: toolcell.conf's strict parser (every key, every
 * class of refusal with its exact message) and its loader's checks of who
 * may have written the file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tc-test.h"
#include "conf.h"

static int parse(const char *text, struct tc_conf *c, struct tc_error *e)
{
	tc_conf_init(c);
	memset(e, 0, sizeof(*e));
	return tc_conf_parse(text, strlen(text), "t.conf", c, e);
}

#define EXPECT_BAD(text, msg)                                                                      \
	do {                                                                                       \
		struct tc_conf c_;                                                                 \
		struct tc_error e_;                                                                \
		assert_int_equal(parse((text), &c_, &e_), -EINVAL);                                \
		assert_string_equal(e_.message, (msg));                                            \
		assert_int_equal(e_.stage, TC_STAGE_CONFIG);                                       \
	} while (0)

static void test_defaults_and_every_key(void **state)
{
	struct tc_conf c;
	struct tc_error e;

	assert_int_equal(parse("", &c, &e), 0);
	assert_string_equal(c.policy, "");
	assert_string_equal(c.rootfs, "");
	assert_true(c.audit);
	assert_string_equal(c.audit_socket, "/dev/log");
	assert_int_equal(parse("# a comment\n\n  policy = production  \n\trootfs=data\n"
			       "audit = off\naudit_socket = /run/log.sock",
			       &c, &e),
			 0);
	assert_string_equal(c.policy, "production");
	assert_string_equal(c.rootfs, "data");
	assert_false(c.audit);
	assert_string_equal(c.audit_socket, "/run/log.sock");
	assert_int_equal(parse("policy = /etc/toolcell/policies/x.json\naudit = on\n", &c, &e), 0);
	assert_string_equal(c.policy, "/etc/toolcell/policies/x.json");
	assert_true(c.audit);
}

static void test_refusals(void **state)
{
	EXPECT_BAD(
		"polcy = x\n",
		"t.conf:1: unknown key 'polcy' (expected policy, rootfs, audit or audit_socket)");
	EXPECT_BAD("audit = on\naudit = off\n", "t.conf:2: 'audit' is set twice");
	EXPECT_BAD("policy =\n", "t.conf:1: 'policy' has no value");
	EXPECT_BAD("policy\n", "t.conf:1: expected 'key = value'");
	EXPECT_BAD(" = x\n", "t.conf:1: expected 'key = value'");
	EXPECT_BAD("audit = yes\n", "t.conf:1: audit: expected on or off, got 'yes'");
	EXPECT_BAD("policy = ../x\n",
		   "t.conf:1: policy: expected an absolute path or a policy's name such as "
		   "production, got '../x'");
	EXPECT_BAD("policy = /etc/../x.json\n",
		   "t.conf:1: policy: expected an absolute path or a policy's name such as "
		   "production, got '/etc/../x.json'");
	EXPECT_BAD("rootfs = /var/lib/x\n",
		   "t.conf:1: rootfs: expected a rootfs variant's name ([a-z0-9][a-z0-9_-]*, as "
		   "'toolcell rootfs build --name' makes), got '/var/lib/x'");
	EXPECT_BAD("audit_socket = log\n",
		   "t.conf:1: audit_socket: expected the absolute path of a syslog socket (at "
		   "most 107 bytes), got 'log'");
	EXPECT_BAD("policy = a # note\n",
		   "t.conf:1: '#' in a value (a comment takes a line of its own)");
	EXPECT_BAD("\n\naudit = o\x01n\n", "t.conf:3: a byte that is not printable ASCII or a tab");
	EXPECT_BAD("audit = \xc3\xa9\n", "t.conf:1: a byte that is not printable ASCII or a tab");
	EXPECT_BAD("audit = on\r\n", "t.conf:1: a byte that is not printable ASCII or a tab");
}

static void test_limits(void **state)
{
	struct tc_conf c;
	struct tc_error e = { 0 };
	char *big = malloc(TC_CONF_BYTES_MAX + 2);
	char line[TC_CONF_LINE_MAX + 16];

	assert_non_null(big);
	memset(big, '#', TC_CONF_BYTES_MAX + 1);
	tc_conf_init(&c);
	assert_int_equal(tc_conf_parse(big, TC_CONF_BYTES_MAX + 1, "t.conf", &c, &e), -EFBIG);
	assert_string_equal(e.message, "t.conf: larger than 65536 bytes");
	/* a NUL inside the text is a control byte, not the end */
	assert_int_equal(tc_conf_parse("audit = on\0x\n", 13, "t.conf", &c, &e), -EINVAL);
	free(big);
	memset(line, '#', TC_CONF_LINE_MAX);
	line[TC_CONF_LINE_MAX] = '\0';
	{
		struct tc_conf c2;
		struct tc_error e2;

		assert_int_equal(parse(line, &c2, &e2), 0); /* exactly the limit */
		line[TC_CONF_LINE_MAX] = '#';
		line[TC_CONF_LINE_MAX + 1] = '\0';
		assert_int_equal(parse(line, &c2, &e2), -EINVAL);
		assert_string_equal(e2.message, "t.conf:1: line longer than 1024 bytes");
	}
}

static void test_policy_names(void **state)
{
	assert_true(tc_conf_policy_name("production"));
	assert_true(tc_conf_policy_name("a.json"));
	assert_false(tc_conf_policy_name(""));
	assert_false(tc_conf_policy_name(".."));
	assert_false(tc_conf_policy_name("a/b"));
	assert_false(tc_conf_policy_name("a b"));
}

static void test_load(void **state)
{
	char dir[] = "/tmp/tc-conf.XXXXXX", path[64];
	struct tc_conf c;
	struct tc_error e = { 0 };
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/toolcell.conf", dir);
	/* missing: the defaults */
	assert_int_equal(tc_conf_load(path, &c, &e), 0);
	assert_true(c.audit);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("audit = off\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(tc_conf_load(path, &c, &e), 0);
	assert_false(c.audit);
	/* writable by others: refused, naming the fix */
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(tc_conf_load(path, &c, &e), -EPERM);
	assert_non_null(strstr(e.message, "must be owned by root and writable by no one else"));
	assert_non_null(strstr(e.message, "mode 0664"));
	unlink(path);
	/* not a regular file */
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(tc_conf_load(path, &c, &e), -EINVAL);
	rmdir(path);
	rmdir(dir);
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_defaults_and_every_key),
	     cmocka_unit_test(test_refusals), cmocka_unit_test(test_limits),
	     cmocka_unit_test(test_policy_names), cmocka_unit_test(test_load))
