/* Unit tests for config.c: the limit table and the size, duration and CPU
 * parsers (every valid form and every class of invalid input), and
 * tc_config_release. Pure: strings in, numbers out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc-test.h"
#include "toolcell/config.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define TIB (UINT64_C(1) << 40)

typedef int (*parser_fn)(const char *, uint64_t *);

struct ok_case {
	const char *in;
	uint64_t want;
};

struct bad_case {
	const char *in;
	int want;
};

static void check_ok(parser_fn fn, const char *name, const struct ok_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		int r = fn(c[i].in, &v);
		if (r != 0 || v != c[i].want)
			fail_msg("%s(\"%s\") = %d, %llu; want 0, %llu", name, c[i].in, r,
				 (unsigned long long)v, (unsigned long long)c[i].want);
	}
}

static void check_bad(parser_fn fn, const char *name, const struct bad_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t v = 12345;
		int r = fn(c[i].in, &v);
		if (r != c[i].want)
			fail_msg("%s(\"%s\") = %d; want %d", name, c[i].in ? c[i].in : "(null)", r,
				 c[i].want);
		if (v != 12345)
			fail_msg("%s(\"%s\") wrote its output on failure", name, c[i].in);
	}
}

static void test_size_valid(void **state)
{
	static const struct ok_case c[] = {
		{ "0", 0 },
		{ "1048576", 1048576 },
		{ "007", 7 },
		{ "64K", 64 * KIB },
		{ "64k", 64 * KIB },
		{ "256M", 256 * MIB },
		{ "256m", 256 * MIB },
		{ "1G", GIB },
		{ "2T", 2 * TIB },
		{ "1.5G", GIB + GIB / 2 },
		{ "0.5K", 512 },
		{ "1.3K", 1332 }, /* 1331.2 rounds up to a whole byte */
		{ "0.000000001K", 1 },
		{ "1.0000000000000K", KIB }, /* zeros past 9 digits are fine */
		{ "512KiB", 512 * KIB },
		{ "1MiB", MIB },
		{ "1GiB", GIB },
		{ "1.25GiB", GIB + GIB / 4 },
		{ "18446744073709551615", UINT64_MAX },
		{ "16777215T", 16777215 * TIB },
	};

	check_ok(tc_parse_size, "tc_parse_size", c, sizeof(c) / sizeof(c[0]));
}

static void test_size_invalid(void **state)
{
	static const struct bad_case c[] = {
		{ NULL, -EINVAL },
		{ "", -EINVAL },
		{ "-1", -EINVAL },
		{ "-0", -EINVAL },
		{ "+1", -EINVAL },
		{ " 1", -EINVAL },
		{ "1 ", -EINVAL },
		{ "1 M", -EINVAL },
		{ "1.5", -EINVAL }, /* a fraction needs a unit */
		{ "1.", -EINVAL },
		{ "1.M", -EINVAL },
		{ ".5M", -EINVAL },
		{ "1,5M", -EINVAL },
		{ "1e3", -EINVAL },
		{ "0x10", -EINVAL },
		{ "lots", -EINVAL },
		{ "M", -EINVAL },
		{ "1KB", -EINVAL },
		{ "1Ki", -EINVAL },
		{ "1Kib", -EINVAL },
		{ "1KiBB", -EINVAL },
		{ "1MM", -EINVAL },
		{ "1P", -EINVAL },
		{ "nan", -EINVAL },
		{ "inf", -EINVAL },
		{ "1.1234567891K", -EINVAL }, /* more than 9 significant decimals */
		{ "18446744073709551616", -ERANGE },
		{ "99999999999999999999999", -ERANGE },
		{ "16777216T", -ERANGE },
		{ "17179869184G", -ERANGE },
		{ "18014398509481984K", -ERANGE },
	};

	check_bad(tc_parse_size, "tc_parse_size", c, sizeof(c) / sizeof(c[0]));
}

static void test_seconds_valid(void **state)
{
	static const struct ok_case c[] = {
		{ "0", 0 },
		{ "30", 30000 },
		{ "30s", 30000 },
		{ "0.25", 250 },
		{ "1.5", 1500 },
		{ "0.001", 1 },
		{ "0.0001", 1 }, /* partial milliseconds round up */
		{ "0.0011", 2 },
		{ "0.000000001", 1 },
		{ "86400", 86400000 },
		{ "2.5000000000000", 2500 },
		{ "18446744073709551", 18446744073709551000ull },
	};

	check_ok(tc_parse_seconds_ms, "tc_parse_seconds_ms", c, sizeof(c) / sizeof(c[0]));
}

