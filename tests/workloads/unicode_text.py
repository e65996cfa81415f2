"""Workload: unicodedata, locale-independent str methods, normalization,
case folding, encodings, difflib."""
import difflib
import locale
import sys
import unicodedata as ud

NAME = "unicode_text"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


check(ud.name("é") == "LATIN SMALL LETTER E WITH ACUTE" and ud.lookup("SNOWMAN") == "☃", "name/lookup")
check(ud.category("A") == "Lu" and ud.category("٣") == "Nd" and ud.numeric("½") == 0.5, "category/numeric")
check(ud.decimal("٣") == 3 and ud.digit("³") == 3, "decimal/digit")
check(ud.bidirectional("א") == "R" and ud.east_asian_width("日") == "W" and ud.combining("\u0301") == 230, "properties")
check(ud.mirrored("(") == 1 and ud.decomposition("é") == "0065 0301", "mirrored/decomposition")
nfc, nfd = "é", "e\u0301"
check(nfc != nfd and ud.normalize("NFC", nfd) == nfc and ud.normalize("NFD", nfc) == nfd, "NFC/NFD")
check(ud.normalize("NFKC", "ﬁ①Ａ") == "fi1A" and ud.is_normalized("NFC", nfc), "NFKC")
check(ud.unidata_version.split(".")[0] >= "14", f"unidata_version {ud.unidata_version}")
stripped = "".join(c for c in ud.normalize("NFD", "Crème Brûlée") if not ud.combining(c))
check(stripped == "Creme Brulee", "strip accents")

check("Straße".casefold() == "strasse" and "Straße".upper() == "STRASSE" and "ǅ".lower() == "ǆ", "case mapping")
check("ΣΑΣ".lower() == "σας", "final sigma")
check("hello world".title() == "Hello World" and "ß".swapcase() == "SS", "title/swapcase")
check("İ".lower() == "i\u0307" and len("İ".lower()) == 2, "dotted I")
check("١٢٣".isdigit() and int("١٢٣") == 123 and float("٣.٥") == 3.5, "non-ASCII digits")
check("²".isdigit() and not "²".isdecimal() and "½".isnumeric(), "isdigit/isdecimal/isnumeric")
check("naïve".isalpha() and "abc123".isalnum() and " \t\u3000\n".isspace() and "ǅ".istitle(), "classifiers")
check("a,b,,c".split(",") == ["a", "b", "", "c"] and " a  b ".split() == ["a", "b"], "split")
check("line1\r\nline2\u2028line3".splitlines() == ["line1", "line2", "line3"], "splitlines")
check("k=v=w".partition("=") == ("k", "=", "v=w") and "a.b.c".rpartition(".") == ("a.b", ".", "c"), "partition")
check("xxhixx".strip("x") == "hi" and "prefix_name".removeprefix("prefix_") == "name", "strip/removeprefix")
check("abc".center(9, "*") == "***abc***" and "42".zfill(5) == "00042" and "-42".zfill(5) == "-0042", "padding")
check("a\tb".expandtabs(4) == "a   b" and "tic-tac".replace("t", "T", 1) == "Tic-tac", "expandtabs/replace")
check("hello".translate(str.maketrans("el", "ip", "o")) == "hipp", "translate")
check(" ".join(reversed("one two three".split())) == "three two one" and "ab" * 3 == "ababab", "join/repeat")
check("Ünïcode".encode("utf-8").decode("utf-8") == "Ünïcode" and len("🐍".encode("utf-16-le")) == 4, "encode/decode")
check(ascii("é☃") == "'\\xe9\\u2603'" and repr("\x00") == "'\\x00'", "ascii/repr")
check(sorted(["b", "A", "a", "B"]) == ["A", "B", "a", "b"] and sorted(["b", "A", "a"], key=str.casefold) == ["A", "a", "b"], "code-point sort")
check(f"{'日本':>6}|" == "    日本|" and len("👨‍👩‍👧") == 5, "width is code points")
check("%-5s|%5.2f" % ("ab", 3.14159) == "ab   | 3.14", "printf style")
check(str(1234567.0) == "1234567.0" and f"{1234567.891:,.2f}" == "1,234,567.89", "number formatting ignores locale")

check(sys.getfilesystemencoding() == "utf-8" and sys.stdout.encoding.lower() in ("utf-8", "utf8"), "UTF-8 I/O")
check(locale.getpreferredencoding(False).lower() in ("utf-8", "utf8"), "preferred encoding")
check(locale.setlocale(locale.LC_ALL, "C") == "C" and locale.localeconv()["decimal_point"] == ".", "C locale")
try:
    locale.setlocale(locale.LC_ALL, "C.UTF-8")
except locale.Error:
    pass  # a minimal root may lack it; str methods do not depend on it

diff = list(difflib.unified_diff(["a\n", "b\n", "c\n"], ["a\n", "B\n", "c\n"], "x", "y", lineterm="\n"))
check(diff[2:] == ["@@ -1,3 +1,3 @@\n", " a\n", "-b\n", "+B\n", " c\n"], f"unified_diff {diff}")
check(difflib.get_close_matches("appel", ["ape", "apple", "peach"]) == ["apple", "ape"], "close matches")
check(round(difflib.SequenceMatcher(None, "abcd", "bcde").ratio(), 2) == 0.75, "SequenceMatcher")

print(f"ok {NAME}")
