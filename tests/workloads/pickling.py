"""Workload: pickle round trips at every protocol (incl. out-of-band
buffers), copyreg/__reduce__, marshal, shelve and dbm.dumb files in /tmp."""
import collections
import dataclasses
import datetime
import dbm.dumb
import decimal
import io
import marshal
import os
import pickle
import shelve
import sys
import tempfile

NAME = "pickling"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


@dataclasses.dataclass
class Node:
    name: str
    children: list = dataclasses.field(default_factory=list)


class Conn:
    """Holds an unpicklable resource; pickles only its address."""

    def __init__(self, addr):
        self.addr = addr
        self.sock = open(os.devnull)

    def __reduce__(self):
        return (Conn, (self.addr,))


root = Node("root", [Node("a"), Node("b", [Node("c")])])
root.children[1].children.append(root)  # a cycle
value = {
    "int": 2**100, "float": -0.0, "complex": 1 + 2j, "bytes": b"\x00\xff", "ba": bytearray(b"ba"),
    "str": "ünïcödé \U0001f40d", "tuple": (1, (2, (3,))), "set": {1, 2}, "fset": frozenset("ab"),
    "none": None, "dec": decimal.Decimal("1.10"), "dt": datetime.datetime(2024, 5, 6, 7, 8, 9),
    "od": collections.OrderedDict(b=1, a=2), "counter": collections.Counter("hello"),
    "tree": root, "range": range(3, 30, 3), "slice": slice(1, None, 2), "type": Node,
}
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    blob = pickle.dumps(value, protocol=proto)
    back = pickle.loads(blob)
    tree = back.pop("tree")
    orig = dict(value)
    orig.pop("tree")
    check(back == orig, f"protocol {proto} round trip")
    check(tree.children[1].children[1] is tree, f"protocol {proto} cycle")
    check(type(back["od"]) is collections.OrderedDict and list(back["od"]) == ["b", "a"], f"protocol {proto} OrderedDict")

c = pickle.loads(pickle.dumps(Conn("127.0.0.1:80")))
check(c.addr == "127.0.0.1:80" and not c.sock.closed, "__reduce__")
c.sock.close()

# protocol 5 out-of-band buffers
big = bytearray(os.urandom(1 << 16))
buffers = []
blob = pickle.dumps(pickle.PickleBuffer(big), protocol=5, buffer_callback=buffers.append)
check(len(blob) < 100 and len(buffers) == 1, "out-of-band buffer")
check(pickle.loads(blob, buffers=buffers) == big, "out-of-band round trip")

# a restricted Unpickler refuses globals
class Safe(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"forbidden {module}.{name}")


try:
    Safe(io.BytesIO(pickle.dumps(Node("x")))).load()
except pickle.UnpicklingError:
    pass
else:
    check(False, "restricted unpickler loaded a class")
check(Safe(io.BytesIO(pickle.dumps([1, "a", {2: b"b"}]))).load() == [1, "a", {2: b"b"}], "restricted plain data")

# a stream of several pickles in one file in /tmp
with tempfile.TemporaryFile() as f:
    p = pickle.Pickler(f, protocol=4)
    for i in range(100):
        p.dump({"i": i, "sq": i * i})
    f.seek(0)
    u = pickle.Unpickler(f)
    got = [u.load()["sq"] for _ in range(100)]
    check(got == [i * i for i in range(100)], "pickle stream")

code = compile("x * 2 + 1", "<m>", "eval")
check(eval(marshal.loads(marshal.dumps(code)), {"x": 20}) == 41, "marshal code object")
check(marshal.loads(marshal.dumps([1, 2.5, "s", b"b", None])) == [1, 2.5, "s", b"b", None], "marshal data")

with tempfile.TemporaryDirectory() as d:
    with shelve.Shelf(dbm.dumb.open(os.path.join(d, "shelf"), "c")) as sh:
        sh["config"] = {"retries": 3, "hosts": ["a", "b"]}
        sh["node"] = Node("n", [Node("m")])
    with shelve.Shelf(dbm.dumb.open(os.path.join(d, "shelf"), "r")) as sh:
        check(sh["config"]["hosts"] == ["a", "b"] and sh["node"].children[0].name == "m", "shelve")
        check(sorted(sh.keys()) == ["config", "node"], "shelve keys")
    with shelve.open(os.path.join(d, "auto")) as sh:  # whichever dbm backend exists
        sh["k"] = [1, 2, 3]
    with shelve.open(os.path.join(d, "auto"), "r") as sh:
        check(sh["k"] == [1, 2, 3], "shelve.open")

print(f"ok {NAME}")