static void test_seconds_invalid(void **state)
{
	static const struct bad_case c[] = {
		{ NULL, -EINVAL },
		{ "", -EINVAL },
		{ "-1", -EINVAL },
		{ "+1", -EINVAL },
		{ "NaN", -EINVAL },
		{ "nan", -EINVAL },
		{ "inf", -EINVAL },
		{ "infinity", -EINVAL },
		{ "1e3", -EINVAL },
		{ "1,5", -EINVAL },
		{ "30ms", -EINVAL },
		{ "30 s", -EINVAL },
		{ "30ss", -EINVAL },
		{ "1.", -EINVAL },
		{ ".5", -EINVAL },
		{ "0x1", -EINVAL },
		{ "1.0000000001", -EINVAL },
		{ "18446744073709552", -ERANGE },
		{ "99999999999999999999", -ERANGE },
	};

	check_bad(tc_parse_seconds_ms, "tc_parse_seconds_ms", c, sizeof(c) / sizeof(c[0]));
}

static void test_millicpus_valid(void **state)
{
	static const struct ok_case c[] = {
		{ "1", 1000 },	 { "0.5", 500 },      { "2.25", 2250 }, { "0.01", 10 },
		{ "0.0001", 1 }, { "1024", 1024000 }, { "0", 0 },
	};

	check_ok(tc_parse_millicpus, "tc_parse_millicpus", c, sizeof(c) / sizeof(c[0]));
}

static void test_millicpus_invalid(void **state)
{
	static const struct bad_case c[] = {
		{ NULL, -EINVAL },   { "", -EINVAL },	  { "-1", -EINVAL },
		{ "1s", -EINVAL },   { "half", -EINVAL }, { "1,5", -EINVAL },
		{ "0.5.", -EINVAL }, { "1e2", -EINVAL },  { "99999999999999999999", -ERANGE },
	};

	check_bad(tc_parse_millicpus, "tc_parse_millicpus", c, sizeof(c) / sizeof(c[0]));
}

/* The table is the single place names, options and ranges live: every
 * entry filled, names unique, options spelled "--" + name with '-'. */
static void test_limit_table(void **state)
{
	size_t i, j;

	for (i = 0; i < TC_LIMIT__MAX; i++) {
		const struct tc_limit_info *li = &tc_limit_info[i];
		char opt[64];

		assert_non_null(li->name);
		assert_non_null(li->option);
		assert_true(li->min >= 1);
		assert_true(li->min < li->max);
		snprintf(opt, sizeof(opt), "--%s", li->name);
		for (j = 2; opt[j]; j++)
			if (opt[j] == '_')
				opt[j] = '-';
		assert_string_equal(li->option, opt);
		for (j = 0; j < i; j++)
			assert_string_not_equal(li->name, tc_limit_info[j].name);
		if (li->unit == TC_UNIT_BYTES)
			assert_true(li->min >= 4 * KIB);
	}
	assert_string_equal(tc_limit_info[TC_LIMIT_MEMORY].name, "memory");
	assert_int_equal(tc_limit_info[TC_LIMIT_MEMORY].min, 4 * MIB);
	assert_int_equal(tc_limit_info[TC_LIMIT_MEMORY].max, 64 * GIB);
	assert_string_equal(tc_limit_info[TC_LIMIT_WALL].name, "timeout");
	assert_int_equal(tc_limit_info[TC_LIMIT_WALL].unit, TC_UNIT_MS);
	assert_int_equal(tc_limit_info[TC_LIMIT_WALL].max, 86400000);
	assert_string_equal(tc_limit_info[TC_LIMIT_CPUS].option, "--cpus");
	assert_int_equal(tc_limit_info[TC_LIMIT_CPUS].min, 10);
	assert_int_equal(tc_limit_info[TC_LIMIT_CPUS].max, 1024000);
	assert_string_equal(tc_limit_info[TC_LIMIT_CPU_TIME].option, "--cpu-time");
	assert_string_equal(tc_limit_info[TC_LIMIT_STDERR].name, "stderr_size");
	assert_int_equal(tc_limit_info[TC_LIMIT_PIDS].unit, TC_UNIT_COUNT);
	assert_int_equal(tc_limit_info[TC_LIMIT_REQUEST].max, GIB);
}

/* One formatter for every limit value people read: --help, toolcell(1)
 * and the policy's messages. */
