"""Workload: csv, io (StringIO, BytesIO, TextIOWrapper, buffered files),
textwrap, string formatting and templates."""
import csv
import io
import os
import string
import sys
import tempfile
import textwrap

NAME = "csv_io"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


rows = [
    {"id": 1, "name": "Widget, large", "note": 'says "hi"', "price": "9.99"},
    {"id": 2, "name": "Gädget", "note": "multi\nline", "price": "0.50"},
    {"id": 3, "name": "", "note": "", "price": "100"},
]
buf = io.StringIO(newline="")
w = csv.DictWriter(buf, fieldnames=["id", "name", "note", "price"])
w.writeheader()
w.writerows(rows)
text = buf.getvalue()
check(text.splitlines()[1] == '1,"Widget, large","says ""hi""",9.99', f"quoting: {text.splitlines()[1]}")
check(text.endswith("\r\n"), "csv line terminator")
back = list(csv.DictReader(io.StringIO(text, newline="")))
check([r["name"] for r in back] == ["Widget, large", "Gädget", ""] and back[1]["note"] == "multi\nline", "DictReader")
check(sum(float(r["price"]) for r in back) == 110.49, "prices")

tsv = "a\tb\n1\t2\n"
check(list(csv.reader(io.StringIO(tsv), delimiter="\t")) == [["a", "b"], ["1", "2"]], "TSV")
sn = csv.Sniffer()
dialect = sn.sniff("x;y;z\n1;2;3\n4;5;6\n")
check(dialect.delimiter == ";" and sn.has_header("name;age\nbob;30\nann;25\n"), "Sniffer")
out = io.StringIO()
csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n").writerow(["a", 1, 2.5])
check(out.getvalue() == '"a",1,2.5\n', "QUOTE_NONNUMERIC")

# a CSV file in /tmp read back through a TextIOWrapper over a raw FileIO
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "data.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["k", "v"]] + [[f"key{i}", i] for i in range(1000)])
    with io.TextIOWrapper(io.BufferedReader(io.FileIO(path, "r")), encoding="utf-8", newline="") as f:
        data = list(csv.reader(f))
    check(len(data) == 1001 and data[-1] == ["key999", "999"], "CSV file round trip")
    with open(path, "rb") as f:
        check(f.peek(1)[:1] == b"k" and f.read1(3) == b"k,v", "buffered peek/read1")
    with open(path, "a", encoding="latin-1") as f:
        f.write("é\n")
    with open(path, "rb") as f:
        f.seek(-2, io.SEEK_END)
        check(f.read() == b"\xe9\n", "latin-1 append / seek from end")

bio = io.BytesIO()
bio.write(b"0123456789")
bio.seek(3)
check(bio.read(4) == b"3456" and bio.tell() == 7, "BytesIO")
view = bio.getbuffer()
view[0:1] = b"X"
del view
check(bio.getvalue().startswith(b"X1"), "getbuffer")
tw = io.TextIOWrapper(io.BytesIO("π≈3.14\n".encode("utf-16")), encoding="utf-16")
check(tw.read() == "π≈3.14\n", "UTF-16 TextIOWrapper")

para = ("The quick brown fox jumps over the lazy dog. " * 4).strip()
wrapped = textwrap.wrap(para, width=30)
check(all(len(line) <= 30 for line in wrapped) and len(wrapped) == 6, f"wrap: {wrapped}")
check(textwrap.fill("a b c d", width=3) == "a b\nc d", "fill")
check(textwrap.dedent("    x\n      y\n") == "x\n  y\n", "dedent")
check(textwrap.indent("a\nb\n", "> ") == "> a\n> b\n", "indent")
check(textwrap.shorten("Hello  world, this is long", width=15) == "Hello [...]", "shorten")

check(string.Template("$who likes ${what}").substitute(who="tim", what="pie") == "tim likes pie", "Template")
check(f"{3.14159:8.3f}|{42:>6}|{'x':^5}|{255:#x}|{1e6:,.0f}|{0.25:.1%}"
      == "   3.142|    42|  x  |0xff|1,000,000|25.0%", "format spec")
check("{0}-{name}-{0}".format("a", name="b") == "a-b-a" and "%s=%05.1f" % ("k", 2.5) == "k=002.5", "format")
check(string.capwords("hello   world") == "Hello World", "capwords")

print(f"ok {NAME}")
