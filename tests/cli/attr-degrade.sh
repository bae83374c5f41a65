#!/bin/sh
# stats --by degrades as plain stats does: a relocation section whose sh_link
# is not a symbol table, or whose sh_info is out of range, is a warning and
# its relocations go under "unknown", not an error for the whole file.
# tests/fixtures/attr-badlink.yaml: .rela.text, sh_link .text, 2 relocations
# (to foo, bar); .rela.data, sh_info 99, 1 relocation to foo.
. "$top_srcdir/tests/lib.sh"
need JQ
o=$(fixture attr-badlink)
j=$T/out.json

"$ELFPLT" stats --json --by=symbol,section,cu "$o" >"$j" 2>"$T/err"
check "exit 0" 0 $?
check "by symbol: .rela.text's 2 under unknown, foo 1" "foo 1
unknown 2" "$(jqr "$j" '.files[0].attribution.symbol[] | "\(.name) \(.relocations)"' | sort)"
check "by section: .text 2, .rela.data's 1 under unknown" ".text 2
unknown 1" "$(jqr "$j" '.files[0].attribution.section[] | "\(.name) \(.relocations)"' | sort)"
check "by cu: all 3 unknown (no DWARF)" "unknown 3" \
	"$(jqr "$j" '.files[0].attribution.cu[] | "\(.name) \(.relocations)"')"
check "the warnings plain stats gives, once each" "reloc_info
reloc_link" "$(jqr "$j" '.files[0].warnings[].code' | sort)"
"$ELFPLT" stats --by=symbol "$o" >/dev/null 2>"$T/err"
check "text: exit 0" 0 $?
check "text: two warning lines" 2 "$(grep -c ': warning: section ' "$T/err")"
done_testing
