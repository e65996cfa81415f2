#!/usr/bin/env bats
# The built Python rootfs (rootfs/build-rootfs + rootfs/MANIFEST) and the
# `call` harness (rootfs/harness.py): what is in the root, what is not, that
# its interpreter starts from unchecked pyc only, and the harness's contract.
# The rootfs stays pristine: harness tools run on the host's /usr/bin/python3,
# the very interpreter and standard library the rootfs copies.

# shellcheck disable=SC2154 # $stderr and $stderr_lines are set by bats' run --separate-stderr
bats_require_minimum_version 1.5.0

setup_file() {
	local repo
	repo="${TC_SOURCE:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
	export ROOTFS
	ROOTFS=$(readlink -f "${TC_BUILD:-$repo/build}/rootfs") # the ASan build links it
	export HARNESS="$ROOTFS/usr/lib/toolcell/harness.py"
	export INDEX="$ROOTFS/usr/lib/toolcell/manifest.txt"
	if [ ! -f "$INDEX" ]; then
		/usr/bin/python3 -I "$repo/rootfs/build-rootfs" --manifest "$repo/rootfs/MANIFEST" \
			--harness "$repo/rootfs/harness.py" --out "$ROOTFS" >/dev/null
	fi
}

# in_root [NAME=VALUE...] PROGRAM ARGS...: run inside the rootfs, with a clean
# environment, through a read-only bind of it so nothing (even as root) can
# write there: a missing pyc cannot be "healed" by a test run.
in_root() {
	local -a envs=() userns=()
	while [[ $# -gt 0 && $1 == *=* ]]; do
		envs+=("$1")
		shift
	done
	if [ "$(id -u)" -ne 0 ]; then
		userns=(--user --map-root-user)
	fi
	# shellcheck disable=SC2016 # expanded by the inner bash
	env -i "${envs[@]}" "$(command -v unshare)" "${userns[@]}" --mount --propagation private \
		"$BASH" -c 'm=$1 c=$2 r=$3; shift 3
			"$m" --bind "$r" "$r" && "$m" -o remount,bind,ro "$r" && exec "$c" "$r" "$@"' \
		in_root "$(command -v mount)" "$(command -v chroot)" "$ROOTFS" "$@"
}

# tool NAME <<< SOURCE: write a tool file, print its path
tool() {
	cat >"$BATS_TEST_TMPDIR/$1.py"
	echo "$BATS_TEST_TMPDIR/$1.py"
}

# call TOOL REQUEST: run the harness as toolcell does; $output is stdout, $stderr stderr
call() {
	run --separate-stderr /usr/bin/python3 -I "$HARNESS" "$1" <<<"$2"
}

# ------------------------------------------------------------------ contents

@test "the top level holds only usr, etc and the merged-/usr links" {
	run ls -A "$ROOTFS"
	[ "$output" = $'bin\netc\nlib\nlib64\nsbin\nusr' ]
	[ "$(readlink "$ROOTFS/bin")" = usr/bin ]
	[ "$(readlink "$ROOTFS/lib")" = usr/lib ]
	[ "$(readlink "$ROOTFS/lib64")" = usr/lib64 ]
	[ "$(readlink "$ROOTFS/sbin")" = usr/sbin ]
	[ "$(readlink "$ROOTFS/usr/lib64/ld-linux-x86-64.so.2")" = ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 ]
	[ -f "$ROOTFS/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ]
	run ls -A "$ROOTFS/etc"
	[ "$output" = $'group\nhosts\nld.so.cache\nld.so.conf\nnsswitch.conf\npasswd' ]
}

@test "no shell, coreutils or other program: python3.11 is the only binary" {
	run ls -A "$ROOTFS/usr/bin" "$ROOTFS/usr/sbin"
	[ "$output" = $"$ROOTFS/usr/bin:"$'\npython3\npython3.11\n\n'"$ROOTFS/usr/sbin:" ]
	[ "$(readlink "$ROOTFS/usr/bin/python3")" = python3.11 ]
	run find "$ROOTFS" -type f -perm /111 -printf '%P\n'
	[ "$(sort <<<"$output")" = $'usr/bin/python3.11\nusr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2\nusr/lib/x86_64-linux-gnu/libc.so.6' ]
	run find "$ROOTFS" \( -name sh -o -name bash -o -name dash -o -name ash -o -name zsh \
		-o -name busybox -o -name ls -o -name cat -o -name cp -o -name env -o -name mount \
		-o -name su -o -name sudo -o -name ldconfig -o -name pip -o -name 'pip3*' \) -print
	[ "$output" = "" ]
}

@test "nothing setuid or setgid; owner root; dirs 0755, files 0644 or 0755" {
	run find "$ROOTFS" -perm /7000 -print
	[ "$output" = "" ]
	run find "$ROOTFS" \( ! -uid 0 -o ! -gid 0 \) -print
	[ "$output" = "" ]
	run find "$ROOTFS" -type d ! -perm 0755 -print
	[ "$output" = "" ]
	run find "$ROOTFS" -type f ! -perm 0644 ! -perm 0755 -print
	[ "$output" = "" ]
	run find "$ROOTFS" ! -type f ! -type d ! -type l -print
	[ "$output" = "" ]
}

@test "no test suites, tk, build configuration, dist-packages or Debian's sitecustomize" {
	local lib="$ROOTFS/usr/lib/python3.11"
	run find "$lib" \( -name test -o -name tests -o -name idle_test -o -name idlelib -o -name tkinter \
		-o -name 'config-3.11-*' -o -name '_test*.so' -o -name 'xxlimited*' -o -name 'ensurepip' \
		-o -name sitecustomize.py -o -name '*.opt-?.pyc' \) -print
	[ "$output" = "" ]
	[ ! -e "$ROOTFS/usr/lib/python3" ]
	[ ! -e "$ROOTFS/usr/local" ]
	run in_root /usr/bin/python3 -I -c 'import test'
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "ModuleNotFoundError: No module named 'test'" ]
	run in_root /usr/bin/python3 -I -c 'import sys; print(sys.path)'
	[ "$output" = "['/usr/lib/python311.zip', '/usr/lib/python3.11', '/usr/lib/python3.11/lib-dynload']" ]
}

@test "every stdlib module has its unchecked-hash pyc and a hard-linked PYTHONPYCACHEPREFIX twin" {
	# inside the root: the rootfs's own interpreter judges magic and source hash
	run in_root /usr/bin/python3 -I -c '
import importlib.util, os, sys
tag, n, bad = sys.implementation.cache_tag, 0, []
for d, dirs, files in os.walk("/usr/lib/python3.11"):
    dirs[:] = [x for x in dirs if x != "__pycache__"]
    for f in files:
        if not f.endswith(".py"):
            continue
        n += 1
        src = os.path.join(d, f)
        pyc = f"{d}/__pycache__/{f[:-3]}.{tag}.pyc"
        twin = f"/usr/lib/toolcell/pycache{d}/{f[:-3]}.{tag}.pyc"
        try:
            head = open(pyc, "rb").read(16)
            with open(src, "rb") as fh:
                h = importlib.util.source_hash(fh.read())
            ok = (head[:4] == importlib.util.MAGIC_NUMBER
                  and int.from_bytes(head[4:8], "little") == 0b01  # hash-based, unchecked
                  and head[8:] == h and os.path.samefile(pyc, twin)
                  and os.stat(pyc).st_nlink == 2)
        except OSError:
            ok = False
        if not ok:
            bad.append(src)
ours = ("/usr/lib/toolcell/harness.pyc", "/usr/lib/toolcell/session.pyc", "/usr/lib/toolcell/serve.pyc")
pycs = sum(f.endswith(".pyc") and os.path.join(d, f) not in ours
           for d, _, fs in os.walk("/usr") for f in fs)  # no stray pyc, our harnesses aside
print(n, "modules", pycs, "pyc", bad[:5])
'
	[ "$status" -eq 0 ]
	read -r n word pycs rest <<<"$output"
	[ "$word" = modules ]
	[ "$rest" = "pyc []" ]
	[ "$n" -gt 500 ]
	[ "$pycs" -eq $((2 * n)) ]
}

@test "the modules tools need import inside the root" {
	run in_root /usr/bin/python3 -I -c 'import json,re,decimal,hashlib,zlib,sqlite3,ssl,ctypes,lzma,bz2,uuid,asyncio,multiprocessing,mmap,select; print("ok")'
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
	run in_root /usr/bin/python3 -I -c 'import zoneinfo, datetime, hashlib, sqlite3
print(datetime.datetime(2024, 7, 1, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")).utcoffset())
print(hashlib.sha256(b"").hexdigest()[:8], sqlite3.connect(":memory:").execute("select 6*7").fetchone()[0])'
	[ "$status" -eq 0 ]
	[ "$output" = $'2:00:00\ne3b0c442 42' ]
}

# An audit hook sees every file the importer opens and every compile(); a
# stdlib import must read one pyc and never open, compile or write a source.
IMPORT_AUDIT='
import sys
seen = []
sys.addaudithook(lambda e, a: seen.append((e, a)) if e in ("open", "compile", "os.mkdir") else None)
import json, re, decimal, asyncio, sqlite3, ssl, email.mime.text, http.client, unittest, logging.handlers
bad = [(e, a[:2]) for e, a in seen
       if e == "os.mkdir" or (e == "compile" and a[1] != "<string>")
       or (e == "open" and (not str(a[0]).endswith(".pyc") or a[1] not in ("r", "rb")))]
pycs = {str(a[0]).rsplit("/", 1)[0] for e, a in seen if e == "open"}
print(json.__cached__, len(seen) > 50, bad)
print(sorted({p.split("/python3.11")[0] for p in pycs}))
'

@test "without a prefix (-I, as the harness runs) imports read __pycache__ only" {
	run in_root /usr/bin/python3 -I -c "$IMPORT_AUDIT"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "/usr/lib/python3.11/json/__pycache__/__init__.cpython-311.pyc True []" ]
	[ "${lines[1]}" = "['/usr/lib']" ]
}

@test "with PYTHONPYCACHEPREFIX at the twin tree imports read the twin only" {
	# the launcher binds usr/lib/toolcell/pycache at /tmp/pycache; pointing the prefix
	# at the tree itself is the same lookup without a mount
	run in_root PYTHONPYCACHEPREFIX=/usr/lib/toolcell/pycache /usr/bin/python3 -c "$IMPORT_AUDIT"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "/usr/lib/toolcell/pycache/usr/lib/python3.11/json/__init__.cpython-311.pyc True []" ]
	[ "${lines[1]}" = "['/usr/lib/toolcell/pycache/usr/lib']" ]
}

@test "etc answers through glibc: users, groups, hosts, C.UTF-8; ld.so.cache knows every library" {
	run in_root /usr/bin/python3 -I -c '
import pwd, grp, socket
t = pwd.getpwuid(1000)
print(t.pw_name, t.pw_gid, t.pw_dir, t.pw_shell, pwd.getpwnam("nobody").pw_uid, pwd.getpwuid(0).pw_name)
print(grp.getgrgid(1000).gr_name, grp.getgrgid(65534).gr_name)
print(socket.gethostbyname("toolcell"), socket.gethostbyname("localhost"))'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "tool 1000 /tmp /usr/sbin/nologin 65534 root" ]
	[ "${lines[1]}" = "tool nogroup" ]
	[ "${lines[2]}" = "127.0.1.1 127.0.0.1" ]
	run in_root /usr/bin/python3 -I -c 'import os; print(os.environ["LC_CTYPE"])'
	[ "$output" = C.UTF-8 ] # PEP 538 coercion found the C.UTF-8 locale
	run grep -c . "$ROOTFS/etc/nsswitch.conf"
	[ "$output" -eq "$(grep -c ' files$' "$ROOTFS/etc/nsswitch.conf")" ]
	local so
	for so in "$ROOTFS"/usr/lib/x86_64-linux-gnu/lib*.so.*; do
		grep -qF "${so##*/}" "$ROOTFS/etc/ld.so.cache"
	done
}

@test "manifest.txt lists every entry, sorted, with its true mode and sha256" {
	run /usr/bin/python3 -I -c '
import hashlib, os, stat, sys
root = sys.argv[1]
index = "/usr/lib/toolcell/manifest.txt"
listed = {}
lines = open(root + index).read().splitlines()
for line in lines:
    mode, what, rest = line.split(" ", 2)
    path = rest.split(" -> ")[0]
    listed[path] = (mode, what, rest)
problems = []
if [l.split(" ", 2)[2].split(" -> ")[0] for l in lines] != sorted(listed):
    problems.append("not sorted or duplicated")
found = set()
for d, dirs, files in os.walk(root):
    for name in dirs + files:
        full = os.path.join(d, name)
        path = full[len(root):]
        if path in (index, index + ".sha256"):
            continue
        found.add(path)
        st = os.lstat(full)
        mode, what, rest = listed.get(path, ("?", "?", "?"))
        if mode != f"{stat.S_IMODE(st.st_mode):04o}":
            problems.append(f"mode {path}")
        if stat.S_ISLNK(st.st_mode):
            ok = what == "link" and rest == f"{path} -> {os.readlink(full)}"
        elif stat.S_ISDIR(st.st_mode):
            ok = what == "dir"
        else:
            ok = what == hashlib.sha256(open(full, "rb").read()).hexdigest()
        if not ok:
            problems.append(f"entry {path}")
problems += [f"stale {p}" for p in set(listed) - found]
print(len(found), problems[:5])
' "$ROOTFS"
	[ "$status" -eq 0 ]
	[ "$output" = "$(($(wc -l <"$INDEX"))) []" ]
	# the digest toolcell records is the index's own
	[ "$(cat "$INDEX.sha256")" = "$(sha256sum "$INDEX" | cut -d' ' -f1)" ]
}

# ------------------------------------------------------------------ harness

@test "harness: run() returning an ok-dict is the response as is; stdout carries one line" {
	t=$(tool t <<'EOF'
def run(args):
    return {"ok": True, "data": {"sum": args["a"] + args["b"]}}
EOF
)
	call "$t" '{"a": 1, "b": 2}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":true,"data":{"sum":3}}' ]
	[ "$stderr" = "" ]
}

@test "harness: any other return value is wrapped as data, bytes as json.dumps writes them" {
	t=$(tool t <<'EOF'
def run(args):
    return [args, "é\u2028", 2**70, 0.1 + 0.2, None, {"ok": "not a bool"}]
EOF
)
	call "$t" '{"x": [true, false]}'
	[ "$status" -eq 0 ]
	[ "$output" = $'{"ok":true,"data":[{"x":[true,false]},"é\u2028",1180591620717411303424,0.30000000000000004,null,{"ok":"not a bool"}]}' ]
}

@test "harness: an exception becomes an error document, its traceback goes to stderr" {
	t=$(tool t <<'EOF'
def run(args):
    raise ValueError(f"bad input: {args}")
EOF
)
	call "$t" '7'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"ValueError","message":"bad input: 7"}}' ]
	[ "${stderr_lines[0]}" = "Traceback (most recent call last):" ]
	[ "${stderr_lines[1]}" = "  File \"$t\", line 2, in run" ]
	[ "${stderr_lines[-1]}" = "ValueError: bad input: 7" ]
}

