/* Base64 (RFC 4648, the standard alphabet, padded) for byte strings that
 * travel inside JSON: `toolcell serve`'s exec answers (stdout_base64,
 * stderr_base64) and requests (stdin_base64), and its clients. Pure; runs
 * in the parent. */
#ifndef TOOLCELL_BASE64_H
#define TOOLCELL_BASE64_H

#include <stddef.h>

/* A NUL-terminated heap copy of in[0..len) in base64; NULL on allocation
 * failure. */
char *tc_base64_encode(const void *in, size_t len);

/* Decode s[0..len) (padded, no white space, no other alphabet) into a heap
 * buffer of *ret_len bytes, NUL-terminated for convenience. -EINVAL when s
 * is not base64, -ENOMEM. */
int tc_base64_decode(const char *s, size_t len, char **ret, size_t *ret_len);

#endif
