/* The table of resource limits (names, options, units, accepted ranges,
 * built-in defaults), how their values are written for people, and the
 * pure parsers that the policy and the command line share for
 * sizes, durations and CPU counts; also frees a struct tc_config. Numbers
 * are parsed digit by digit in exact integer arithmetic, never with strtod,
 * so no locale can make "1,5" mean 1.5 and no binary fraction can turn
 * "0.1" into 0.1000000000000000055. Runs in the parent before clone. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "toolcell/config.h"
#include "bind.h"
#include "util.h"

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define TIB (UINT64_C(1) << 40)

/* The ranges are sanity bounds, not advice: a policy chooses its own
 * defaults and ceilings inside them (policies/README.md lists them). The
 * last column is the built-in default, what a policy that omits the limit
 * gets (the shipped default.json writes the same values; test_cli checks). */
const struct tc_limit_info tc_limit_info[TC_LIMIT__MAX] = {
	[TC_LIMIT_MEMORY] = { "memory", "--memory", TC_UNIT_BYTES, 4 * MIB, 64 * GIB, 256 * MIB },
	[TC_LIMIT_CPUS] = { "cpus", "--cpus", TC_UNIT_MILLICPU, 10, 1024000, 1000 },
	[TC_LIMIT_PIDS] = { "pids", "--pids", TC_UNIT_COUNT, 1, 65536, 64 },
	[TC_LIMIT_WALL] = { "timeout", "--timeout", TC_UNIT_MS, 1, 24 * 3600 * 1000, 30 * 1000 },
	[TC_LIMIT_CPU_TIME] = { "cpu_time", "--cpu-time", TC_UNIT_MS, 1, 24 * 3600 * 1000,
				30 * 1000 },
	[TC_LIMIT_TMP] = { "tmp_size", "--tmp-size", TC_UNIT_BYTES, 4 * KIB, 64 * GIB, 64 * MIB },
	[TC_LIMIT_TMP_INODES] = { "tmp_inodes", "--tmp-inodes", TC_UNIT_COUNT, 16, 1 << 20, 4096 },
	[TC_LIMIT_SHM] = { "shm_size", "--shm-size", TC_UNIT_BYTES, 4 * KIB, 64 * GIB, 16 * MIB },
	[TC_LIMIT_FILE_SIZE] = { "file_size", "--file-size", TC_UNIT_BYTES, 4 * KIB, TIB,
				 64 * MIB },
	[TC_LIMIT_OPEN_FILES] = { "open_files", "--open-files", TC_UNIT_COUNT, 16, 65536, 256 },
	[TC_LIMIT_REQUEST] = { "request_size", "--request-size", TC_UNIT_BYTES, 4 * KIB, GIB, MIB },
	[TC_LIMIT_STDOUT] = { "stdout_size", "--stdout-size", TC_UNIT_BYTES, 4 * KIB, GIB, MIB },
	[TC_LIMIT_STDERR] = { "stderr_size", "--stderr-size", TC_UNIT_BYTES, 4 * KIB, GIB,
			      64 * KIB },
	[TC_LIMIT_WORKSPACE] = { "workspace_size", "--workspace-size", TC_UNIT_BYTES, 4 * KIB,
				 64 * GIB, 64 * MIB },
	[TC_LIMIT_WORKSPACE_FILES] = { "workspace_files", "--workspace-files", TC_UNIT_COUNT, 16,
				       1 << 20, 4096 },
};

const struct tc_unit_info tc_unit_info[] = {
	[TC_UNIT_BYTES] = { "SIZE", "a size such as 256M", "a size such as \"256M\"", "",
			    tc_parse_size },
	[TC_UNIT_COUNT] = { "N", "a whole number such as 64", "a whole number", "",
			    tc_parse_count },
	[TC_UNIT_MS] = { "SECONDS", "seconds such as 30 or 0.5",
			 "a number of seconds such as 30 or 0.25", " seconds",
			 tc_parse_seconds_ms },
	[TC_UNIT_MILLICPU] = { "CPUS", "a number of CPUs such as 1 or 0.5",
			       "a number of CPUs such as 1 or 0.5", " CPUs", tc_parse_millicpus },
};

void tc_limit_format(enum tc_unit unit, uint64_t v, bool seconds_suffix, char *buf, size_t n)
{
	static const char units[] = "TGMK";
	unsigned frac;
	char f[4];
	size_t i;

	switch (unit) {
	case TC_UNIT_BYTES:
		for (i = 0; i < 4; i++) {
			uint64_t m = UINT64_C(1) << (40 - 10 * i);

			if (v && v % m == 0) {
				snprintf(buf, n, "%" PRIu64 "%c", v / m, units[i]);
				return;
			}
		}
		snprintf(buf, n, "%" PRIu64, v);
		return;
	case TC_UNIT_COUNT:
		snprintf(buf, n, "%" PRIu64, v);
		return;
	case TC_UNIT_MS:
	case TC_UNIT_MILLICPU:
		/* thousandths as a decimal, no trailing zeros: 1500 -> "1.5" */
		frac = (unsigned)(v % 1000);
		snprintf(f, sizeof(f), "%03u", frac);
		for (i = 3; i > 0 && f[i - 1] == '0'; i--)
			f[i - 1] = '\0';
		snprintf(buf, n, "%" PRIu64 "%s%s%s", v / 1000, frac ? "." : "", f,
			 unit == TC_UNIT_MS && seconds_suffix ? "s" : "");
		return;
	}
}

