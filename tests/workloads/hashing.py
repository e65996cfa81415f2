"""Workload: hashlib and hmac digests of known inputs."""
import hashlib
import hmac
import sys

NAME = "hashing"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


vectors = [
    ("sha256", b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("sha256", b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("md5", b"", "d41d8cd98f00b204e9800998ecf8427e"),
    ("md5", b"abc", "900150983cd24fb0d6963f7d28e17f72"),
    ("sha1", b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("sha512", b"abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                       "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ("sha3_256", b"abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
    ("blake2b", b"abc", "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                        "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"),
    ("blake2s", b"abc", "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"),
]
for algo, data, want in vectors:
    got = hashlib.new(algo, data).hexdigest()
    check(got == want, f"{algo}({data!r}) = {got}")

check(hashlib.sha256(b"abc").hexdigest() == hashlib.new("sha256", b"abc").hexdigest(), "constructor")

# incremental update equals one-shot; copy() forks the state
h = hashlib.sha256()
for chunk in (b"a", b"b", b"c"):
    h.update(chunk)
h2 = h.copy()
h2.update(b"d")
check(h.hexdigest() == vectors[0][2], "incremental sha256")
check(h2.hexdigest() == hashlib.sha256(b"abcd").hexdigest(), "copy")

# a million 'a' (the classic long vector)
check(hashlib.sha256(b"a" * 1_000_000).hexdigest()
      == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of 1e6 'a'")

check(hashlib.blake2b(b"abc", digest_size=16, key=b"k").digest_size == 16, "keyed blake2b")
check(hashlib.shake_128(b"").hexdigest(8) == "7f9c2ba4e88f827d", "shake_128")

# RFC 4231 test case 2, RFC 2202
check(hmac.new(b"Jefe", b"what do ya want for nothing?", "sha256").hexdigest()
      == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "HMAC-SHA256")
check(hmac.new(b"Jefe", b"what do ya want for nothing?", "md5").hexdigest()
      == "750c783e6ab0b503eaa86e310a5db738", "HMAC-MD5")
check(hmac.compare_digest(b"same", b"same") and not hmac.compare_digest("a", "b"), "compare_digest")

# RFC 6070 PBKDF2-HMAC-SHA1, 2 iterations; scrypt needs OpenSSL too
check(hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 2, 20).hex()
      == "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957", "pbkdf2")
check(hashlib.scrypt(b"", salt=b"", n=16, r=1, p=1, dklen=16).hex()
      == "77d6576238657b203b19ca42c18a0497", "scrypt (RFC 7914 vector 1)")
check({"sha256", "md5", "blake2b"} <= hashlib.algorithms_available, "algorithms_available")

print(f"ok {NAME}")
