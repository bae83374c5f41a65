#!/bin/sh
# SHT_CREL (LLVM's compact relocations) in both byte orders and both
# classes, against their RELA/REL twins, and malformed CREL sections.
# Fixtures: tests/fixtures/crel.yaml (yaml2obj-19), whose header derives the
# 10-byte encoding by hand; the expected counts are the three relocations
# written there, and llvm-readelf-19 -r (LLVM's own decoder) must list the
# same ones.
. "$top_srcdir/tests/lib.sh"
need JQ YAML2OBJ19 LLVM_READELF19

Y=$FIXTURES/crel.yaml
build() { # DOCNUM NAME
	"$YAML2OBJ19" --docnum="$1" "$Y" -o "$T/$2" || {
		echo "FAIL: yaml2obj-19 could not build document $1 of crel.yaml"
		exit 1
	}
}
build 1 s390-crel.o
build 2 s390-rela.o
build 3 i386-crel.o
build 4 i386-rel.o

# The independent decoder agrees with the fixture's text.
check "llvm-readelf-19 -r, s390x CREL: offset type symbol" \
	"0000000000000000 R_390_PC32DBL foo
0000000000000008 R_390_PC32DBL foo
0000000000000100 R_390_PLT32DBL bar" \
	"$("$LLVM_READELF19" -r "$T/s390-crel.o" | awk '$3 ~ /^R_/ { print $1, $3, $5 }')"
check "CREL sh_size (llvm-readelf-19 -S), s390x and i386: 10 bytes as derived" "00000a 00000a" \
	"$(for f in s390-crel.o i386-crel.o; do "$LLVM_READELF19" -SW "$T/$f" |
		awk '/ CREL / { sub(/.*] /, ""); print $5 }'; done | tr '\n' ' ' | sed 's/ $//')"

# by_type as "name:value:count ...", the section's kind as "name:value" (the
# gABI's SHT_REL 9 and SHT_RELA 4; LLVM's SHT_CREL 0x40000014 = 1073741844),
# its relocations and crel_bytes, the file's crel object.
summary() {
	"$ELFPLT" stats --json "$T/$1" >"$T/$1.json" || fail "$1: exit status $?"
	jqr "$T/$1.json" '.files[0] | ([.relocations.by_type[] | "\(.name):\(.value):\(.count)"]
		| join(" ")) + " | " +
		([.relocations.sections[] | "\(.kind.name):\(.kind.value) \(.relocations) \(.crel_bytes)"] | join(","))
		+ " | \(.crel.bytes) \(.crel.crel_bytes) \(.crel.savings_bytes)"'
}
check "s390x MSB CREL" "R_390_PC32DBL:19:2 R_390_PLT32DBL:20:1 | SHT_CREL:1073741844 3 10 | 10 10 0" \
	"$(summary s390-crel.o)"
check "s390x MSB RELA twin" "R_390_PC32DBL:19:2 R_390_PLT32DBL:20:1 | SHT_RELA:4 3 10 | 72 10 62" \
	"$(summary s390-rela.o)"
check "i386 LSB CREL" "R_386_PC32:2:2 R_386_PLT32:4:1 | SHT_CREL:1073741844 3 10 | 10 10 0" \
	"$(summary i386-crel.o)"
check "i386 LSB REL twin (no addends: 9 bytes)" \
	"R_386_PC32:2:2 R_386_PLT32:4:1 | SHT_REL:9 3 9 | 24 9 15" "$(summary i386-rel.o)"
# Symbols and addends decode too: both undefined symbols, and the same
# distinct count as the twin.
check "s390x CREL symbols (undefined distinct)" "3 2" \
	"$(jqr "$T/s390-crel.o.json" '.files[0].relocations.symbols | "\(.undefined) \(.distinct)"')"

"$ELFPLT" stats "$T/s390-crel.o" "$T/s390-rela.o" >"$T/text" || fail "stats text: exit $?"
check "text: the file's crel line" \
	"  crel: 1 REL/RELA/CREL section takes 72 bytes; as CREL 10 bytes: 62 bytes less (86.1%)" \
	"$(grep '^  crel:' "$T/text" | tail -1)"
check "text: the totals' crel line" \
	"crel: 2 REL/RELA/CREL sections take 82 bytes; as CREL 20 bytes: 62 bytes less (75.6%)" \
	"$(grep '^crel:' "$T/text")"

# Malformed: each an error naming the file and the section, exit status 1,
# the same message in the JSON; the well-formed file of the run still counted.
n=5
for msg in \
	"CREL header runs past the section" \
	"CREL header counts 3 relocations in 0 bytes after it" \
	"CREL relocation 0: type delta runs past the section" \
	"1 byte after the last CREL relocation" \
	"CREL relocation 0: offset delta does not fit 64 bits" \
	"relocation 0: r_sym 10 is out of range (3 symbols)" \
	"empty CREL section (no header)"; do
	build $n bad$n.o
	want="$T/bad$n.o: $msg (section 2 .crel.text)"
	rc=0
	"$ELFPLT" stats "$T/bad$n.o" "$T/s390-crel.o" >"$T/out" 2>"$T/err" || rc=$?
	check "bad$n: exit status" 1 "$rc"
	check "bad$n: stderr" "elfplt: $want" "$(cat "$T/err")"
	check "bad$n: the good file still reported" "1" "$(grep -c '^.*s390-crel.o: ELF64' "$T/out")"
	rc=0
	"$ELFPLT" stats --json "$T/bad$n.o" >"$T/out.json" 2>/dev/null || rc=$?
	check "bad$n: JSON exit status" 1 "$rc"
	check "bad$n: JSON error" "malformed $want" \
		"$(jqr "$T/out.json" '.files[0].error | "\(.code) \(.message)"')"
	n=$((n + 1))
done

# plt's object model reads CREL as it reads RELA (lld does).
build 12 x86-crel.o
build 13 x86-rela.o
for f in x86-crel.o x86-rela.o; do
	"$ELFPLT" plt --json "$T/$f" >"$T/$f.plt.json" || fail "plt $f: exit $?"
done
check "plt object: CREL = RELA twin" "$(jqr "$T/x86-rela.o.plt.json" '.files[0].detail')" \
	"$(jqr "$T/x86-crel.o.plt.json" '.files[0].detail')"
check "plt object: CREL, by hand: 1 branch (bar), 2 GOT relocations (foo)" \
	"1 1 1 2 1" "$(jqr "$T/x86-crel.o.plt.json" '.files[0].detail |
	"\(.branch_relocations) \(.undefined_branches) \(.plt_slots_max)" +
	" \(.got_relocations) \(.got_entries_max)"')"
done_testing