void tc_limit_range(enum tc_limit_id id, char *buf, size_t n)
{
	const struct tc_limit_info *li = &tc_limit_info[id];
	char lo[32], hi[32];

	tc_limit_format(li->unit, li->min, false, lo, sizeof(lo));
	tc_limit_format(li->unit, li->max, false, hi, sizeof(hi));
	snprintf(buf, n, "%s..%s%s", lo, hi, tc_unit_info[li->unit].range_unit);
}

void tc_config_release(struct tc_config *cfg)
{
	if (!cfg)
		return;
	tc_binds_free(cfg->binds, cfg->n_binds);
	tc_free_each(cfg->env, cfg->n_env, TC_MAX_ENV);
	free(cfg->workspace);
	free(cfg->workspace_inside);
	free(cfg->rootfs);
	free(cfg->hostname);
	free(cfg->cgroup_parent);
	tc_free_each(cfg->programs, cfg->n_programs, TC_MAX_PROGRAMS);
	memset(cfg, 0, sizeof(*cfg));
}

/* Digits after the point we keep exactly: 10^9 fits the arithmetic below
 * with room to spare (frac * (mult % den) < 10^18). */
#define DECIMAL_DEN_MAX UINT64_C(1000000000)

/* A non-negative decimal number "W" or "W.F", held exactly as
 * whole + frac / den. */
struct decimal {
	uint64_t whole;
	uint64_t frac;
	uint64_t den;  /* 10^(digits of F), 1 when there is no point */
	bool overflow; /* W does not fit in 64 bits */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse [0-9]+(\.[0-9]+)? at *s (NULL: -EINVAL) and advance *s past it.
 * No sign, no exponent, no spaces; more than 9 significant fraction digits
 * is -EINVAL (trailing zeros beyond them are fine). */
static int decimal_parse(const char **s, struct decimal *ret)
{
	const char *p = *s;

	memset(ret, 0, sizeof(*ret));
	ret->den = 1;
	if (!p || !is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++)
		if (__builtin_mul_overflow(ret->whole, 10, &ret->whole) ||
		    __builtin_add_overflow(ret->whole, (uint64_t)(*p - '0'), &ret->whole))
			ret->overflow = true;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return -EINVAL;
		for (; is_digit(*p); p++) {
			if (ret->den == DECIMAL_DEN_MAX) {
				if (*p != '0')
					return -EINVAL;
				continue;
			}
			ret->frac = ret->frac * 10 + (uint64_t)(*p - '0');
			ret->den *= 10;
		}
	}
	*s = p;
	return 0;
}

/* ceil(d * mult), exactly: whole * mult + ceil(frac * mult / den), where
 * frac * mult / den = frac * (mult / den) + frac * (mult % den) / den and
 * neither product can overflow (frac < den <= 10^9). */
static int decimal_scale(const struct decimal *d, uint64_t mult, uint64_t *ret)
{
	uint64_t whole, part;

	if (d->overflow || __builtin_mul_overflow(d->whole, mult, &whole))
		return -ERANGE;
	part = d->frac * (mult / d->den) + (d->frac * (mult % d->den) + d->den - 1) / d->den;
	if (__builtin_add_overflow(whole, part, ret))
		return -ERANGE;
	return 0;
}

int tc_parse_size(const char *s, uint64_t *ret_bytes)
{
	static const char units[] = "KkMmGgTt"; /* 1024^1, 1024^2, ... each way */
	const char *unit;
	struct decimal d;
	uint64_t mult = 1;
	int r = decimal_parse(&s, &d);

	if (r < 0)
		return r;
	unit = *s ? strchr(units, *s) : NULL;
	if (unit) {
		mult = UINT64_C(1) << (10 * ((unit - units) / 2 + 1));
		s += s[1] == 'i' && s[2] == 'B' ? 3 : 1;
	}
	/* A fraction needs a unit: "1.5" bytes means nothing. */
	if (*s || (mult == 1 && d.den > 1))
		return -EINVAL;
	return decimal_scale(&d, mult, ret_bytes);
}

/* a decimal number, optionally followed by suffix, times scale */
static int parse_scaled(const char *s, char suffix, uint64_t scale, uint64_t *ret)
{
	struct decimal d;
	int r = decimal_parse(&s, &d);

	if (r < 0)
		return r;
	if (suffix && *s == suffix)
		s++;
	return *s ? -EINVAL : decimal_scale(&d, scale, ret);
}

int tc_parse_seconds_ms(const char *s, uint64_t *ret_ms)
{
	/* "30s" reads as toolcell prints durations */
	return parse_scaled(s, 's', 1000, ret_ms);
}

int tc_parse_millicpus(const char *s, uint64_t *ret)
{
	return parse_scaled(s, 0, 1000, ret);
}

int tc_parse_count(const char *s, uint64_t *ret)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!is_digit(*s))
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*ret = v;
	return 0;
}
