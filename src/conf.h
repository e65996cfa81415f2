/* /etc/toolcell/toolcell.conf: what an administrator sets for every caller
 * of this host: a pinned policy and rootfs (callers cannot choose others)
 * and the audit log line. A strict parser of "key = value" lines with named
 * limits (the file is input, if an administrator's): unknown keys, repeated
 * keys, bad values, control characters and overlong lines are refused with
 * the line's number. Parsing is pure; loading checks who may have written
 * the file. Runs in the parent before anything else. */
#ifndef TOOLCELL_CONF_H
#define TOOLCELL_CONF_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "toolcell/error.h"

#define TC_CONF_NAME		"toolcell.conf"
#define TC_CONF_BYTES_MAX	65536 /* the whole file */
#define TC_CONF_LINE_MAX	1024  /* one line, without its newline */
#define TC_CONF_SOCKET_MAX	108   /* sizeof(sockaddr_un.sun_path) */
#define TC_CONF_POLICY_NAME_MAX 64    /* a policy's bare name: [A-Za-z0-9_.-] */

struct tc_conf {
	char policy[PATH_MAX]; /* pinned: an absolute path or a bare name; "" none */
	char rootfs[64];       /* pinned rootfs variant's name; "" none */
	bool audit;	       /* one syslog line per run (default true) */
	char audit_socket[TC_CONF_SOCKET_MAX]; /* where the line goes (default /dev/log) */
};

/* The defaults: nothing pinned, audit on, to /dev/log. */
void tc_conf_init(struct tc_conf *c);

/* Parse text[0..len) (file names it in messages) into *c, which holds the
 * defaults for what the text does not set. -EINVAL with err naming
 * "file:line: what" on any refusal. Pure. */
int tc_conf_parse(const char *text, size_t len, const char *file, struct tc_conf *c,
		  struct tc_error *err);

/* Read and parse path; a missing file leaves the defaults (0). The file
 * must be a regular file owned by root or the caller and writable by no
 * one else, at most TC_CONF_BYTES_MAX. -errno with err set. */
int tc_conf_load(const char *path, struct tc_conf *c, struct tc_error *err);

/* True when s is a bare policy name (no '/', [A-Za-z0-9_.-], not "." or
 * "..", at most TC_CONF_POLICY_NAME_MAX), which resolves in the policy
 * folders rather than as a path. Pure. */
bool tc_conf_policy_name(const char *s);

#endif
