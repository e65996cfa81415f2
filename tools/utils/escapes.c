/* toolcell-utils' echo and printf: the backslash escapes of echo -e,
 * printf's format and its %b, and printf's conversions, as Debian's
 * coreutils print them in the C.UTF-8 locale. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"

/* ---- escapes (echo -e, printf's format and %b) ---- */

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* One escape at *p (just past the backslash): put its byte(s), advance *p.
 * octal0: %b's \0NNN only (else \NNN, and \0NNN as four digits for echo,
 * octal0 2). 1 for \c (stop). */
static int put_escape(const char **p, int octal0, int unicode)
{
	const char *s = *p;
	int c = *s++, v = 0, k;

	switch (c) {
	case 'a':
		putchar('\a');
		break;
	case 'b':
		putchar('\b');
		break;
	case 'c':
		*p = s;
		return 1;
	case 'e':
		putchar(0x1b);
		break;
	case 'f':
		putchar('\f');
		break;
	case 'n':
		putchar('\n');
		break;
	case 'r':
		putchar('\r');
		break;
	case 't':
		putchar('\t');
		break;
	case 'v':
		putchar('\v');
		break;
	case '\\':
		putchar('\\');
		break;
	case 'x':
		if (!isxdigit((unsigned char)*s)) {
			putchar('\\');
			putchar('x');
			break;
		}
		for (k = 0; k < 2 && isxdigit((unsigned char)*s); k++)
			v = v * 16 + hexval(*s++);
		putchar(v);
		break;
	case 'u':
	case 'U':
		if (!unicode) {
			putchar('\\');
			putchar(c);
			break;
		}
		for (k = 0; k < (c == 'u' ? 4 : 8) && isxdigit((unsigned char)*s); k++)
			v = v * 16 + hexval(*s++);
		if (v < 0x80) {
			putchar(v);
		} else if (v < 0x800) {
			putchar(0xc0 | (v >> 6));
			putchar(0x80 | (v & 0x3f));
		} else if (v < 0x10000) {
			putchar(0xe0 | (v >> 12));
			putchar(0x80 | ((v >> 6) & 0x3f));
			putchar(0x80 | (v & 0x3f));
		} else {
			putchar(0xf0 | (v >> 18));
			putchar(0x80 | ((v >> 12) & 0x3f));
			putchar(0x80 | ((v >> 6) & 0x3f));
			putchar(0x80 | (v & 0x3f));
		}
		break;
	default:
		if (c >= '0' && c <= '7' && (octal0 != 1 || c == '0')) {
			if (octal0 == 0 || c != '0')
				s--; /* \NNN: the first digit counts */
			for (k = 0; k < 3 && *s >= '0' && *s <= '7'; k++)
				v = v * 8 + (*s++ - '0');
			putchar(v & 0xff);
			break;
		}
		if (!octal0 && c == '"') {
			putchar('"');
			break;
		}
		putchar('\\');
		if (c)
			putchar(c);
		else
			s--;
	}
	*p = s;
	return 0;
}

/* ---- echo [-neE] [STRING...] ---- */

int do_echo(int argc, char **argv)
{
	int newline = 1, escapes = 0, i = 1;

	/* an argument is options only when it is all n, e and E */
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strspn(argv[i] + 1, "neE") != strlen(argv[i] + 1))
			break;
		for (const char *f = argv[i] + 1; *f; f++)
			if (*f == 'n')
				newline = 0;
			else
				escapes = *f == 'e';
	}
	for (int first = i; i < argc; i++) {
		if (i > first)
			putchar(' ');
		for (const char *p = argv[i]; *p;) {
			if (escapes && *p == '\\' && p[1]) {
				p++;
				if (put_escape(&p, 2, 0))
					return 0; /* \c: nothing more, no newline */
			} else {
				putchar(*p++);
			}
		}
	}
	if (newline)
		putchar('\n');
	return 0;
}

/* ---- printf FORMAT [ARGUMENT...] ---- */

/* A numeric argument as coreutils reads it: 'c or "c is the character's
 * code; else strtoimax/strtoumax/strtold, with errors reported. */
static int num_arg(const char *a, int conv, intmax_t *i, uintmax_t *u, long double *f)
{
	char *end = NULL;

	errno = 0;
	if (*a == '\'' || *a == '"') {
		*i = (unsigned char)a[1];
		*u = (uintmax_t)*i;
		*f = (long double)*i;
		return 0;
	}
	if (strchr("eEfFgGaA", conv))
		*f = strtold(a, &end);
	else if (conv == 'd' || conv == 'i')
		*i = strtoimax(a, &end, 0);
	else
		*u = strtoumax(a, &end, 0);
	if (end == a) {
		fprintf(stderr, "%s: \u2018%s\u2019: expected a numeric value\n", prog, a);
		status = 1;
	} else if (*end) {
		fprintf(stderr, "%s: \u2018%s\u2019: value not completely converted\n", prog, a);
		status = 1;
	} else if (errno == ERANGE) {
		fprintf(stderr, "%s: \u2018%s\u2019: %s\n", prog, a, strerror(ERANGE));
		status = 1;
	}
	return 0;
}

