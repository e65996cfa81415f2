#!/usr/bin/env bats
# The documentation generated from the option table in src/cli.c
# (tools/docgen.c): toolcell(1)'s OPTIONS, LIMITS and ENVIRONMENT entries
# and the bash completion name exactly the options --help names, so neither
# can drift from the parser; the man page renders without a groff warning.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	tc_setup
	BUILD=${TC_BUILD:-$(dirname "$TOOLCELL")}
	MAN1=$BUILD/doc/toolcell.1
	COMPLETION=$BUILD/completion/toolcell
	[ -f "$MAN1" ] && [ -f "$COMPLETION" ] || {
		echo "no generated docs in $BUILD (cmake --build builds them)" >&2
		return 1
	}
}

teardown() {
	tc_teardown
}

# help_opts VERB: the long options VERB's --help lists, one a line, sorted
help_opts() {
	"$TOOLCELL" help "$1" | sed -nE 's/^  (-h, )?(--[a-z][-a-z]*).*/\2/p' | sort -u
}

# complete WORDS...: what the generated completion offers for the last word
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _toolcell
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$@"
}

@test "toolcell.1 renders with no groff warning and has every section" {
	run -0 groff -man -ww -z "$MAN1"
	[ -z "$output" ]
	MANWIDTH=100 man -l "$MAN1" >"$TC_TMP/man.txt"
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS LIMITS "EXIT STATUS" ENVIRONMENT FILES "SEE ALSO"; do
		grep -qx "$s" "$TC_TMP/man.txt" || {
			echo "no section $s" >&2
			return 1
		}
	done
}

@test "toolcell.1 has an entry for every option and limit of every command's --help, and no other" {
	MANWIDTH=200 man -l "$MAN1" >"$TC_TMP/man.txt"
	sed -nE 's/^       (-h, )?(--[a-z][-a-z]*)( .*)?$/\2/p' "$TC_TMP/man.txt" | sort -u >"$TC_TMP/man-opts"
	for v in run python call session check; do help_opts "$v"; done | sort -u >"$TC_TMP/help-opts"
	diff "$TC_TMP/help-opts" "$TC_TMP/man-opts"
	[ "$(wc -l <"$TC_TMP/man-opts")" -ge 25 ]
}

@test "toolcell.1's ENVIRONMENT names exactly the TOOLCELL_* variables of toolcell python --help" {
	MANWIDTH=200 man -l "$MAN1" >"$TC_TMP/man.txt"
	sed -n '/^ENVIRONMENT/,/^FILES/p' "$TC_TMP/man.txt" |
		sed -nE 's/^       (TOOLCELL_[A-Z_]+)=.*/\1/p' | sort >"$TC_TMP/man-env"
	"$TOOLCELL" help python | sed -nE 's/^  (TOOLCELL_[A-Z_]+)=.*/\1/p' | sort >"$TC_TMP/help-env"
	diff "$TC_TMP/help-env" "$TC_TMP/man-env"
	[ "$(wc -l <"$TC_TMP/man-env")" -eq 13 ]
}

@test "the bash completion offers exactly each command's --help options" {
	for v in run python call session check; do
		complete_words toolcell "$v" -- | sort -u >"$TC_TMP/comp"
		help_opts "$v" >"$TC_TMP/help"
		diff "$TC_TMP/help" "$TC_TMP/comp" || {
			echo "verb $v" >&2
			return 1
		}
	done
}

@test "'rootfs build': toolcell.1 and the completion name exactly the options its --help names" {
	"$TOOLCELL" rootfs build --help | sed -nE 's/^  (-h, )?(--[a-z][-a-z]*).*/\2/p' | sort -u >"$TC_TMP/help"
	[ "$(wc -l <"$TC_TMP/help")" -eq 4 ]
	# the man page: the entries under "rootfs build", and --help
	MANWIDTH=200 man -l "$MAN1" >"$TC_TMP/man.txt"
	{
		sed -n '/^       rootfs build$/,/^       version$/p' "$TC_TMP/man.txt" |
			sed -nE 's/^              (--[a-z][-a-z]*) .*/\1/p'
		echo --help
	} | sort -u >"$TC_TMP/man"
	diff "$TC_TMP/help" "$TC_TMP/man"
	run -0 complete_words toolcell rootfs ""
	[ "$output" = build ]
	complete_words toolcell rootfs build -- | sort -u >"$TC_TMP/comp"
	diff "$TC_TMP/help" "$TC_TMP/comp"
}

