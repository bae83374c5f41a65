#!/bin/sh
# --by on names and offsets a crafted file chooses.
# - A name that is not UTF-8 (a symbol renamed with byte 0xff, a source file
#   named so): jansson refuses it, and the JSON row lost its "name" key (the
#   schema requires it); its bytes above 0x7f are now '?'.
# - tests/fixtures/attr-bucketwrap.yaml: a call site at r_offset 2^64-1 in a
#   section with one function a byte: the caller index's bucket wrapped and
#   the site had "(no function)" (an out-of-bounds read under ASan); its
#   caller is big, the function whose st_size reaches there.
. "$top_srcdir/tests/lib.sh"
need JQ
command -v objcopy >/dev/null || skip "no objcopy"
cc=${CC:-cc}
ff=$(printf '\377')

$cc -c -g -O1 -fno-inline -o "$T/calls.o" "$FIXTURES/attr-calls.c" ||
	fail "$cc could not compile attr-calls.c"
callee=$("$READELF" -sW "$T/calls.o" | awk '$7 == "UND" && $8 != "" { print $8; exit }')
[ -n "$callee" ] || fail "attr-calls.o calls no external function"
objcopy --redefine-sym "$callee=bad${ff}callee" "$T/calls.o" "$T/bad.o" || fail "objcopy --redefine-sym"
"$ELFPLT" plt --json --by=callee "$T/bad.o" >"$T/plt.json" || fail "plt: exit $?"
check "plt --by=callee: every row has a name" 0 \
	"$(jqr "$T/plt.json" '[.files[0].attribution.callee[] | select(.name == null)] | length')"
check "plt --by=callee: the non-UTF-8 name with '?'" 1 \
	"$(jqr "$T/plt.json" '[.files[0].attribution.callee[] | select(.name == "bad?callee")] | length')"
"$ELFPLT" stats --json --by=symbol "$T/bad.o" >"$T/stats.json" || fail "stats: exit $?"
check "stats --by=symbol: the non-UTF-8 name with '?'" 1 \
	"$(jqr "$T/stats.json" '[.files[0].attribution.symbol[] | select(.name == "bad?callee")] | length')"

# A source file whose name is not UTF-8: DW_AT_name and the line table say so.
src="$T/src${ff}name.c"
cp "$FIXTURES/attr-calls.c" "$src"
(cd "$T" && $cc -c -g -O1 -fno-inline -o "$T/cu.o" "src${ff}name.c") || fail "$cc on $src"
"$ELFPLT" stats --json --by=cu "$T/cu.o" >"$T/cu.json" || fail "stats --by=cu: exit $?"
check "stats --by=cu: the compile unit named, 0xff as '?'" 1 \
	"$(jqr "$T/cu.json" '[.files[0].attribution.cu[] | select(.name != null and (.name | endswith("src?name.c")))] | length')"
"$ELFPLT" plt --json --by=line "$T/cu.o" >"$T/line.json" || fail "plt --by=line: exit $?"
check "plt --by=line: every row has a name" 0 \
	"$(jqr "$T/line.json" '[.files[0].attribution.line[] | select(.name == null)] | length')"

need YAML2OBJ
o=$(fixture attr-bucketwrap)
"$ELFPLT" plt --json --by=caller "$o" >"$T/bw.json" || fail "bucketwrap: exit $?"
check "a site at r_offset 2^64-1: its caller" "big 1" \
	"$(jqr "$T/bw.json" '.files[0].attribution.caller[] | "\(.name) \(.sites)"')"
done_testing
