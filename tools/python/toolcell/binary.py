"""The one way every front end finds the toolcell binary, builds its options,
reads its result record and its last word on stderr: client, era and
tool_exec share it. Imports os only (a front end's start-up time)."""

import os

REFUSED = 125  # toolcell's exit status for a refusal or a sandbox it could not build
DIAG = "toolcell: "  # how each of toolcell's own lines on stderr begins

# keyword -> toolcell option, by kind (the client's keyword arguments and the
# limits the ERA and ThreeGate front ends map)
VALUE_OPTIONS = {
    "policy": "--policy",
    "rootfs": "--rootfs",
    "cgroup_parent": "--cgroup-parent",
    "workspace": "--workspace",
    "memory": "--memory",
    "cpus": "--cpus",
    "pids": "--pids",
    "timeout": "--timeout",
    "cpu_time": "--cpu-time",
    "tmp_size": "--tmp-size",
    "tmp_inodes": "--tmp-inodes",
    "shm_size": "--shm-size",
    "file_size": "--file-size",
    "open_files": "--open-files",
    "request_size": "--request-size",
    "stdout_size": "--stdout-size",
    "stderr_size": "--stderr-size",
}
LIST_OPTIONS = {"ro_bind": "--ro-bind", "bind": "--bind", "pass_env": "--pass-env"}
FLAG_OPTIONS = {"quiet": "--quiet", "verbose": "--verbose", "script_dir": "--script-dir"}


class NotFound(Exception):
    """The toolcell binary is missing or cannot be executed."""


def _executable(p):
    return os.path.isfile(p) and os.access(p, os.X_OK)


def _on_path(name):
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = os.path.join(d or ".", name)
        if _executable(p):
            return os.path.abspath(p)
    return None


def find(explicit=None, script=None):
    """The toolcell binary to run: explicit (a path, or a name looked up on
    PATH) when given, else $TOOLCELL when set and not empty, else toolcell
    beside script's real path (a front end installed beside it), else
    toolcell on PATH. Raises NotFound naming where it looked; nothing falls
    back silently from a binary that was named."""
    if explicit is not None:
        where, named = "toolcell=", os.fspath(explicit)
    elif os.environ.get("TOOLCELL"):
        where, named = "$TOOLCELL", os.environ["TOOLCELL"]
    else:
        if script is not None:
            beside = os.path.join(os.path.dirname(os.path.realpath(script)), "toolcell")
            if _executable(beside):
                return beside
            found = _on_path("toolcell")
            if found is None:
                raise NotFound("cannot find toolcell: not beside %s and not on PATH (set "
                               "TOOLCELL to the binary)" % os.path.realpath(script))
            return found
        found = _on_path("toolcell")
        if found is None:
            raise NotFound("toolcell not found: set $TOOLCELL, put toolcell on PATH, "
                           "or pass toolcell=")
        return found
    if os.sep not in named:
        found = _on_path(named)
        if found is None:
            raise NotFound("toolcell not found: %s names %r, which is not on PATH"
                           % (where, named))
        return found
    if not _executable(named):
        raise NotFound("toolcell not found: %s names %s, which is not an executable file"
                       % (where, named))
    return os.path.abspath(named)


def _value(name, v):
    if isinstance(v, bool):
        raise TypeError("%s: expected a number or a string, got %r" % (name, v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("%s: %r is not a finite number" % (name, v))
        text = ("%.6f" % v).rstrip("0").rstrip(".")
        return text or "0"
    if isinstance(v, (str, os.PathLike)):
        return os.fspath(v)
    raise TypeError("%s: expected a number or a string, got %s" % (name, type(v).__name__))


def _bind_value(name, v):
    if isinstance(v, tuple):
        if len(v) != 2:
            raise TypeError("%s: a pair is (host, inside), got %r" % (name, v))
        return os.fspath(v[0]) + ":" + os.fspath(v[1])
    return _value(name, v)


def options(settings, verb):
    """toolcell's options for settings, a dict named like toolcell's options
    with '_' for '-' (memory="128M" or bytes, timeout=2.5, ro_bind=[...],
    env={...}, quiet=True, ...); None means not given. An unknown name is a
    TypeError, a value of the wrong kind a TypeError or ValueError."""
    args = []
    for name, v in settings.items():
        if v is None:
            continue
        if name in VALUE_OPTIONS:
            args += [VALUE_OPTIONS[name], _value(name, v)]
        elif name in LIST_OPTIONS:
            items = [v] if isinstance(v, (str, os.PathLike, tuple)) else list(v)
            for item in items:
                args += [LIST_OPTIONS[name], _bind_value(name, item)]
        elif name in FLAG_OPTIONS:
            if name == "script_dir" and verb != "python":
                raise TypeError("script_dir applies to toolcell python only")
            if v:
                args.append(FLAG_OPTIONS[name])
        elif name == "env":
            for key, value in dict(v).items():
                args += ["--env", "%s=%s" % (key, value)]
        else:
            raise TypeError("unknown toolcell option %r" % name)
    return args


def last_diagnostic(stderr):
    """toolcell's last line of its own ("toolcell: ...") in stderr (bytes or
    str), without the prefix; None when there is none."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, (bytes, bytearray)) else stderr
    for line in reversed(text.splitlines()):
        if line.startswith(DIAG):
            return line[len(DIAG):]
    return None


class _Ctx:
    """What _json's C scanner reads from a json.JSONDecoder, strict."""
    strict, object_hook, object_pairs_hook = True, None, None
    parse_float, parse_int, parse_constant, memo = float, int, float, {}


def parse_record(data):
    """The result record in data (bytes): a dict holding "status", None when
    data is empty (toolcell wrote none), or ValueError when it is not one
    whole JSON object (a partial record). _json's C scanner, not json: json
    imports re, which costs more than all the rest of a front end's start."""
    if not data.strip():
        return None
    import _json

    text = data.decode("utf-8", "replace")
    start = len(text) - len(text.lstrip(" \t\r\n"))
    try:
        doc, end = _json.make_scanner(_Ctx())(text, start)
    except StopIteration:
        raise ValueError("not JSON") from None
    if text[end:].strip(" \t\r\n") or not isinstance(doc, dict) or "status" not in doc:
        raise ValueError("not one JSON object holding status")
    return doc
