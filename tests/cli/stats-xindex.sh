#!/bin/sh
# Symbols in sections numbered 0xff00 (SHN_LORESERVE) and above.  Such a
# symbol's st_shndx is SHN_XINDEX and its section's number is in
# .symtab_shndx (gABI, extended section indexes); only an st_shndx stored as
# SHN_ABS, SHN_COMMON or another reserved value is absolute or common, never
# a resolved number that happens to lie between 0xff00 and 0xffff.
#
# The object is assembled here from N functions, each in a section of its
# own that calls itself through a global symbol (.globl keeps gas from
# resolving the call: an R_X86_64_PLT32 against fN in .rela.text.fN).  Each
# function takes two sections (.text.fN and .rela.text.fN), so with
# N = 33,000 the section numbers run past 66,000: 0xff00..0xffff (65,280 to
# 65,535) holds 128 of the .text.fN sections.
. "$top_srcdir/tests/lib.sh"
need JQ READELF
command -v as >/dev/null || skip "as not found (binutils)"

N=33000
i=0
while [ "$i" -lt "$N" ]; do
	printf '.section .text.f%d,"ax"\n.globl f%d\nf%d: call f%d\n' "$i" "$i" "$i" "$i"
	i=$((i + 1))
done >"$T/xindex.s"
as --64 "$T/xindex.s" -o "$T/xindex.o" 2>"$T/as.err" ||
	skip "as cannot assemble x86-64: $(head -1 "$T/as.err")"

# readelf resolves SHN_XINDEX and prints the section number: the case is
# there to test only if some fN sits in 65,280..65,535.  Derived: 128 of them
# (the .text.fN sections with even numbers in that range, fN at 4 + 2N).
high=$("$READELF" -sW "$T/xindex.o" |
	awk '$8 ~ /^f[0-9]+$/ && $7 >= 65280 && $7 <= 65535' | wc -l)
check "readelf: fN symbols in sections 0xff00..0xffff" 128 "$high"

"$ELFPLT" stats --json "$T/xindex.o" >"$T/out.json" || fail "elfplt stats exit status $?"
# Derived by hand: N relocations, one per .rela.text.fN, each against fN,
# which is defined in .text.fN, the section sh_info names: all same_section,
# none absolute_or_common; N distinct symbols.
check "total" "$N" "$(jqr "$T/out.json" '.files[0].relocations.total')"
check "by symbol class (none undefined same other abs distinct)" "0 0 $N 0 0 $N" \
	"$(jqr "$T/out.json" '.files[0].relocations.symbols |
		"\(.none) \(.undefined) \(.same_section) \(.other_section)" +
		" \(.absolute_or_common) \(.distinct)"')"
done_testing
