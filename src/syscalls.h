/* The syscall table: which x86_64 calls toolcell allows (and with which
 * argument rule), which end the tool, which a policy may never allow and
 * why, which toolcell itself needs under the filter, and the names of
 * numbers. Pure data and lookups, read by the policy parser, the filter
 * compiler (seccomp.c) and the record; nothing here makes a system call. */
#ifndef TOOLCELL_SYSCALLS_H
#define TOOLCELL_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toolcell/config.h"

/* The built-in lists: toolcell's default allow-list and kill set. */
void tc_syscall_policy_default(struct tc_syscall_policy *ret);

/* nr in a bit set of syscall numbers (false out of range). */
bool tc_syscall_in(const uint64_t *set, int nr);

/* Put nr in the bit set (on) or take it out; out of range: nothing. */
void tc_syscall_put(uint64_t *set, int nr, bool on);

/* The native x86_64 number of a syscall's name, or -1 when unknown. */
int tc_syscall_resolve(const char *name);

/* The name of syscall nr into buf ("ptrace"), or "syscall_NNN". */
void tc_syscall_name(int nr, char *buf, size_t size);

/* nr is on the built-in kill list: a policy that allows it gets a warning. */
bool tc_syscall_is_dangerous(int nr);

/* Why a policy may never allow nr ("it joins other namespaces"), or NULL. */
const char *tc_syscall_never(int nr);

/* nr is one toolcell itself makes under the filter (execve, sendmsg, ...):
 * a policy cannot take it off the list. */
bool tc_syscall_is_required(int nr);

/* The argument rule toolcell applies to nr when allowed, or NULL. */
const char *tc_syscall_rule(int nr);

#endif
