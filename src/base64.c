/* Base64 (see base64.h): the one encoder and decoder of toolcell's byte
 * strings in JSON. Pure; runs in the parent. */
#include <errno.h>
#include <stdlib.h>

#include "base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *tc_base64_encode(const void *in, size_t len)
{
	const unsigned char *p = in;
	char *out = malloc(len / 3 * 4 + 5);
	size_t j = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < len ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < len ? p[i + 2] : 0);
		out[j++] = alphabet[v >> 18 & 63];
		out[j++] = alphabet[v >> 12 & 63];
		out[j++] = i + 1 < len ? alphabet[v >> 6 & 63] : '=';
		out[j++] = i + 2 < len ? alphabet[v & 63] : '=';
	}
	out[j] = '\0';
	return out;
}

/* The value of one character, or -1 */
static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int tc_base64_decode(const char *s, size_t len, char **ret, size_t *ret_len)
{
	unsigned char *out;
	size_t j = 0;

	*ret = NULL;
	*ret_len = 0;
	if (len % 4)
		return -EINVAL;
	out = malloc(len / 4 * 3 + 1);
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < len; i += 4) {
		/* padding only in the last group: "x===" is never valid */
		size_t pad =
			i + 4 == len ? (s[i + 3] == '=') + (s[i + 3] == '=' && s[i + 2] == '=') : 0;
		int v[4];
		unsigned n;

		for (size_t k = 0; k < 4; k++)
			v[k] = k >= 4 - pad ? 0 : value(s[i + k]);
		if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
			free(out);
			return -EINVAL;
		}
		n = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 |
		    (unsigned)v[3];
		/* the bits a padded group drops must be zero (canonical form) */
		if ((pad == 1 && (n & 0xff)) || (pad == 2 && (n & 0xffff))) {
			free(out);
			return -EINVAL;
		}
		out[j++] = (unsigned char)(n >> 16);
		if (pad < 2)
			out[j++] = (unsigned char)(n >> 8 & 0xff);
		if (pad < 1)
			out[j++] = (unsigned char)(n & 0xff);
	}
	out[j] = '\0';
	*ret = (char *)out;
	*ret_len = j;
	return 0;
}
