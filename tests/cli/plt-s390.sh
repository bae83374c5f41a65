#!/bin/sh
# elfplt plt, s390-module model, on yaml2obj fixtures (big-endian s390x
# modules).  Every expected number is derived by hand in the fixture's
# comments from Linux arch/s390/kernel/module.c (6.1.176, 6.12.117, 7.2.13);
# none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

basic=$(fixture plt-s390-basic)
reject=$(fixture plt-s390-reject)
expo=$(fixture plt-s390-expoline)
nosym=$(fixture plt-s390-nosym)

# sec JSON NAME KEY: one key of the section record named NAME.
sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | .$3"
}
# kind JSON KIND: "reserved minimum" of that kind (group core).
kind() {
	jqr "$1" "[.files[0].slots.by_kind[] | select(.kind == \"$2\" and .group == \"core\")] |
		.[0] | \"\(.reserved) \(.minimum)\""
}
# bytes JSON NAME: "reserved minimum" of the sized space NAME.
bytes() {
	jqr "$1" "[.files[0].bytes.by_section[] | select(.name == \"$2\")] | .[0] |
		\"\(.reserved) \(.minimum)\""
}

j=$T/basic.json
"$ELFPLT" plt --json "$basic" >"$j" || fail "plt basic exited $?"
check "basic model" "s390-module" "$(jqr "$j" '.files[0].model')"
check "basic is big-endian" "ELFDATA2MSB" "$(jqr "$j" '.files[0].elf.data.name')"
check "basic kernel" "6.12.117 vermagic" "$(jqr "$j" '.files[0].rules.kernel |
	"\(.version) \(.from)"')"
check "basic rules" "false MOD_TEXT 22 8" "$(jqr "$j" '.files[0].rules |
	"\(.expoline) \(.space) \(.plt_entry_bytes) \(.got_entry_bytes)"')"
check "basic rejects" "null" "$(jqr "$j" '.files[0].rejects')"
check "every RELA section counted, .rela.debug_info too" 4 "$(jqr "$j" '.files[0].sections | length')"
check ".rela.text relocations" 12 "$(sec "$j" .rela.text relocations)"
check ".rela.text GOT, PLT class" "3 6" "$(sec "$j" .rela.text \
	'detail | "\(.got_relocations) \(.plt_relocations)"')"
check ".rela.text entries, minimal" "7 5" "$(sec "$j" .rela.text \
	'slots | "\(.reserved) \(.minimum)"')"
check ".rela.init.text entries, minimal" "3 2" "$(sec "$j" .rela.init.text \
	'slots | "\(.reserved) \(.minimum)"')"
check ".rela.data entries, minimal" "1 1" "$(sec "$j" .rela.data \
	'slots | "\(.reserved) \(.minimum)"')"
check ".rela.debug_info entries, minimal" "2 0" "$(sec "$j" .rela.debug_info \
	'slots | "\(.reserved) \(.minimum)"')"
check "GOT entries" "6 4" "$(kind "$j" got)"
check "PLT entries" "7 4" "$(kind "$j" plt)"
check "GOT bytes" "48 32" "$(bytes "$j" "GOT (MOD_TEXT)")"
check "PLT bytes" "154 88" "$(bytes "$j" "PLT (MOD_TEXT)")"
check "file slots, bytes" "13 8 202 120" "$(jqr "$j" '.files[0] |
	"\(.slots.reserved) \(.slots.minimum) \(.bytes.reserved) \(.bytes.minimum)"')"
check "over-allocation by cause" '{"unapplied":2,"alias":3,"expoline":0}' \
	"$(jqr "$j" '.files[0].detail.over_allocation | tojson')"
check "relocations by class" "7 10" "$(jqr "$j" '.files[0].detail |
	"\(.got_relocations) \(.plt_relocations)"')"
check "the loader does not sort" "false" "$(jqr "$j" '.files[0].sort.applies // false')"

