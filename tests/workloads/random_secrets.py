"""Workload: seeded random gives known values; secrets and os.urandom."""
import os
import random
import secrets
import string
import sys

NAME = "random_secrets"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


random.seed(42)
check(random.random() == 0.6394267984578837, "seed(42).random()")
check(random.randint(1, 100) == 4, "randint")
check(random.choice("abcdefg") == "f", "choice")
check(random.sample(range(100), 5) == [35, 31, 28, 17, 94], "sample")
random.seed(42)
first = [random.random() for _ in range(3)]
random.seed(42)
check([random.random() for _ in range(3)] == first, "reseed repeats")

r = random.Random("toolcell")
check(r.random() == 0.49297568475245523 and r.randrange(0, 1000, 7) == 924, "string seed")
r = random.Random(7)
state = r.getstate()
a = [r.getrandbits(64) for _ in range(4)]
r.setstate(state)
check([r.getrandbits(64) for _ in range(4)] == a, "getstate/setstate")
deck = list(range(52))
random.Random(1).shuffle(deck)
check(sorted(deck) == list(range(52)) and deck != list(range(52)), "shuffle")
check(random.Random(3).gauss(0, 1) == 0.09470803828730423, "gauss")

# secrets draw from the OS: check shape, not value
tok = secrets.token_hex(16)
check(len(tok) == 32 and all(c in string.hexdigits for c in tok), "token_hex")
check(len(secrets.token_bytes(24)) == 24, "token_bytes")
check(len(secrets.token_urlsafe(32)) >= 42, "token_urlsafe")
check(secrets.randbelow(10) in range(10), "randbelow")
check(secrets.choice("xyz") in "xyz", "secrets.choice")
check(secrets.token_hex(16) != tok, "two tokens equal")
check(len(os.urandom(64)) == 64 and os.urandom(16) != os.urandom(16), "os.urandom")
check(len(os.getrandom(8)) == 8, "os.getrandom")
check(isinstance(random.SystemRandom().random(), float), "SystemRandom")
random.seed()  # seeding from the OS
check(0.0 <= random.random() < 1.0, "OS-seeded random")

print(f"ok {NAME}")
