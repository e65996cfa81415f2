"""toolcell's in-sandbox harness for `toolcell call`.

Invoked inside the sandbox as

    /usr/bin/python3 -I /usr/lib/toolcell/harness.py /abs/path/TOOL.py

or, the same code precompiled by the rootfs builder (saves compiling this file
at every call, about 1 ms),

    /usr/bin/python3 -I /usr/lib/toolcell/harness.pyc /abs/path/TOOL.py

with one JSON request on stdin (toolcell has already validated it: one JSON
value, valid UTF-8) and stdin closed after it. The harness runs in the tool's
own process, so toolcell trusts nothing it prints: toolcell validates the
response and builds `meta` and every `"source": "toolcell"` error itself.

Contract
--------
Mode. Decided from TOOL.py's source, never by importing it: the tool is in
*run mode* when its module body defines a top-level `def run(...)` or
`async def run(...)`, or else `def default(...)` (PyRunner 8b9ee80's
fallback) (decided only when the text contains `def`, blanks, `run` or
`default`: then by the compiled module's functions where they settle it,
else by parsing the source with the ast parser); otherwise it is in *script
mode*.

Run mode. The real stdout is kept on a private close-on-exec fd, fd 1 is
pointed at stderr and `sys.stdout` rebound to `sys.stderr`, so a stray
`print()`, in this process or a child, lands on stderr. The harness reads all
of stdin and decodes it as JSON (`args`), imports TOOL.py once from its path
as module `__toolcell_tool__`, and calls `run(args)` (or `default(args)`);
a coroutine returned
(`async def run`) is run with `asyncio.run`. Then it writes exactly one line,
the response, to the private fd:
  - a returned dict whose "ok" is a bool is the response as it is;
  - any other returned value v gives {"ok": true, "data": v};
  - an exception e raised while reading the request, importing the tool or
    running it (any BaseException, SystemExit and KeyboardInterrupt included)
    gives {"ok": false, "error": {"type": type(e).__name__, "message": str(e)}}
    (the message cut to MESSAGE_MAX characters) and its traceback on stderr;
  - MemoryError keeps its message (Python's own is ""); only when even
    that response cannot be built, one made before the tool ran says
    "out of memory";
  - a value json.dumps(..., allow_nan=False) refuses (or a string that is not
    valid Unicode) gives {"ok": false, "error": {"type": "TypeError",
    "message": "run() returned a value that is not JSON: ..."}}.
The response is encoded as json.dumps(resp, allow_nan=False,
ensure_ascii=False, separators=(",", ":")) in UTF-8, plus "\\n". The harness
then exits 0 through a normal interpreter exit (atexit handlers run, open
files are flushed, non-daemon threads are waited for); it exits 1 if the
response could not be written.

Script mode. TOOL.py runs as `__main__` exactly as runpy.run_path(path,
run_name="__main__") would run it (sys.argv == [path]), stdin and stdout
untouched: it reads the request from stdin and prints one JSON document
itself. Its exit status passes through (SystemExit as usual, 1 with a
traceback for an uncaught exception).

Errors before the tool runs. TOOL.py cannot be read, or its bytes cannot
be source (a null byte, a bad encoding): one line on stderr and exit 2, as
python3 does for a missing script. A SyntaxError (IndentationError,
TabError) in TOOL.py is the tool's failure in either mode: the response
{"ok": false, "error": {"type": "SyntaxError", "message": "expected ':'
(/path/TOOL.py, line 3)"}} on stdout, python3's report of it on stderr,
exit 0 (as a run() that raised).
"""

import _warnings
import os
import sys

MESSAGE_MAX = 8192  # characters of an exception message kept in the response
TOOL_MODULE = "__toolcell_tool__"
NOT_JSON = "run() returned a value that is not JSON: "
OUT_OF_MEMORY = b'{"ok":false,"error":{"type":"MemoryError","message":"out of memory"}}\n'
WHITESPACE = " \t\n\r"  # JSON's


async def _probe():
    pass


_p = _probe()
_COROUTINE = type(_p)  # types.CoroutineType, without importing types
_p.close()
del _p
_CODE = type(_probe.__code__)  # types.CodeType
CO_NEWLOCALS = 0x2  # inspect's: a function's code, not a class body's


def _fail(message):
    sys.stderr.write("harness: " + message.replace("\n", " ") + "\n")
    sys.exit(2)


def _mentions_def_run(source):
    """Cheap pre-test: does `def`, then spaces or tabs, then `run` or `default` occur?"""
    i = source.find(b"def")
    while i >= 0:
        j = i + 3
        while source[j:j + 1] in (b" ", b"\t"):
            j += 1
        if j > i + 3 and (source.startswith(b"run", j) or source.startswith(b"default", j)):
            return True
        i = source.find(b"def", i + 3)
    return False


