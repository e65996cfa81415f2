"""toolcell's warm harness for `toolcell serve`: one pool entry.

Invoked inside a fresh sandbox as

    /usr/bin/python3 -I /usr/lib/toolcell/serve.pyc MODULE,MODULE,...

It loads the `call` harness (harness.pyc, beside it) as a module, imports
the listed modules (the policy's serve.preimport; one that cannot be
imported is skipped), rehearses a call once on toolcell's own small tool
(_rehearse: the pages every call touches, faulted in now), writes one
line on stdout,

    TOOLCELL-READY <CPU ms the warm-up used, 10 digits>\\n   (26 bytes)

and blocks reading its stdin. Until then it has run only toolcell's code:
no request has reached it. Then exactly one request frame arrives, and EOF:

    b"%-4s %010d %010d %010d\\n" % (kind, len(source), len(meta), len(rest))   38 bytes
    meta: JSON {"name": "tool.py", "argv": [...], "rlimits": {...}}
    source: the tool's or script's text (UTF-8)
    blanks up to BLOCK bytes from the frame's start, when it is shorter
    the rest: call: the request (JSON, the tool's args); exec: the script's stdin

The frame is read in one read of BLOCK bytes (and one more of its size
past that, when it is longer): never a byte of the rest, which a tool in
script mode reads itself as a one-shot run's script does. In run mode the
request is read with one read of its size.

kind "sess": the session harness (session.pyc, beside it) runs in this
interpreter as `python3 -I -S session.pyc CONFIG` would run it: the source
is CONFIG, meta's argv its working folder, nothing follows. What the `site`
module added (builtins such as exit and help, site-packages folders on
sys.path) is taken away first, and the session's lines then come on stdin
until EOF (`toolcell session --server`).

kind "call": exactly what harness.py does for a tool file at /tool/NAME
(run mode when it defines run() or default(), else script mode), except
that the tool's module is made from the source text, never read from a
file. kind "exec": the script runs as __main__ with sys.argv = [/tool/NAME]
+ argv, its stdin the rest of ours, as python3 would run it. The entry is
never used again: toolcell ends the sandbox with its PID namespace. The
exit is quick: threads joined, atexit handlers run and stdio flushed as a
normal exit does, then os._exit (module teardown would cost ~10 ms).
"""

import _imp
import _signal
import _thread
import gc
import os
import sys
from _frozen_importlib import ModuleSpec

# No collection during the warm-up: what it makes lives as long as the
# entry, so the collections the imports would trigger (5% of an entry's
# instructions) find no garbage (_warm hands it all to the oldest generation)
gc.disable()

HARNESS = "/usr/lib/toolcell/harness.pyc"
SESSION = "/usr/lib/toolcell/session.pyc"
RE_CACHE = "/usr/lib/toolcell/serve-re.marshal"
IMPORT_MAP = "/usr/lib/toolcell/serve-imports.marshal"
HEAD = 38  # ten digits each: a request may be up to 1 GiB (limits.request_size)
BLOCK = 4096  # serve-internal.h's SERVE_FRAME_BLOCK: the frame's least size
_GO = (_signal.SIGURG,)  # toolcell's go at the end (_quick_exit)
GO_WAIT = 0.001  # s: without it (the output is held elsewhere) the exit comes anyway
# atexit's _run_exitfuncs, from an atexit module of the harness's own (its
# handlers are the interpreter's, whichever module registered them): a cold
# `import atexit` at the exit costs ~40 us, and importing it here would put
# it in sys.modules, where a one-shot run has no atexit
_ATEXIT = _imp.create_builtin(ModuleSpec("atexit", None))
_RUN_EXITFUNCS, _NCALLBACKS = _ATEXIT._run_exitfuncs, _ATEXIT._ncallbacks
del _ATEXIT
# a call's response, held for the exit (_respond): the harness's own writer,
# the fd, the bytes (None once written)
_RESPONSE = []


def _load_harness():
    from _frozen_importlib_external import SourcelessFileLoader

    module = type(sys)("toolcell_harness")
    module.__file__ = HARNESS
    code = SourcelessFileLoader("toolcell_harness", HARNESS).get_code("toolcell_harness")
    exec(code, module.__dict__)
    return module


