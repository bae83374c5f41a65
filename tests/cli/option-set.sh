#!/bin/sh
# One option set: stats, plt and load each accept --top N, --summary, -q,
# -j N, --format, --json and -o (-o - being standard output), with the same
# meaning; --timing's optional count goes attached (--timing=5), and a count
# written apart ("--timing 5") is a usage error at once unless a file of
# that name exists.  Expected figures come from readelf, not from elfplt:
# relocation counts (readelf -r) for stats --top, section bytes (readelf -S,
# every section with file bytes) for load --top.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF
x86=$(fixture stats-x86-64)
kmod=$(fixture stats-kmod)
a64=$(fixture plt-arm64-basic)

# relocs FILE: relocation entries readelf lists (a line per entry, RELR aside).
relocs() {
	"$READELF" -rW "$1" | grep -c '^[0-9a-f]\{8,16\}  *[0-9a-f]\{8,16\} '
}
# secbytes FILE: sh_size of the sections with file bytes (not NULL, NOBITS).
secbytes() {
	s=0
	for size in $("$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$2 != "NULL" && $2 != "NOBITS" { print $5 }'); do
		s=$((s + 0x$size))
	done
	echo "$s"
}

for cmd in stats plt load; do
	extra=
	[ $cmd = load ] && extra="--repeat 1"
	for opts in "--top 1" "--top=1" "--summary" "-q" "-j 1" "--jobs=2" "--format=json" \
		"--json" "-o -" "--output=-" "--format=text"; do
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd $extra $opts "$x86" "$a64" >"$T/out" 2>"$T/err" || rc=$?
		check "$cmd $opts: exit status" 0 "$rc"
		[ -s "$T/out" ] || fail "$cmd $opts: nothing on standard output"
	done
	# -o - is standard output: the same bytes as no -o.
	"$ELFPLT" $cmd $extra --json "$x86" | $JQ -c 'del(.modes, .baseline, .cold,
		.peak_reset, .checksum)' >"$T/plain" 2>/dev/null
	"$ELFPLT" $cmd $extra --json -o - "$x86" | $JQ -c 'del(.modes, .baseline, .cold,
		.peak_reset, .checksum)' >"$T/dash" 2>/dev/null
	cmp -s "$T/plain" "$T/dash" || fail "$cmd -o -: not the report on standard output"
	[ -e ./- ] && fail "$cmd -o -: wrote a file named '-'"
	# -o FILE before the command, as a global option, and after it.
	"$ELFPLT" -o "$T/g.json" --json $cmd $extra "$x86" >/dev/null ||
		fail "$cmd: -o before the command exited $?"
	check "$cmd: -o FILE before the command" "elfplt-$cmd" \
		"$(jqr "$T/g.json" '.schema | sub("/.*"; "")')"
	# --top: a positive count.
	rc=0
	"$ELFPLT" $cmd --top 0 "$x86" >/dev/null 2>"$T/err" || rc=$?
	check "$cmd --top 0: exit status" 2 "$rc"
	check "$cmd --top 0: message" "elfplt: --top takes a positive number, not '0'" \
		"$(head -n 1 "$T/err")"
done

# The same words in every command's --help and manual SYNOPSIS and OPTIONS.
for cmd in stats plt load; do
	"$ELFPLT" $cmd --help >"$T/help"
	for opt in "--top N" "--summary" "-o, --output FILE"; do
		grep -q -- "^  $opt " "$T/help" || fail "$cmd --help does not list '$opt'"
	done
	grep -q -- "('-': standard output)" "$T/help" || fail "$cmd --help does not say what -o - is"
	scd=$top_srcdir/man/elfplt-$cmd.1.scd
	for opt in '\*--top\* _N_' '\*--summary\*'; do
		sed -n '/^# SYNOPSIS/,/^# /p' "$scd" | grep -q -- "$opt" ||
			fail "elfplt-$cmd(1) SYNOPSIS lacks $opt"
		sed -n '/^# OPTIONS/,/^# [A-Z]/p' "$scd" | grep -q -- "^$opt" ||
			fail "elfplt-$cmd(1) OPTIONS lacks $opt"
	done