@test "harness: print(), sys.stdout, fd 1 and children all land on stderr; the response is intact" {
	t=$(tool t <<'EOF'
import os, subprocess, sys
print("at import")
def run(args):
    print("from print")
    sys.stdout.write("from sys.stdout\n")
    sys.stdout.flush()
    os.write(1, b"from fd 1\n")
    subprocess.run([sys.executable, "-c", "print('from a child')"], check=True)
    return "fine"
EOF
)
	call "$t" 'null'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":true,"data":"fine"}' ]
	[ "$stderr" = $'at import\nfrom print\nfrom sys.stdout\nfrom fd 1\nfrom a child' ]
}

@test "harness: async def run runs under asyncio.run" {
	t=$(tool t <<'EOF'
import asyncio
async def run(args):
    await asyncio.sleep(0)
    return {"ok": True, "data": args * 2}
EOF
)
	call "$t" '21'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":true,"data":42}' ]
}

@test "harness: a return value that is not JSON, and MemoryError, still give one error document" {
	t=$(tool nan <<'EOF'
def run(args):
    return [1.0, float("nan")]
EOF
)
	call "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"TypeError","message":"run() returned a value that is not JSON: Out of range float values are not JSON compliant"}}' ]
	t=$(tool set <<'EOF'
def run(args):
    return {1, 2}
EOF
)
	call "$t" '{}'
	[ "$output" = '{"ok":false,"error":{"type":"TypeError","message":"run() returned a value that is not JSON: Object of type set is not JSON serializable"}}' ]
	t=$(tool oom <<'EOF'
def run(args):
    hog = []
    raise MemoryError
EOF
)
	call "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"MemoryError","message":""}}' ]
	t=$(tool oom2 <<'EOF'
def run(args):
    raise MemoryError("Memory limit exceeded")
EOF
)
	call "$t" '{}'
	[ "$output" = '{"ok":false,"error":{"type":"MemoryError","message":"Memory limit exceeded"}}' ]
}

