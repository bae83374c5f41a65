#!/bin/sh
# The progress bar (elfplt(1)): on a terminal, for a run of more than one
# file, "[####....] N/TOTAL files P% R files/s" on stderr, redrawn with '\r'
# and erased (ESC [ K) before any message and before the run ends, so what
# the terminal finally shows is the messages alone, each whole.  Nothing
# with --quiet, without a terminal, for one file, or when the JSON report
# goes to the terminal.  util-linux's script(1) gives the run a
# pseudo-terminal; ELFPLT_PROGRESS_DELAY_MS=0 lets a bar show on a run this
# short (the default waits half a second).  Timing is not asserted: a bar is
# drawn after the first file whatever the speed, later ones may or may not.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ
command -v script >/dev/null 2>&1 || skip "script (util-linux) not found: no pseudo-terminal"
script -qec true /dev/null </dev/null >/dev/null 2>&1 ||
	skip "script cannot open a pseudo-terminal here"

x86=$(fixture stats-x86-64)
mkdir -p "$T/tree/sub"
for i in 01 02 03 04 05 06 07 08 09; do
	cp "$x86" "$T/tree/$i.o"
done
cp "$x86" "$T/tree/sub/10.o"
# A malformed file among them, which every command opens and rejects
# (e_shstrndx 80 of 6 sections, stats-bad.yaml's document 7): an error line
# while the bar is up.
"$YAML2OBJ" --docnum=7 "$FIXTURES/stats-bad.yaml" -o "$T/tree/05-bad.o" || exit 1
echo "not ELF: the walk lists it, and passes over it" >"$T/tree/README"
# The bar counts the files the walk lists: every regular file in the tree.
total=$(find "$T/tree" -type f | wc -l)
check "files in the tree" 12 "$total"

# on_tty ARGS...: elfplt ARGS with stdout and stderr on a pseudo-terminal; the
# bytes the terminal received go to $T/tty, the exit status to $T/tty.rc.
on_tty() {
	rc=0
	ELFPLT_PROGRESS_DELAY_MS=0 script -qec "'$ELFPLT' $*" /dev/null </dev/null >"$T/tty" ||
		rc=$?
	echo "$rc" >"$T/tty.rc"
}

# shown FILE: what a terminal shows after receiving FILE: per line (the
# terminal's \r\n made \n), the text after the last \r, without ESC [ K.
shown() {
	LC_ALL=C sed 's/\r$//' "$1" | LC_ALL=C awk -F'\r' '{ print $NF }' |
		LC_ALL=C sed 's/\x1b\[K//g'
}

# bars FILE: how many bars for this tree were drawn, by their full format.
bars() {
	LC_ALL=C tr '\r' '\n' <"$1" |
		grep -Ec "^\[[#.]{24}\] [0-9]+/$total files +[0-9]+% [0-9]+ files/s"
}

for cmd in "stats -j 2" "stats -j 1" "plt -j 2" "load --repeat 1 -j 2"; do
	# The report to a file; stderr to the terminal.
	on_tty $cmd -o "$T/out" "$T/tree"
	check "$cmd: exit status (a file failed)" 1 "$(cat "$T/tty.rc")"
	[ "$(bars "$T/tty")" -ge 1 ] || fail "$cmd: no progress bar '.../$total files'"
	# shellcheck disable=SC2086
	"$ELFPLT" $cmd -o "$T/out" "$T/tree" 2>"$T/plain.err"
	check "$cmd: the terminal shows stderr's lines alone" "$(cat "$T/plain.err")" \
		"$(shown "$T/tty")"
	grep -q '05-bad.o' "$T/plain.err" || fail "$cmd: no error line for 05-bad.o"

	on_tty -q $cmd -o "$T/out" "$T/tree"
	check "-q $cmd: no bar" 0 "$(grep -c 'files/s' "$T/tty")"
	on_tty $cmd --quiet -o "$T/out" "$T/tree"
	check "$cmd --quiet: no bar" 0 "$(grep -c 'files/s' "$T/tty")"
done

# Not a terminal: stderr holds the error line only, no '\r' and no bar.
ELFPLT_PROGRESS_DELAY_MS=0 "$ELFPLT" stats -o "$T/out" "$T/tree" 2>"$T/err"
check "no terminal: stderr lines" 1 "$(wc -l <"$T/err")"
check "no terminal: no carriage return" 0 "$(tr -cd '\r' <"$T/err" | wc -c)"

# One file: no bar.
on_tty stats -o "$T/out" "$x86"
check "one file: no bar" 0 "$(grep -c 'files/s' "$T/tty")"

# The text report on the same terminal: the bar is erased before each file's
# report, so the terminal shows the report and the error line, whole.
on_tty stats -j 2 "$T/tree"
"$ELFPLT" stats -j 2 -o "$T/report" "$T/tree" 2>/dev/null
check "text report on the terminal: report lines intact" "$(cat "$T/report")" \
	"$(shown "$T/tty" | grep -v '^elfplt: ')"
check "text report on the terminal: error line" 1 "$(shown "$T/tty" | grep -c '^elfplt: ')"

# JSON on the terminal leaves lines half written between files: no bar.
on_tty stats -j 2 --json "$T/tree"
check "JSON on the terminal: no bar" 0 "$(grep -c 'files/s' "$T/tty")"

done_testing
