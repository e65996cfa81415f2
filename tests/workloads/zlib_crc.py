"""Workload: zlib compress/decompress, streaming objects, crc32, adler32."""
import sys
import zlib

NAME = "zlib_crc"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


check(zlib.crc32(b"The quick brown fox jumps over the lazy dog") == 0x414FA339, "crc32 fox")
check(zlib.crc32(b"123456789") == 0xCBF43926, "crc32 check value")
check(zlib.crc32(b"6789", zlib.crc32(b"12345")) == 0xCBF43926, "crc32 running")
check(zlib.adler32(b"Wikipedia") == 0x11E60398, "adler32")

data = b"".join(b"line %05d: the same words again and again\n" % i for i in range(5000))
for level in (0, 1, 6, 9):
    packed = zlib.compress(data, level)
    check(zlib.decompress(packed) == data, f"round trip at level {level}")
    if level:
        check(len(packed) < len(data) // 5, f"level {level} did not compress")

# streaming compressor with raw deflate and gzip wrappers
for wbits in (-15, 15, 31):
    c = zlib.compressobj(6, zlib.DEFLATED, wbits)
    parts = [c.compress(data[i:i + 4096]) for i in range(0, len(data), 4096)]
    parts.append(c.flush())
    stream = b"".join(parts)
    d = zlib.decompressobj(wbits)
    out = b"".join(d.decompress(stream[i:i + 1000]) for i in range(0, len(stream), 1000))
    out += d.flush()
    check(out == data and d.eof, f"streaming wbits={wbits}")
# auto-detect zlib or gzip header
gz = zlib.compressobj(wbits=31)
gzdata = gz.compress(b"hello") + gz.flush()
check(gzdata[:2] == b"\x1f\x8b" and zlib.decompress(gzdata, 47) == b"hello", "gzip header auto-detect")

# a preset dictionary
zdict = b"common prefix shared by messages "
c = zlib.compressobj(zdict=zdict)
msg = zdict + b"payload"
packed = c.compress(msg) + c.flush()
d = zlib.decompressobj(zdict=zdict)
check(d.decompress(packed) == msg, "zdict")

try:
    zlib.decompress(b"not zlib data")
except zlib.error:
    pass
else:
    check(False, "corrupt data accepted")
# max_length bounds the output (decompression bomb guard)
d = zlib.decompressobj()
first = d.decompress(zlib.compress(b"\0" * 1_000_000), 1024)
check(len(first) == 1024 and d.unconsumed_tail, "max_length")

print(f"ok {NAME}")