/* One conversion: spec is "%[flags][width][.prec]" with '*' already
 * replaced; conv the letter. Returns 1 when %b met \c. */
static int convert(char *spec, size_t len, int conv, const char *arg)
{
	intmax_t i = 0;
	uintmax_t u = 0;
	long double f = 0;

	switch (conv) {
	case 'd':
	case 'i':
		num_arg(arg, conv, &i, &u, &f);
		memcpy(spec + len, "jd", 3);
		printf(spec, i);
		return 0;
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		num_arg(arg, conv, &i, &u, &f);
		spec[len] = 'j';
		spec[len + 1] = (char)conv;
		spec[len + 2] = '\0';
		printf(spec, u);
		return 0;
	case 'c':
		spec[len] = 'c';
		spec[len + 1] = '\0';
		printf(spec, *arg);
		return 0;
	case 's':
		spec[len] = 's';
		spec[len + 1] = '\0';
		printf(spec, arg);
		return 0;
	case 'b': {
		/* escapes in the argument, then printed as %s */
		char *buf = NULL;
		size_t n = 0;
		int stop = 0;
		FILE *m = open_memstream(&buf, &n);
		FILE *saved = stdout;
		if (!m)
			return 0;
		stdout = m;
		for (const char *p = arg; *p && !stop;) {
			if (*p == '\\' && p[1]) {
				p++;
				stop = put_escape(&p, 1, 1);
			} else {
				putchar(*p++);
			}
		}
		fclose(m);
		stdout = saved;
		spec[len] = 's';
		spec[len + 1] = '\0';
		printf(spec, buf ? buf : "");
		free(buf);
		return stop;
	}
	default: /* eEfFgGaA */
		num_arg(arg, conv, &i, &u, &f);
		spec[len] = 'L';
		spec[len + 1] = (char)conv;
		spec[len + 2] = '\0';
		printf(spec, f);
		return 0;
	}
}

int do_printf(int argc, char **argv)
{
	int a = 2;

	if (argc < 2) {
		fprintf(stderr, "%s: missing operand\nTry '%s --help' for more information.\n",
			prog, prog);
		return 1;
	}
	do {
		int before = a;
		for (const char *p = argv[1]; *p;) {
			char spec[64];
			size_t len = 1;
			if (*p == '\\' && p[1]) {
				p++;
				if (put_escape(&p, 0, 1))
					return status;
				continue;
			}
			if (*p != '%') {
				putchar(*p++);
				continue;
			}
			if (p[1] == '%') {
				putchar('%');
				p += 2;
				continue;
			}
			spec[0] = '%';
			p++;
			while (*p && strchr("-+ #0'", *p) && len < 8)
				spec[len++] = *p++;
			for (int part = 0; part < 2; part++) {
				if (part == 1) {
					if (*p != '.')
						break;
					spec[len++] = *p++;
				}
				if (*p == '*') {
					const char *v = a < argc ? argv[a++] : "0";
					intmax_t n = 0;
					uintmax_t un;
					long double fl;
					p++;
					num_arg(v, 'd', &n, &un, &fl);
					len += (size_t)snprintf(spec + len, sizeof(spec) - len - 4,
								"%d", (int)n);
				} else {
					while (isdigit((unsigned char)*p) && len < 40)
						spec[len++] = *p++;
				}
			}
			spec[len] = '\0';
			if (!*p || !strchr("diouxXeEfFgGaAcsb", *p)) {
				fprintf(stderr, "%s: %.*s%s: invalid conversion specification\n",
					prog, (int)len, spec, *p ? (char[]){ *p, 0 } : "");
				return 1;
			}
			/* a missing argument: "" for strings, 0 for numbers */
			if (convert(spec, len, *p,
				    a < argc		? argv[a++]
				    : strchr("csb", *p) ? ""
							: "0"))
				return status;
			p++;
		}
		if (a == before) {
			if (a < argc)
				fprintf(stderr,
					"%s: warning: ignoring excess arguments, starting with "
					"\u2018%s\u2019\n",
					prog, argv[a]);
			break; /* a format that takes no argument is printed once */
		}
	} while (a < argc);
	return status;
}
