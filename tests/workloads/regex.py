"""Workload: re compile, sub, findall, groups, flags, split, finditer."""
import re
import sys

NAME = "regex"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


log = """2024-01-15 10:32:01 ERROR db: connection refused (code=111)
2024-01-15 10:32:05 WARN  cache: miss ratio 0.42
2024-01-15 10:33:00 ERROR api: timeout after 30s (code=504)
2024-01-16 00:00:00 INFO  cron: rotated"""

line_re = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2}) (?P<time>[\d:]{8}) (?P<level>[A-Z]+)\s+(?P<src>\w+): (?P<msg>.*)$",
    re.MULTILINE,
)
rows = [m.groupdict() for m in line_re.finditer(log)]
check(len(rows) == 4, f"expected 4 log lines, got {len(rows)}")
check(rows[2]["src"] == "api" and rows[2]["level"] == "ERROR", "named groups")
errors = line_re.findall(log)
check([e[2] for e in errors].count("ERROR") == 2, "findall tuples")

check(re.findall(r"code=(\d+)", log) == ["111", "504"], "findall one group")
m = re.search(r"(\d+)-(\d+)-(\d+)", log)
check(m.groups() == ("2024", "01", "15") and m.span() == (0, 10), "groups/span")
check(m.group(0, 3) == ("2024-01-15", "15"), "group(0, 3)")

# sub with a backreference, a function and a count
check(re.sub(r"(\w+)@(\w+)\.com", r"\2 at \1", "joe@example.com") == "example at joe", "backref sub")
check(re.sub(r"\d+", lambda mm: str(int(mm.group()) * 2), "a1 b22 c333") == "a2 b44 c666", "function sub")
check(re.subn(r"o", "0", "foo boo", count=3) == ("f00 b0o", 3), "subn with count")

# flags, split, fullmatch, lookarounds, non-greedy, unicode classes
check(re.findall(r"(?i)error", log) == ["ERROR", "ERROR"], "inline ignorecase")
check(re.split(r"\s*[,;]\s*", "a , b;c ;  d") == ["a", "b", "c", "d"], "split")
check(re.fullmatch(r"[a-z_][a-z0-9_]*", "snake_case_1") is not None, "fullmatch")
check(re.fullmatch(r"[a-z]+", "abc1") is None, "fullmatch negative")
check(re.findall(r"(?<=\$)\d+(?=\.)", "cost $12.50 or $7.00") == ["12", "7"], "lookarounds")
check(re.findall(r"<.+?>", "<a><b></b>") == ["<a>", "<b>", "</b>"], "non-greedy")
check(re.findall(r"\w+", "naïve café Ωmega") == ["naïve", "café", "Ωmega"], "unicode \\w")
check(re.findall(rb"[\x80-\xff]+", "é".encode()) == [b"\xc3\xa9"], "bytes pattern")
verbose = re.compile(r"""
    (?P<key>[a-z]+)   # key
    \s*=\s*
    (?P<val>"[^"]*"|\S+)  # value
""", re.VERBOSE)
check({m["key"]: m["val"] for m in verbose.finditer('a = 1 b="two words" c=x')}
      == {"a": "1", "b": '"two words"', "c": "x"}, "verbose pattern")
check(re.escape("a.b*c") == r"a\.b\*c", "escape")
try:
    re.compile("(unclosed")
except re.error as e:
    check(e.pos == 0, "re.error position")
else:
    check(False, "bad pattern compiled")

print(f"ok {NAME}")
