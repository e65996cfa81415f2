/* toolcell-utils: the few file utilities a workspace policy lets an agent
 * run (cat, ls, printf, env, echo, pwd), in one small static binary picked
 * by the name it is run as. No shell, no pipes, no globbing: each does one
 * plain thing, so the rootfs-workspace variant gains no way to run
 * anything the policy did not list. Built without sanitizers, linked
 * statically; exit 0 on success, 1 on a failure it names on stderr, 2 on
 * bad usage. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static const char *prog = "toolcell-utils";

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s: %s\n", prog, path ? path : what, strerror(errno));
	return 1;
}

static int cat_fd(int fd, const char *name)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail("read", name);
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(1, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return fail("write", "stdout");
			off += w;
		}
	}
	return 0;
}

static int do_cat(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2)
		return cat_fd(0, "stdin");
	for (int i = 1; i < argc; i++) {
		int fd = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY | O_CLOEXEC) : 0;
		if (fd < 0) {
			rc = fail("open", argv[i]);
			continue;
		}
		rc |= cat_fd(fd, argv[i]);
		if (fd > 0)
			close(fd);
	}
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ls [-a] [-l] [PATH...]: names one per line, sorted; -l adds the type,
 * mode and size */
static int ls_one(const char *path, int all, int lng)
{
	struct stat st;
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st) < 0)
		return fail("stat", path);
	if (!S_ISDIR(st.st_mode)) {
		if (lng)
			printf("%c%04o %10lld %s\n", S_ISLNK(st.st_mode) ? 'l' : '-',
			       (unsigned)(st.st_mode & 07777), (long long)st.st_size, path);
		else
			printf("%s\n", path);
		return 0;
	}
	d = opendir(path);
	if (!d)
		return fail("opendir", path);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && !all)
			continue;
		if (n == cap) {
			char **m = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));
			if (!m) {
				closedir(d);
				return fail("ls", path);
			}
			names = m;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			closedir(d);
			return fail("ls", path);
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if (lng) {
			char full[PATH_MAX];
			struct stat e;
			snprintf(full, sizeof(full), "%s/%s", path, names[i]);
			if (lstat(full, &e) == 0)
				printf("%c%04o %10lld %s\n",
				       S_ISDIR(e.st_mode)   ? 'd'
				       : S_ISLNK(e.st_mode) ? 'l'
				       : S_ISREG(e.st_mode) ? '-'
							    : '?',
				       (unsigned)(e.st_mode & 07777), (long long)e.st_size,
				       names[i]);
		} else {
			printf("%s\n", names[i]);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

static int do_ls(int argc, char **argv)
{
	int all = 0, lng = 0, rc = 0, i = 1, paths = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
		for (const char *f = argv[i] + 1; *f; f++) {
			if (*f == 'a')
				all = 1;
			else if (*f == 'l')
				lng = 1;
			else {
				fprintf(stderr, "%s: unknown option -%c (known: -a, -l)\n", prog,
					*f);
				return 2;
			}
		}
	for (int j = i; j < argc; j++, paths++)
		rc |= ls_one(argv[j], all, lng);
	if (!paths)
		rc = ls_one(".", all, lng);
	return rc;
}

/* printf FORMAT [ARG...]: %s %d %% and the escapes \n \t \\ ; the format
 * is reused while arguments remain, as POSIX printf does */
static int do_printf(int argc, char **argv)
{
	int a = 2;

	if (argc < 2) {
		fprintf(stderr, "%s: usage: printf FORMAT [ARG...]\n", prog);
		return 2;
	}
	do {
		int before = a;

		for (const char *p = argv[1]; *p; p++) {
			if (*p == '\\' && p[1]) {
				p++;
				putchar(*p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
			} else if (*p == '%' && p[1] == '%') {
				putchar('%');
				p++;
			} else if (*p == '%' && (p[1] == 's' || p[1] == 'd')) {
				const char *v = a < argc ? argv[a++] : "";
				if (p[1] == 'd')
					printf("%lld", strtoll(v, NULL, 10));
				else
					fputs(v, stdout);
				p++;
			} else {
				putchar(*p);
			}
		}
		if (a == before)
			break; /* a format that takes no argument is printed once */
	} while (a < argc);
	return 0;
}

static int do_env(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "%s: env prints the environment and takes no arguments\n", prog);
		return 2;
	}
	for (char **e = environ; e && *e; e++)
		printf("%s\n", *e);
	return 0;
}

static int do_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", i > 1 ? " " : "", argv[i]);
	putchar('\n');
	return 0;
}

static int do_pwd(int argc, char **argv)
{
	char buf[PATH_MAX];

	(void)argc;
	(void)argv;
	if (!getcwd(buf, sizeof(buf)))
		return fail("getcwd", NULL);
	printf("%s\n", buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} utils[] = {
		{ "cat", do_cat }, { "ls", do_ls },	{ "printf", do_printf },
		{ "env", do_env }, { "echo", do_echo }, { "pwd", do_pwd },
	};
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int rc;

	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	for (size_t i = 0; i < sizeof(utils) / sizeof(utils[0]); i++)
		if (!strcmp(base, utils[i].name)) {
			prog = utils[i].name;
			rc = utils[i].fn(argc, argv);
			if (fflush(stdout) != 0)
				return fail("write", "stdout");
			return rc;
		}
	fprintf(stderr,
		"toolcell-utils: run me as cat, ls, printf, env, echo or pwd (a symlink's "
		"name), not as '%s'\n",
		base);
	return 2;
}