# --kernel 6.1: the same counts in core_layout (before ac3b43283923, v6.4).
"$ELFPLT" plt --json --kernel=6.1 "$basic" >"$j" || fail "plt --kernel=6.1 exited $?"
check "6.1: space" "core_layout" "$(jqr "$j" '.files[0].rules.space')"
check "6.1: GOT bytes" "48 32" "$(bytes "$j" "GOT (core_layout)")"
check "6.1: PLT bytes" "154 88" "$(bytes "$j" "PLT (core_layout)")"
"$ELFPLT" plt --json --kernel=7.2 "$basic" >"$j" || fail "plt --kernel=7.2 exited $?"
check "7.2: PLT bytes" "154 88" "$(bytes "$j" "PLT (MOD_TEXT)")"

# Refusals, in the loader's words; expolines from a .s390_return* section.
j=$T/reject.json
"$ELFPLT" plt --json "$reject" >"$j" || fail "plt reject exited $?"
# The name after 62 is readelf -rW's for it (R_390_PC12DBL); Debian 12's
# <elf.h> lacks it, LLVM's SystemZ.def has it (lib/gen-reloc-names.sh).
check "reject: unknown type" "unknown relocation: 62 (R_390_PC12DBL) (in .rela.text)" \
	"$(jqr "$j" '.files[0].rejects')"
check "reject: expolines (.s390_return_reg)" "true" "$(jqr "$j" '.files[0].rules.expoline')"
check "reject: PLT 1 + __jump_r1" "2 2" "$(kind "$j" plt)"
check "reject: PLT bytes" "44 44" "$(bytes "$j" "PLT (MOD_TEXT)")"
"$ELFPLT" plt "$reject" >"$T/reject.txt" || fail "plt reject (text) exited $?"
grep -q "the kernel rejects this module: unknown relocation: 62" "$T/reject.txt" ||
	fail "reject: text does not say why"

# Expolines from an __s390_indirect_jump_* reference; nothing applied.
j=$T/expo.json
"$ELFPLT" plt --json "$expo" >"$j" || fail "plt expoline exited $?"
check "expoline: rules" "true core_layout 6.1" "$(jqr "$j" '.files[0].rules |
	"\(.expoline) \(.space) \(.kernel.version)"')"
check "expoline: PLT" "2 0" "$(kind "$j" plt)"
check "expoline: GOT" "1 0" "$(kind "$j" got)"
check "expoline: bytes" "52 0" "$(jqr "$j" '.files[0].bytes | "\(.reserved) \(.minimum)"')"
check "expoline: causes" '{"unapplied":2,"alias":0,"expoline":1}' \
	"$(jqr "$j" '.files[0].detail.over_allocation | tojson')"
check "expoline: rejects" "null" "$(jqr "$j" '.files[0].rejects')"

# No symbol table: refused before module_frob_arch_sections().
j=$T/nosym.json
"$ELFPLT" plt --json "$nosym" >"$j" || fail "plt nosym exited $?"
check "nosym: rejects" "module has no symbols (stripped?): no SHT_SYMTAB" \
	"$(jqr "$j" '.files[0].rejects')"
check "nosym: slots" "0 0" "$(jqr "$j" '.files[0].slots | "\(.reserved) \(.minimum)"')"

# Both byte orders: the basic fixture as little-endian counts the same.
sed 's/ELFDATA2MSB/ELFDATA2LSB/' "$FIXTURES/plt-s390-basic.yaml" >"$T/le.yaml"
"$YAML2OBJ" "$T/le.yaml" -o "$T/le.ko" || fail "yaml2obj le"
"$ELFPLT" plt --json "$T/le.ko" "$basic" >"$j" || fail "plt le exited $?"
check "LSB and MSB: same slots and bytes" "13 8 202 120|13 8 202 120" "$(jqr "$j" \
	'[.files[] | "\(.slots.reserved) \(.slots.minimum) \(.bytes.reserved) \(.bytes.minimum)"] |
	join("|")')"
# libelf converts each table once on a host of the other byte order: the
# four RELA tables (12 + 4 + 2 + 3 entries of 24 bytes) and the symbol table
# (11 of 24), 504 + 264 = 768 bytes; the strings stay in the image.
if [ "$(python3 -c 'import sys; print(sys.byteorder)' 2>/dev/null)" = big ]; then
	want="768 0"
else
	want="0 768"
fi
check "bytes libelf converted (LSB, MSB)" "$want" "$(jqr "$j" \
	'"\(.files[0].detail.bytes_converted) \(.files[1].detail.bytes_converted)"')"
done_testing