@test "the bash completion: commands, 'policy check', values of options, none after PROGRAM" {
	run -0 complete_words toolcell ""
	[ "$output" = "$(printf '%s\n' run python call session check policy rootfs version help --help --version)" ]
	run -0 complete_words toolcell policy c
	[ "$output" = check ]
	run -0 complete_words toolcell help pyt
	[ "$output" = python ]
	mkdir "$TC_TMP/dir-a" && touch "$TC_TMP/file-a"
	run -0 complete_words toolcell run --rootfs "$TC_TMP/"
	[ "$output" = "$TC_TMP/dir-a" ]
	run -0 complete_words toolcell call --policy = "$TC_TMP/f"
	[ "$output" = "$TC_TMP/file-a" ]
	run -0 complete_words toolcell run --memory ""
	[ -z "$output" ]
	run -0 complete_words toolcell python --script-d
	[ "$output" = --script-dir ]
	# after PROGRAM, a word starting with - is the program's, not toolcell's
	run -0 complete_words toolcell run --policy p.json ls --po
	[ -z "$output" ]
	run -0 complete_words toolcell run --policy p.json --me
	[ "$output" = --memory ]
}

@test "toolcell-policy(5) and toolcell-record(5) render with no groff warning" {
	for page in toolcell-policy.5 toolcell-record.5; do
		run -0 groff -man -ww -z "$BUILD/doc/$page"
		[ -z "$output" ]
		run -0 env MANWIDTH=100 man --warnings -l "$BUILD/doc/$page"
		[[ "$output" == *"SEE ALSO"* ]]
	done
}

@test "toolcell-record(5) names every key of a real record, envelope and session answer" {
	MANWIDTH=200 man -l "$BUILD/doc/toolcell-record.5" >"$TC_TMP/man.txt"
	run -0 "$TOOLCELL" python --result "$TC_TMP/r.json" -c 'print(1)'
	tool=$(fixture call_echo.py)
	"$TOOLCELL" call "$tool" <<<'{"a": 1}' >"$TC_TMP/env.json"
	"$TOOLCELL" session <<<'{"id": 1, "code": "x = 1"}' | head -n 1 >"$TC_TMP/answer.json"
	"$PY" -I -c '
import json, re, sys
text = open(sys.argv[1]).read()
record = json.load(open(sys.argv[2]))
keys = set(record)
# the objects whose members are documented one by one, as parent.member
for parent in ("isolation", "provenance"):
    keys |= {parent + "." + k for k in record[parent]}
keys |= set(json.load(open(sys.argv[3])))
keys |= set(json.load(open(sys.argv[4])))
missing = sorted(k for k in keys if not re.search(r"(^|[^a-z_])" + re.escape(k) + r"([^a-z_]|$)", text))
if missing:
    sys.exit("not in toolcell-record(5): " + ", ".join(missing))
' "$TC_TMP/man.txt" "$TC_TMP/r.json" "$TC_TMP/env.json" "$TC_TMP/answer.json"
}

@test "toolcell-policy(5) names every key of the effective default policy" {
	MANWIDTH=200 man -l "$BUILD/doc/toolcell-policy.5" >"$TC_TMP/man.txt"
	"$TOOLCELL" policy check "$BUILD/policies/default.json" >"$TC_TMP/p.json" 2>/dev/null
	"$PY" -I -c '
import json, re, sys
text = open(sys.argv[1]).read()
p = json.load(open(sys.argv[2]))
keys = set(p)
for k in ("limits", "allow", "require", "session", "uid_range"):
    if isinstance(p.get(k), dict):
        keys |= set(p[k])
missing = sorted(k for k in keys if not re.search(r"(^|[^a-z_])" + re.escape(k) + r"([^a-z_]|$)", text))
if missing:
    sys.exit("not in toolcell-policy(5): " + ", ".join(missing))
' "$TC_TMP/man.txt" "$TC_TMP/p.json"
}
