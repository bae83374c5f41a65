#!/bin/sh
# elfplt stats --by=symbol|section|cu: each file's relocations by the symbol
# they reference, the section they patch and the compile unit of the place.
# Objects and a PIE are compiled here from tests/fixtures/attr-calls.c and
# attr-relative.c; the expected counts are readelf -rW's (names and
# relocation sections counted by awk) and, for the PIE's pointer table, the
# fixture's NAMES_N, cross-checked with readelf -sW's range of names[].
. "$top_srcdir/tests/lib.sh"
need JQ READELF
j=$T/out.json
cc=${CC:-cc}

o=$T/calls.o
$cc -c -g -O1 -fPIC -fno-inline -fno-optimize-sibling-calls -o "$o" "$FIXTURES/attr-calls.c" ||
	fail "$cc could not compile attr-calls.c"
"$ELFPLT" stats --json --by=symbol,section,cu "$o" >"$j" || fail "object: exit $?"
# readelf -rW: a relocation line starts with r_offset and r_info in hex; the
# fifth field is the symbol's name (a section symbol shows its section's).
"$READELF" -rW "$o" | awk '$1 ~ /^[0-9a-f]+$/ && $2 ~ /^[0-9a-f]+$/ { print $5 }' | sort |
	uniq -c | awk '{ print $2 " " $1 }' | sort >"$T/want"
jqr "$j" '.files[0].attribution.symbol[] | "\(.name) \(.relocations)"' | sort >"$T/got"
check "object: relocations per symbol (readelf -rW)" "$(cat "$T/want")" "$(cat "$T/got")"
"$READELF" -rW "$o" | awk -F"'" '/^Relocation section/ { s = $2; sub(/^\.rela?/, "", s) }
	$0 ~ /^[0-9a-f]+ +[0-9a-f]+ / { n[s]++ } END { for (k in n) print k " " n[k] }' |
	sort >"$T/want"
jqr "$j" '.files[0].attribution.section[] | "\(.name) \(.relocations)"' | sort >"$T/got"
check "object: relocations per target section (readelf -rW)" "$(cat "$T/want")" "$(cat "$T/got")"
text=$(grep '^\.text ' "$T/want" | cut -d' ' -f2)
check "object: the code's relocations in the compile unit" \
	"$FIXTURES/attr-calls.c $text" "$(jqr "$j" '.files[0].attribution.cu[] |
	select(.name != "unknown") | "\(.name) \(.relocations)"')"
"$ELFPLT" stats --json --by=symbol --top 2 "$o" >"$j" || fail "--top: exit $?"
check "--top 2: two rows, the largest first" 2 "$(jqr "$j" '.files[0].attribution.symbol |
	select(.[0].relocations >= .[1].relocations) | length')"
"$ELFPLT" stats --by=symbol --top 2 "$o" >"$T/text" || fail "--top text: exit $?"
check "--top 2 text: the file's rows still shown" 1 "$(grep -c '^  by symbol: ' "$T/text")"
"$ELFPLT" stats --by=callee "$o" >/dev/null 2>&1
check "stats --by=callee is a usage error" 2 $?

pie=$T/relative
$cc -O1 -fPIE -pie -o "$pie" "$FIXTURES/attr-relative.c" 2>/dev/null || {
	echo "note: $cc cannot link a PIE here: the linked checks skipped"
	done_testing
}
"$ELFPLT" stats --json --by=symbol,section "$pie" >"$j" || fail "pie: exit $?"
n=$(sed -n 's/^#define NAMES_N \([0-9]*\)$/\1/p' "$FIXTURES/attr-relative.c")
set -- $("$READELF" -sW "$pie" | awk '$8 == "names" { print $2, $3; exit }')
lo=$((0x$1)) size=$2
inside=0
for a in $("$READELF" -rW "$pie" | awk '$3 ~ /RELATIVE$/ { print $1 }'); do
	a=$((0x$a))
	[ "$a" -ge "$lo" ] && [ "$a" -lt $((lo + size)) ] && inside=$((inside + 1))
done
check "pie: names[]'s RELATIVE relocations (readelf)" "$n" "$inside"
check "pie: (in names)" "$n" "$(jqr "$j" '.files[0].attribution.symbol[] |
	select(.name == "(in names)") | .relocations')"
check "pie: .data.rel.ro patched $n times" "$n" "$(jqr "$j" '.files[0].attribution.section[] |
	select(.name == ".data.rel.ro") | .relocations')"
"$READELF" -rW "$pie" | awk '$1 ~ /^[0-9a-f]+$/ && $2 ~ /^[0-9a-f]+$/ && NF >= 5 { print $5 }' |
	sed 's/@.*//' | sort | uniq -c | awk '{ print $2 " " $1 }' | sort >"$T/want"
jqr "$j" '.files[0].attribution.symbol[] | select(.name | startswith("(") | not) |
	"\(.name) \(.relocations)"' | sort >"$T/got"
check "pie: dynamic relocations per symbol (readelf -rW)" "$(cat "$T/want")" "$(cat "$T/got")"
done_testing
