/* SHA-256 as FIPS 180-4 defines it (sections 4.1.2, 4.2.2, 5.1.1, 5.3.3
 * and 6.2): message schedule, 64 rounds, Merkle-Damgard padding with the
 * bit length big-endian. Used for provenance hashes in the parent; pure
 * apart from tc_sha256_file's reads. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "util.h"

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* §6.2.2: process one 512-bit block. */
static void sha256_compress(uint32_t h[8], const unsigned char block[64])
{
	uint32_t w[64];
	uint32_t a, b, c, d, e, f, g, hh;
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (t = 16; t < 64; t++) {
		uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}

	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], hh = h[7];
	for (t = 0; t < 64; t++) {
		uint32_t sum1 = rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + sum1 + ch + sha256_k[t] + w[t];
		uint32_t sum0 = rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = sum0 + maj;

		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void tc_sha256_init(struct tc_sha256_ctx *ctx)
{
	/* §5.3.3: the first 32 bits of the fractional parts of the square
	 * roots of the first 8 primes. */
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(ctx->h, iv, sizeof(iv));
	ctx->total = 0;
	ctx->used = 0;
}

void tc_sha256_update(struct tc_sha256_ctx *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;

	ctx->total += len;
	if (ctx->used > 0) {
		size_t take = TC_SHA256_BLOCK_SIZE - ctx->used;

		if (take > len)
			take = len;
		memcpy(ctx->block + ctx->used, p, take);
		ctx->used += take;
		p += take;
		len -= take;
		if (ctx->used < TC_SHA256_BLOCK_SIZE)
			return;
		sha256_compress(ctx->h, ctx->block);
		ctx->used = 0;
	}
	while (len >= TC_SHA256_BLOCK_SIZE) {
		sha256_compress(ctx->h, p);
		p += TC_SHA256_BLOCK_SIZE;
		len -= TC_SHA256_BLOCK_SIZE;
	}
	if (len > 0) {
		memcpy(ctx->block, p, len);
		ctx->used = len;
	}
}

void tc_sha256_final(struct tc_sha256_ctx *ctx, unsigned char out[TC_SHA256_DIGEST_SIZE])
{
	uint64_t bits = ctx->total * 8;
	unsigned i;

	/* §5.1.1: a 1 bit, zeros up to 448 mod 512, then the length as a
	 * 64-bit big-endian number. */
	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > TC_SHA256_BLOCK_SIZE - 8) {
		memset(ctx->block + ctx->used, 0, TC_SHA256_BLOCK_SIZE - ctx->used);
		sha256_compress(ctx->h, ctx->block);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0, TC_SHA256_BLOCK_SIZE - 8 - ctx->used);
	store_be32(ctx->block + 56, (uint32_t)(bits >> 32));
	store_be32(ctx->block + 60, (uint32_t)bits);
	sha256_compress(ctx->h, ctx->block);

	for (i = 0; i < 8; i++)
		store_be32(out + 4 * i, ctx->h[i]);
	memset(ctx, 0, sizeof(*ctx));
}

void tc_sha256(const void *data, size_t len, unsigned char out[TC_SHA256_DIGEST_SIZE])
{
	struct tc_sha256_ctx ctx;

	tc_sha256_init(&ctx);
	tc_sha256_update(&ctx, data, len);
	tc_sha256_final(&ctx, out);
}

int tc_sha256_file(int fd, uint64_t max_bytes, unsigned char out[TC_SHA256_DIGEST_SIZE])
{
	struct tc_sha256_ctx ctx;
	unsigned char buf[16384];
	uint64_t total = 0;

	tc_sha256_init(&ctx);
	for (;;) {
		ssize_t n = tc_read_full(fd, buf, sizeof(buf));

		if (n < 0)
			return (int)n;
		total += (uint64_t)n;
		if (total > max_bytes)
			return -EFBIG;
		tc_sha256_update(&ctx, buf, (size_t)n);
		if ((size_t)n < sizeof(buf)) /* end of file */
			break;
	}
	tc_sha256_final(&ctx, out);
	return 0;
}

void tc_hex_sha256(const unsigned char digest[TC_SHA256_DIGEST_SIZE], char out[65])
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < TC_SHA256_DIGEST_SIZE; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 0xf];
	}
	out[64] = '\0';
}
