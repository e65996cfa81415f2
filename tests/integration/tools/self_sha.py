# Prints its own path (__file__) and the sha256 of its own bytes, read back
# through that path.
import hashlib

with open(__file__, "rb") as f:
    digest = hashlib.sha256(f.read()).hexdigest()
print(__file__)
print(digest)