def _read_exactly(n):
    chunks = []
    while n > 0:
        b = os.read(0, min(n, 1 << 20))
        if not b:
            raise EOFError("the request frame ended early")
        chunks.append(b)
        n -= len(b)
    return b"".join(chunks)


def _re_cache():
    """re's cache as importing json fills it, from what importing json gave
    _sre.compile when the rootfs was built (its re-cache rule, run by this
    interpreter): json then finds its six patterns compiled, 2M of an
    entry's instructions. Nothing when another interpreter made the file."""
    import marshal

    try:
        with open(RE_CACHE, "rb") as f:
            version, magic, table = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return
    import _sre
    import re

    if version != sys.version or magic != _sre.MAGIC:
        return
    for pattern, flags, args in table:
        re._cache[type(pattern), pattern, flags] = _sre.compile(*args)


class _Found:
    """The warm-up's own finder, first on sys.meta_path while it imports:
    the modules of the default preimports where the rootfs's build found
    them (its import-map rule, run by this interpreter), each with the spec
    PathFinder would make (a FileFinder's), so that the import system does
    not look for them again (a stat of each folder and candidate file, each
    package's listing: 0.2 ms of an entry). What it does not hold is
    PathFinder's. Gone from sys.meta_path before any request."""
    table = {}

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        found = cls.table.get(name)
        if found is None:
            return None
        from _frozen_importlib_external import (ExtensionFileLoader, SourceFileLoader,
                                                spec_from_file_location)

        origin, search, extension = found
        loader = (ExtensionFileLoader if extension else SourceFileLoader)(name, origin)
        return spec_from_file_location(name, origin, loader=loader,
                                       submodule_search_locations=search)


def _import_map():
    """The import-map file's table; none when another interpreter made it."""
    import marshal

    try:
        with open(IMPORT_MAP, "rb") as f:
            version, table = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return table if version == sys.version and type(table) is dict else {}


def _warm(h, modules):
    _Found.table = _import_map()
    sys.meta_path.insert(0, _Found)
    try:
        if "json" in modules.split(","):
            _re_cache()
        for name in modules.split(",") if modules else ():
            try:
                __import__(name)
            except Exception:  # not in this rootfs: the tool's own import will say so
                pass
    finally:
        sys.meta_path.remove(_Found)
        _Found.table = {}
    # What every call does first, done once here and off the call's path:
    # the interpreter's first compile to an AST builds the ast types
    # (0.1-0.8 ms), and the harness's JSON codec is made once.
    h._entry_point(b"def run(args):\n    pass\n", "/tool/warm.py")
    codec = h._codec()
    h._codec = lambda: codec
    _rehearse(h, codec)
    # everything made so far into the oldest generation, as surviving the
    # collections would have put it, none frozen (gc.get_referrers sees
    # it all); the call's objects are collected as usual
    gc.freeze()
    gc.unfreeze()
    gc.enable()
    t = os.times()
    # fixed width: the server adds exactly its length to the stdout cap
    os.write(1, b"TOOLCELL-READY %010d\n" % int((t.user + t.system) * 1000))


# toolcell's own tool, run once by the warm-up as a call runs a tool
_REHEARSAL = (b"def run(args):\n    words = str(args.get('text', '')).split()\n"
              b"    return {'words': len(words), 'chars': sum(map(len, words)), 'x': 0.5,"
              b" 'list': [True, None, -1]}\n")


def _rehearse(h, codec):
    """A call's own path once, on _REHEARSAL, in a namespace thrown away:
    the compile, the module's code, run() and the response's encoding, so
    that the pages of the interpreter, libm and the heap that every call
    touches are there before a call comes (12 page faults a call were the
    first touches of such pages). Nothing of it stays where a tool looks:
    no module, no linecache entry, no warnings registry."""
    loads, dumps = codec
    namespace = {"__name__": "toolcell_rehearsal"}
    try:
        int(b"0000000125")  # a frame's lengths: int of bytes runs libm's log (PyLong_FromString)
        entry, code = h._entry_and_code(_REHEARSAL, "/tool/warm.py")
        exec(code, namespace)
        dumps({"ok": True, "data": namespace[entry](loads(b'{"text": "a b c"}'))})
    except Exception:  # a rootfs without what it needs: the call finds out
        pass
    finally:  # run() and its globals hold each other: freed now, even after a failure
        namespace.clear()


