#!/bin/sh
# elfplt load says what is noise: "mmap vs read" is a result only where the
# runs' [min..max] ranges of read and mmap do not overlap, else "within
# noise"; [min..max] and any verdict only from 3 runs up; and the report
# states its own floor (the empty child's cost, the clock's resolution)
# beside the figures.  No time is asserted: the wording is checked against
# the ranges of the same run, recomputed here (jq over the JSON; awk over
# the text's integer rows, which print exactly), and the clock's resolution
# against python3's time.clock_getres().
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
obj=$(fixture load-relocs)

# --- one run: medians only, no verdict --------------------------------------
"$ELFPLT" load --wide --repeat 1 "$obj" >"$T/r1.txt" || fail "--repeat 1 exited $?"
sed -n '/^median/,$p' "$T/r1.txt" >"$T/r1.table"
check "--repeat 1: table header" "median read mmap hybrid accessor mmap vs read" \
	"$(head -n 1 "$T/r1.table" | tr -s ' ')"
grep -q '\[' "$T/r1.table" && fail "--repeat 1: a [min..max] in the table"
check "--repeat 1: every verdict is -" "-" \
	"$(sed 1d "$T/r1.table" | awk '{ print $NF }' | sort -u)"
grep -qx "  mmap vs read: not judged from 1 run; noise needs 3 runs or more (--repeat 3)" \
	"$T/r1.txt" || fail "--repeat 1: no line saying why nothing is judged"
"$ELFPLT" load --repeat 2 "$obj" >"$T/r2.txt"
grep -q "not judged from 2 runs" "$T/r2.txt" || fail "--repeat 2: judged"
"$ELFPLT" load --repeat 1 --json "$obj" >"$T/r1.json"
check "--repeat 1 (json): verdicts" "too_few_runs" \
	"$(jqr "$T/r1.json" '[.modes[].vs_read_verdict[] | select(. != null)] | unique | .[]')"

# --- three runs: ranges, and verdicts that follow them ----------------------
# --wide: one row a line (five ranges are wider than a file's 100 columns).
"$ELFPLT" load --wide --repeat 3 "$obj" >"$T/r3.txt" || fail "--repeat 3 exited $?"
sed -n '/^median/,$p' "$T/r3.txt" >"$T/r3.table"
check "--repeat 3: table header" "median [min..max] read mmap hybrid accessor mmap vs read" \
	"$(head -n 1 "$T/r3.table" | tr -s ' ')"
grep -qx "  mmap vs read: a difference where the runs' \[min..max\] do not overlap, else within noise" \
	"$T/r3.txt" || fail "--repeat 3: no line saying what a difference is"
# Integer rows: "label... R [a..b] M [c..d] H [e..f] A [g..h] VERDICT".
for row in "minor faults" "major faults" "peak RSS (KiB)" "bytes copied"; do
	line=$(grep "^$row " "$T/r3.table")
	got=$(echo "$line" | sed 's/^[a-zA-Z ()]*  *//' | awk '{
		split($2, r, /[][.]+/); split($4, m, /[][.]+/)
		v = $9; for (i = 10; i <= NF; i++) v = v " " $i
		overlap = (r[2] + 0 <= m[3] + 0 && m[2] + 0 <= r[3] + 0)
		if (v == "-") print "ok"
		else if (overlap) print (v == "within noise" ? "ok" : "bad: " v " but ranges overlap")
		else print (v ~ /^[-+]?[0-9.]+%$/ ? "ok" : "bad: " v " but ranges apart")
	}')
	check "--repeat 3: '$row' verdict follows its ranges" ok "$got"
done
# bytes copied: read copies every byte and mmap none; 3 runs each, exact
# ranges apart: a result, +100.0%.
check "--repeat 3: bytes copied is a result" "+100.0%" \
	"$(grep '^bytes copied ' "$T/r3.table" | awk '{ print $NF }')"

"$ELFPLT" load --repeat 3 --json "$obj" >"$T/r3.json"
# Every verdict against the ranges of the same document, every mode.
check "--repeat 3 (json): every verdict follows the ranges" "" \
	"$(jqr "$T/r3.json" '(.modes[] | select(.mode == "read")) as $r | .modes[] |
		select(.mode != "read") | . as $m | .vs_read_verdict | to_entries[] |
		select(.value != null) |
		(if .value == "below_floor" then "below_floor"
		 elif ($r[.key].min <= $m[.key].max and $m[.key].min <= $r[.key].max)
		 then "within_noise" else "result" end) as $want |
		select($want != .value and .value != "below_floor") |
		"\($m.mode) \(.key): \(.value), ranges say \($want)"')"
check "--repeat 3 (json): a verdict where and only where a % is" "" \
	"$(jqr "$T/r3.json" '.modes[] | select(.mode != "read") | . as $m |
		.vs_read_pct | keys[] | select((($m.vs_read_pct[.] == null) !=
		($m.vs_read_verdict[.] == null))) | "\($m.mode) \(.)"')"

# --- the floor line ---------------------------------------------------------
line=$(grep '^  floor: ' "$T/r3.txt")
echo "$line" | grep -Eqx '  floor: empty child [0-9]+\.[0-9] us wall, [0-9]+ minor faults, [0-9]+ KiB peak RSS; clock resolution [0-9]+ ns' ||
	fail "floor line: '$line'"
if command -v python3 >/dev/null; then
	res=$(python3 -c 'import time; print(round(time.clock_getres(time.CLOCK_MONOTONIC) * 1e9))')
	check "floor line: clock resolution (python3 clock_getres)" "$res" \
		"$(echo "$line" | sed 's/.*clock resolution \([0-9]*\) ns/\1/')"
fi
# Above the table, beside the run count.
check "floor line: before the table" 1 \
	"$(awk '/^  floor: /{ f = NR } /^median/{ t = NR } END { print (f && f < t) }' "$T/r3.txt")"

[ "$nfail" -eq 0 ]
