#!/bin/sh
# elfplt plt, loongarch-module model, on yaml2obj fixtures.  Every expected
# number is derived by hand in the fixture's comments from Linux 6.1.176,
# 6.12.117 and 7.2.13 arch/loongarch/kernel/module-sections.c and module.c;
# none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

basic=$(fixture plt-loongarch-basic)
v61=$(fixture plt-loongarch-v61)

# sec JSON NAME KEY: one key of the section record named NAME.
sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | .$3"
}
# sized JSON NAME: reserved/minimum bytes of a section the loader sizes.
sized() {
	jqr "$1" ".files[0].bytes.by_section[] | select(.name == \"$2\") |
		\"\(.reserved) \(.minimum)\""
}
# kind JSON KIND: reserved/minimum slots of a kind.
kind() {
	jqr "$1" ".files[0].slots.by_kind[] | select(.kind == \"$2\") |
		\"\(.reserved) \(.minimum)\""
}

j=$T/basic.json
"$ELFPLT" plt --json "$basic" >"$j" || fail "plt basic exited $?"
check "model" "loongarch-module" "$(jqr "$j" '.files[0].model')"
check "kernel from vermagic" "7.2.13 vermagic" \
	"$(jqr "$j" '.files[0].rules.kernel | "\(.version) \(.from)"')"
check "rules 7.2" "true true true" \
	"$(jqr "$j" '.files[0].rules | "\(.sort_all_relocations) \(.got_pcadd_hi20) \(.ftrace_trampoline)"')"
check "no refusal" null "$(jqr "$j" '.files[0].rejects')"
check ".rela.data not counted" 2 "$(jqr "$j" '.files[0].sections | length')"
check ".rela.text relocations" 12 "$(sec "$j" .rela.text relocations)"
check ".rela.text plt relocations" 7 "$(sec "$j" .rela.text detail.plt_relocations)"
check ".rela.text got relocations (GOT_PC_HI20, GOT_PCADD_HI20)" 2 \
	"$(sec "$j" .rela.text detail.got_relocations)"
check ".rela.text plt slots" 5 "$(sec "$j" .rela.text detail.plt_slots)"
check ".rela.text got slots" 2 "$(sec "$j" .rela.text detail.got_slots)"
check ".rela.text comparisons" 37 "$(sec "$j" .rela.text detail.duplicate_rela_comparisons)"
check ".rela.text sorted" "12 12 9" "$(sec "$j" .rela.text 'sort | "\(.full) \(.loader)"') $(sec "$j" .rela.text needed)"
check ".rela.text.unlikely slots" "2 1" \
	"$(sec "$j" .rela.text.unlikely 'detail | "\(.plt_slots) \(.got_slots)"')"
check "plt slots" "7 4" "$(kind "$j" plt)"
check "got slots" "3 1" "$(kind "$j" got)"
check "trampoline slots" "2 2" "$(kind "$j" trampoline)"
check "slots" "12 7" "$(jqr "$j" '.files[0].slots | "\(.reserved) \(.minimum)"')"
check ".got bytes" "32 16" "$(sized "$j" .got)"
check ".plt bytes" "128 80" "$(sized "$j" .plt)"
check ".plt.idx bytes" "64 40" "$(sized "$j" .plt.idx)"
check ".ftrace_trampoline bytes" "32 32" "$(sized "$j" .ftrace_trampoline)"
check "bytes" "256 168" "$(jqr "$j" '.files[0].bytes | "\(.reserved) \(.minimum)"')"
check "over-allocation by cause" "2 1 2" \
	"$(jqr "$j" '.files[0].detail.over_allocation | "\(.type_split) \(.alias) \(.across_sections)"')"
check "over-allocation sums to reserved - minimum" 5 \
	"$(jqr "$j" '.files[0].detail.over_allocation | .type_split + .alias + .across_sections')"
check "plt causes" "1 1 1" \
	"$(jqr "$j" '.files[0].detail.plt.over_allocation | "\(.type_split) \(.alias) \(.across_sections)"')"
check "got causes" "1 0 1" \
	"$(jqr "$j" '.files[0].detail.got.over_allocation | "\(.type_split) \(.alias) \(.across_sections)"')"
check "sort" "16 16 12 2 0" \
	"$(jqr "$j" '.files[0].sort | "\(.full) \(.loader) \(.needed) \(.sections) \(.sections_unsorted)"')"
check "comparisons" 40 "$(jqr "$j" '.files[0].detail.duplicate_rela_comparisons')"
check "GOT entries when relocating" 1 "$(jqr "$j" '.files[0].detail.got_entries_at_relocation')"

