/* What the utilities of toolcell-utils share across its files
 * (toolcell-utils.c: main, cat, ls, env, pwd; escapes.c: echo, printf). */
#ifndef TOOLCELL_UTILS_H
#define TOOLCELL_UTILS_H

extern const char *prog; /* the name run as, for messages */
extern int status;	 /* a failure that does not stop the run (printf) */

int do_echo(int argc, char **argv);
int do_printf(int argc, char **argv);

#endif
