/* toolcell-utils: the few file utilities a workspace policy lets an agent
 * run (cat, ls, printf, env, echo, pwd), in one small static binary picked
 * by the name it is run as. They print what Debian's coreutils print for
 * the flags an LLM writes (ls -1 -a -A -l, cat -n, echo -n -e -E, env -i
 * -u NAME=VALUE, printf as POSIX, pwd -L -P), byte for byte on the same
 * input in the sandbox's C.UTF-8 locale (tests/integration/workspace.bats
 * compares them; messages quote with U+2018/U+2019 as coreutils does there).
 * No shell, no pipes, no globbing, and env runs no program: each does one
 * plain thing, so the rootfs-workspace variant gains no way to run
 * anything the policy did not list. Built without sanitizers, linked
 * statically (so owner and group names come from /etc/passwd and
 * /etc/group read here, not NSS). Exit statuses as coreutils'. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "utils.h"

extern char **environ;

const char *prog = "toolcell-utils";
int status; /* a failure that does not stop the run (printf) */

static int bad_option(char c, int code)
{
	fprintf(stderr, "%s: invalid option -- '%c'\nTry '%s --help' for more information.\n", prog,
		c, prog);
	return code;
}

/* ---- cat [-n] [FILE...] ---- */

static int cat_fd(int fd, const char *name, int number, long *line, int *at_start)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(errno));
			return 1;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (number && *at_start)
				printf("%6ld\t", ++*line);
			putchar(buf[i]);
			*at_start = buf[i] == '\n';
		}
	}
	return 0;
}

static int do_cat(int argc, char **argv)
{
	int number = 0, rc = 0, i = 1, at_start = 1, files = 0;
	long line = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		for (const char *f = argv[i] + 1; *f; f++)
			if (*f == 'n')
				number = 1;
			else
				return bad_option(*f, 1);
	}
	for (; i < argc || !files; i++, files++) {
		const char *name = i < argc ? argv[i] : "-";
		int fd = strcmp(name, "-") ? open(name, O_RDONLY | O_CLOEXEC) : 0;
		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(errno));
			rc = 1;
			continue;
		}
		rc |= cat_fd(fd, name, number, &line, &at_start);
		if (fd > 0)
			close(fd);
		if (i >= argc)
			break;
	}
	return rc;
}

/* ---- ls [-1aAl] [FILE...] ---- */

struct entry {
	char *name; /* as listed */
	char *path; /* to stat */
	struct stat st;
};

struct ls_opts {
	int all, almost, lng;
	time_t now;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* the name for id in /etc/passwd or /etc/group (field 3), else the number */
static void id_name(const char *db, unsigned long id, char *out, size_t n)
{
	char line[1024];
	FILE *f = fopen(db, "re");

	snprintf(out, n, "%lu", id);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *name = strtok(line, ":"), *pw = strtok(NULL, ":"), *num = strtok(NULL, ":");
		if (name && pw && num && strtoul(num, NULL, 10) == id && *num >= '0' &&
		    *num <= '9') {
			snprintf(out, n, "%s", name);
			break;
		}
	}
	fclose(f);
}

static void mode_string(mode_t m, char *s)
{
	s[0] = S_ISDIR(m)    ? 'd'
	       : S_ISLNK(m)  ? 'l'
	       : S_ISCHR(m)  ? 'c'
	       : S_ISBLK(m)  ? 'b'
	       : S_ISFIFO(m) ? 'p'
	       : S_ISSOCK(m) ? 's'
			     : '-';
	for (int i = 0; i < 3; i++) {
		int r = (m >> (6 - 3 * i)) & 7;
		int special = m & (i == 0 ? S_ISUID : i == 1 ? S_ISGID : S_ISVTX);
		char x = i == 2 ? (special ? 't' : 'x') : (special ? 's' : 'x');
		s[1 + 3 * i] = r & 4 ? 'r' : '-';
		s[2 + 3 * i] = r & 2 ? 'w' : '-';
		s[3 + 3 * i] = r & 1 ? x : (special ? (char)toupper(x) : '-');
	}
	s[10] = '\0';
}

