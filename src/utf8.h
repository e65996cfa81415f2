/* UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, nothing
 * past U+10FFFF): the one validator, cutter and sanitizer toolcell uses
 * for every string that came from outside. Pure; runs in the parent. */
#ifndef TOOLCELL_UTF8_H
#define TOOLCELL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* true when buf[0..len) is valid UTF-8. */
bool tc_utf8_valid(const char *buf, size_t len);

/* The offset of the first byte of buf[0..len) that does not begin a valid
 * character: len when all of it is valid. */
size_t tc_utf8_check(const char *buf, size_t len);

/* The length of s[0..len) cut to at most max bytes without ending inside
 * a character: a cut through a character drops the whole character (as a
 * fixed-size buffer's cut does). Bytes that are not UTF-8 are left to
 * tc_utf8_sanitize. */
size_t tc_utf8_cut(const char *s, size_t len, size_t max);

/* A heap copy of s[0..len) in which every byte that does not begin a valid
 * character becomes U+FFFD; NULL on allocation failure. */
char *tc_utf8_sanitize(const char *s, size_t len);

/* Write code point cp (at most U+10FFFF) as UTF-8 at out; returns its
 * length, 1 to 4. */
size_t tc_utf8_put(char *out, uint32_t cp);

#endif
