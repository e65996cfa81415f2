#!/usr/bin/env bats
# The documentation generated from the command and option tables in
# src/cli-table.c (tools/docgen.c): toolcell(1)'s SYNOPSIS, COMMANDS,
# OPTIONS, LIMITS, EXIT STATUS and ENVIRONMENT and the bash completion name
# exactly the commands, synopses, options and exit statuses --help names,
# so neither can drift from the parser; README's usage lines are the
# synopsis; the man page renders without a groff warning. toolcell(1) and
# the completion are generated at build time and installed as generated
# (CMakeLists.txt), so these tests check what a package ships.

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

# man_roff SECTION: the roff source of toolcell.1's SECTION, \- as -
man_roff() {
	sed -n "/^\\.SH $1\$/,/^\\.SH /p" "$MAN1" | sed '1d;$d' | sed 's/\\-/-/g'
}

# man_entries SECTION: the head of each entry (.TP) of SECTION, fonts aside
man_entries() {
	man_roff "$1" | awk '$0 == ".RS" { d++ } $0 == ".RE" { d-- } p == ".TP" && !d { print } { p = $0 }' |
		sed -E 's/^\.B //; s/\\f[BIR]//g'
}

# man_subopts NAME: the options toolcell.1 lists under command NAME, and --help
man_subopts() {
	man_roff COMMANDS | awk -v name="$1" '
		$0 == ".RS" { d++ } $0 == ".RE" { d-- }
		p == ".TP" && !d { on = ($0 == ".B " name) }
		on && d == 1 && p == ".TP" { print } { p = $0 }' | sed -nE 's/^\\fB(--[a-z][-a-z]*)\\fR.*/\1/p'
	echo --help
}

@test "'serve' and 'rootfs build': toolcell.1 and the completion name exactly the options their --help names" {
	for cmd in serve "rootfs build"; do
		# shellcheck disable=SC2086 # two words for rootfs build
		"$TOOLCELL" $cmd --help | sed -nE 's/^  (-h, )?(--[a-z][-a-z]*).*/\2/p' | sort -u >"$TC_TMP/help"
		[ "$(wc -l <"$TC_TMP/help")" -ge 4 ]
		man_subopts "$cmd" | sort -u >"$TC_TMP/man"
		diff "$TC_TMP/help" "$TC_TMP/man"
		# shellcheck disable=SC2086
		complete_words toolcell $cmd -- | sort -u >"$TC_TMP/comp"
		diff "$TC_TMP/help" "$TC_TMP/comp"
	done
	run -0 complete_words toolcell rootfs ""
	[ "$output" = build ]
	run -0 complete_words toolcell serve --po
	[ "$output" = "$(printf '%s\n' --pool --policy)" ]
	run -0 complete_words toolcell serve --pool ""
	[ -z "$output" ]
}

@test "'version': --help, toolcell.1 and the completion name --paths [NAME] and --json; --paths completes the names it prints" {
	help_opts version >"$TC_TMP/help"
	[ "$(cat "$TC_TMP/help")" = "$(printf '%s\n' --help --json --paths)" ]
	diff "$TC_TMP/help" <(man_subopts version | sort -u)
	diff "$TC_TMP/help" <(complete_words toolcell version -- | sort -u)
	"$TOOLCELL" help version | grep -q '^  --paths \[NAME\]  *print where this toolcell finds its files'
	man_roff COMMANDS | grep -qx '\\fB--paths\\fR \[\\fINAME\\fR\]'
	run -0 complete_words toolcell version --paths ""
	[ "$output" = "$("$TOOLCELL" version --paths | cut -d' ' -f1)" ]
	# the name may be left out: an option after --paths is completed
	run -0 complete_words toolcell version --paths --j
	[ "$output" = --json ]
}

# overview_commands: the commands 'toolcell --help' lists under Commands:
overview_commands() {
	"$TOOLCELL" --help | sed -n '/^Commands:$/,/^$/p' | sed -nE 's/^  ([a-z]+( [a-z]+)?)  .*/\1/p'
}

# synopsis: toolcell --help's Usage lines, a wrapped one joined
synopsis() {
	"$TOOLCELL" --help | sed -n '/^Usage:$/,/^$/p' | sed '1d;$d' |
		awk '/^  toolcell / { if (l != "") print l; l = substr($0, 3); next }
			{ sub(/^ +/, ""); l = l " " $0 } END { print l }'
}

