#!/usr/bin/env bats
# Files out: the tool writes into a size- and inode-limited layer over the
# workspace's host folder, and toolcell applies the layer to the folder as
# the caller when the run ends. Only regular files and folders reach the
# host, without set-id bits; deletions do; nothing else does, and the record
# says what was applied and what was dropped. Runs as root and, with
# TC_UNPRIVILEGED=1, as an unprivileged user.

setup() {
	TOOLCELL=${TOOLCELL:-$BATS_TEST_DIRNAME/../../build/toolcell}
	PY=/usr/bin/python3
	T=$(mktemp -d /tmp/tc-layer.XXXXXX)
	chmod 755 "$T"
	mkdir "$T/ws" # the caller's own 0755 folder: root's as root
}

teardown() {
	rm -rf "$T"
}

# rec KEY: one value of the record $T/r.json (dotted path)
rec() {
	"$PY" -I -c '
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(json.dumps(v, sort_keys=True))' "$T/r.json" "$1"
}

@test "a 0755 workspace of the caller's is written by one run and changed by the next, files the caller's own" {
	[ "$(stat -c %a "$T/ws")" = 755 ]
	echo "from the caller" >"$T/ws/given.txt"
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/r.json" -c "
import os
open('a.txt', 'w').write('one\n')
os.makedirs('d/e')
open('d/e/b.txt', 'w').write('deep\n')
open('given.txt', 'a').write('and the tool\n')
os.chmod('a.txt', 0o640)
print(sorted(os.listdir('.')))"
	[ "$status" -eq 0 ]
	[ "$output" = "['a.txt', 'd', 'given.txt']" ]
	[ "$(cat "$T/ws/a.txt")" = one ]
	[ "$(cat "$T/ws/d/e/b.txt")" = deep ]
	[ "$(cat "$T/ws/given.txt")" = "$(printf 'from the caller\nand the tool')" ]
	# owned as the caller would own them, with the modes the tool gave
	[ "$(stat -c '%u %a' "$T/ws/a.txt" "$T/ws/d" "$T/ws/d/e/b.txt")" = "$(printf '%s 640\n%s 755\n%s 644' "$(id -u)" "$(id -u)" "$(id -u)")" ]
	[ "$(rec workspace.changes)" = '{"bytes": 38, "deleted": 0, "files": 3, "folders": 2, "set_id_bits_dropped": 0}' ]
	[ "$(rec workspace.applied)" = true ]
	# the next run changes and deletes what the last one wrote
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/r.json" -c "
import os, shutil
open('a.txt', 'a').write('two\n')
shutil.rmtree('d')
os.unlink('given.txt')
print(sorted(os.listdir('.')))"
	[ "$status" -eq 0 ]
	[ "$output" = "['a.txt']" ]
	[ "$(ls -A "$T/ws")" = a.txt ]
	[ "$(cat "$T/ws/a.txt")" = "$(printf 'one\ntwo')" ]
	[ "$(rec workspace.changes.deleted)" = 2 ]
}

@test "a symlink, a FIFO, a set-uid file and a hard link planted in the workspace never reach the host; the record says so" {
	echo "host file" >"$T/ws/victim.txt"
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/r.json" -c "
import os
os.symlink('/etc/shadow', 'shadow')
os.unlink('victim.txt'); os.symlink('/etc/passwd', 'victim.txt')
os.mkfifo('fifo')
open('suid', 'w').write('#!/bin/sh\n'); os.chmod('suid', 0o6755)
open('linked', 'w').write('x'); os.link('linked', 'linked2')
os.mkdir('sgid_dir'); os.chmod('sgid_dir', 0o2775)
print('planted')"
	[ "$status" -eq 0 ]
	[ "$output" = planted ]
	# only the plain file (its set-id bits dropped) and the folder arrive
	[ "$(cd "$T/ws" && ls -A | sort | tr '\n' ' ')" = "sgid_dir suid " ]
	[ "$(stat -c %a "$T/ws/suid" "$T/ws/sgid_dir" | tr '\n' ' ')" = "755 775 " ]
	[ -f "$T/ws/suid" ] && [ ! -L "$T/ws/suid" ]
	[ "$(rec workspace.dropped)" = '{"devices": 0, "fifos": 1, "hard_links": 2, "sockets": 0, "symlinks": 2}' ]
	[ "$(rec workspace.changes)" = '{"bytes": 10, "deleted": 0, "files": 1, "folders": 1, "set_id_bits_dropped": 2}' ]
	[ "$(rec workspace.errors)" = 0 ]
}

