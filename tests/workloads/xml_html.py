"""Workload: xml.etree (parse, build, XPath subset, namespaces,
iterparse), xml.dom.minidom, xml.sax, html.parser, html escaping."""
import html
import io
import sys
import xml.dom.minidom
import xml.etree.ElementTree as ET
import xml.sax
from html.parser import HTMLParser

NAME = "xml_html"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


doc = """<?xml version="1.0" encoding="UTF-8"?>
<catalog xmlns:x="urn:extra">
  <book id="b1" lang="en"><title>Dune</title><price cur="USD">9.99</price><x:rating>5</x:rating></book>
  <book id="b2" lang="fr"><title>L'Étranger</title><price cur="EUR">7.50</price></book>
  <book id="b3" lang="en"><title>Emma &amp; Co</title><price cur="USD">12.00</price></book>
</catalog>"""
root = ET.fromstring(doc.encode("utf-8"))
check(root.tag == "catalog" and len(root) == 3, "root")
check([b.get("id") for b in root.findall("book[@lang='en']")] == ["b1", "b3"], "attribute predicate")
check(root.find("book[2]/title").text == "L'Étranger", "positional XPath")
check(root.findtext("book/title") == "Dune" and root.find(".//{urn:extra}rating").text == "5", "findtext/namespace")
check(round(sum(float(p.text) for p in root.iter("price")), 2) == 29.49, "iter")
check([t.text for t in root.iterfind(".//title")][2] == "Emma & Co", "entity")

new = ET.Element("report", attrib={"v": "1"})
for b in root:
    item = ET.SubElement(new, "item", id=b.get("id"))
    item.text = b.findtext("title")
ET.indent(new)
text = ET.tostring(new, encoding="unicode")
check('<item id="b2">L\'Étranger</item>' in text and text.count("\n  <item") == 3, "build/indent")
check(ET.fromstring(ET.tostring(new)).find("item[3]").text == "Emma & Co", "tostring round trip")
check(ET.tostring(ET.Element("a", t='<"&>')) == b'<a t="&lt;&quot;&amp;&gt;" />', "attribute escaping")
events = [(ev, el.tag) for ev, el in ET.iterparse(io.BytesIO(b"<a><b/><c>t</c></a>"), events=("start", "end"))]
check(events == [("start", "a"), ("start", "b"), ("end", "b"), ("start", "c"), ("end", "c"), ("end", "a")], "iterparse")
try:
    ET.fromstring("<a><b></a>")
except ET.ParseError as e:
    check(e.position == (1, 8), f"ParseError position {e.position}")
else:
    check(False, "malformed XML accepted")
pull = ET.XMLPullParser(["end"])
pull.feed("<r><i>1</i><i>")
pull.feed("2</i></r>")
check([el.text for _, el in pull.read_events() if el.tag == "i"] == ["1", "2"], "XMLPullParser")

dom = xml.dom.minidom.parseString(doc)
check(len(dom.getElementsByTagName("book")) == 3 and dom.documentElement.getAttribute("xmlns:x") == "urn:extra", "minidom")
check(dom.getElementsByTagName("title")[0].firstChild.data == "Dune" and "<?xml" in dom.toprettyxml(indent=" "), "minidom text")


class Counter(xml.sax.ContentHandler):
    def __init__(self):
        super().__init__()
        self.tags = {}

    def startElement(self, name, attrs):
        self.tags[name] = self.tags.get(name, 0) + 1


h = Counter()
xml.sax.parseString(doc.encode(), h)
check(h.tags == {"catalog": 1, "book": 3, "title": 3, "price": 3, "x:rating": 1}, f"sax {h.tags}")


class LinkText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.text, self._skip = [], [], False

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
        self._skip = tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip = False

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.text.append(data.strip())


page = """<!DOCTYPE html><html><head><title>T &amp; T</title><style>p{}</style>
<script>var x = "<a href='no'>";</script></head>
<body><p>Hello <b>wörld</b> &copy; 2024</p><a href="/one?x=1&amp;y=2">One</a>
<A HREF='two.html'>Two</A><br/><img src=x.png alt="">unclosed <p>tags</body></html>"""
p = LinkText()
p.feed(page)
p.close()
check(p.links == ["/one?x=1&y=2", "two.html"], f"links {p.links}")
check(p.text == ["T & T", "Hello", "wörld", "© 2024", "One", "Two", "unclosed", "tags"], f"text {p.text}")
check(html.escape('<a href="x">&</a>') == "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;", "html.escape")
check(html.unescape("&lt;&eacute;&#233;&#x41;&nbsp;") == "<ééA\xa0", "html.unescape")

print(f"ok {NAME}")
