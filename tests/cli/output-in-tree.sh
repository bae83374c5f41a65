#!/bin/sh
# The report's own file inside an input directory is no input: a walk that
# meets it (by inode) leaves it out, so nothing is counted as skipped for it
# and the report does not depend on where it is written: -o FILE or standard
# output sent to a file, with one job or two.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

x86=$(fixture stats-x86-64)
d=$T/o
mkdir -p "$d/sub"
cp "$x86" "$d/a.o"
cp "$x86" "$d/sub/b.o"

# The text reports' "skipped:" line (load indents it): a tree with one file
# that is not ELF must show it, so the grep below can match.
mkdir "$T/ctl"
cp "$x86" "$T/ctl/a.o"
echo text >"$T/ctl/notes.txt"
skipped_re='^[[:space:]]*skipped:'
for cmd in stats plt "load --repeat 1"; do
	# shellcheck disable=SC2086
	check "$cmd: a tree with a text file: skipped line" 1 \
		"$("$ELFPLT" $cmd "$T/ctl" 2>/dev/null | grep -c "$skipped_re")"
	for j in 1 2; do
		rm -f "$d/report.txt" "$d/sub/report.json" "$d/stdout.txt"
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd -j $j -o "$d/report.txt" "$d" 2>"$T/err" || rc=$?
		check "$cmd -j $j -o inside the tree: exit status" 0 "$rc"
		# Two ELF files in the tree and nothing else: no "skipped:" line.
		grep -q "$skipped_re" "$d/report.txt" &&
			fail "$cmd -j $j: the report counted itself:" \
				"$(grep skipped: "$d/report.txt")"
		rm -f "$d/report.txt"
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd -j $j --json -o "$d/sub/report.json" "$d" 2>"$T/err" || rc=$?
		check "$cmd -j $j --json -o inside: exit status" 0 "$rc"
		check "$cmd -j $j --json: skipped" 0 \
			"$(jqr "$d/sub/report.json" '.totals.skipped // .run.skipped // .skipped')"
		rm -f "$d/sub/report.json"
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd -j $j "$d" >"$d/stdout.txt" 2>"$T/err" || fail "$cmd > file: $?"
		grep -q "$skipped_re" "$d/stdout.txt" &&
			fail "$cmd -j $j > inside: the report counted itself"
	done
done

# stats is deterministic: the same bytes written inside the tree and outside.
rm -f "$d/stdout.txt"
"$ELFPLT" stats -o "$T/outside.txt" "$d" || fail "stats -o outside: $?"
"$ELFPLT" stats -o "$d/inside.txt" "$d" || fail "stats -o inside: $?"
cmp -s "$T/outside.txt" "$d/inside.txt" || fail "stats: the report differs inside the tree"

# A tree that holds nothing but the report has no ELF file: the warning says
# so (the report left out is not a file read under another name).
mkdir "$T/only"
rc=0
"$ELFPLT" stats --allow-empty -o "$T/only/report.txt" "$T/only" 2>"$T/err" || rc=$?
check "only the report: exit status" 0 "$rc"
check "only the report: warning" "elfplt: warning: $T/only: no ELF files found" "$(cat "$T/err")"
rc=0
"$ELFPLT" stats -o "$T/only/report.txt" "$T/only" 2>"$T/err" || rc=$?
check "only the report, no --allow-empty: exit status" 1 "$rc"
done_testing
