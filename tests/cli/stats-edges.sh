#!/bin/sh
# elfplt stats on the edges of the linked-file paths, each expected number
# derived by hand below (gABI SHT_RELR, binutils size -B's rules) or taken
# from binutils (size -B, readelf -rW), never from elfplt:
# - RELR packing of RELATIVE offsets that need two bitmaps in a row (the
#   second one's base 63 words after the first's) and an offset relocated
#   twice (packed once);
# - the same file as ET_EXEC (a -no-pie executable) and as ET_DYN: both
#   linked, both report the dynamic counts;
# - a writable and executable section (W+X), which size -B counts as text;
# - SHF_COMPRESSED on an SHF_ALLOC section, which the gABI forbids.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF

# .rela.dyn: R_AARCH64_RELATIVE (1027) at 0x30000 twice, then at 0x30000 +
#   8k for k = 1..127, and at 0x50000 + 8k for k = 0..130: 260 entries of 24
#   bytes = 6240 bytes.  All 8-byte aligned: 260 packable.  RELR encoding
#   (a bitmap's bits 1..63 cover the 63 words after its base; the next
#   bitmap's base is 63 words on):
#   0x30000: address (k = 0); a bitmap for k = 1..63; one for k = 64..126;
#     one for k = 127: 4 words (the duplicate of k = 0 packs once).
#   0x50000: address; bitmaps for k = 1..63, 64..126 and 127..130: 4 words.
#   8 words = 64 bytes; savings 6240 - 64 = 6176.
# .relr.dyn: [0x10000, 0xffffffffffffffff, 0x3]: an address (1), a bitmap
#   of bits 1..63 (63), a bitmap of bit 1 (1): 65 relocations in 24 bytes.
# Relocations in all: 260 + 65 = 325, RELATIVE 325.
# Sizes (size -B: SHF_ALLOC; text = executable or not writable, data =
#   writable with contents, bss = writable without): .rela.dyn 6240 +
#   .relr.dyn 24 + .text 64 + .wx 32 (SHF_WRITE|SHF_EXECINSTR: text) = 6360;
#   data .data 1048; bss 24.
{
	cat <<'YAML'
--- !ELF
FileHeader: { Class: ELFCLASS64, Data: ELFDATA2LSB, Type: [[TYPE]], Machine: EM_AARCH64 }
Sections:
  - Name: .rela.dyn
    Type: SHT_RELA
    Flags: [ SHF_ALLOC ]
    AddressAlign: 8
    Relocations:
      - { Offset: 0x30000, Type: R_AARCH64_RELATIVE, Addend: 0x1000 }
YAML
	for run in 0x30000:127 0x50000:130; do
		k=0
		while [ $k -le "${run#*:}" ]; do
			printf '      - { Offset: 0x%x, Type: R_AARCH64_RELATIVE, Addend: 0x1000 }\n' \
				$((${run%:*} + 8 * k))
			k=$((k + 1))
		done
	done
	cat <<'YAML'
  - Name: .relr.dyn
    Type: SHT_RELR
    Flags: [ SHF_ALLOC ]
    AddressAlign: 8
    Entries: [ 0x10000, 0xffffffffffffffff, 0x3 ]
  - { Name: .text, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_EXECINSTR ], Address: 0x1000, AddressAlign: 16, Size: 64 }
  - { Name: .wx, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_WRITE, SHF_EXECINSTR ], Address: 0x2000, AddressAlign: 16, Size: 32 }
  - { Name: .data, Type: SHT_PROGBITS, Flags: [ SHF_ALLOC, SHF_WRITE ], Address: 0x30000, AddressAlign: 8, Size: 1048 }
  - { Name: .bss, Type: SHT_NOBITS, Flags: [ SHF_ALLOC, SHF_WRITE ], Address: 0x40000, AddressAlign: 8, Size: 24 }
YAML
} >"$T/edges.yaml"

for type in ET_DYN ET_EXEC; do
	f=$T/edges-$type
	"$YAML2OBJ" -D TYPE=$type "$T/edges.yaml" -o "$f" || { echo "FAIL: yaml2obj $type"; exit 1; }
	"$ELFPLT" stats --json "$f" >"$T/out.json" 2>"$T/err" || fail "$type: stats exited $?"
	j=$T/out.json
	check "$type: no message" "" "$(cat "$T/err")"
	check "$type: type" "$type" "$(jqr "$j" '.files[0].elf.type.name')"
	# readelf: the entries of the two tables, 260 and 3 (RELR words).
	check "$type: readelf -rW entries" "260 3" "$("$READELF" -rW "$f" |
		awk '/^Relocation section/ { printf "%s%s", s, $(NF - 1); s = " " }')"
	check "$type: relocations" "325" "$(jqr "$j" '.files[0].relocations.total')"
	check "$type: dynamic relative" "325" "$(jqr "$j" '.files[0].dynamic.relative')"
	check "$type: relr" "260 6240 260 64 6176 65 24" \
		"$(jqr "$j" '.files[0].dynamic.relr |
		"\(.relative_in_rel) \(.relative_in_rel_bytes) \(.packable) \(.packed_bytes)" +
		" \(.savings_bytes) \(.present) \(.present_bytes)"')"
	check "$type: sizes" "6360 1048 24" \
		"$(jqr "$j" '.files[0].sizes | "\(.text) \(.data) \(.bss)"')"
	check "$type: sizes = size -B" "$(size -B "$f" | awk 'NR == 2 { print $1, $2, $3 }')" \
		"$(jqr "$j" '.files[0].sizes | "\(.text) \(.data) \(.bss)"')"
	# plt: the linked model takes both types; no .rela.plt, no PLT slot.
	rc=0
	"$ELFPLT" plt --json "$f" >"$j" 2>"$T/err" || rc=$?
	check "$type: plt exit status, message" "0 " "$rc $(cat "$T/err")"
	check "$type: plt model, slots" "linked 0" \
		"$(jqr "$j" '.files[0] | "\(.model) \(.slots.reserved)"')"
done

# SHF_COMPRESSED on SHF_ALLOC: section 1 .debug_x, a valid Elf64_Chdr
# (ELFCOMPRESS_ZLIB, ch_size 4, ch_addralign 1) and zlib's stream of "abcd".
cat >"$T/calloc.yaml" <<'YAML'
--- !ELF
FileHeader: { Class: ELFCLASS64, Data: ELFDATA2LSB, Type: ET_REL, Machine: EM_X86_64 }
Sections:
  - Name: .debug_x
    Type: SHT_PROGBITS
    Flags: [ SHF_ALLOC, SHF_COMPRESSED ]
    AddressAlign: 8
    Content: "010000000000000004000000000000000100000000000000789c4b4c4a4e010003d8018b"
YAML
"$YAML2OBJ" "$T/calloc.yaml" -o "$T/calloc.o" || { echo "FAIL: yaml2obj calloc.yaml"; exit 1; }
rc=0
"$ELFPLT" stats "$T/calloc.o" >/dev/null 2>"$T/err" || rc=$?
check "SHF_COMPRESSED+SHF_ALLOC: exit status" 1 "$rc"
check "SHF_COMPRESSED+SHF_ALLOC: error" "elfplt: $T/calloc.o: SHF_COMPRESSED on an SHF_ALLOC \
section, which the gABI forbids (section 1 .debug_x)" "$(cat "$T/err")"
done_testing
