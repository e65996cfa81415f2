"""Workload: collections, itertools, functools, dataclasses, typing, enum,
operator, copy, contextlib."""
import contextlib
import copy
import dataclasses
import enum
import functools
import itertools
import operator
import sys
import typing
from collections import ChainMap, Counter, OrderedDict, defaultdict, deque, namedtuple
from dataclasses import dataclass, field

NAME = "stdlib_data"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


words = "the cat and the hat and the bat".split()
c = Counter(words)
check(c.most_common(2) == [("the", 3), ("and", 2)] and c["dog"] == 0, "Counter")
check((c + Counter(cat=2))["cat"] == 3 and c.total() == 8, "Counter arithmetic")
dd = defaultdict(list)
for w in words:
    dd[len(w)].append(w)
check(sorted(dd) == [3] and len(dd[3]) == 8, "defaultdict")
od = OrderedDict.fromkeys("abc")
od.move_to_end("a")
check(list(od) == ["b", "c", "a"], "OrderedDict")
dq = deque(range(5), maxlen=5)
dq.append(5)
dq.rotate(2)
check(list(dq) == [4, 5, 1, 2, 3], "deque")
Point = namedtuple("Point", "x y", defaults=[0])
p = Point(1)
check(p == (1, 0) and p._replace(y=5).y == 5 and p._asdict() == {"x": 1, "y": 0}, "namedtuple")
cm = ChainMap({"a": 1}, {"a": 2, "b": 3})
check(cm["a"] == 1 and cm["b"] == 3 and len(cm) == 2, "ChainMap")

check(list(itertools.accumulate([1, 2, 3, 4], operator.mul)) == [1, 2, 6, 24], "accumulate")
check(list(itertools.chain.from_iterable([[1], [2, 3]])) == [1, 2, 3], "chain")
check(len(list(itertools.combinations(range(6), 3))) == 20, "combinations")
check(len(list(itertools.permutations("abcd"))) == 24, "permutations")
check(list(itertools.product("ab", repeat=2)) == [tuple("aa"), tuple("ab"), tuple("ba"), tuple("bb")], "product")
check([(k, len(list(g))) for k, g in itertools.groupby("aaabccdd")] == [("a", 3), ("b", 1), ("c", 2), ("d", 2)], "groupby")
check(list(itertools.islice(itertools.count(10, 5), 3)) == [10, 15, 20], "count/islice")
check(list(itertools.pairwise("abc")) == [("a", "b"), ("b", "c")], "pairwise")
check(list(itertools.zip_longest("ab", "x", fillvalue="-")) == [("a", "x"), ("b", "-")], "zip_longest")
check(list(itertools.starmap(pow, [(2, 3), (3, 2)])) == [8, 9], "starmap")
a, b = itertools.tee(iter(range(3)))
check(list(a) == list(b) == [0, 1, 2], "tee")


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


check(fib(200) == 280571172992510140037611932413038677189525, "lru_cache fib")
check(fib.cache_info().hits > 100, "cache hits")
check(functools.reduce(operator.add, range(101)) == 5050, "reduce")
check(functools.partial(int, base=2)("1010") == 10, "partial")


@functools.singledispatch
def kind(x):
    return "other"


@kind.register
def _(x: int):
    return "int"


@kind.register
def _(x: list):
    return "list"


check((kind(1), kind([]), kind("s")) == ("int", "list", "other"), "singledispatch")


@functools.total_ordering
class Version:
    def __init__(self, s):
        self.t = tuple(map(int, s.split(".")))

    def __eq__(self, o):
        return self.t == o.t

    def __lt__(self, o):
        return self.t < o.t


check(sorted(["1.10", "1.2", "1.9"], key=Version) == ["1.2", "1.9", "1.10"] and Version("2.0") >= Version("1.99"), "total_ordering")
check(sorted(["b", "A", "c"], key=functools.cmp_to_key(lambda x, y: (x.lower() > y.lower()) - (x.lower() < y.lower()))) == ["A", "b", "c"], "cmp_to_key")


@dataclass(order=True, frozen=True)
class Item:
    price: float
    name: str = field(compare=False)
    tags: tuple = ()


@dataclass
class Cart:
    items: list = field(default_factory=list)
    owner: typing.Optional[str] = None

    def total(self) -> float:
        return sum(i.price for i in self.items)


cart = Cart([Item(2.5, "b"), Item(1.0, "a", ("x",))])
check(cart.total() == 3.5 and sorted(cart.items)[0].name == "a", "dataclass order")
check(dataclasses.asdict(cart) == {"items": [{"price": 2.5, "name": "b", "tags": ()},
                                             {"price": 1.0, "name": "a", "tags": ("x",)}], "owner": None}, "asdict")
try:
    cart.items[0].price = 3
except dataclasses.FrozenInstanceError:
    pass
else:
    check(False, "frozen dataclass mutated")
check(dataclasses.replace(cart.items[0], price=9).price == 9 and [f.name for f in dataclasses.fields(Item)] == ["price", "name", "tags"], "replace/fields")


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


class Mode(enum.StrEnum):
    FAST = enum.auto()


check(Color(2) is Color.GREEN and Color["RED"].value == 1 and list(Color) == [Color.RED, Color.GREEN], "Enum")
check(Perm.R | Perm.W == 6 and Perm.X in Perm(7) and Mode.FAST == "fast", "IntFlag/StrEnum")

T = typing.TypeVar("T")


class Box(typing.Generic[T]):
    def __init__(self, v: T):
        self.v = v


class Movie(typing.TypedDict):
    title: str
    year: int


def f(x: typing.List[int], y: "typing.Dict[str, Box[int]]" = None) -> typing.Union[int, None]:
    return None


hints = typing.get_type_hints(f)
check(hints["x"] == typing.List[int] and hints["return"] == typing.Optional[int], "get_type_hints")
check(typing.get_origin(list[int]) is list and typing.get_args(dict[str, int]) == (str, int), "get_origin/args")
check(Movie.__required_keys__ == frozenset({"title", "year"}) and Box[int](3).v == 3, "TypedDict/Generic")


@typing.runtime_checkable
class Closable(typing.Protocol):
    def close(self) -> None: ...


check(isinstance(open("/dev/null"), Closable) and not isinstance(1, Closable), "runtime_checkable Protocol")

nested = {"a": [1, {"b": 2}]}
deep = copy.deepcopy(nested)
deep["a"][1]["b"] = 3
check(nested["a"][1]["b"] == 2 and copy.copy(nested)["a"] is nested["a"], "copy/deepcopy")
check(operator.itemgetter(1, 0)("ab") == ("b", "a") and operator.attrgetter("real")(3) == 3, "operator getters")


@contextlib.contextmanager
def tag(log, name):
    log.append(f"<{name}>")
    try:
        yield
    finally:
        log.append(f"</{name}>")


log = []
with contextlib.ExitStack() as stack:
    stack.enter_context(tag(log, "a"))
    stack.enter_context(tag(log, "b"))
    with contextlib.suppress(KeyError):
        {}["missing"]
check(log == ["<a>", "<b>", "</b>", "</a>"], "ExitStack")
out = __import__("io").StringIO()
with contextlib.redirect_stdout(out):
    print("captured")
check(out.getvalue() == "captured\n", "redirect_stdout")

print(f"ok {NAME}")
