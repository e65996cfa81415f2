"""Workload: what code-running tools do: ast parse/unparse, compile and
exec with their own globals, import a module written to /tmp, reload,
py_compile/compileall into /tmp, runpy, inspect, traceback, dis, tokenize,
sys.settrace, tracemalloc, cProfile, warnings."""
import ast
import compileall
import cProfile
import dis
import importlib
import inspect
import io
import os
import pstats
import py_compile
import runpy
import sys
import tempfile
import textwrap
import tokenize
import traceback
import tracemalloc
import warnings

NAME = "code_tools"


def check(cond, what):
    if not cond:
        sys.exit(f"FAIL {NAME}: {what}")


src = textwrap.dedent("""
    import math

    def area(r: float) -> float:
        '''circle area'''
        return math.pi * r ** 2

    result = [round(area(r), 3) for r in range(3)]
""")
tree = ast.parse(src)
funcs = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
check(funcs == ["area"] and ast.get_docstring(tree.body[1]) == "circle area", "ast.walk/get_docstring")
check("def area(r: float) -> float:" in ast.unparse(tree), "ast.unparse")
check(ast.literal_eval("{'a': [1, 2.5, (3, None)], 'b': -4j}") == {"a": [1, 2.5, (3, None)], "b": -4j}, "literal_eval")
try:
    ast.literal_eval("__import__('os')")
except ValueError:
    pass
else:
    check(False, "literal_eval ran code")


class Doubler(ast.NodeTransformer):
    def visit_Constant(self, node):
        return ast.copy_location(ast.Constant(node.value * 2), node) if isinstance(node.value, int) else node


expr = ast.fix_missing_locations(Doubler().visit(ast.parse("1 + 2 * 3", mode="eval")))
check(eval(compile(expr, "<t>", "eval")) == 2 + 4 * 6, "NodeTransformer")

env = {"__builtins__": __builtins__}
exec(compile(src, "<generated>", "exec"), env)
check(env["result"] == [0.0, 3.142, 12.566], f"exec result {env['result']}")
try:
    exec(compile("def f():\n    return 1 / 0\nf()", "<boom>", "exec"), {})
except ZeroDivisionError:
    tb = traceback.format_exc()
    check('File "<boom>", line 2, in f' in tb, f"traceback {tb}")
try:
    compile("def broken(:\n    pass", "<bad>", "exec")
except SyntaxError as e:
    check(e.lineno == 1 and e.filename == "<bad>", "SyntaxError location")

with tempfile.TemporaryDirectory() as d:
    pkg = os.path.join(d, "wlpkg")
    os.makedirs(pkg)
    with open(os.path.join(pkg, "__init__.py"), "w") as f:
        f.write("from .core import answer\n")
    with open(os.path.join(pkg, "core.py"), "w") as f:
        f.write("def answer():\n    return 41\n")
    sys.path.insert(0, d)
    import wlpkg
    check(wlpkg.answer() == 41, "import from /tmp")
    with open(os.path.join(pkg, "core.py"), "w") as f:
        f.write("def answer():\n    return 42\n")
    os.utime(os.path.join(pkg, "core.py"), (0, 2_000_000_000))
    importlib.invalidate_caches()
    core = importlib.reload(importlib.import_module("wlpkg.core"))
    check(core.answer() == 42, "reload")
    check(inspect.getsource(core.answer).startswith("def answer"), "inspect.getsource of a /tmp module")
    spec = importlib.util.spec_from_file_location("loose", os.path.join(pkg, "core.py"))
    loose = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loose)
    check(loose.answer() == 42, "spec_from_file_location")
    sys.path.remove(d)

    script = os.path.join(d, "script.py")
    with open(script, "w") as f:
        f.write("import sys\nout = sys.argv[1:] if __name__ == '__main__' else None\n")
    g = runpy.run_path(script, run_name="__main__")
    check(g["out"] == [], "runpy.run_path")
    check(runpy.run_module("json.tool", run_name="not_main")["main"] is not None, "runpy.run_module")
    pyc = py_compile.compile(script, cfile=os.path.join(d, "script.pyc"), doraise=True)
    check(os.path.getsize(pyc) > 16, "py_compile")
    check(compileall.compile_dir(pkg, quiet=1, force=True), "compileall")
    # where the .pyc goes depends on PYTHONPYCACHEPREFIX (set in the sandbox)
    check(os.path.exists(importlib.util.cache_from_source(os.path.join(pkg, "core.py"))), "compiled .pyc written")

# inspect the running script itself (its file is bound read-only)
check("def check(cond, what):" in inspect.getsource(check), "getsource of the script")
sig = inspect.signature(lambda a, b=2, *c, d, **e: None)
check(str(sig) == "(a, b=2, *c, d, **e)", f"signature {sig}")
check(inspect.getmodule(check).__name__ == "__main__" and inspect.isfunction(check), "getmodule")
frame = inspect.currentframe()
check(frame.f_code.co_filename == __file__ and inspect.stack()[0].function == "<module>", "frames")

ops = [i.opname for i in dis.get_instructions(lambda x: x + 1)]
check("BINARY_OP" in ops and "RETURN_VALUE" in ops, f"dis {ops}")
toks = [t.string for t in tokenize.generate_tokens(io.StringIO("x = f(1, 'a')  # c\n").readline)]
check(toks[:6] == ["x", "=", "f", "(", "1", ","] and "# c" in toks, "tokenize")

calls = []


def tracer(frame, event, arg):
    if event == "call":
        calls.append(frame.f_code.co_name)
    return None


def traced():
    return sum(range(10))


sys.settrace(tracer)
traced()
sys.settrace(None)
check(calls == ["traced"], f"settrace {calls}")

tracemalloc.start()
blob = [bytes(1000) for _ in range(1000)]
current, peak = tracemalloc.get_traced_memory()
tracemalloc.stop()
check(current >= 1_000_000 and peak >= current, "tracemalloc")
del blob

prof = cProfile.Profile()
prof.enable()
sorted(range(10000), key=lambda v: -v)
prof.disable()
s = io.StringIO()
pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(3)
check("function calls" in s.getvalue(), "cProfile")

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("old api", DeprecationWarning)
check(len(w) == 1 and issubclass(w[0].category, DeprecationWarning), "warnings")

print(f"ok {NAME}")
