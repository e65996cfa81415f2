"""era-wrapper: the ERA microVM wrapper's command line on top of toolcell,
so ThreeGate's TOOL-EXEC runner can use toolcell as its backend (README.md,
"ThreeGate / ERA"). It splits --cmd into words the way
a POSIX shell would, without ever running a shell, refuses whatever a
shell would have interpreted, and then execs `toolcell run` (one toolcell
call per run: the policy's ceilings, the record and the signals are
toolcell's own work). ThreeGate's ## Command is an ERA command line:
threegate and tool_exec share split_command, the limit parsers and the
option parser. Finding toolcell and its options are binary's. Imports: os
and binary only (start-up time)."""

import os

from toolcell import binary

PROG = "era-wrapper"

# Named limits on what comes from outside (HACKING.md, style rule 11).
COMMAND_MAX = 128 * 1024  # bytes of one command line; the kernel's own cap
# on one argument (MAX_ARG_STRLEN) is 128 KiB
WORDS_MAX = 4096  # words in one command line

# What toolcell runs: the rootfs has Debian's python3 and nothing else.
SANDBOX_PYTHON = "/usr/bin/python3"
PYTHON_NAMES = ("python3", "python")

# toolcell's own ranges for the three limits this front end maps (its README);
# the upper end is the policy's max, which toolcell itself enforces.
MEM_MIN_MIB = 4
TIMEOUT_MIN = 0.001
CPUS_MIN = 0.01

# The environment toolcell runs with: nothing of the caller's, so no secret
# can reach the tool even through a policy's pass_env.
TOOLCELL_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}

EXIT_REFUSED = 2
TOOLCELL_FAILED = binary.REFUSED  # what toolcell exits with when it refused or failed

USAGE = (
    "usage: era-wrapper --language python --cmd CMD --network none\n"
    "                   [--timeout SECONDS] [--cpu N] [--mem MB]"
)

HELP = (
    USAGE
    + """

Runs one command line in a toolcell sandbox, as the ERA microVM wrapper
runs it in a guest, so ThreeGate's TOOL-EXEC runner (run_tool_request.py
--era-wrapper PATH) can use toolcell as its backend. The wrapper checks
its options and then becomes `toolcell run` (exec): the command's stdin,
stdout and stderr are the wrapper's own, relayed byte for byte (stdout
and stderr within the policy's caps), and its exit status is the
wrapper's.

Options (--opt VALUE or --opt=VALUE; each at most once):
  --language python   required; the only language: the sandbox holds
                      Debian's python3 and nothing else
  --cmd CMD           required; one command line, split into words as a
                      POSIX shell would split it (single and double quotes
                      and backslashes honoured) and never given to a
                      shell. The first word must be python3 (python is
                      taken as python3), which runs from the sandbox's
                      /usr/bin. Whatever a shell would interpret rather
                      than pass on is refused (exit 2): an unquoted
                      ; & | < > ( ) or newline, `...` and $(...) (inside
                      "..." too), $NAME and ${...}, an unquoted * ? [,
                      a ~ or # that starts a word. Quote a character
                      ('...') to pass it literally. At most 128 KiB and
                      4096 words.
  --network none      required; the only network: none (a new network
                      namespace with nothing but its own loopback)
  --timeout SECONDS   wall-clock limit (toolcell --timeout), fractional;
                      then the sandbox is killed and the exit status is
                      124. CPU time stays the policy's cpu_time
  --cpu N             CPUs, fractional (toolcell --cpus); enforced only
                      where toolcell has cgroup v2
  --mem MB            memory in MiB, a whole number (toolcell --memory NM)
  -h, --help          this text

Each limit defaults to the policy's value. A limit below toolcell's range
(--mem 4, --timeout 0.001, --cpu 0.01) is refused with exit 2; one above
the policy's ceiling (its max; `toolcell policy check FILE` prints it) is
refused by toolcell with exit 125 and its reason on stderr.

What the command sees: the sandbox's own file system (Debian's python3
and its standard library, read-only, a private /tmp), so an absolute path
names a file inside the sandbox, never one of the host; the working
directory /; only the policy's environment (PATH, HOME, LANG, ...), never
the caller's; no network; the policy's limits.

Environment (read by the wrapper, never passed on; toolcell runs with
only PATH and LANG):
  TOOLCELL         the toolcell binary (default: toolcell beside this
                   script's real path, else toolcell on PATH)
  TOOLCELL_POLICY  the policy file (default: toolcell's own default.json)
  TOOLCELL_ROOTFS  the rootfs (as toolcell --rootfs; default: toolcell's)

Exit status:
  0-255   the command's own exit status (python3's 2 for a missing
          script, 1 for an uncaught exception, ...)
  2       also: refused, with the reason on stderr in one line that
          starts with "era-wrapper: "
  124     the time limit ended the command ("toolcell: the tool reached
          its time limit" on stderr)
  125     toolcell refused the run (a limit above the policy's ceiling)
          or could not build the sandbox (its reason on stderr, starting
          with "toolcell: ")
  128+N   the command was killed by signal N; a memory, process or
          output limit kills with SIGKILL (137), and a line on stderr
          says which limit. A signal to the wrapper is toolcell's: it
          ends the sandbox, and toolcell exits 128+N.
"""
)