@test "harness: a tool without a top-level run() is a script: stdin, stdout and exit status are its own" {
	t=$(tool s <<'EOF'
import json, sys
class C:
    def run(self, args):  # not top-level: does not make this a run() tool
        pass
request = json.load(sys.stdin)
print(json.dumps({"ok": True, "data": [request, sys.argv, __name__, __file__ == sys.argv[0]]}))
sys.exit(request["code"])
EOF
)
	call "$t" '{"code": 3}'
	[ "$status" -eq 3 ]
	[ "$output" = "{\"ok\": true, \"data\": [{\"code\": 3}, [\"$t\"], \"__main__\", true]}" ]
	[ "$stderr" = "" ]
	t=$(tool boom <<'EOF'
def deep():
    1 / 0
deep()
EOF
)
	call "$t" '{}'
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "${stderr_lines[1]}" = "  File \"$t\", line 3, in <module>" ]
	[ "${stderr_lines[-1]}" = "ZeroDivisionError: division by zero" ]
}

@test "harness: a syntax error is the tool's error document, exit 0; an unreadable tool is one line on stderr and exit 2" {
	t=$(tool bad <<'EOF'
def run(args:
    return 1
EOF
)
	call "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"SyntaxError","message":"'"'"'('"'"' was never closed (bad.py, line 1)"}}' ]
	# (bats drops the leading blanks of $stderr)
	[[ "$stderr" == *"File \"$t\", line 1"$'\n'* ]]
	[ "${stderr_lines[-1]}" = "SyntaxError: '(' was never closed" ]
	t=$(tool bad2 <<'EOF'
print("no run here"
EOF
)
	call "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"SyntaxError","message":"'"'"'('"'"' was never closed (bad2.py, line 1)"}}' ]
	call "$BATS_TEST_TMPDIR/missing.py" '{}'
	[ "$status" -eq 2 ]
	[ "$stderr" = "harness: can't open file '$BATS_TEST_TMPDIR/missing.py': [Errno 2] No such file or directory" ]
}

@test "harness: the mode the compiled module settles is the ast's, in 918 sources made to mislead it" {
	# tests/integration/tools/entry_cases.py: defs nested in if, try, for,
	# with, match, a class or a function, decorated, async, continued lines,
	# form feeds, CR, coding cookies, errors of the parser and the compiler
	run -0 /usr/bin/python3 -I -B "$BATS_TEST_DIRNAME/tools/entry_cases.py" "$HARNESS"
	[ "$output" = "0 differ; 135 settled by the compiled module" ]
}

@test "harness: a tool's compile warnings show once, when its import or its run compiles it; none when the request fails first" {
	local t
	for t in run script; do
		if [ $t = run ]; then
			printf 'def run(args):\n    x = 1\n    return x is 1\n' >"$BATS_TEST_TMPDIR/$t.py"
		else
			printf 'x = 1\nprint(x is 1)\n' >"$BATS_TEST_TMPDIR/$t.py"
		fi
		run --separate-stderr /usr/bin/python3 -I -B "$HARNESS" "$BATS_TEST_TMPDIR/$t.py" <<<'{}'
		[ "$status" -eq 0 ]
		[ "$output" = "$([ $t = run ] && echo '{"ok":true,"data":true}' || echo True)" ]
		[ "${#stderr_lines[@]}" -eq 2 ]
		[ "${stderr_lines[0]}" = "$BATS_TEST_TMPDIR/$t.py:$([ $t = run ] && echo 3 || echo 2): SyntaxWarning: \"is\" with a literal. Did you mean \"==\"?" ]
	done
	# a request the harness cannot read: the tool is never imported, so it
	# never warns
	run --separate-stderr /usr/bin/python3 -I -B "$HARNESS" "$BATS_TEST_TMPDIR/run.py" <<<''
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":false,"error":{"type":"ValueError","message":"request is not JSON: expecting a value at 1"}}' ]
	[[ "$stderr" != *SyntaxWarning* ]]
}

@test "harness: run mode imports neither json, ast, re, importlib.util nor asyncio" {
	t=$(tool lean <<'EOF'
import sys
def run(args):
    return [m for m in ("json", "ast", "re", "enum", "importlib.util", "asyncio", "runpy", "traceback")
            if m in sys.modules]
EOF
)
	call "$t" '{}'
	[ "$status" -eq 0 ]
	[ "$output" = '{"ok":true,"data":[]}' ]
}

@test "harness.pyc is harness.py precompiled (unchecked hash of this very source) and answers alike" {
	run /usr/bin/python3 -I -c '
import importlib.util, sys
src = open(sys.argv[1], "rb").read()
head = open(sys.argv[1] + "c", "rb").read(16)
print(head[:4] == importlib.util.MAGIC_NUMBER, int.from_bytes(head[4:8], "little"),
      head[8:] == importlib.util.source_hash(src))' "$HARNESS"
	[ "$output" = "True 1 True" ]
	local t mode
	for mode in run script error; do
		case $mode in
		run) printf 'def run(args):\n    print("noise")\n    return args\n' ;;
		script) printf 'import sys\nprint(sys.stdin.read().strip())\nsys.exit(5)\n' ;;
		error) printf 'def run(args):\n    raise KeyError(args)\n' ;;
		esac >"$BATS_TEST_TMPDIR/$mode.py"
		t="$BATS_TEST_TMPDIR/$mode.py"
		call "$t" '{"k": 1}'
		local want="$status|$output|$stderr"
		run --separate-stderr /usr/bin/python3 -I "${HARNESS}c" "$t" <<<'{"k": 1}'
		[ "$status|$output|$stderr" = "$want" ]
	done
	[ "$output" = '{"ok":false,"error":{"type":"KeyError","message":"{'"'"'k'"'"': 1}"}}' ]
	[ "${stderr_lines[1]}" = "  File \"$t\", line 2, in run" ]
}