@test "a workspace filled past its limit: the tool meets ENOSPC, the host folder stays within it, the record says so" {
	run "$TOOLCELL" python --workspace "$T/ws" --workspace-size 1M --result "$T/r.json" -c "
import errno
n = 0
try:
    with open('big', 'wb') as f:
        while True:
            f.write(b'x' * 4096); f.flush(); n += 4096
except OSError as e:
    print(errno.errorcode[e.errno], n <= 1 << 20)"
	[ "$status" -eq 0 ]
	[ "$output" = "ENOSPC True" ]
	[ "$(stat -c %s "$T/ws/big")" -le 1048576 ]
	[ "$(du -sk "$T/ws" | cut -f1)" -le 1100 ]
	[ "$(rec workspace.layer.full)" = true ]
	[ "$(rec limits.workspace_size)" = '{"enforced_by": "toolcell", "unit": "bytes", "value": 1048576}' ]
	# and the file count
	rm -rf "$T/ws" && mkdir "$T/ws"
	run "$TOOLCELL" python --workspace "$T/ws" --workspace-files 16 --result "$T/r.json" -c "
import errno
n = 0
try:
    while True:
        open('f%d' % n, 'w').close(); n += 1
except OSError as e:
    print(errno.errorcode[e.errno], n < 16)"
	[ "$status" -eq 0 ]
	[ "$output" = "ENOSPC True" ]
	[ "$(ls -A "$T/ws" | wc -l)" -lt 16 ]
	[ "$(rec workspace.layer.full)" = true ]
}

@test "toolcell killed mid-apply leaves no half-written file under its final name" {
	# 12 files of 2 MiB each, every byte known; kill toolcell the moment
	# the apply makes its first name in the host folder
	run "$PY" -I - "$TOOLCELL" "$T/ws" <<'EOF'
import os, signal, subprocess, sys, time
tc, ws = sys.argv[1], sys.argv[2]
code = "for i in range(12): open('f%02d' % i, 'wb').write(bytes([65 + i]) * (2 << 20))"
for attempt in range(20):
    p = subprocess.Popen([tc, "python", "--workspace", ws, "-c", code])
    caught = False
    while p.poll() is None:
        if os.listdir(ws):  # the first name the apply makes
            p.send_signal(signal.SIGKILL)
            caught = True
            break
    p.wait()
    names = sorted(os.listdir(ws))
    for n in names:
        if n.startswith("f"):
            data = open(os.path.join(ws, n), "rb").read()
            assert data == bytes([65 + int(n[1:])]) * (2 << 20), (n, len(data))
    if caught and len(names) < 13:
        print("killed mid-apply: whole files", len([n for n in names if n.startswith("f")]),
              "leftover", len([n for n in names if n.startswith(".toolcell-apply.")]))
        break
    for n in names:
        os.unlink(os.path.join(ws, n))
else:
    sys.exit("never caught the apply in 20 attempts")
EOF
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "killed mid-apply: whole files "* ]]
	# the next run's apply clears what the killed one left beside
	run "$TOOLCELL" python --workspace "$T/ws" -c "print('next')"
	[ "$status" -eq 0 ]
	[ -z "$(find "$T/ws" -name '.toolcell-apply.*')" ]
}

@test "an apply killed while it writes a file deep in the workspace leaves its temporary file in the top folder, where the next apply removes it" {
	mkdir -p "$T/ws/sub/deeper"
	# toolcell may write files of 1 MiB, the tool sets its own limit: the
	# apply's copy of a 2 MiB file gets SIGXFSZ (25) half-way, always
	run prlimit --fsize=1048576:unlimited --core=0 "$TOOLCELL" python --workspace "$T/ws" \
		-c "open('sub/deeper/big', 'wb').write(b'x' * (2 << 20))"
	[ "$status" -eq $((128 + 25)) ]
	[ ! -e "$T/ws/sub/deeper/big" ]
	[ -z "$(find "$T/ws/sub" -name '.toolcell-apply.*')" ]
	[ "$(find "$T/ws" -maxdepth 1 -name '.toolcell-apply.*' -size 1024k | wc -l)" = 1 ]
	run "$TOOLCELL" python --workspace "$T/ws" -c "print('next')"
	[ "$status" -eq 0 ]
	[ -z "$(find "$T/ws" -name '.toolcell-apply.*')" ]
}

