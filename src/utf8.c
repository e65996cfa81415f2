/* UTF-8 (see utf8.h): one validator, one cutter, one sanitizer, and the
 * encoder the JSON scanner decodes escapes with. Pure; runs in the
 * parent. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* Length of the valid UTF-8 character at p[0..len) (len > 0), or 0. */
static size_t utf8_seq_len(const unsigned char *p, size_t len)
{
	unsigned char c = p[0];

	if (c < 0x80)
		return 1;
	if (c < 0xc2) /* a continuation byte, or the lead of an overlong pair */
		return 0;
	if (c < 0xe0)
		return len >= 2 && (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c < 0xf0) {
		if (len < 3 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && p[1] < 0xa0) /* overlong */
			return 0;
		if (c == 0xed && p[1] >= 0xa0) /* U+D800..U+DFFF, surrogates */
			return 0;
		return 3;
	}
	if (c < 0xf5) {
		if (len < 4 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 ||
		    (p[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && p[1] < 0x90) /* overlong */
			return 0;
		if (c == 0xf4 && p[1] >= 0x90) /* above U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

size_t tc_utf8_check(const char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t i = 0;

	while (i < len) {
		size_t n = p[i] < 0x80 ? 1 : utf8_seq_len(p + i, len - i);

		if (n == 0)
			return i;
		i += n;
	}
	return len;
}

bool tc_utf8_valid(const char *buf, size_t len)
{
	return tc_utf8_check(buf, len) == len;
}

size_t tc_utf8_cut(const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = len < max ? len : max, lead = n, want;

	/* the last lead byte among the final three: does its character fit? */
	while (lead > 0 && n - lead < 3 && (p[lead - 1] & 0xc0) == 0x80)
		lead--;
	if (lead == 0 || p[lead - 1] < 0xc2 || p[lead - 1] > 0xf4)
		return n;
	lead--;
	want = p[lead] >= 0xf0 ? 4 : p[lead] >= 0xe0 ? 3 : 2;
	return lead + want > n ? lead : n;
}

char *tc_utf8_sanitize(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0;
	char *out;

	if (tc_utf8_valid(s, len))
		return strndup(s, len);
	out = malloc(3 * len + 1);
	if (!out)
		return NULL;
	while (i < len) {
		size_t n = utf8_seq_len(p + i, len - i);

		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

size_t tc_utf8_put(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}
