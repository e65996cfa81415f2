"""Workload: lzma, bz2, gzip, tarfile and zipfile round trips in /tmp,
shutil.make_archive/unpack_archive, zipimport."""
import bz2
import gzip
import hashlib
import io
import lzma
import os
import shutil
import sys
import tarfile
import tempfile
import zipfile

NAME = "archives"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


payload = b"".join(b"%06d the rain in spain stays mainly in the plain\n" % i for i in range(4000))
digest = hashlib.sha256(payload).hexdigest()

for mod in (lzma, bz2, gzip):
    packed = mod.compress(payload)
    check(len(packed) < len(payload) // 5 and mod.decompress(packed) == payload, f"{mod.__name__} one-shot")
check(lzma.decompress(lzma.compress(payload, format=lzma.FORMAT_ALONE)) == payload, "lzma alone format")
filters = [{"id": lzma.FILTER_DELTA, "dist": 4}, {"id": lzma.FILTER_LZMA2, "preset": 1}]
check(lzma.decompress(lzma.compress(payload, format=lzma.FORMAT_RAW, filters=filters),
                      format=lzma.FORMAT_RAW, filters=filters) == payload, "lzma raw filters")
check(gzip.decompress(gzip.compress(payload, mtime=0)) == payload and gzip.compress(b"x", mtime=0) == gzip.compress(b"x", mtime=0), "gzip mtime=0 is reproducible")
inc = bz2.BZ2Compressor(9)
stream = b"".join(inc.compress(payload[i:i + 7000]) for i in range(0, len(payload), 7000)) + inc.flush()
check(bz2.BZ2Decompressor().decompress(stream) == payload, "bz2 incremental")

with tempfile.TemporaryDirectory() as d:
    for opener, ext in ((gzip.open, "gz"), (bz2.open, "bz2"), (lzma.open, "xz")):
        path = os.path.join(d, f"data.txt.{ext}")
        with opener(path, "wt", encoding="utf-8") as f:
            for i in range(1000):
                f.write(f"zeile {i} – ü\n")
        with opener(path, "rt", encoding="utf-8") as f:
            lines = f.readlines()
        check(len(lines) == 1000 and lines[-1] == "zeile 999 – ü\n", f"{ext} text file")

    # a tree to archive: files, a subdir, a symlink, an empty dir
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "sub", "deeper"))
    os.makedirs(os.path.join(tree, "empty"))
    with open(os.path.join(tree, "payload.txt"), "wb") as f:
        f.write(payload)
    with open(os.path.join(tree, "sub", "deeper", "x.json"), "w") as f:
        f.write('{"x": 1}')
    os.chmod(os.path.join(tree, "sub", "deeper", "x.json"), 0o600)
    os.symlink("payload.txt", os.path.join(tree, "link"))

    for mode in ("w", "w:gz", "w:bz2", "w:xz"):
        tpath = os.path.join(d, f"t-{mode.replace(':', '_')}.tar")
        with tarfile.open(tpath, mode) as tf:
            tf.add(tree, arcname="tree")
            info = tarfile.TarInfo("generated/hello.txt")
            data = "hello from memory\n".encode()
            info.size = len(data)
            info.mtime = 1_700_000_000
            tf.addfile(info, io.BytesIO(data))
        with tarfile.open(tpath, "r:*") as tf:
            names = sorted(tf.getnames())
            check("tree/link" in names and "tree/empty" in names and "generated/hello.txt" in names, f"{mode} names {names}")
            check(tf.getmember("tree/link").issym() and tf.getmember("tree/link").linkname == "payload.txt", f"{mode} symlink member")
            check(tf.extractfile("generated/hello.txt").read() == b"hello from memory\n", f"{mode} extractfile")
            out = os.path.join(d, "out" + mode.replace(":", "_"))
            tf.extractall(out)
        with open(os.path.join(out, "tree", "link"), "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == digest, f"{mode} extracted payload via symlink")
        check(os.stat(os.path.join(out, "tree/sub/deeper/x.json")).st_mode & 0o777 == 0o600, f"{mode} mode kept")
        check(os.path.getmtime(os.path.join(out, "generated/hello.txt")) == 1_700_000_000, f"{mode} mtime kept")

    # streaming tar through a pipe-like object
    bio = io.BytesIO()
    with tarfile.open(fileobj=bio, mode="w|gz") as tf:
        tf.add(os.path.join(tree, "payload.txt"), arcname="p.txt")
    bio.seek(0)
    with tarfile.open(fileobj=bio, mode="r|gz") as tf:
        for m in tf:
            check(m.name == "p.txt" and tf.extractfile(m).read() == payload, "streamed tar")

    zpath = os.path.join(d, "a.zip")
    with zipfile.ZipFile(zpath, "w") as zf:
        for comp in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
            zf.write(os.path.join(tree, "payload.txt"), f"payload-{comp}.txt", compress_type=comp)
        zf.writestr("dir/ünï.txt", "unicode name")
        zf.writestr("mod_in_zip.py", "VALUE = 'imported from a zip'\n")
        zf.mkdir("emptydir")
    with zipfile.ZipFile(zpath) as zf:
        check(zf.testzip() is None, "testzip")
        for info in zf.infolist():
            if info.filename.startswith("payload-"):
                check(zf.read(info) == payload, f"zip {info.filename}")
        check(zf.read("dir/ünï.txt") == b"unicode name" and zf.getinfo("dir/ünï.txt").flag_bits & 0x800, "zip unicode name")
        with zf.open("payload-8.txt") as member:
            check(member.read(7) == b"000000 ", "zip member stream")
        zf.extractall(os.path.join(d, "zout"))
    check(os.path.isdir(os.path.join(d, "zout", "emptydir")), "zip mkdir")
    check(zipfile.Path(zpath, "dir/ünï.txt").read_text() == "unicode name", "zipfile.Path")
    with zipfile.ZipFile(zpath, "a") as zf:
        zf.writestr("appended.txt", "late")
    check("appended.txt" in zipfile.ZipFile(zpath).namelist(), "zip append")
    sys.path.insert(0, zpath)
    import mod_in_zip  # zipimport
    check(mod_in_zip.VALUE == "imported from a zip", "zipimport")
    sys.path.pop(0)

    for fmt in ("zip", "gztar", "bztar", "xztar", "tar"):
        arch = shutil.make_archive(os.path.join(d, "made-" + fmt), fmt, root_dir=tree)
        dest = os.path.join(d, "unpacked-" + fmt)
        shutil.unpack_archive(arch, dest)
        with open(os.path.join(dest, "payload.txt"), "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == digest, f"make/unpack {fmt}")

print(f"ok {NAME}")
