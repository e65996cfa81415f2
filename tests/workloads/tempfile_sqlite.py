"""Workload: tempfile (NamedTemporaryFile, TemporaryDirectory, mkstemp,
SpooledTemporaryFile) and sqlite3 on a database file in /tmp, with WAL."""
import os
import sqlite3
import sys
import tempfile
import threading

NAME = "tempfile_sqlite"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


check(tempfile.gettempdir() == "/tmp", f"gettempdir is {tempfile.gettempdir()}")

with tempfile.NamedTemporaryFile("w+", suffix=".txt", prefix="wl-") as f:
    check(os.path.dirname(f.name) == "/tmp" and os.path.basename(f.name).startswith("wl-"), f.name)
    f.write("hello temp\n" * 100)
    f.flush()
    check(os.path.getsize(f.name) == 1100, "size on disk")
    f.seek(0)
    check(f.readline() == "hello temp\n", "read back")
    check(open(f.name).read().count("\n") == 100, "reopen by name")
    name = f.name
check(not os.path.exists(name), "NamedTemporaryFile not deleted")

with tempfile.TemporaryDirectory(prefix="wl-dir-") as d:
    check(os.stat(d).st_mode & 0o777 == 0o700, "TemporaryDirectory mode")
    for sub in ("a/b/c", "x"):
        os.makedirs(os.path.join(d, sub))
        with open(os.path.join(d, sub, "f.bin"), "wb") as fh:
            fh.write(os.urandom(1000))
    check(sum(len(fs) for _, _, fs in os.walk(d)) == 2, "files in the temp dir")
    dirname = d
check(not os.path.exists(dirname), "TemporaryDirectory not removed")

fd, path = tempfile.mkstemp(dir="/tmp")
os.write(fd, b"mkstemp")
os.close(fd)
check(open(path, "rb").read() == b"mkstemp" and os.stat(path).st_mode & 0o777 == 0o600, "mkstemp")
os.unlink(path)

with tempfile.SpooledTemporaryFile(max_size=1000) as sp:
    sp.write(b"x" * 500)
    check(not sp._rolled, "rolled over too early")
    sp.write(b"y" * 1000)
    check(sp._rolled, "did not roll over to disk")
    sp.seek(0)
    check(len(sp.read()) == 1500, "spooled read")

with tempfile.TemporaryFile() as tf:  # O_TMPFILE or unlinked file
    tf.write(b"anonymous")
    tf.seek(0)
    check(tf.read() == b"anonymous", "TemporaryFile")

# sqlite3: a database file in /tmp, WAL mode, transactions, a second connection
with tempfile.TemporaryDirectory() as d:
    db = os.path.join(d, "tool.db")
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal", "WAL mode")
    con.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, price REAL, blob BLOB)")
    con.execute("CREATE INDEX items_price ON items(price)")
    with con:
        con.executemany("INSERT INTO items (name, price, blob) VALUES (?, ?, ?)",
                        [(f"item{i:03d}", i * 1.25, bytes([i % 256]) * 10) for i in range(500)])
    check(os.path.exists(db + "-wal") and os.path.exists(db + "-shm"), "WAL files")
    check(con.execute("SELECT count(*), sum(price) FROM items").fetchone() == (500, 155937.5), "aggregate")
    row = con.execute("SELECT name, blob FROM items WHERE id = ?", (42,)).fetchone()
    check(row == ("item041", b"\x29" * 10), f"select by id {row}")
    try:
        with con:
            con.execute("INSERT INTO items (name) VALUES ('item000')")
    except sqlite3.IntegrityError:
        pass
    else:
        check(False, "UNIQUE not enforced")
    try:
        with con:
            con.execute("DELETE FROM items WHERE id > 250")
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    check(con.execute("SELECT count(*) FROM items").fetchone()[0] == 500, "rollback")

    # a second connection (another thread) sees committed data while the first writes
    seen = []

    def reader():
        c2 = sqlite3.connect(db)
        seen.append(c2.execute("SELECT count(*) FROM items").fetchone()[0])
        c2.close()

    con.execute("BEGIN")
    con.execute("INSERT INTO items (name) VALUES ('uncommitted')")
    t = threading.Thread(target=reader)
    t.start()
    t.join()
    con.commit()
    check(seen == [500], f"WAL reader saw {seen}")
    con.row_factory = sqlite3.Row
    r = con.execute("SELECT * FROM items ORDER BY price DESC LIMIT 1").fetchone()
    check(r["name"] == "item499", "row factory")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity_check")
    check(con.execute("SELECT json_extract('{\"a\": [1, 2]}', '$.a[1]')").fetchone()[0] == 2, "JSON1")
    con.close()
    with sqlite3.connect(":memory:") as mem:
        mem.execute("CREATE VIRTUAL TABLE docs USING fts5(body)")
        mem.executemany("INSERT INTO docs VALUES (?)", [("the quick fox",), ("lazy dogs",)])
        check(mem.execute("SELECT body FROM docs WHERE docs MATCH 'fox'").fetchall() == [("the quick fox",)], "FTS5")
        mem.commit()
        backup = sqlite3.connect(os.path.join(d, "backup.db"))
        mem.backup(backup)
        check(backup.execute("SELECT count(*) FROM docs").fetchone()[0] == 2, "backup")
        backup.close()

print(f"ok {NAME}")
