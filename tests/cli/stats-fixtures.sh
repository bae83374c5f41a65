#!/bin/sh
# elfplt stats on yaml2obj fixtures whose every count is derived by hand below,
# from the fixture's relocation lists and the gABI/psABI; sizes are also
# checked against binutils size -B, an independent tool.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# by_type JSON FILTER: "NAME:VALUE:COUNT ..." sorted by name, from a by_type array.
by_type() {
	"$JQ" -r "$2 | map(\"\(.name):\(.value):\(.count)\") | sort | join(\" \")" "$1"
}

# symbols JSON: "none undefined same other abs_common distinct" of files[0].
symbols() {
	"$JQ" -r '.files[0].relocations.symbols |
		"\(.none) \(.undefined) \(.same_section) \(.other_section)" +
		" \(.absolute_or_common) \(.distinct)"' "$1"
}

# size_b FILE: "text data bss" as binutils size -B prints them.
size_b() {
	size -B "$1" | awk 'NR == 2 { print $1, $2, $3 }'
}

# sizes JSON: "text data bss" of files[0].
sizes() {
	"$JQ" -r '.files[0].sizes | "\(.text) \(.data) \(.bss)"' "$1"
}

run_json() {
	"$ELFPLT" stats --json "$1" >"$T/out.json" 2>"$T/err" ||
		fail "elfplt stats --json $1 exited $?: $(cat "$T/err")"
}

# --- x86-64 RELA object: stats-x86-64.yaml ---------------------------------
# Sections (yaml2obj keeps the listed order after the null section):
# 1 .text, 2 .rodata, 3 .data, 4 .bss, 5 .comment, 6 .rela.text, 7 .rela.data,
# 8 .symtab.  .rela.text lists 9 relocations: PLT32 x3 (ext_func), PC32 x3
# (data_var x2, local_text), 32 (abs_sym), 64 (common_sym), NONE (no symbol).
# .rela.data lists 3, all R_X86_64_64 (local_text, data_var, ext_func).
# x86-64 psABI values: R_X86_64_NONE 0, _64 1, _PC32 2, _PLT32 4, _32 10.
f=$(fixture stats-x86-64)
run_json "$f"
check "x86-64: class" ELFCLASS64 "$(jqr "$T/out.json" '.files[0].elf.class.name')"
check "x86-64: data" ELFDATA2LSB "$(jqr "$T/out.json" '.files[0].elf.data.name')"
check "x86-64: machine" "EM_X86_64 62" \
	"$(jqr "$T/out.json" '.files[0].elf.machine | "\(.name) \(.value)"')"
check "x86-64: type" ET_REL "$(jqr "$T/out.json" '.files[0].elf.type.name')"
check "x86-64: not a kernel module" false "$(jqr "$T/out.json" '.files[0].kernel_module')"
# 9 + 3 = 12.
check "x86-64: total" 12 "$(jqr "$T/out.json" '.files[0].relocations.total')"
# File: _64 = 1 (.rela.text) + 3 (.rela.data) = 4; PC32 3; PLT32 3; _32 1; NONE 1.
check "x86-64: by_type" \
	"R_X86_64_32:10:1 R_X86_64_64:1:4 R_X86_64_NONE:0:1 R_X86_64_PC32:2:3 R_X86_64_PLT32:4:3" \
	"$(by_type "$T/out.json" '.files[0].relocations.by_type')"
check "x86-64: sections" "6 .rela.text SHT_RELA/4 9 1 .text true 7 .rela.data SHT_RELA/4 3 3 .data false" \
	"$(jqr "$T/out.json" '[.files[0].relocations.sections[] |
		"\(.index) \(.name) \(.kind.name)/\(.kind.value) \(.entries) \(.target.index) \(.target.name)" +
		" \(.target.executable)"] | join(" ")')"
check "x86-64: .rela.data by_type" "R_X86_64_64:1:3" \
	"$(by_type "$T/out.json" '.files[0].relocations.sections[1].by_type')"