@test "every command: toolcell.1's SYNOPSIS, COMMANDS and EXIT STATUS and the completion name exactly the overview's" {
	overview_commands >"$TC_TMP/cmds"
	[ "$(wc -l <"$TC_TMP/cmds")" -eq 10 ]
	grep -qx serve "$TC_TMP/cmds"
	MANWIDTH=300 man -l "$MAN1" >"$TC_TMP/man.txt"
	# COMMANDS: one entry per command, in the same order
	man_entries COMMANDS >"$TC_TMP/man-cmds"
	diff "$TC_TMP/cmds" "$TC_TMP/man-cmds"
	# SYNOPSIS: the overview's Usage lines, each whole
	synopsis >"$TC_TMP/usage"
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$TC_TMP/man.txt" | sed '1d;$d' | sed -E 's/^ +//; /^$/d' >"$TC_TMP/man-usage"
	diff "$TC_TMP/usage" "$TC_TMP/man-usage"
	# EXIT STATUS: an entry for every command (run and python share one)
	man_entries "EXIT STATUS" | sed 's/, /\n/g' >"$TC_TMP/man-exit"
	diff "$TC_TMP/cmds" "$TC_TMP/man-exit"
	# the completion: the first word, and help's
	cut -d' ' -f1 "$TC_TMP/cmds" >"$TC_TMP/words"
	{
		cat "$TC_TMP/words"
		printf '%s\n' --help --version
	} >"$TC_TMP/want"
	complete_words toolcell "" >"$TC_TMP/comp"
	diff "$TC_TMP/want" "$TC_TMP/comp"
	complete_words toolcell help "" >"$TC_TMP/comp"
	diff "$TC_TMP/words" "$TC_TMP/comp"
}

@test "every command: 'toolcell help CMD' and 'toolcell CMD --help' are one text, exit 0, from its synopsis to its exit status" {
	local cmd n=0
	synopsis >"$TC_TMP/usage"
	while read -r cmd; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # "policy check", "rootfs build": two words
		capture "$TOOLCELL" help $cmd
		[ "$status" -eq 0 ] && [ ! -s "$TC_TMP/stderr" ] || {
			echo "toolcell help $cmd: exit $status" >&2
			return 1
		}
		cp "$TC_TMP/stdout" "$TC_TMP/help"
		# shellcheck disable=SC2086
		capture "$TOOLCELL" $cmd --help
		[ "$status" -eq 0 ]
		same_bytes "$TC_TMP/stdout" "$TC_TMP/help"
		# its first synopsis line is the overview's, wrapped or not
		want=$(grep -m 1 -E "^toolcell $cmd( |$)" "$TC_TMP/usage")
		got=$(sed -n '/^Usage: /,/^$/p' "$TC_TMP/help" | sed '$d' |
			awk 'NR == 1 { l = substr($0, 8); next } /^       toolcell / { exit } { sub(/^ +/, ""); l = l " " $0 } END { print l }')
		[ "$got" = "$want" ] || {
			echo "toolcell help $cmd: '$got', overview: '$want'" >&2
			return 1
		}
		# it ends with its exit status, which names its codes
		sed -n '/^Exit status/,$p' "$TC_TMP/help" >"$TC_TMP/exit"
		[ -s "$TC_TMP/exit" ] && grep -qE '\b0\b' "$TC_TMP/exit" || {
			echo "toolcell help $cmd: no exit status at its end" >&2
			return 1
		}
	done < <(overview_commands)
	[ "$n" -eq 10 ]
}

@test "toolcell.1's EXIT STATUS says, for each command, what its --help says" {
	local cmd n=0
	MANWIDTH=400 man -l "$MAN1" | sed -n '/^EXIT STATUS/,/^ENVIRONMENT/p' | tr -s ' \n' '  ' >"$TC_TMP/man-exit"
	while read -r cmd; do
		n=$((n + 1))
		# the help's paragraph without its "Exit status (call):" head, whitespace aside
		# shellcheck disable=SC2086
		"$TOOLCELL" help $cmd | sed -n '/^Exit status/,$p' | sed -E '1s/^Exit status[^:]*://' |
			tr -s ' \n' '  ' | sed -E 's/^ +//; s/ +$//' >"$TC_TMP/want"
		[ "$(wc -c <"$TC_TMP/want")" -gt 1 ]
		grep -qF -- "$(cat "$TC_TMP/want")" "$TC_TMP/man-exit" || {
			echo "$cmd: toolcell.1 does not say: $(cat "$TC_TMP/want")" >&2
			return 1
		}
	done < <(overview_commands)
	[ "$n" -eq 10 ]
}

@test "README's usage lines are the synopsis toolcell --help gives" {
	local src=${TC_SOURCE:-$BATS_TEST_DIRNAME/../..} n=0
	synopsis >"$TC_TMP/usage"
	while IFS= read -r line; do
		n=$((n + 1))
		grep -qxF -- "$line" "$TC_TMP/usage" || {
			echo "a usage line no command has: $line" >&2
			return 1
		}
	done < <(grep -hE '^\s*toolcell [a-z]+( [a-z]+)? \[' "$src/README.md" "$src/rootfs/README.md" | sed -E 's/^ +//')
	[ "$n" -ge 2 ]
}

@test "the bash completion: commands, 'policy check', values of options, none after PROGRAM" {
	run -0 complete_words toolcell ""
	[ "$output" = "$(printf '%s\n' run python call session check policy serve rootfs version help --help --version)" ]
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
	run -0 complete_words toolcell call --server "$TC_TMP/f"
	[ "$output" = "$TC_TMP/file-a" ]
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