def _defines_run(code, source):
    """True when the module body of source (code, its compiled module)
    surely defines a top-level run(), as _entry_point would find it; False
    when it does not or that is not sure (_entry_point then decides). A
    function of the module's own level is a code object among the module's
    constants, named by its def, with CO_NEWLOCALS (a class body has none);
    its first line is that of its first decorator's expression or of its
    def. That line starting with `@`, `def ` or `async ` at column 0, the
    line before not continuing into it (backslash), makes it a statement at
    indentation 0: one of the module body, never one inside if, try, for,
    with, match or a class. Any \\r or coding cookie (which change what a
    line is) leaves it to _entry_point."""
    second = source.find(b"\n", source.find(b"\n") + 1)  # the end of line 2
    if b"\r" in source or source.find(b"coding", 0, len(source) if second < 0 else second) >= 0:
        return False
    for const in code.co_consts:
        if type(const) is _CODE and const.co_name == "run" and const.co_flags & CO_NEWLOCALS:
            n = const.co_firstlineno
            lines = source.split(b"\n", n)
            if (lines[n - 1].startswith((b"@", b"def ", b"def\t", b"async ", b"async\t"))
                    and (n == 1 or not lines[n - 2].endswith(b"\\"))):
                return True
    return False


def _entry_and_code(source, path):
    """(entry, code): entry as _entry_point finds it ("run", "default" or
    None), looked for only when _mentions_def_run; code the module compiled
    (dont_inherit, as an import compiles it) or None when that failed and
    the tool is in run mode (its import meets the error then, as always).
    Raises what parsing or compiling the source raises otherwise."""
    code = _compile_silent(source, path)
    if not _mentions_def_run(source):
        entry = None
    elif code is not None and _defines_run(code, source):
        entry = "run"
    else:
        entry = _entry_point(source, path)
    if entry is None and code is None:
        code = compile(source, path, "exec", dont_inherit=True)
    return entry, code


def _compile_silent(source, path):
    """source compiled as an import compiles it, or None when that fails or
    would warn (a SyntaxWarning, an invalid escape's DeprecationWarning):
    a warning raised as an error here is no warning shown, so each warning
    comes where it always came, from the compile of the import or the
    script, once (the registry is not touched: a compile warns without
    one)."""
    warnings = sys.modules.get("warnings")  # its filters are the ones that act when imported
    filters = _warnings.filters if warnings is None else warnings.filters
    silent = ("error", None, Warning, None, 0)
    filters.insert(0, silent)
    try:
        return compile(source, path, "exec", dont_inherit=True)
    except Exception:  # raised again by the parse, or by the compile that follows
        return None
    finally:
        filters.remove(silent)


def _entry_point(source, path):
    """"run" when the module body defines run(), else "default" when it
    defines default(), else None. Parses only (no import of ast.py)."""
    import _ast

    tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    names = {node.name for node in tree.body
             if type(node) in (_ast.FunctionDef, _ast.AsyncFunctionDef)}
    return "run" if "run" in names else "default" if "default" in names else None


def _codec():
    """(loads, dumps) with the semantics of json.loads and of json.dumps(allow_nan=False,
    ensure_ascii=False, separators=(",", ":")), made straight from the C accelerator
    _json the json package itself uses: importing json costs several ms (re, enum)."""
    try:
        import _json

        class Context:  # what json.JSONDecoder hands make_scanner
            strict = True
            object_hook = object_pairs_hook = None
            parse_float, parse_int, parse_constant = float, int, float

        def default(o):
            raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")

        def encoder():  # fresh cycle markers each time, as json.dumps makes them
            return _json.make_encoder({}, default, _json.encode_basestring, None, ":", ",",
                                      False, False, False)

        scan = _json.make_scanner(Context)
        encoder()  # fail here, not later, if the signature ever changes
    except (ImportError, AttributeError, TypeError):
        import json

        return json.loads, lambda o: json.dumps(o, allow_nan=False, ensure_ascii=False,
                                                separators=(",", ":"))

    def loads(data):
        text = data.decode("utf-8")
        start = len(text) - len(text.lstrip(WHITESPACE))
        try:
            value, end = scan(text, start)
        except StopIteration:
            raise ValueError(f"request is not JSON: expecting a value at {start}") from None
        if text[end:].strip(WHITESPACE):
            raise ValueError(f"request is not JSON: extra data at {end}")
        return value

    def dumps(obj):
        return "".join(encoder()(obj, 0))

    return loads, dumps


def _message(e):
    try:
        text = str(e)
    except BaseException:  # a hostile __str__
        text = f"<unprintable {type(e).__name__} object>"
    if len(text) > MESSAGE_MAX:
        text = text[:MESSAGE_MAX] + "..."
    return text