@test "a deletion the apply cannot name (the host folder grew past PATH_MAX meanwhile) is refused at once: one error, named" {
	mkdir -p "$T/ws/deep/a"
	# the tool deletes deep and waits; the host then makes deep 17 levels
	# of 250-character names deeper (past PATH_MAX below the workspace)
	run "$PY" -I - "$TOOLCELL" "$T/ws" "$T/r.json" <<'EOF'
import os, subprocess, sys
tc, ws, rec = sys.argv[1:4]
code = "import shutil, sys\nshutil.rmtree('deep')\nprint('deleted', flush=True)\nsys.stdin.read()"
p = subprocess.Popen([tc, "python", "--workspace", ws, "--result", rec, "-c", code],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
assert p.stdout.readline() == b"deleted\n"
fd = os.open(os.path.join(ws, "deep", "a"), os.O_RDONLY | os.O_DIRECTORY)
for i in range(17):
    name = chr(98 + i) * 250
    os.mkdir(name, dir_fd=fd)
    fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
os.close(os.open("leaf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
p.stdin.close()
print(p.wait())
EOF
	[ "$status" -eq 0 ]
	[ "$output" = 0 ]
	[ "$(rec workspace.errors)" = 1 ]
	[ "$(rec workspace.first_error)" = '"./deep: File name too long"' ]
	[ "$(rec workspace.changes.deleted)" = 0 ]
	# nothing of the tree went: the deepest file is still there
	[ "$("$PY" -I -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(17):
    fd = os.open(chr(98 + i) * 250, os.O_RDONLY, dir_fd=fd)
print(os.listdir(fd))' "$T/ws/deep/a")" = "['leaf']" ]
}

@test "workspace_apply: on_success leaves the host folder alone after a failed run" {
	"$PY" -I -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["workspace_apply"] = "on_success"
json.dump(p, open(sys.argv[2], "w"))' "$(dirname "$TOOLCELL")/policies/default.json" "$T/p.json"
	run "$TOOLCELL" python --policy "$T/p.json" --workspace "$T/ws" --result "$T/r.json" -c "
open('partial.txt', 'w').write('half'); raise SystemExit(3)"
	[ "$status" -eq 3 ]
	[ -z "$(ls -A "$T/ws")" ]
	[ "$(rec workspace.applied)" = false ]
	[ "$(rec workspace.not_applied)" = '"the policy'"'"'s workspace_apply is on_success, and the run did not end ok"' ]
	# by default a failed run's changes are applied too
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/r.json" -c "
open('partial.txt', 'w').write('half'); raise SystemExit(3)"
	[ "$status" -eq 3 ]
	[ "$(cat "$T/ws/partial.txt")" = half ]
	[ "$(rec workspace.applied)" = true ]
}

@test "the tool sees no host path of its workspace and no staging layer in its /tmp" {
	run "$TOOLCELL" python --workspace "$T/ws" -c "
import os
print(sorted(os.listdir('/tmp')))
for line in open('/proc/self/mountinfo'):
    f = line.split()
    if f[4] == '/workspace':
        print(f[3], line.split(' - ')[1].split()[0])"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf "['pycache']\n/ overlay")" ]
}

@test "renaming a folder the host folder held answers EXDEV; files and new folders rename; shutil.move copies, and the host gets the move" {
	mkdir -p "$T/ws/old/inner"
	echo kept >"$T/ws/old/inner/f.txt"
	echo file >"$T/ws/plain.txt"
	run "$TOOLCELL" python --workspace "$T/ws" --result "$T/r.json" -c "
import errno, os, shutil
try:
    os.rename('old', 'renamed')
    print('renamed')
except OSError as e:
    print(errno.errorcode[e.errno], e.strerror)
os.rename('plain.txt', 'plain2.txt')
os.mkdir('fresh'); open('fresh/g.txt', 'w').write('g\n')
os.rename('fresh', 'fresh2')
print(shutil.move('old', 'moved'))
print(sorted(os.listdir('.')), open('moved/inner/f.txt').read().strip())"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "EXDEV Invalid cross-device link" ]
	[ "${lines[1]}" = moved ]
	[ "${lines[2]}" = "['fresh2', 'moved', 'plain2.txt'] kept" ]
	# the host folder gets the result: the copy, the deletion, the renames
	[ "$(cd "$T/ws" && ls -A | tr '\n' ' ')" = "fresh2 moved plain2.txt " ]
	[ "$(cat "$T/ws/moved/inner/f.txt")" = kept ]
	[ "$(cat "$T/ws/fresh2/g.txt")" = g ]
	[ "$(rec workspace.applied)" = true ]
}