# Symbol classes.  .rela.text (target 1 .text): NONE has r_sym 0 -> none 1;
# ext_func x3 undefined; data_var (in 3 .data) x2 other; local_text (in 1
# .text) same; abs_sym SHN_ABS and common_sym SHN_COMMON -> abs/common 2.
# .rela.data (target 3 .data): local_text other, data_var same, ext_func
# undefined.  none 1, undefined 4, same 2, other 3, abs/common 2 (sum 12).
# Distinct symbols: ext_func, data_var, local_text, abs_sym, common_sym = 5
# (unused_fn is never referenced).
check "x86-64: symbol classes" "1 4 2 3 2 5" "$(symbols "$T/out.json")"
# Sizes: text = .text 32 (AX) + .rodata 5 (A) = 37; data = .data 16 (WA);
# bss = .bss 8 (WA, NOBITS); .comment is not SHF_ALLOC.
check "x86-64: sizes" "37 16 8" "$(sizes "$T/out.json")"
check "x86-64: sizes = size -B" "$(size_b "$f")" "$(sizes "$T/out.json")"
check "x86-64: not linked: dynamic is null" null \
	"$(jqr "$T/out.json" '.files[0].dynamic')"
# Text: the header line names class, byte order, machine, kind and counts.
"$ELFPLT" stats "$f" >"$T/out.txt"
check "x86-64: text header" "$f: ELF64 LSB x86-64 relocatable, 12 relocations in 2 sections" \
	"$(head -n 1 "$T/out.txt")"

# --- ELF32 big-endian MIPS: stats-mips-be32.yaml --------------------------
# 1 .text, 2 .data, 3 .rel.text (5 entries of 8 bytes), 4 .rela.data (2 of 12).
# MIPS psABI values: R_MIPS_32 2, R_MIPS_26 4, R_MIPS_HI16 5, R_MIPS_LO16 6.
# .rel.text: _26 x3 (callee x2, helper), HI16 and LO16 (counter).
# .rela.data: _32 x2 (helper, counter).
f=$(fixture stats-mips-be32)
run_json "$f"
check "mips: class/data/machine" "ELFCLASS32 ELFDATA2MSB EM_MIPS 8" \
	"$(jqr "$T/out.json" '.files[0].elf | "\(.class.name) \(.data.name) \(.machine.name)" +
		" \(.machine.value)"')"
check "mips: total" 7 "$(jqr "$T/out.json" '.files[0].relocations.total')"
check "mips: by_type" "R_MIPS_26:4:3 R_MIPS_32:2:2 R_MIPS_HI16:5:1 R_MIPS_LO16:6:1" \
	"$(by_type "$T/out.json" '.files[0].relocations.by_type')"
check "mips: sections" "3 .rel.text SHT_REL/9 5 1 4 .rela.data SHT_RELA/4 2 2" \
	"$(jqr "$T/out.json" '[.files[0].relocations.sections[] |
		"\(.index) \(.name) \(.kind.name)/\(.kind.value) \(.entries) \(.target.index)"] | join(" ")')"
# .rel.text (target 1): callee x2 undefined, helper (in .text) same, counter
# (in .data) x2 other.  .rela.data (target 2): helper other, counter same.
# none 0, undefined 2, same 2, other 3, abs 0; distinct callee, helper, counter.
check "mips: symbol classes" "0 2 2 3 0 3" "$(symbols "$T/out.json")"
# text = .text 24; data = .data 12.
check "mips: sizes" "24 12 0" "$(sizes "$T/out.json")"
check "mips: sizes = size -B" "$(size_b "$f")" "$(sizes "$T/out.json")"
"$ELFPLT" stats "$f" >"$T/out.txt"
check "mips: text header" "$f: ELF32 MSB MIPS relocatable, 7 relocations in 2 sections" \
	"$(head -n 1 "$T/out.txt")"