class Refused(Exception):
    """The request is refused before anything runs (exit 2)."""


class Failed(Exception):
    """toolcell could not be found or run (exit 125 here, 3 in tool-exec)."""


# ---------------------------------------------------------------- the command line


def shown(s, limit=40):
    """s quoted for a message, cut at limit characters, control
    characters escaped (a message is one line)."""
    cut = s if len(s) <= limit else s[:limit] + "..."
    out = []
    for c in cut:
        if c in '"\\':
            out.append("\\" + c)
        elif c < " " or c == "\x7f":
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return '"%s"' % "".join(out)


_NAME_START = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"
_NAME_CHARS = _NAME_START + "0123456789"
_SPECIAL = "0123456789@*#?$!-"
_GLOB = "*?["
_OPERATORS = ";&|<>()"


def _refuse(i, what):
    raise Refused(
        "%s at character %d is shell syntax, and the command is never given to a "
        "shell (quote it to pass it literally)" % (what, i + 1)
    )


def _parameter(cmd, i):
    """The parameter name a shell would expand after the '$' at cmd[i-1]."""
    if i < len(cmd) and cmd[i] in _SPECIAL:
        return cmd[i]
    j = i
    if j < len(cmd) and cmd[j] in _NAME_START:
        while j < len(cmd) and cmd[j] in _NAME_CHARS:
            j += 1
    return cmd[i:j]


def _check_dollar(cmd, i, in_dquote):
    """Refuse the expansion a shell would make of the '$' at cmd[i]."""
    nxt = cmd[i + 1 : i + 2]
    where = " inside double quotes" if in_dquote else ""
    if nxt == "(":
        _refuse(i, "command substitution $(...)" + where)
    if nxt == "{":
        _refuse(i, "parameter expansion ${...}" + where)
    if nxt and nxt in "'\"" and not in_dquote:
        _refuse(i, "$%s...%s quoting" % (nxt, nxt))
    name = _parameter(cmd, i + 1)
    if name:
        _refuse(i, "parameter expansion $%s%s" % (name[:40], where))


def _check_unquoted(cmd, i, in_word):
    """Refuse cmd[i], outside quotes, if a shell would interpret it."""
    c = cmd[i]
    if c == "\n":
        _refuse(i, "an unquoted newline (a second command)")
    if c in _OPERATORS:
        _refuse(i, "an unquoted %s" % shown(c))
    if c == "`":
        _refuse(i, "command substitution `...`")
    if c in _GLOB:
        _refuse(i, "an unquoted %s (pathname expansion)" % shown(c))
    if c == "#" and not in_word:
        _refuse(i, "a # that starts a word (a comment)")
    if c == "~" and not in_word:
        _refuse(i, "a ~ that starts a word (tilde expansion)")
    if c == "$":
        _check_dollar(cmd, i, False)


