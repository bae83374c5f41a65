#!/bin/sh
# elfplt plt, arm64-module model, on sections with hundreds of slot-needing
# branches: the sort of more than 16 entries (the loader's sort(), here a
# quicksort above 16 entries) and the erratum 843419 spare slots,
# DIV_ROUND_UP(slots, SZ_4K / sizeof(struct plt_entry)) = ceil(slots / 341)
# in Linux 6.1 arch/arm64/kernel/module-plts.c count_plts().  The YAML is
# written here by a loop (600 and 400 relocations are too many to list by
# hand) and built with yaml2obj; every expected number is derived below.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# A module as plt-arm64-basic.yaml (.modinfo, .gnu.linkonce.this_module,
# .plt, .init.plt, .text.ftrace_trampoline).  Symbols 1..300 are s0..s299, 301..700 t0..t399, all undefined (st_shndx 0,
# never the target section: every branch needs a slot).
# .rela.text: 600 R_AARCH64_CALL26, s0..s299 then s0..s299 again, addend 0.
#   Every entry needs a slot, so partition_rel() stops with i = j = 599:
#   nents 599, the last entry (s299) left over.  Sorted, each key appears
#   twice side by side but s299's once: 300 distinct keys, 299 duplicates
#   -> 300; the leftover s299 equals the largest sorted key (s299, symbol
#   300): no slot.  300 slots; spare ceil(300/341) = 1 -> 301 (per 256
#   entries it would be 2).  Minimum: 300 distinct + 1 = 301.
# .rela.init.text: 400 CALL26, t0..t399 once each -> 400 slots, spare
#   ceil(400/341) = 2 -> 402; minimum 402.  (nents 399, sorted 399; the
#   leftover t399 differs from the largest sorted key t398: it counts.)
# Groups: core 301 slots, .plt (301 + 1) * 12 = 3624 bytes; init 402 slots,
#   .init.plt (402 + 1) * 12 = 4836 bytes.  Erratum off: 300 and 400.
{
	cat <<'YAML'
--- !ELF
FileHeader: { Class: ELFCLASS64, Data: ELFDATA2LSB, Type: ET_REL, Machine: EM_AARCH64 }
Sections:
  - { Name: .text, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_EXECINSTR ], AddressAlign: 4, Size: 0x1000 }
  - Name: .rela.text
    Type: SHT_RELA
    Flags: [ SHF_INFO_LINK ]
    Link: .symtab
    Info: .text
    Relocations:
YAML
	i=0
	while [ $i -lt 600 ]; do
		echo "      - { Offset: $((i * 4)), Symbol: s$((i % 300)), Type: R_AARCH64_CALL26 }"
		i=$((i + 1))
	done
	cat <<'YAML'
  - { Name: .init.text, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_EXECINSTR ], AddressAlign: 4, Size: 0x1000 }
  - Name: .rela.init.text
    Type: SHT_RELA
    Flags: [ SHF_INFO_LINK ]
    Link: .symtab
    Info: .init.text
    Relocations:
YAML
	i=0
	while [ $i -lt 400 ]; do
		echo "      - { Offset: $((i * 4)), Symbol: t$i, Type: R_AARCH64_CALL26 }"
		i=$((i + 1))
	done
	cat <<'YAML'
  - { Name: .modinfo, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC ], Content: 6c6963656e73653d47504c00 }
  - { Name: .gnu.linkonce.this_module, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_WRITE ], Size: 0x40 }
  - { Name: .plt, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_EXECINSTR ], Size: 1 }
  - { Name: .init.plt, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC ], Size: 1 }
  - { Name: .text.ftrace_trampoline, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_EXECINSTR ], Size: 1 }
Symbols:
YAML
	i=0
	while [ $i -lt 300 ]; do
		echo "  - { Name: s$i, Binding: STB_GLOBAL }"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 400 ]; do
		echo "  - { Name: t$i, Binding: STB_GLOBAL }"
		i=$((i + 1))
	done
} >"$T/many.yaml"
"$YAML2OBJ" "$T/many.yaml" -o "$T/many.o" || { echo "FAIL: yaml2obj many.yaml"; exit 1; }

sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | .$3"
}

j=$T/many.json
"$ELFPLT" plt --json "$T/many.o" >"$j" || fail "plt exited $?"
check ".rela.text needed" 600 "$(sec "$j" .rela.text needed)"
check ".rela.text sorted" "600 599" "$(sec "$j" .rela.text 'sort | "\(.full) \(.loader)"')"
check ".rela.text slots (300 + ceil(300/341))" "301 301" \
	"$(sec "$j" .rela.text 'slots | "\(.reserved) \(.minimum)"')"
check ".rela.init.text sorted" "400 399" "$(sec "$j" .rela.init.text 'sort | "\(.full) \(.loader)"')"
check ".rela.init.text slots (400 + ceil(400/341))" "402 402" \
	"$(sec "$j" .rela.init.text 'slots | "\(.reserved) \(.minimum)"')"
check "core: slots and .plt bytes" "301 3624" \
	"$(jqp "$j" '.files[0] | "\(plt("core").reserved) \(sized(".plt").reserved)"')"
check "init: slots and .init.plt bytes" "402 4836" \
	"$(jqp "$j" '.files[0] | "\(plt("init").reserved) \(sized(".init.plt").reserved)"')"

"$ELFPLT" plt --json --erratum-843419=off "$T/many.o" >"$j" || fail "erratum off exited $?"
check "erratum off: core, init" "300 400" \
	"$(jqp "$j" '.files[0] | "\(plt("core").reserved) \(plt("init").reserved)"')"
done_testing