def _error(dumps, type_name, message):
    # backslashreplace: a lone surrogate in a message must not cost the response
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    doc = {"ok": False, "error": {"type": type_name, "message": message}}
    return dumps(doc).encode("utf-8") + b"\n"


def _print_traceback(e):
    try:
        import traceback

        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_globals is globals():
            tb = tb.tb_next  # the harness's own frames say nothing about the tool
        traceback.print_exception(type(e), e, tb)
        sys.stderr.flush()
    except BaseException:
        pass


def _read_request():
    """The request: stdin to its EOF (the warm harness reads it its own way)."""
    return sys.stdin.buffer.read()


def _load_run(path, entry):
    try:  # what importlib.util re-exports, already loaded at start-up
        from _frozen_importlib import module_from_spec
        from _frozen_importlib_external import spec_from_file_location
    except ImportError:
        from importlib.util import module_from_spec, spec_from_file_location
    spec = spec_from_file_location(TOOL_MODULE, path)
    module = module_from_spec(spec)
    sys.modules[TOOL_MODULE] = module
    spec.loader.exec_module(module)
    return getattr(module, entry)


def _call(path, entry, loads, dumps):
    """Everything the tool can influence; returns the response bytes."""
    try:
        args = loads(_read_request())
        run = _load_run(path, entry)
        result = run(args)
        if type(result) is _COROUTINE:
            import asyncio

            result = asyncio.run(result)
    except MemoryError as e:
        try:  # the tool's own words ("" when Python itself ran out)
            return _error(dumps, "MemoryError", _message(e))
        except MemoryError:
            return OUT_OF_MEMORY
        finally:
            _print_traceback(e)
    except BaseException as e:
        _print_traceback(e)
        return _error(dumps, type(e).__name__, _message(e))
    if isinstance(result, dict) and type(dict.get(result, "ok")) is bool:
        response = result
    else:
        response = {"ok": True, "data": result}
    del result
    try:
        return dumps(response).encode("utf-8") + b"\n"
    except MemoryError:
        return OUT_OF_MEMORY
    except Exception as e:  # TypeError, ValueError (NaN, cycles), RecursionError, UnicodeError
        return _error(dumps, "TypeError", NOT_JSON + _message(e))


def _write_response(out, response, close=True):
    try:
        n = os.write(out, response)
        if n < len(response):  # a pipe takes the whole response at once when it has room
            view = memoryview(response)[n:]
            while view:
                view = view[os.write(out, view):]
        if close:
            os.close(out)
    except OSError as e:
        sys.stderr.write(f"harness: cannot write the response: {e.strerror}\n")
        sys.exit(1)


def _run_mode(path, entry):
    loads, dumps = _codec()
    out = os.dup(1)  # the real stdout; os.dup makes it close-on-exec
    os.dup2(2, 1)  # fd 1 is stderr now, for this process and its children
    sys.stdout = sys.stderr
    try:
        response = _call(path, entry, loads, dumps)
    except MemoryError:
        response = OUT_OF_MEMORY
    _write_response(out, response)


def _syntax_error(e):
    """TOOL.py does not compile: python3's report on stderr, the error as
    the response on stdout."""
    sys.stderr.write("".join(_format_syntax_error(e)))
    _, dumps = _codec()
    _write_response(1, _error(dumps, type(e).__name__, _message(e)))
    sys.exit(0)


def _format_syntax_error(e):
    try:
        import traceback

        return traceback.format_exception_only(type(e), e)
    except BaseException:
        return [f"{type(e).__name__}: {e}\n"]


def _script_mode(path, code):
    main = type(sys)("__main__")
    # the globals runpy.run_path(path, run_name="__main__") gives a plain file
    main.__dict__.update(__file__=path, __cached__=None, __loader__=None, __package__="",
                         __spec__=None)
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    except Exception as e:  # report it as python3 would, without the harness's frame
        tb = e.__traceback__
        e.__traceback__ = tb.tb_next if tb is not None else None
        sys.excepthook(type(e), e, e.__traceback__)
        sys.exit(1)


def main():
    if len(sys.argv) != 2:
        _fail("usage: python3 -I harness.py /abs/path/TOOL.py")
    path = sys.argv[1]
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        _fail(f"can't open file {path!r}: [Errno {e.errno}] {e.strerror}")
    sys.argv = [path]
    try:
        entry, code = _entry_and_code(source, path)
    except SyntaxError as e:  # IndentationError, TabError: the tool's own failure
        _syntax_error(e)
    except (ValueError, RecursionError, MemoryError) as e:  # null bytes, bad encoding, too deep
        _fail(f"{path}: {type(e).__name__}: {e}")
    if entry is not None:
        del code  # the import compiles the file itself
        _run_mode(path, entry)
    else:
        del source
        _script_mode(path, code)


if __name__ == "__main__":
    main()