def _double_quoted(cmd, i, buf):
    """Append to buf the text of the "..." that opens at cmd[i]; return the
    index after its closing quote. Inside, a backslash escapes only
    $ ` " \\ and newline, as in sh."""
    j = i + 1
    while j < len(cmd):
        d = cmd[j]
        if d == '"':
            return j + 1
        if d == "\\" and cmd[j + 1 : j + 2] in ("$", "`", '"', "\\", "\n"):
            if cmd[j + 1] != "\n":  # backslash-newline is removed
                buf.append(cmd[j + 1])
            j += 2
            continue
        if d == "`":
            _refuse(j, "command substitution `...` inside double quotes")
        if d == "$":
            _check_dollar(cmd, j, True)
        buf.append(d)
        j += 1
    raise Refused("the double quote at character %d is never closed" % (i + 1))


def _words(cmd):
    """cmd split into words with quotes removed, as sh would split it."""
    words, buf = [], []
    in_word = False  # a word has begun (an empty '' is a word too)
    i, n = 0, len(cmd)
    while i < n:
        c = cmd[i]
        if c in " \t":
            if in_word:
                words.append("".join(buf))
                if len(words) > WORDS_MAX:
                    raise Refused("more than %d words" % WORDS_MAX)
            buf, in_word, i = [], False, i + 1
            continue
        _check_unquoted(cmd, i, in_word)
        if c == "\\":
            if i + 1 >= n:
                raise Refused("a backslash at the end has nothing to escape")
            if cmd[i + 1] != "\n":  # backslash-newline is removed, starting no word
                buf.append(cmd[i + 1])
                in_word = True
            i += 2
            continue
        in_word = True
        if c == "'":
            end = cmd.find("'", i + 1)
            if end < 0:
                raise Refused("the single quote at character %d is never closed" % (i + 1))
            buf.append(cmd[i + 1 : end])
            i = end + 1
        elif c == '"':
            i = _double_quoted(cmd, i, buf)
        else:
            buf.append(c)
            i += 1
    if in_word:
        words.append("".join(buf))
    return words


def split_command(cmd):
    """Split cmd into words as a POSIX shell would (quote removal, no
    expansion) and return the list; raise Refused naming the first thing a
    shell would have interpreted instead of passing on."""
    if "\0" in cmd:
        raise Refused("a NUL character cannot be part of a command")
    size = len(os.fsencode(cmd))
    if size > COMMAND_MAX:
        raise Refused("%d bytes, more than the %d allowed" % (size, COMMAND_MAX))
    words = _words(cmd)
    if len(words) > WORDS_MAX:
        raise Refused("more than %d words" % WORDS_MAX)
    if not words:
        raise Refused("the command is empty")
    if words[0] not in PYTHON_NAMES:
        raise Refused(
            "the command must start with python3 (the sandbox has only Debian's "
            "python3), not %s" % shown(words[0])
        )
    return words


def sandbox_argv(words):
    """The program toolcell runs for words (python3 ARGS...)."""
    return [SANDBOX_PYTHON] + words[1:]


# ---------------------------------------------------------------- limits


def _decimal(text):
    """text is digits with at most one '.' between digits."""
    whole, dot, frac = text.partition(".")
    return whole.isdigit() and whole.isascii() and (not dot or (frac.isdigit() and frac.isascii()))


def parse_timeout(value, name):
    """value as seconds (a decimal string); raise Refused naming name."""
    text = str(value).strip()
    if len(text) > 20 or not _decimal(text) or float(text) < TIMEOUT_MIN:
        raise Refused(
            "%s %s: seconds must be a number of at least %g (30, 2.5)"
            % (name, shown(text), TIMEOUT_MIN)
        )
    return text


def parse_cpus(value, name):
    text = str(value).strip()
    if len(text) > 20 or not _decimal(text) or float(text) < CPUS_MIN:
        raise Refused(
            "%s %s: CPUs must be a number of at least %g (1, 0.5)" % (name, shown(text), CPUS_MIN)
        )
    return text


def parse_mem(value, name):
    text = str(value).strip()
    if not (text.isdigit() and text.isascii()) or len(text) > 12 or int(text) < MEM_MIN_MIB:
        raise Refused(
            "%s %s: memory must be a whole number of MiB, at least %d"
            % (name, shown(text), MEM_MIN_MIB)
        )
    return int(text)