static void test_limit_format(void **state)
{
	static const struct {
		enum tc_unit unit;
		uint64_t v;
		bool seconds_suffix;
		const char *want;
	} cases[] = {
		{ TC_UNIT_BYTES, 256 * MIB, true, "256M" },
		{ TC_UNIT_BYTES, 3 * GIB / 2, true, "1536M" },
		{ TC_UNIT_BYTES, TIB, false, "1T" },
		{ TC_UNIT_BYTES, 64 * KIB, false, "64K" },
		{ TC_UNIT_BYTES, 4097, true, "4097" },
		{ TC_UNIT_BYTES, 0, true, "0" },
		{ TC_UNIT_COUNT, 64, true, "64" },
		{ TC_UNIT_MS, 30000, true, "30s" },
		{ TC_UNIT_MS, 30000, false, "30" },
		{ TC_UNIT_MS, 250, true, "0.25s" },
		{ TC_UNIT_MS, 1, false, "0.001" },
		{ TC_UNIT_MILLICPU, 500, true, "0.5" },
		{ TC_UNIT_MILLICPU, 10, false, "0.01" },
		{ TC_UNIT_MILLICPU, 1001, false, "1.001" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tc_limit_format(cases[i].unit, cases[i].v, cases[i].seconds_suffix, buf,
				sizeof(buf));
		assert_string_equal(buf, cases[i].want);
	}
	tc_limit_range(TC_LIMIT_MEMORY, buf, sizeof(buf));
	assert_string_equal(buf, "4M..64G");
	tc_limit_range(TC_LIMIT_WALL, buf, sizeof(buf));
	assert_string_equal(buf, "0.001..86400 seconds");
	tc_limit_range(TC_LIMIT_CPUS, buf, sizeof(buf));
	assert_string_equal(buf, "0.01..1024 CPUs");
	tc_limit_range(TC_LIMIT_PIDS, buf, sizeof(buf));
	assert_string_equal(buf, "1..65536");
}

/* The built-in defaults live in the table, inside each limit's range. */
static void test_limit_defaults(void **state)
{
	(void)state;
	for (int i = 0; i < TC_LIMIT__MAX; i++) {
		assert_true(tc_limit_info[i].def >= tc_limit_info[i].min);
		assert_true(tc_limit_info[i].def <= tc_limit_info[i].max);
		assert_non_null(tc_unit_info[tc_limit_info[i].unit].parse);
		assert_non_null(tc_unit_info[tc_limit_info[i].unit].metavar);
	}
	assert_int_equal(tc_limit_info[TC_LIMIT_MEMORY].def, 256 * MIB);
	assert_int_equal(tc_limit_info[TC_LIMIT_WALL].def, 30000);
	assert_int_equal(tc_limit_info[TC_LIMIT_STDERR].def, 64 * KIB);
}

static void test_count(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(tc_parse_count("64", &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(tc_parse_count("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(tc_parse_count("18446744073709551616", &v), -ERANGE);
	assert_int_equal(tc_parse_count("", &v), -EINVAL);
	assert_int_equal(tc_parse_count("-1", &v), -EINVAL);
	assert_int_equal(tc_parse_count("1.0", &v), -EINVAL);
	assert_int_equal(tc_parse_count(" 1", &v), -EINVAL);
	assert_int_equal(tc_parse_count(NULL, &v), -EINVAL);
}

static void test_config_release(void **state)
{
	struct tc_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	tc_config_release(&cfg); /* zeroed is fine */
	tc_config_release(NULL);

	cfg.binds[0].host = strdup("/a");
	cfg.binds[0].inside = strdup("/b");
	cfg.n_binds = 1;
	cfg.env[0] = strdup("A=1");
	cfg.env[1] = strdup("B=2");
	cfg.n_env = 2;
	cfg.workspace = strdup("/w");
	cfg.workspace_inside = strdup("/workspace");
	cfg.rootfs = strdup("/r");
	cfg.hostname = strdup("toolcell");
	cfg.uid_base = 5;
	tc_config_release(&cfg); /* ASan reports anything left */
	assert_null(cfg.env[0]);
	assert_null(cfg.hostname);
	assert_int_equal(cfg.n_binds, 0);
	assert_int_equal(cfg.uid_base, 0);
	tc_config_release(&cfg); /* and twice */
}

TC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_size_valid), cmocka_unit_test(test_size_invalid),
	     cmocka_unit_test(test_seconds_valid), cmocka_unit_test(test_seconds_invalid),
	     cmocka_unit_test(test_millicpus_valid), cmocka_unit_test(test_millicpus_invalid),
	     cmocka_unit_test(test_limit_table), cmocka_unit_test(test_config_release),
	     cmocka_unit_test(test_limit_format), cmocka_unit_test(test_limit_defaults),
	     cmocka_unit_test(test_count))
