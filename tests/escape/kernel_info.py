# Defeat KASLR: read /proc/kcore and the symbol addresses in /proc/kallsyms.
import errno
try:
    open("/proc/kcore", "rb").read(16)
    print("LEAK kcore")
except OSError as e:
    print("kcore blocked", errno.errorcode[e.errno])
nonzero = total = 0
for line in open("/proc/kallsyms"):
    total += 1
    if int(line.split()[0], 16):
        nonzero += 1
print("kallsyms lines", "many" if total > 1000 else total, "nonzero addresses", nonzero)
for p in ("/proc/modules", "/proc/iomem"):
    try:
        leaked = any(int(tok, 16) for line in open(p) for tok in line.replace("-", " ").split()
                     if tok.startswith("0x") or (len(tok) >= 8 and all(c in "0123456789abcdef" for c in tok)) if tok.strip("0x"))
        print(p, "nonzero addresses", leaked)
    except OSError as e:
        print(p, "blocked", errno.errorcode[e.errno])
