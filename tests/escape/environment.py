# Read the launcher's secrets from the environment and from /proc.
import os
print("env keys", sorted(os.environ))
print("secret in env", any("TC_SECRET" in k or "hunter2" in v for k, v in os.environ.items()))
blob = b""
for p in ("/proc/self/environ", "/proc/1/environ"):
    try:
        blob += open(p, "rb").read()
    except OSError:
        pass
print("secret in /proc", b"hunter2" in blob)