# --- SHT_RELR in a linked AArch64 ET_DYN: stats-relr.yaml -----------------
# 3 .rela.dyn: RELATIVE at 0x30000, 0x30008, 0x30010, 0x30104, 0x40000;
#   GLOB_DAT, IRELATIVE, ABS64 (8 entries, 24 bytes each).
# 4 .rela.plt: JUMP_SLOT x2.
# 5 .relr.dyn: 4 words (gABI SHT_RELR: an even word is an address, an odd
#   word a bitmap whose bits 1..63 relocate the 63 words after the last one):
#   0x10000 address -> 1; 0x7 = bits 0,1,2 -> bits 1,2 -> 2;
#   0x20000 address -> 1; 0x8000000000000005 = bits 0,2,63 -> 2.  6 in all.
# AArch64 psABI: R_AARCH64_ABS64 257, GLOB_DAT 1025, JUMP_SLOT 1026,
#   RELATIVE 1027, IRELATIVE 1032.
f=$(fixture stats-relr)
run_json "$f"
check "relr: type" ET_DYN "$(jqr "$T/out.json" '.files[0].elf.type.name')"
# 8 + 2 + 6 = 16.
check "relr: total" 16 "$(jqr "$T/out.json" '.files[0].relocations.total')"
check "relr: .relr.dyn" "SHT_RELR/19 4 6" \
	"$(jqr "$T/out.json" '.files[0].relocations.sections[] | select(.name == ".relr.dyn") |
		"\(.kind.name)/\(.kind.value) \(.entries) \(.relocations)"')"
# RELATIVE = 5 in .rela.dyn + 6 in .relr.dyn = 11.
check "relr: by_type" "R_AARCH64_ABS64:257:1 R_AARCH64_GLOB_DAT:1025:1 \
R_AARCH64_IRELATIVE:1032:1 R_AARCH64_JUMP_SLOT:1026:2 R_AARCH64_RELATIVE:1027:11" \
	"$(by_type "$T/out.json" '.files[0].relocations.by_type')"
check "relr: dynamic kinds" "11 1 2 1 1" \
	"$(jqr "$T/out.json" '.files[0].dynamic |
		"\(.relative) \(.glob_dat) \(.jump_slot) \(.irelative) \(.other)"')"
# RELR savings for the 5 RELATIVE entries of .rela.dyn: 0x30104 is not
# 8-byte aligned, so RELR cannot hold it; 4 are packable, 4 x 24 = 96 bytes
# of RELA.  Their RELR encoding: address 0x30000, one bitmap for 0x30008 and
# 0x30010 (bits 1, 2), address 0x40000 (beyond the bitmap's 63 words) =
# 3 words = 24 bytes.  Savings 96 - 24 = 72.  Present: 6 relocations in 32 bytes.
check "relr: savings" "5 120 4 24 72 6 32" \
	"$(jqr "$T/out.json" '.files[0].dynamic.relr |
		"\(.relative_in_rel) \(.relative_in_rel_bytes) \(.packable) \(.packed_bytes)" +
		" \(.savings_bytes) \(.present) \(.present_bytes)"')"
# Symbols: RELATIVE x5, IRELATIVE, RELR x6 have r_sym 0 -> none 12; GLOB_DAT,
# ABS64, JUMP_SLOT x2 name undefined dynamic symbols -> undefined 4.  Distinct:
# ext_var, ext_fn, ext_fn2 = 3.
check "relr: symbol classes" "12 4 0 0 0 3" "$(symbols "$T/out.json")"
# text = .dynsym 4 x 24 + .dynstr 24 ("\0ext_var\0ext_fn\0ext_fn2\0") + .rela.dyn
# 8 x 24 + .rela.plt 2 x 24 + .relr.dyn 4 x 8 + .text 64 = 96+24+192+48+32+64 = 456;
# data = .data 48 + .got.plt 16 = 64; bss 24.
check "relr: sizes" "456 64 24" "$(sizes "$T/out.json")"
check "relr: sizes = size -B" "$(size_b "$f")" "$(sizes "$T/out.json")"

# --- SHT_RELR, ELF32 big-endian PowerPC: stats-relr-ppc32.yaml -------------
# 4-byte words, bitmaps of 31 bits: 0x10000 -> 1; 0x7 -> bits 1,2 -> 2;
# 0x10100 -> 1; 0x80000003 -> bits 1,31 -> 2.  6 R_PPC_RELATIVE (22).
f=$(fixture stats-relr-ppc32)
run_json "$f"
check "ppc32 relr: total" 6 "$(jqr "$T/out.json" '.files[0].relocations.total')"
check "ppc32 relr: by_type" "R_PPC_RELATIVE:22:6" \
	"$(by_type "$T/out.json" '.files[0].relocations.by_type')"