static int digits(uintmax_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The long lines of n entries, columns as wide as their widest value
 * among all n + n_more (coreutils sizes the command line's files by its
 * folders too). */
static void ls_long(struct entry *e, size_t n, size_t n_more, const struct ls_opts *o)
{
	int wl = 0, wu = 0, wg = 0, ws = 0;
	size_t all = n + n_more;
	char(*user)[64] = calloc(all ? all : 1, 64), (*group)[64] = calloc(all ? all : 1, 64);
	char size[48];

	if (!user || !group) {
		free(user);
		free(group);
		return;
	}
	for (size_t i = 0; i < all; i++) {
		const struct stat *st = &e[i].st;
		int w;
		id_name("/etc/passwd", st->st_uid, user[i], 64);
		id_name("/etc/group", st->st_gid, group[i], 64);
		wl = digits(st->st_nlink) > wl ? digits(st->st_nlink) : wl;
		wu = (int)strlen(user[i]) > wu ? (int)strlen(user[i]) : wu;
		wg = (int)strlen(group[i]) > wg ? (int)strlen(group[i]) : wg;
		if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
			w = snprintf(size, sizeof(size), "%u, %u", major(st->st_rdev),
				     minor(st->st_rdev));
		else
			w = digits((uintmax_t)st->st_size);
		ws = w > ws ? w : ws;
	}
	for (size_t i = 0; i < n; i++) {
		const struct stat *st = &e[i].st;
		char mode[11], when[64], target[PATH_MAX];
		time_t t = st->st_mtime, six_months_ago = o->now - 31556952 / 2;
		struct tm tm;
		ssize_t len;

		mode_string(st->st_mode, mode);
		if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
			snprintf(size, sizeof(size), "%u, %u", major(st->st_rdev),
				 minor(st->st_rdev));
		else
			snprintf(size, sizeof(size), "%jd", (intmax_t)st->st_size);
		localtime_r(&t, &tm);
		/* coreutils: the year instead of the time when older than six
		 * months or in the future */
		strftime(when, sizeof(when),
			 six_months_ago < t && t <= o->now ? "%b %e %H:%M" : "%b %e  %Y", &tm);
		printf("%s %*ju %-*s %-*s %*s %s %s", mode, wl, (uintmax_t)st->st_nlink, wu,
		       user[i], wg, group[i], ws, size, when, e[i].name);
		if (S_ISLNK(st->st_mode) &&
		    (len = readlink(e[i].path, target, sizeof(target) - 1)) >= 0) {
			target[len] = '\0';
			printf(" -> %s", target);
		}
		putchar('\n');
	}
	free(user);
	free(group);
}

static void ls_print(struct entry *e, size_t n, size_t n_more, const struct ls_opts *o)
{
	if (o->lng) {
		ls_long(e, n, n_more, o);
		return;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s\n", e[i].name);
}

static void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].path);
	}
	free(e);
}

/* One directory's listing; 2 when it cannot be read, as coreutils. */
static int ls_dir(const char *path, const struct ls_opts *o)
{
	struct entry *e = NULL;
	size_t n = 0, cap = 0;
	uintmax_t blocks = 0;
	struct dirent *de;
	DIR *d = opendir(path);

	if (!d) {
		fprintf(stderr, "%s: cannot open directory '%s': %s\n", prog, path,
			strerror(errno));
		return 2;
	}
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		int dots = !strcmp(nm, ".") || !strcmp(nm, "..");
		if (nm[0] == '.' && !o->all && !(o->almost && !dots))
			continue;
		if (n == cap) {
			struct entry *m = realloc(e, (cap = cap ? 2 * cap : 64) * sizeof(*e));
			if (!m)
				break;
			e = m;
		}
		e[n].name = strdup(nm);
		if (!e[n].name || asprintf(&e[n].path, "%s/%s", path, nm) < 0) {
			free(e[n].name);
			break;
		}
		if (lstat(e[n].path, &e[n].st) < 0)
			memset(&e[n].st, 0, sizeof(e[n].st));
		blocks += (uintmax_t)e[n].st.st_blocks;
		n++;
	}
	closedir(d);
	if (n)
		qsort(e, n, sizeof(*e), by_name);
	if (o->lng)
		printf("total %ju\n", (blocks + 1) / 2); /* 512-byte blocks, in KiB rounded up */
	ls_print(e, n, 0, o);
	entries_free(e, n);
	return 0;
}