# Version boundaries on the same file, through --kernel.
k() {
	"$ELFPLT" plt --json --kernel="$1" "$basic" >"$j" || fail "--kernel=$1 exited $?"
	jqr "$j" '.files[0] | "\(.slots.reserved) \(.bytes.reserved) \(.sort.loader) \(.sort.needed) \(.detail.duplicate_rela_comparisons) \(.rejects)"'
}
check "7.0: GOT_PCADD_HI20 counted" "12 256 16 12 40 null" "$(k 7.0)"
check "6.17: not counted; 130 past the table" "11 248 16 11 31 Unknown relocation type 130" "$(k 6.17)"
check "6.12.117: sorts (stable)" "11 248 16 11 31 Unknown relocation type 130" "$(k 6.12.117)"
check "6.12.43: no sort" "11 248 0 11 31 Unknown relocation type 130" "$(k 6.12.43)"
check "6.1: no trampoline" "9 216 0 11 31 Unknown relocation type 130" "$(k 6.1)"

j=$T/v61.json
"$ELFPLT" plt --json "$v61" >"$j" || fail "plt v61 exited $?"
check "v61 kernel" "6.1 vermagic" "$(jqr "$j" '.files[0].rules.kernel | "\(.version) \(.from)"')"
check "v61 rules" "false false" \
	"$(jqr "$j" '.files[0].rules | "\(.sort_all_relocations) \(.ftrace_trampoline)"')"
check "v61 slots" "3 3 1 1" "$(kind "$j" plt) $(kind "$j" got)"
check "v61 bytes" "112 16 64 32" \
	"$(jqr "$j" '.files[0].bytes.reserved') $(sized "$j" .got | cut -d' ' -f1) $(sized "$j" .plt | cut -d' ' -f1) $(sized "$j" .plt.idx | cut -d' ' -f1)"
check "v61 sort" "7 0 6" "$(jqr "$j" '.files[0].sort | "\(.full) \(.loader) \(.needed)"')"
check "v61 comparisons" 20 "$(jqr "$j" '.files[0].detail.duplicate_rela_comparisons')"
kv() {
	"$ELFPLT" plt --json --kernel="$1" "$v61" >"$j" || fail "--kernel=$1 exited $?"
	jqr "$j" '.files[0] | "\(.slots.reserved) \(.bytes.reserved) \(.sort.loader)"'
}
check "v61 at 6.2: trampoline" "6 144 0" "$(kv 6.2)"
check "v61 at 6.6.102" "6 144 0" "$(kv 6.6.102)"
check "v61 at 6.6.103: sorts" "6 144 7" "$(kv 6.6.103)"
check "v61 at 6.16.2" "6 144 0" "$(kv 6.16.2)"
check "v61 at 6.16.3: sorts" "6 144 7" "$(kv 6.16.3)"
check "v61 at 6.17: sorts" "6 144 7" "$(kv 6.17)"

# The loader's refusals, one fixture document each.
rj() {
	"$YAML2OBJ" --docnum="$1" "$FIXTURES/plt-loongarch-reject.yaml" -o "$T/r$1" ||
		fail "yaml2obj doc $1"
	shift
	"$ELFPLT" plt --json --model=loongarch-module "$@" >"$T/r.json" || fail "plt $* exited $?"
	jqr "$T/r.json" '.files[0].rejects'
}
check "no .got" "module GOT section(s) missing" "$(rj 1 "$T/r1")"
check "no .plt.idx" "module PLT.IDX section(s) missing" "$(rj 2 "$T/r2")"
check "LO12 without HI20" "module contains bad GOT relocation" "$(rj 3 "$T/r3")"
check "unhandled type" "Unsupport relocation type 77, please add its support." "$(rj 4 "$T/r4")"
check "type past the table" "Unknown relocation type 140" "$(rj 5 "$T/r5")"
check "PCADD_LO12 alone" "Can not find HI20 relocation information" "$(rj 6 "$T/r6")"
check "32_PCREL at 7.2" null "$(rj 7 "$T/r7")"
check "32_PCREL at 6.1" "Unsupport relocation type 99, please add its support." \
	"$(rj 7 --kernel=6.1 "$T/r7")"
check "no symtab" "module has no symbols (stripped?)" "$(rj 8 "$T/r8")"

# Text and --timing: the loader's numbers and both timings are there.
"$ELFPLT" plt --timing=3 "$basic" >"$T/basic.txt" || fail "plt --timing exited $?"
grep -q "plt: 7 slots (minimal 4)" "$T/basic.txt" || fail "text: no plt line"
grep -q "timing (median of 3 runs): loader [0-9]* ns, partition + sort [0-9]* ns" \
	"$T/basic.txt" || fail "text: no timing line"
"$ELFPLT" plt --json --timing=3 "$basic" >"$j" || fail "plt --json --timing exited $?"
check "timing keys" "true" "$(jqr "$j" '.files[0].sort.timing | has("full_ns") and has("partitioned_ns")')"

done_testing
