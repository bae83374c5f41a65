#!/bin/sh
# elfplt plt --top N: the N files that reserve the most slots, as
# `elfplt stats --top` lists the files with the most relocations: text
# shows the list and the totals instead of each file's details; JSON keeps
# every file and adds totals.top.  The list is checked against the files'
# own records (most slots first, ties in path order), and one figure by
# hand: plt-arm64-v612.yaml's 5 core + 2 init PLT slots + 1 + 1 trampoline
# slots (its comments) = 9.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

v612=$(fixture plt-arm64-v612)
v61=$(fixture plt-arm64-v61)
nounload=$(fixture plt-arm64-v612-nounload)
adrp=$(fixture plt-arm64-adrp)
over=$(fixture plt-arm64-overcount)
linked=$(fixture plt-linked)
j=$T/out.json

"$ELFPLT" plt --json --top 3 "$v612" "$v61" "$nounload" "$adrp" "$over" "$linked" >"$j" ||
	fail "--top 3 --json exited $?"
check "json: every file still reported" 6 "$(jqr "$j" '.files | length')"
check "json: top has 3" 3 "$(jqr "$j" '.totals.top | length')"
want=$(jqr "$j" '[.files[] | select(.model) | {path, model, slots: {reserved: .slots.reserved,
	minimum: .slots.minimum}}] | sort_by(-.slots.reserved, .path) |
	.[:3] | map("\(.path) \(.model) \(.slots.reserved) \(.slots.minimum)") | join(",")')
check "json: top = the files' own records, most slots first" "$want" \
	"$(jqr "$j" '.totals.top | map("\(.path) \(.model) \(.slots.reserved) \(.slots.minimum)") |
		join(",")')"
check "json: v612's slots by hand" 9 \
	"$(jqr "$j" ".totals.top[] | select(.path == \"$v612\") | .slots.reserved")"
"$ELFPLT" plt --json "$v612" >"$j" || fail "no --top exited $?"
check "json: top is [] without --top" "[]" "$(jqr "$j" '.totals.top | tostring')"

"$ELFPLT" plt --top 2 "$v612" "$v61" "$nounload" >"$T/top.txt" || fail "--top 2 exited $?"
grep -q '^  \[Nr\]' "$T/top.txt" && fail "text --top still shows a section table"
grep -q '^total: 3 files' "$T/top.txt" || fail "text --top: no totals line"
grep -q '^top 2 files by reserved slots, every kind:' "$T/top.txt" || fail "text --top: no list"
check "text: 2 rows" 2 "$(awk '/^top 2 files/ { on = 1; next } on && $1 ~ /^[0-9]+$/' \
	"$T/top.txt" | wc -l)"
# One file: the totals and the list all the same, as stats does.
"$ELFPLT" plt --top 5 "$v612" >"$T/one.txt" || fail "--top 5, one file exited $?"
grep -q '^top 1 file by reserved slots, every kind:' "$T/one.txt" || fail "one file: $(cat "$T/one.txt")"
awk '/^top 1 file/ { getline; getline; print $2 }' "$T/one.txt" >"$T/n"
check "text: v612's slots" 9 "$(cat "$T/n")"
# With --summary too, the summary table is kept.
"$ELFPLT" plt --summary --top 1 "$v612" "$v61" >"$T/both.txt" || fail "--summary --top exited $?"
grep -q '^top 1 file by reserved slots, every kind:' "$T/both.txt" || fail "--summary --top: no list"
check "--summary --top: summary rows" 2 "$(grep -c '^ *[^ ]*plt-arm64-v61' "$T/both.txt")"

for bad in 0 -1 x 1x ""; do
	"$ELFPLT" plt --top "$bad" "$v612" >/dev/null 2>&1
	check "--top '$bad' exit" 2 "$?"
done
"$ELFPLT" plt "$v612" --top >/dev/null 2>&1
check "--top without its number exit" 2 "$?"
"$ELFPLT" plt --help >"$T/help" || fail "--help exited $?"
grep -q -- '--top N' "$T/help" || fail "plt --help does not describe --top"
done_testing
