/* SHA-256 (FIPS 180-4) for provenance: the digest of the policy file, the
 * tool file and the rootfs manifest that a run used. Our own small
 * implementation, no OpenSSL. Pure except tc_sha256_file, which reads a
 * file descriptor. Runs in the parent. */
#ifndef TOOLCELL_SHA256_H
#define TOOLCELL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TC_SHA256_DIGEST_SIZE 32
#define TC_SHA256_BLOCK_SIZE  64

/* Incremental state. Initialise with tc_sha256_init, feed with
 * tc_sha256_update, finish with tc_sha256_final (which leaves the context
 * wiped; init it again to reuse it). */
struct tc_sha256_ctx {
	uint32_t h[8];
	uint64_t total; /* bytes fed so far */
	unsigned char block[TC_SHA256_BLOCK_SIZE];
	size_t used; /* bytes waiting in block */
};

void tc_sha256_init(struct tc_sha256_ctx *ctx);

/* Feed len bytes; data may be NULL when len is 0. */
void tc_sha256_update(struct tc_sha256_ctx *ctx, const void *data, size_t len);

/* Write the digest of everything fed into out and wipe ctx. */
void tc_sha256_final(struct tc_sha256_ctx *ctx, unsigned char out[TC_SHA256_DIGEST_SIZE]);

/* One-shot digest of data[0..len). */
void tc_sha256(const void *data, size_t len, unsigned char out[TC_SHA256_DIGEST_SIZE]);

/* Lower-case hex of a digest into out[65]. */
void tc_hex_sha256(const unsigned char digest[TC_SHA256_DIGEST_SIZE], char out[65]);

/* Digest of everything read from fd until EOF (from its current offset),
 * retrying EINTR. Returns 0, -EFBIG when the file holds more than max_bytes
 * (out is then untouched), or -errno from read. */
int tc_sha256_file(int fd, uint64_t max_bytes, unsigned char out[TC_SHA256_DIGEST_SIZE]);

#endif
