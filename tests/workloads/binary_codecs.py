"""Workload: struct, array, base64, binascii, uuid, memoryview, codecs."""
import array
import base64
import binascii
import codecs
import struct
import sys
import uuid

NAME = "binary_codecs"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


packed = struct.pack("<IhBx3sd?", 0xDEADBEEF, -2, 255, b"abc", 1.5, True)
check(packed.hex() == "efbeadde" "feff" "ff" "00" "616263" "000000000000f83f" "01", f"pack {packed.hex()}")
check(struct.unpack("<IhBx3sd?", packed) == (0xDEADBEEF, -2, 255, b"abc", 1.5, True), "unpack")
check(struct.calcsize("<IhBx3sd?") == 20 and struct.calcsize("@id") == 16, "calcsize")
check(struct.pack(">H", 1) == b"\x00\x01" and struct.pack("!q", -1) == b"\xff" * 8, "network order")
rec = struct.Struct("<2sH")
buf = bytearray(12)
for i in range(3):
    rec.pack_into(buf, i * 4, b"id", i)
check([r[1] for r in rec.iter_unpack(buf)] == [0, 1, 2], "Struct iter_unpack")
try:
    struct.pack("B", 256)
except struct.error:
    pass
else:
    check(False, "struct range check")

a = array.array("i", range(10))
a.append(-5)
check(a.itemsize == 4 and a[-1] == -5 and sum(a) == 40, "array")
raw = a.tobytes()
b = array.array("i")
b.frombytes(raw)
check(a == b, "array bytes round trip")
d = array.array("d", [1.5, 2.5])
d.byteswap()
d.byteswap()
check(d.tolist() == [1.5, 2.5] and array.array("u", "héllo").tounicode() == "héllo", "array d/u")
mv = memoryview(bytearray(b"abcdef"))
mv[1:3] = b"XY"
check(mv.tobytes() == b"aXYdef" and mv[::2].tobytes() == b"aYe", "memoryview")
check(memoryview(array.array("H", [1, 2, 3])).cast("B").tolist()[:2] in ([1, 0], [0, 1]), "memoryview cast")

check(base64.b64encode(b"Man") == b"TWFu" and base64.b64encode(b"Ma") == b"TWE=", "b64encode")
check(base64.b64decode("aGVsbG8gd29ybGQ=") == b"hello world", "b64decode")
check(base64.urlsafe_b64encode(b"\xfb\xff") == b"-_8=", "urlsafe")
check(base64.b32encode(b"foobar") == b"MZXW6YTBOI======" and base64.b16encode(b"\x01\xab") == b"01AB", "b32/b16")
check(base64.a85encode(b"hello") == b"BOu!rDZ" and base64.b85decode(base64.b85encode(b"\0" * 7)) == b"\0" * 7, "a85/b85")
try:
    base64.b64decode("abc", validate=True)
except binascii.Error:
    pass
else:
    check(False, "bad padding accepted")

check(binascii.hexlify(b"\x00\xff", "-") == b"00-ff" and binascii.unhexlify("cafe") == b"\xca\xfe", "hexlify")
check(binascii.crc32(b"hello") == 0x3610A686 and binascii.crc_hqx(b"123456789", 0) == 0x31C3, "crc")
check(bytes.fromhex("de ad be ef").hex(":", 2) == "dead:beef", "bytes.hex")
check(binascii.b2a_base64(b"x", newline=False) == b"eA==", "b2a_base64")

u = uuid.uuid4()
s = str(u)
check(len(s) == 36 and s[14] == "4" and s[19] in "89ab" and s.count("-") == 4, f"uuid4 format {s}")
check(u.version == 4 and u.variant == uuid.RFC_4122 and uuid.UUID(s) == u, "uuid4 fields")
check(uuid.uuid4() != u, "two uuid4 equal")
check(str(uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")) == "886313e1-3b8a-5372-9b90-0c9aee199e5d", "uuid5")
check(str(uuid.uuid3(uuid.NAMESPACE_DNS, "python.org")) == "6fa459ea-ee8a-3ca4-894e-db77e160355e", "uuid3")
check(uuid.UUID(bytes=b"\x12" * 16).hex == "12" * 16 and uuid.UUID(int=1).urn.endswith("0001"), "UUID bytes/int")
u1 = uuid.uuid1()
check(u1.version == 1, "uuid1")

check(codecs.encode("hello", "rot13") == "uryyb" and codecs.decode(b"68656c6c6f", "hex") == b"hello", "codecs")
check(codecs.encode(b"hello", "zlib")[:1] == b"x" and "Ω".encode("utf-16-be") == b"\x03\xa9", "codecs zlib/utf-16")
check("x\u00e9".encode("ascii", "backslashreplace") == b"x\\xe9" and b"\xff".decode("utf-8", "replace") == "\ufffd", "error handlers")
check("ü".encode("cp1252") == b"\xfc" and "日本".encode("shift_jis") == b"\x93\xfa\x96\x7b", "legacy codecs")
check(int.from_bytes(b"\x80", "big", signed=True) == -128, "signed from_bytes")

print(f"ok {NAME}")