check "ppc32 relr: entries" "4 16" \
	"$(jqr "$T/out.json" '.files[0].relocations.sections[0] | "\(.entries) \(.bytes)"')"

# --- extended section numbering: stats-extnum.yaml ------------------------
# e_shnum 0 and e_shstrndx SHN_XINDEX: 7 sections from section 0's sh_size,
# names from section 6 (its sh_link).  .rela.text (2) relocates .text (1):
# PLT32 far_fn, PLT32 ext_fn, PC32 far_fn.  far_fn's st_shndx is SHN_XINDEX,
# its .symtab_shndx entry is 1 = .text: same section x2; ext_fn undefined.
f=$(fixture stats-extnum)
run_json "$f"
check "extnum: total" 3 "$(jqr "$T/out.json" '.files[0].relocations.total')"
check "extnum: section names resolved" "2 .rela.text 1 .text 3 .symtab" \
	"$(jqr "$T/out.json" '.files[0].relocations.sections[0] |
		"\(.index) \(.name) \(.target.index) \(.target.name) \(.symtab.index) \(.symtab.name)"')"
check "extnum: by_type" "R_X86_64_PC32:2:1 R_X86_64_PLT32:4:2" \
	"$(by_type "$T/out.json" '.files[0].relocations.by_type')"
check "extnum: symbol classes (SHN_XINDEX resolved)" "0 1 2 0 0 2" "$(symbols "$T/out.json")"

# --- a kernel module: stats-kmod.yaml, with a signature appended ----------
# 2 .rela.text (target 1 .text): CALL26 x3 (printk x2, kfree), JUMP26 (helper),
#   ADR_PREL_PG_HI21 and ADD_ABS_LO12_NC (.rodata.str section symbol).
# 4 .rela.init.text (target 3 .init.text): CALL26 x2 (printk, helper).
# 8 .rela.gnu.linkonce.this_module (target 7): ABS64 (init_module).
# AArch64 psABI: ABS64 257, ADR_PREL_PG_HI21 275, ADD_ABS_LO12_NC 277,
# JUMP26 282, CALL26 283.
f=$(fixture stats-kmod)
# What scripts/sign-file appends: signature, struct module_signature, magic.
cp "$f" "$T/signed.ko"
printf 'SIGNATURE-BYTES\0\0\0\0\0\0\0\0\0\0\0\017~Module signature appended~\n' >>"$T/signed.ko"
for m in "$f" "$T/signed.ko"; do
	run_json "$m"
	check "kmod $(basename "$m"): kernel module" true "$(jqr "$T/out.json" '.files[0].kernel_module')"
	check "kmod $(basename "$m"): total" 9 "$(jqr "$T/out.json" '.files[0].relocations.total')"
	check "kmod $(basename "$m"): by_type" "R_AARCH64_ABS64:257:1 \
R_AARCH64_ADD_ABS_LO12_NC:277:1 R_AARCH64_ADR_PREL_PG_HI21:275:1 R_AARCH64_CALL26:283:5 \
R_AARCH64_JUMP26:282:1" "$(by_type "$T/out.json" '.files[0].relocations.by_type')"
	# .rela.text: printk x2, kfree undefined; helper same; .rodata.str x2 other.
	# .rela.init.text: printk undefined, helper other.  this_module: init_module
	# (in .init.text) other.  undefined 4, same 1, other 4; distinct: printk,
	# kfree, helper, .rodata.str, init_module = 5.
	check "kmod $(basename "$m"): symbol classes" "0 4 1 4 0 5" "$(symbols "$T/out.json")"
	# text = .text 64 + .init.text 16 + .rodata.str 7 + .modinfo 12 = 99;
	# data = .gnu.linkonce.this_module 1024; bss 40.
	check "kmod $(basename "$m"): sizes" "99 1024 40" "$(sizes "$T/out.json")"
	check "kmod $(basename "$m"): sizes = size -B" "$(size_b "$f")" "$(sizes "$T/out.json")"
done
"$ELFPLT" stats "$T/signed.ko" >"$T/out.txt"
check "kmod: text header" "$T/signed.ko: ELF64 LSB AArch64 kernel module, 9 relocations in 3 sections" \
	"$(head -n 1 "$T/out.txt")"

done_testing
