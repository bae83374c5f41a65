#!/bin/sh
# Two things a user reads first: what a file is, and that a PATH yielded
# nothing.  An ET_DYN with PT_INTERP is a position-independent executable
# (readelf -lW shows the INTERP header; the same file without it is a shared
# object, like stats-relr.yaml's ET_DYN), and a directory with no ELF file
# is an error naming it for every command, exit status 1 (a mistyped tree
# must not pass a CI gate); --allow-empty makes it a warning, exit status 0.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ READELF

pie=$(fixture stats-pie)
dso=$(fixture stats-relr)
"$READELF" -lW "$pie" | grep -q 'INTERP' || fail "fixture has no PT_INTERP"
"$READELF" -lW "$dso" | grep -q 'INTERP' && fail "stats-relr has a PT_INTERP"
# --wide: the header line whole, which a long $TMPDIR would fold at 100 columns.
check "PIE header line" "$pie: ELF64 LSB x86-64 position-independent executable, 0 relocations in 0 sections" \
	"$("$ELFPLT" stats --wide "$pie" | head -n 1)"
case "$("$ELFPLT" stats --wide "$dso" | head -n 1)" in
*" shared object, "*) echo "ok: ET_DYN without PT_INTERP is a shared object" ;;
*) fail "ET_DYN without PT_INTERP: $("$ELFPLT" stats --wide "$dso" | head -n 1)" ;;
esac

mkdir -p "$T/empty" "$T/text"
echo "not ELF" >"$T/text/a.ko"
for cmd in stats plt "load --repeat 1"; do
	for d in "$T/empty" "$T/text"; do
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd "$d" >"$T/out" 2>"$T/err" || rc=$?
		check "$cmd $d: exit status" 1 "$rc"
		check "$cmd $d: error" \
			"elfplt: $d: no ELF files found (--allow-empty to accept that)" "$(cat "$T/err")"
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd --allow-empty "$d" >"$T/out" 2>"$T/err" || rc=$?
		check "$cmd --allow-empty $d: exit status" 0 "$rc"
		check "$cmd --allow-empty $d: warning" "elfplt: warning: $d: no ELF files found" \
			"$(cat "$T/err")"
	done
done
# A mistyped PATH (it does not exist) fails too, named on one line.
rc=0
"$ELFPLT" stats "$T/no-such-tree" >"$T/out" 2>"$T/err" || rc=$?
check "mistyped PATH: exit status" 1 "$rc"
check "mistyped PATH: one line" 1 "$(grep -c "$T/no-such-tree" "$T/err")"
done_testing
