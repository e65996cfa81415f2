"""Tool sources whose mode (run mode through run() or default(), or a
script) is easy to get wrong: defs nested in if, try, for, with, match, a
class or a function; decorated defs (a decorator over two lines, a class
named run); async def; run as a lambda or a class; line continuations
that put a nested def at column 0; form feeds, CRLF and lone CR ends,
coding cookies, a BOM; errors only the parser or only the compiler sees.

    python3 entry_cases.py HARNESS      the harness's mode of each source
                                        against the ast's, one line each
                                        that differs, then a summary
    python3 entry_cases.py --write DIR  each def alone and with a default()
                                        after it as DIR/caseN.py (the served
                                        against the one-shot test)
"""

import itertools
import sys

PREFIXES = [
    b"",
    b"import os\n",
    b'"""doc\ndef run(a): pass\n"""\n',
    b"# -*- coding: latin-1 -*-\n",
    b"\xef\xbb\xbf",
    b"x = (1,\n2)\n",
    b"raise SystemExit(3)\n",
    b"class C:\n    def run(self): return 'method'\n",
    b"# a comment that ends in a backslash \\\n",
]

DEFS = [
    b"def run(args):\n    return 'top'\n",
    b"async def run(args):\n    return 'async'\n",
    b"@staticmethod\ndef run(args):\n    return 'decorated'\n",
    b"@(\nlambda f: f)\ndef run(args):\n    return 'decorator over two lines'\n",
    b"@lambda f: f\n@lambda f: f\nasync def run(args):\n    return 'two decorators'\n",
    b"if True:\n    def run(args):\n        return 'in if'\n",
    b"try:\n    def run(args): return 'in try'\nexcept Exception:\n    pass\n",
    b"for _ in (1,):\n    def run(args): return 'in for'\n",
    b"with open('/dev/null'):\n    def run(args): return 'in with'\n",
    b"match 1:\n    case 1:\n        def run(args): return 'in match'\n",
    b"def f():\n    def run(args): return 'nested'\n",
    b"if False:\n    def run(args): return 'dead'\n",
    b"run = lambda args: 'lambda'\n",
    b"class run:\n    pass\n",
    b"@lambda c: c\nclass run:\n    pass\n",
    b"def run (args): return 'blank before ('\n",
    b"def\trun(args): return 'tab'\n",
    b"def \\\nrun(args): return 'continued'\n",
    b"async \\\ndef run(args): return 'async continued'\n",
    b"if 1:\n    \\\ndef run(args): return 'nested at column 0'\n",
    b"if 1:\n    @(\nlambda f: f)\n    def run(args): return 'nested decorator at column 0'\n",
    b"\x0cdef run(args): return 'form feed'\n",
    b"if 1:\n    pass\n    \x0cdef run(args): return 'form feed dedent'\n",
    b"def run(args):\r\n    return 'crlf'\r\n",
    b"x = 1\rdef run(args):\r    return 'cr'\r",
    b"def default(args): return 'default'\n",
    b"def run(args):\n    return 'then rebound'\nrun = 3\n",
    b"def run(args):\nreturn 1\n",
    b"def run(args): return 1\nreturn 2\n",
    b"def run(args): return 1\nnonlocal x\n",
    b"def run(args): return 1\n\x00\n",
    b"def run(args: return 1\n",
    b"print('a script')\n",
    # utf-7's +AAoAIAAgACAAIABc- is a newline, 4 blanks and a backslash:
    # run is nested on line 4, and the bytes' line 4 is a top-level def
    b"# coding: utf-7\nif 1:+AAoAIAAgACAAIABc-\ndef run(args): return 1\n"
    b"def other(args): return 2\n",
]

SUFFIXES = [b"", b"def default(args): return 'default'\n", b"x = 'def run'\n"]


def sources():
    for p, d, s in itertools.product(PREFIXES, DEFS, SUFFIXES):
        yield p + d + s


def _outcome(f, *a):
    try:
        return f(*a)
    except Exception as e:
        return type(e).__name__, str(e)


def check(harness_path):
    from importlib.machinery import SourceFileLoader

    sys.dont_write_bytecode = True  # no __pycache__ beside it: the rootfs holds what it lists

    h = SourceFileLoader("harness", harness_path).load_module()
    differ = fast = 0
    for i, src in enumerate(sources()):
        path = f"/tool/case{i}.py"
        want = _outcome(lambda: h._entry_point(src, path) if h._mentions_def_run(src) else None)
        got = _outcome(lambda: h._entry_and_code(src, path)[0])
        try:
            code = compile(src, path, "exec", dont_inherit=True)
        except Exception:
            code = None
        settled = code is not None and _outcome(h._defines_run, code, src)
        if type(settled) is tuple:
            print(f"case{i}: _defines_run raised {settled!r}: {src!r}")
            differ += 1
        elif settled:
            fast += 1
            tree = compile(src, path, "exec", 0x400, dont_inherit=True)  # PyCF_ONLY_AST
            names = {type(n).__name__ + " " + getattr(n, "name", "") for n in tree.body}
            if not names & {"FunctionDef run", "AsyncFunctionDef run"}:
                print(f"case{i}: _defines_run says yes, the ast has {sorted(names)}: {src!r}")
                differ += 1
        if got != want:
            print(f"case{i}: {got!r}, the ast's {want!r}: {src!r}")
            differ += 1
    print(f"{differ} differ; {fast} settled by the compiled module")


def write(folder):
    # (a served tool is JSON text: it cannot hold a NUL)
    for i, src in enumerate(d + s for d in DEFS if b"\0" not in d for s in SUFFIXES[:2]):
        with open(f"{folder}/case{i}.py", "wb") as f:
            f.write(src)


if __name__ == "__main__":
    if sys.argv[1] == "--write":
        write(sys.argv[2])
    else:
        check(sys.argv[1])
