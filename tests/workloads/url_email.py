"""Workload: urllib.parse, email parsing and building, mimetypes,
ipaddress, http.cookies, html escaping — all offline."""
import email
import email.policy
import email.utils
import ipaddress
import mimetypes
import sys
from email.message import EmailMessage
from http.cookies import SimpleCookie
from urllib.parse import (parse_qs, parse_qsl, quote, quote_plus, unquote, urlencode, urljoin,
                          urlparse, urlsplit, urlunparse)
from urllib.request import Request, pathname2url

NAME = "url_email"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


u = urlparse("https://user:pw@Example.COM:8443/a/b;p?q=1&q=2&x=%C3%A9#frag")
check((u.scheme, u.hostname, u.port, u.username, u.password) == ("https", "example.com", 8443, "user", "pw"), "urlparse netloc")
check((u.path, u.params, u.fragment) == ("/a/b", "p", "frag"), "urlparse parts")
check(parse_qs(u.query) == {"q": ["1", "2"], "x": ["é"]}, "parse_qs")
check(parse_qsl("a=1&b=&c", keep_blank_values=True) == [("a", "1"), ("b", ""), ("c", "")], "parse_qsl")
check(urlencode({"q": "a b&c", "n": 1}) == "q=a+b%26c&n=1", "urlencode")
check(urlencode({"k": ["x", "y"]}, doseq=True) == "k=x&k=y", "urlencode doseq")
check(quote("/path with space/ü") == "/path%20with%20space/%C3%BC" and quote_plus("a b/c") == "a+b%2Fc", "quote")
check(unquote("%E2%9C%93") == "✓", "unquote")
check(urljoin("http://a/b/c/d;p?q", "../g") == "http://a/b/g" and urljoin("http://a/b/", "//x/y") == "http://x/y", "urljoin")
check(urlunparse(("http", "h", "/p", "", "a=1", "")) == "http://h/p?a=1", "urlunparse")
check(urlsplit("http://[::1]:80/").hostname == "::1", "IPv6 literal")
check(Request("http://example.com/x", data=b"1", method="PUT").get_method() == "PUT", "Request (not sent)")
check(pathname2url("/tmp/a b") == "/tmp/a%20b", "pathname2url")

raw = b"""From: =?utf-8?q?J=C3=BCrgen?= <jurgen@example.com>
To: a@example.com, "Bob, Jr." <bob@example.org>
Subject: =?utf-8?b?SGVsbG8g4pyT?=
Date: Tue, 15 Nov 1994 08:12:31 +0100
Message-ID: <1234@example.com>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="XYZ"

--XYZ
Content-Type: text/plain; charset="utf-8"
Content-Transfer-Encoding: quoted-printable

Caf=C3=A9 au lait
--XYZ
Content-Type: application/octet-stream; name="data.bin"
Content-Disposition: attachment; filename="data.bin"
Content-Transfer-Encoding: base64

AAECAw==
--XYZ--
"""
msg = email.message_from_bytes(raw, policy=email.policy.default)
check(msg["subject"] == "Hello ✓" and msg["from"].addresses[0].display_name == "Jürgen", "decoded headers")
check([a.addr_spec for a in msg["to"].addresses] == ["a@example.com", "bob@example.org"], "address list")
check(msg.is_multipart() and msg.get_content_type() == "multipart/mixed", "multipart")
body = msg.get_body(preferencelist=("plain",))
check(body.get_content() == "Café au lait", f"body {body.get_content()!r}")
atts = list(msg.iter_attachments())
check(len(atts) == 1 and atts[0].get_filename() == "data.bin" and atts[0].get_content() == b"\0\1\2\3", "attachment")
check(email.utils.parsedate_to_datetime(msg["date"]).utcoffset().total_seconds() == 3600, "parsedate")
check(email.utils.parseaddr('"Doe, J" <j@d.org>') == ("Doe, J", "j@d.org"), "parseaddr")

out = EmailMessage()
out["From"] = email.utils.formataddr(("Zoë", "zoe@example.com"))
out["To"] = "x@example.com"
out["Subject"] = "Résumé"
out.set_content("plain ✓")
out.add_alternative("<p>html ✓</p>", subtype="html")
out.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="a.png")
wire = out.as_bytes()
check(wire.split(b"\n\n")[0].isascii() and b"=?utf-8?" in wire, "headers are ASCII with encoded words")
again = email.message_from_bytes(wire, policy=email.policy.default)
check(again["subject"] == "Résumé" and again.get_body(("html",)).get_content() == "<p>html ✓</p>\n", "build/parse round trip")
check(next(again.iter_attachments()).get_content() == b"\x89PNG", "attachment round trip")

check(mimetypes.guess_type("report.pdf")[0] == "application/pdf", "guess_type pdf")
check(mimetypes.guess_type("a.tar.gz") == ("application/x-tar", "gzip"), "guess_type tar.gz")
check(mimetypes.guess_extension("text/html") in (".html", ".htm"), "guess_extension")

net = ipaddress.ip_network("10.0.0.0/30")
check([str(h) for h in net.hosts()] == ["10.0.0.1", "10.0.0.2"], "hosts")
check(ipaddress.ip_address("127.0.0.1").is_loopback and ipaddress.ip_address("::1").is_loopback, "loopback")
check(ipaddress.ip_address("192.168.1.5") in ipaddress.ip_network("192.168.0.0/16"), "membership")
check(str(ipaddress.IPv6Address("2001:db8::0:1").exploded).startswith("2001:0db8:0000"), "exploded")

c = SimpleCookie()
c.load('session=abc123; Path=/; HttpOnly')
c.load('theme="dark blue"')
check(c["session"].value == "abc123" and c["session"]["path"] == "/" and c["session"]["httponly"], "cookie attributes")
check(c["theme"].value == "dark blue" and c["theme"].OutputString() == 'theme="dark blue"', "quoted cookie")

print(f"ok {NAME}")
