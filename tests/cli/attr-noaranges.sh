#!/bin/sh
# stats --by=cu for an object without .debug_aranges: clang emits none
# (unless -gdwarf-aranges), and libdw 0.188 finds a compile unit only
# through it; elfplt falls back to the CUs' own address ranges.  The
# expected count is readelf -rW's for .rela.text: every call site of
# tests/fixtures/attr-calls.c is in its one compile unit.
. "$top_srcdir/tests/lib.sh"
need JQ READELF
command -v objcopy >/dev/null || skip "no objcopy"
cc=${CC:-cc}
j=$T/out.json

# text_relocs FILE: how many relocations .rela.text holds (readelf -rW).
text_relocs() {
	"$READELF" -rW "$1" | awk -F"'" '/^Relocation section/ { s = $2 }
		s == ".rela.text" && $0 ~ /^[0-9a-f]+ +[0-9a-f]+ / { n++ } END { print n + 0 }'
}

$cc -c -g -O1 -fno-inline -o "$T/full.o" "$FIXTURES/attr-calls.c" ||
	fail "$cc could not compile attr-calls.c"
objcopy --remove-section=.debug_aranges --remove-section=.rela.debug_aranges \
	"$T/full.o" "$T/noar.o" || fail "objcopy --remove-section"
check "the object has no .debug_aranges" 0 "$("$READELF" -SW "$T/noar.o" | grep -c aranges)"
"$ELFPLT" stats --json --by=cu "$T/noar.o" >"$j" || fail "exit $?"
check "$cc, .debug_aranges removed: .text's relocations in the compile unit" \
	"$FIXTURES/attr-calls.c $(text_relocs "$T/noar.o")" \
	"$(jqr "$j" '.files[0].attribution.cu[] | select(.name != "unknown") |
	"\(.name) \(.relocations)"')"

clang=$(command -v clang-19 || command -v clang)
if [ -n "$clang" ]; then
	for v in 4 5; do
		"$clang" -c -g -gdwarf-$v -O1 -fno-inline -o "$T/clang$v.o" "$FIXTURES/attr-calls.c" ||
			fail "clang could not compile attr-calls.c"
		"$ELFPLT" stats --json --by=cu "$T/clang$v.o" >"$j" || fail "clang: exit $?"
		check "clang -gdwarf-$v: .text's relocations in the compile unit" \
			"$FIXTURES/attr-calls.c $(text_relocs "$T/clang$v.o")" \
			"$(jqr "$j" '.files[0].attribution.cu[] | select(.name != "unknown") |
			"\(.name) \(.relocations)"')"
	done
else
	echo "note: no clang: its checks skipped"
fi
done_testing