# ---------------------------------------------------------------- toolcell's options


def limit_options(timeout=None, cpus=None, mem_mib=None):
    """toolcell options for the limits that are set."""
    memory = "%dM" % mem_mib if mem_mib is not None else None
    return binary.options({"timeout": timeout, "cpus": cpus, "memory": memory}, "run")


def find_toolcell(script):
    """$TOOLCELL, else toolcell beside script's real path, else on PATH."""
    try:
        return binary.find(script=script)
    except binary.NotFound as e:
        raise Failed(str(e)) from None


def base_options():
    """toolcell options every run of this family gets: TOOLCELL_POLICY and
    TOOLCELL_ROOTFS, read here and never passed on."""
    out = []
    policy = os.environ.get("TOOLCELL_POLICY")
    if policy:
        out += ["--policy", os.path.abspath(policy)]
    rootfs = os.environ.get("TOOLCELL_ROOTFS")
    if rootfs:
        out += ["--rootfs", os.path.abspath(rootfs)]
    return out


# ---------------------------------------------------------------- options and messages


def parse_options(argv, spec, prog):
    """A strict GNU-style parser: --opt VALUE and --opt=VALUE, no
    abbreviations, each option once, no positional arguments. spec is the
    set of option names that take a value. Returns a dict, or "help" for
    -h/--help; raises Refused."""
    got = {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            return "help"
        name, eq, value = a.partition("=")
        if name not in spec:
            if a.startswith("-"):
                raise Refused("unknown option %s (see %s --help)" % (shown(name), prog))
            raise Refused("unexpected argument %s (see %s --help)" % (shown(a), prog))
        if not eq:
            if i + 1 >= len(argv):
                raise Refused("%s needs a value" % name)
            i += 1
            value = argv[i]
        if name in got:
            raise Refused("%s is given twice" % name)
        got[name] = value
        i += 1
    return got


def say(msg, prog=PROG):
    """One line on stderr, prefixed with the program's name."""
    try:
        os.write(2, ("%s: %s\n" % (prog, msg)).encode("utf-8", "replace"))
    except OSError:
        pass


# ---------------------------------------------------------------- main


def plan(argv, script):
    """The toolcell argv for era-wrapper's command line, or "help"."""
    opts = parse_options(
        argv, {"--language", "--cmd", "--network", "--timeout", "--cpu", "--mem"}, PROG
    )
    if opts == "help":
        return opts
    for req in ("--language", "--cmd", "--network"):
        if req not in opts:
            raise Refused("%s is required (%s)" % (req, USAGE.split("\n")[0][7:]))
    if opts["--language"] != "python":
        raise Refused(
            '--language %s: only "python" is supported (the sandbox has only '
            "Debian's python3)" % shown(opts["--language"])
        )
    if opts["--network"] != "none":
        raise Refused(
            '--network %s: only "none" is supported (the tool never has a network)'
            % shown(opts["--network"])
        )
    try:
        words = split_command(opts["--cmd"])
    except Refused as e:
        raise Refused("--cmd: %s" % e)
    limits = limit_options(
        parse_timeout(opts["--timeout"], "--timeout") if "--timeout" in opts else None,
        parse_cpus(opts["--cpu"], "--cpu") if "--cpu" in opts else None,
        parse_mem(opts["--mem"], "--mem") if "--mem" in opts else None,
    )
    toolcell = find_toolcell(script)
    return [toolcell, "run"] + base_options() + limits + ["--"] + sandbox_argv(words)


def main(argv, script):
    """era-wrapper: check, then become toolcell (never returns on success)."""
    try:
        argv = plan(argv, script)
        if argv == "help":
            os.write(1, HELP.encode())
            return 0
        os.chdir("/")  # toolcell runs from /: the caller's folder means nothing inside
        os.execve(argv[0], argv, TOOLCELL_ENV)
    except Refused as e:
        say(str(e))
        return EXIT_REFUSED
    except Failed as e:
        say(str(e))
        return TOOLCELL_FAILED
    except OSError as e:
        say("cannot run toolcell: %s" % (e.strerror or e))
        return TOOLCELL_FAILED