done
grep -q -- '\*-o -\* is' "$top_srcdir/man/elfplt.1.scd" || fail "elfplt(1) does not document -o -"

# stats: --top ranks by relocations; --summary leaves out each file's report.
nx=$(relocs "$x86")
nr=$(relocs "$kmod")
if [ "$nx" -ge "$nr" ]; then first=$x86 n=$nx; else first=$kmod n=$nr; fi
"$ELFPLT" stats --json --top 1 "$x86" "$kmod" >"$T/s.json"
check "stats --top 1: the file with most relocations (readelf)" "$first $n" \
	"$(jqr "$T/s.json" '.totals.top[] | "\(.path) \(.relocations)"')"
"$ELFPLT" stats --summary "$x86" >"$T/s.txt"
grep -q "^$x86:" "$T/s.txt" && fail "stats --summary: the file's own report is there"
check "stats --summary: totals, even of one file" \
	"total: 1 file, $nx relocations" "$(sed -n '1s/ in .*//p' "$T/s.txt")"
"$ELFPLT" stats "$x86" >"$T/s.txt"
grep -q "^$x86:" "$T/s.txt" || fail "stats: without --summary, no report of the file"

# plt --summary: no details, the summary tables and totals.
"$ELFPLT" plt --summary "$a64" "$x86" >"$T/p.txt"
grep -q "^total: 2 files" "$T/p.txt" || fail "plt --summary: no totals line"
grep -q "^$a64:" "$T/p.txt" && fail "plt --summary: a file's details are there"

# load --top: by section bytes to load (readelf -S).
bx=$(secbytes "$x86")
ba=$(secbytes "$a64")
if [ "$bx" -ge "$ba" ]; then first=$x86 n=$bx; else first=$a64 n=$ba; fi
"$ELFPLT" load --repeat 1 --json --top 1 "$x86" "$a64" >"$T/l.json"
check "load --top 1 (json): most section bytes (readelf)" "$first $n" \
	"$(jqr "$T/l.json" '.totals.top[] | "\(.path) \(.bytes)"')"
"$ELFPLT" load --repeat 1 --json "$x86" >"$T/l.json"
check "load: totals.top empty without --top" 0 "$(jqr "$T/l.json" '.totals.top | length')"
"$ELFPLT" load --repeat 1 --top 2 "$x86" "$a64" >"$T/l.txt"
check "load --top 2 (text): header" "top 2 files by bytes loaded:" \
	"$(grep '^top ' "$T/l.txt")"
check "load --top 2 (text): first line" "1 $n $first" \
	"$(sed -n '/^top /{n;n;p;}' "$T/l.txt" | awk '{ print $1, $2, $3 }')"

# --timing: the count attached; alone, the default 9 (elfplt-plt(1)).
"$ELFPLT" plt --json --timing=5 "$a64" >"$T/t.json" || fail "--timing=5 exited $?"
check "--timing=5" 5 "$(jqr "$T/t.json" '.files[0].options.timing_reps')"
"$ELFPLT" plt --json --timing "$a64" >"$T/t.json" || fail "--timing exited $?"
check "--timing alone" 9 "$(jqr "$T/t.json" '.files[0].options.timing_reps')"
rc=0
"$ELFPLT" plt --timing 5 "$a64" >"$T/out" 2>"$T/err" || rc=$?
check "--timing 5: exit status" 2 "$rc"
check "--timing 5: message" \
	"elfplt: option '--timing' takes its value attached: '--timing=5' ('5' is no file)" \
	"$(head -n 1 "$T/err")"
[ -s "$T/out" ] && fail "--timing 5: reported something before the usage error"
# With a file named 5, "5" is that PATH, as getopt has it.
mkdir "$T/cwd" && cp "$a64" "$T/cwd/5"
(cd "$T/cwd" && "$ELFPLT" plt --json --timing 5) >"$T/t.json" || fail "--timing 5 (a file) exited $?"
check "--timing 5, a file 5: the PATH" "5 9" \
	"$(jqr "$T/t.json" '.files[0] | "\(.path) \(.options.timing_reps)"')"

[ "$nfail" -eq 0 ]