def _call(h, path, source):
    try:
        entry, code = h._entry_and_code(source, path)
    except SyntaxError as e:
        h._syntax_error(e)
    except (ValueError, RecursionError, MemoryError) as e:
        h._fail(f"{path}: {type(e).__name__}: {e}")
    if entry is None:
        h._script_mode(path, code)
        return

    def load(_path, name):
        module = type(sys)(h.TOOL_MODULE)
        module.__file__ = path
        sys.modules[h.TOOL_MODULE] = module
        # compiled once, before the mode was known (None: it did not compile)
        exec(code or compile(source, path, "exec", dont_inherit=True), module.__dict__)
        return getattr(module, name)

    h._load_run = load
    h._run_mode(path, entry)


def _exec(h, path, source, argv):
    sys.argv = [path] + argv
    try:
        code = compile(source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        sys.stderr.write("".join(h._format_syntax_error(e)))
        sys.exit(1)
    h._script_mode(path, code)


_RLIMITS = {"as": "RLIMIT_AS", "fsize": "RLIMIT_FSIZE", "nofile": "RLIMIT_NOFILE"}


def _lower_rlimits(asked):
    """The call's own limits, set before its code runs: each only lowers
    what the entry has (a process can never raise them again). cpu_ms
    counts from now: the warm-up's CPU is added and the sum cut to whole
    seconds (never more than asked, as a one-shot run's start-up counts
    against its own), soft (SIGXCPU) and hard a second later, as toolcell
    sets RLIMIT_CPU."""
    if not asked:
        return
    import resource

    for key, value in asked.items():
        if key == "cpu_ms":
            t = os.times()
            soft = max(1, int(t.user + t.system + value / 1000))
            res, want = resource.RLIMIT_CPU, (soft, soft + 1)
        else:
            res, want = getattr(resource, _RLIMITS[key]), (value, value)
        cur = resource.getrlimit(res)
        low = [w if c == resource.RLIM_INFINITY else min(c, w) for c, w in zip(cur, want)]
        resource.setrlimit(res, (min(low), low[1]))


class _Remembered:
    """linecache's entry for the served source, given to linecache when
    something first imports it (a traceback, inspect): importing linecache
    in the warm-up cost every entry 5M instructions (it imports tokenize),
    and most calls never need it. A finder on sys.meta_path until then."""

    path = source = None

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "linecache":
            return None
        if cls in sys.meta_path:  # the tool may have moved it
            sys.meta_path.remove(cls)
        from _frozen_importlib_external import PathFinder

        spec = PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                module.cache[cls.path] = _lines(cls.path, cls.source)

            spec.loader.exec_module = exec_module
        return spec


def _remember(path, source):
    """The source as linecache's entry for path, as if a file held it:
    tracebacks show its lines and inspect.getsource finds it (no file is
    at path; the tool came as text)."""
    if not source.isascii():
        try:
            source.decode("utf-8")
        except UnicodeDecodeError:
            return
    if "linecache" in sys.modules:  # a preimport brought it
        sys.modules["linecache"].cache[path] = _lines(path, source)
        return
    _Remembered.path, _Remembered.source = path, source  # its lines made when asked
    sys.meta_path.insert(0, _Remembered)


def _lines(path, source):
    """linecache's entry for path holding source (UTF-8)."""
    return len(source), None, source.decode("utf-8").splitlines(True), path


def _session(meta, config):
    """The session harness, as a cold `toolcell session` runs it (-S):
    what site added taken away, its argv and working folder."""
    import builtins
    from _frozen_importlib_external import SourcelessFileLoader

    site = sys.modules.get("site")
    dirs = tuple(site.getsitepackages()) if site else ()
    sys.path[:] = [p for p in sys.path if not p.startswith(dirs)]
    for name in ("exit", "quit", "help", "copyright", "credits", "license"):
        builtins.__dict__.pop(name, None)
    os.chdir(meta["argv"][0])
    sys.argv = [SESSION, config]
    module = type(sys)("__main__")
    module.__file__ = SESSION
    sys.modules["__main__"] = module
    code = SourcelessFileLoader("__main__", SESSION).get_code("__main__")
    exec(code, module.__dict__)


def main():
    h = _load_harness()
    _warm(h, sys.argv[1] if len(sys.argv) > 1 else "")
    loads, _ = h._codec()
    frame = _read_exactly(BLOCK)
    kind, src_len, meta_len = frame[:4], int(frame[5:15]), int(frame[16:26])  # kinds: 4 letters
    rest = int(frame[27:37])
    end = HEAD + meta_len + src_len
    if end > BLOCK:  # the frame's own bytes only: what follows is the tool's stdin
        frame += _read_exactly(end - BLOCK)
    meta = loads(frame[HEAD:HEAD + meta_len])
    source = frame[HEAD + meta_len:end]
    del frame
    path = "/tool/" + meta["name"]
    _lower_rlimits(meta.get("rlimits"))
    if kind == b"sess":
        _session(meta, source.decode("utf-8"))
        return
    _remember(path, source)
    if kind == b"call":
        sys.argv = [path]
        h._read_request = lambda: _read_exactly(rest)
        write = h._write_response
        h._write_response = lambda out, response: _RESPONSE.extend((write, out, response))
        _call(h, path, source)
    else:
        _exec(h, path, source, meta["argv"])


def _exit_code(e):
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(f"{code}\n")
    except BaseException:
        pass
    return 1


def _respond(code, close):
    """The call's response, if one is held, written as the harness writes it
    (closed with it when tool code may still run, as a one-shot run closes
    it: nothing written after it reaches the response; else _quick_exit
    closes it with stdout and stderr); the exit status its failure makes,
    or code."""
    if not _RESPONSE or _RESPONSE[2] is None:
        return code
    write, out, response = _RESPONSE
    _RESPONSE[2] = None
    if close:
        _RESPONSE[1] = 2  # gone: _quick_exit closes stdout and stderr only
    try:
        write(out, response, close)
    except SystemExit as e:
        return _exit_code(e)
    return code


def _quick_exit(code):
    """What a normal interpreter exit does that a tool can see (non-daemon
    threads joined, atexit handlers run, stdio flushed), then _exit: the
    module teardown after it costs ~10 ms and the sandbox ends anyway.
    A run mode's response is written here, right before stdout and stderr
    are closed together, so that the server reads the response and the
    ends in one wake-up and the runner wakes once; where the tool's code
    may run on (threads, atexit handlers) it is written first, where a
    one-shot run writes it. The rest runs at nice 19: on a CPU it shares
    with toolcell's runner, the exit (the kernel freeing the interpreter's
    memory) no longer holds the runner off while it looks for that exit.
    Then toolcell's go is awaited (SIGURG, at most
    GO_WAIT s): at their EOF toolcell reads what it needs of this process
    while it still has its memory, then watches it exit, and answers
    before the kernel has freed that memory (toolcell trusts none of this:
    HACKING.md, "serve", the quick end)."""
    threading = sys.modules.get("threading")
    if threading is not None or _NCALLBACKS() or _thread._count():
        code = _respond(code, True)
    try:
        if threading is not None:
            threading._shutdown()
    except BaseException:
        pass
    _RUN_EXITFUNCS()
    code = _respond(code, False)
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except BaseException:
            code = code or 120  # as Py_FinalizeEx does for a failed flush
    out = _RESPONSE[1] if _RESPONSE else 2
    try:  # the tool's code is over: its exit yields to the runner's quick end
        os.nice(19)
    except OSError:
        pass
    try:
        _signal.pthread_sigmask(_signal.SIG_BLOCK, _GO)
        # one close_range for all (the response's fd is 3 when it is not 1)
        os.closerange(1, max(out, 2) + 1 if out <= 3 else 3)
        if out > 3:
            os.close(out)
        _signal.sigtimedwait(_GO, GO_WAIT)
    except BaseException:
        pass
    os._exit(code)


if __name__ == "__main__":
    try:
        main()
        status = 0
    except SystemExit as e:
        status = _exit_code(e)
    _quick_exit(status)