static int do_ls(int argc, char **argv)
{
	struct ls_opts o = { .now = time(NULL) };
	struct entry *files = NULL, *dirs = NULL;
	size_t nf = 0, nd = 0, total, k;
	int i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		for (const char *f = argv[i] + 1; *f; f++)
			if (*f == 'a')
				o.all = 1;
			else if (*f == 'A')
				o.almost = 1;
			else if (*f == 'l')
				o.lng = 1;
			else if (*f != '1')
				return bad_option(*f, 2);
	}
	total = i < argc ? (size_t)(argc - i) : 1;
	/* one array: the files from the start, the folders after them */
	files = calloc(2 * total, sizeof(*files));
	if (!files)
		return 2;
	dirs = files + total;
	for (k = 0; k < total; k++) {
		const char *arg = i < argc ? argv[i + (int)k] : ".";
		struct stat st;
		/* -l shows a link named on the command line; else it is followed */
		if ((o.lng ? lstat(arg, &st) : stat(arg, &st)) < 0 &&
		    (o.lng || lstat(arg, &st) < 0)) {
			fprintf(stderr, "%s: cannot access '%s': %s\n", prog, arg, strerror(errno));
			rc = 2;
			continue;
		}
		struct entry *to = S_ISDIR(st.st_mode) ? &dirs[nd++] : &files[nf++];
		to->name = strdup(arg);
		to->path = strdup(arg);
		to->st = st;
	}
	qsort(files, nf, sizeof(*files), by_name);
	qsort(dirs, nd, sizeof(*dirs), by_name);
	memmove(files + nf, dirs, nd * sizeof(*dirs));
	dirs = files + nf;
	ls_print(files, nf, nd, &o);
	for (k = 0; k < nd; k++) {
		if (nf || k)
			putchar('\n');
		if (total > 1)
			printf("%s:\n", dirs[k].name);
		int r = ls_dir(dirs[k].path, &o);
		rc = r > rc ? r : rc;
	}
	entries_free(files, nf + nd);
	return rc;
}

/* ---- env [-0i] [-u NAME] [NAME=VALUE...] ---- */

static int do_env(int argc, char **argv)
{
	int i = 1, nul = 0;

	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-") || !strcmp(a, "-i") || !strcmp(a, "--ignore-environment")) {
			clearenv();
		} else if (!strcmp(a, "-0") || !strcmp(a, "--null")) {
			nul = 1;
		} else if (!strcmp(a, "-u") || !strncmp(a, "--unset=", 8)) {
			const char *name = a[1] == 'u' ? argv[++i] : a + 8;
			if (!name) {
				fprintf(stderr, "%s: option requires an argument -- 'u'\n", prog);
				return 125;
			}
			unsetenv(name);
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] == '-' && a[1]) {
			return bad_option(a[1], 125);
		} else {
			break;
		}
	}
	for (; i < argc && strchr(argv[i], '='); i++)
		if (putenv(argv[i]) != 0) {
			fprintf(stderr, "%s: cannot set '%s': %s\n", prog, argv[i],
				strerror(errno));
			return 125;
		}
	if (i < argc) {
		fprintf(stderr,
			"%s: '%s': running a program is not available here: env only prints "
			"the environment (run the program directly)\n",
			prog, argv[i]);
		return 125;
	}
	for (char **e = environ; e && *e; e++)
		printf("%s%c", *e, nul ? '\0' : '\n');
	return 0;
}

/* ---- pwd [-LP] ---- */

static int do_pwd(int argc, char **argv)
{
	char buf[PATH_MAX];
	const char *pwd = getenv("PWD");
	int logical = 0;
	struct stat a, b;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1]) {
			fprintf(stderr, "%s: ignoring non-option arguments\n", prog);
			break;
		}
		for (const char *f = argv[i] + 1; *f; f++)
			if (*f == 'L' || *f == 'P')
				logical = *f == 'L';
			else
				return bad_option(*f, 1);
	}
	/* -L: $PWD when it is absolute, has no . or .. and is this folder */
	if (logical && pwd && pwd[0] == '/' && !strstr(pwd, "/./") && !strstr(pwd, "/../") &&
	    stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		size_t n = strlen(pwd);
		if (!(n >= 2 &&
		      (!strcmp(pwd + n - 2, "/.") || (n >= 3 && !strcmp(pwd + n - 3, "/.."))))) {
			printf("%s\n", pwd);
			return 0;
		}
	}
	if (!getcwd(buf, sizeof(buf))) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return 1;
	}
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
			if (fflush(stdout) != 0 || ferror(stdout)) {
				fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
				return 1;
			}
			return rc;
		}
	fprintf(stderr,
		"toolcell-utils: run me as cat, ls, printf, env, echo or pwd (a symlink's "
		"name), not as '%s'\n",
		base);
	return 2;
}
