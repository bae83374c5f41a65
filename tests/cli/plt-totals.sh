#!/bin/sh
# elfplt plt --json totals over files of different models: every file's
# slots and bytes sit at the same keys whatever the model, the top-level
# totals sum them over every file, and totals.by_model[] keeps each model's
# sums apart, with its own figures under detail.  Expected numbers come from
# the fixtures' hand derivations (their header comments).
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

basic=$(fixture plt-arm64-basic)
over=$(fixture plt-arm64-overcount)
x86=$(fixture plt-object-x86)
a64=$(fixture plt-object-a64)
linked=$(fixture plt-linked)
riscv=$(fixture plt-riscv)
printf 'not an ELF file\n' >"$T/junk"
j=$T/out.json

# bym(MODEL) in jq: the totals.by_model[] entry of MODEL.
BYM='def bym($m): .totals.by_model[] | select(.model == $m); '
# by MODEL KEY: one key of the totals.by_model[] entry of MODEL.
by() {
	jqr "$j" ".totals.by_model[] | select(.model == \"$1\") | .$2"
}

"$ELFPLT" plt --json "$basic" "$x86" "$linked" "$riscv" "$T/junk" >"$j" 2>/dev/null
check "exit status with one bad file" 1 $?
check "files analysed (riscv included)" 4 "$(jqr "$j" .totals.files)"
check "files_failed (the junk file)" 1 "$(jqr "$j" .totals.files_failed)"
check "no 'failed' key any more" null "$(jqr "$j" .totals.failed)"
check "not_covered (riscv)" 1 "$(jqr "$j" .totals.not_covered)"
# Every registered model, in registry order, as --help lists them.
models=$("$ELFPLT" plt --help | sed -n '/^models, in the order/,/^See /p' |
	sed -n 's/^  \([a-z0-9-]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')
check "by_model lists every model, in order" "$models" \
	"$(jqr "$j" '[.totals.by_model[].model] | join(" ")')"

# arm64-module, plt-arm64-basic.yaml: PLT core 6 + init 2 = 8 slots,
# minimal 5 + 2 = 7, plus .text.ftrace_trampoline's NR_FTRACE_PLTS (2 on
# v6.1) entries: 10 slots, minimum 9; bytes .plt 84 + .init.plt 36 +
# trampoline 24 = 144, minimal 72 + 36 + 24 = 132; relocations of the
# exec-target sections 8 + 3 = 11, slot-needing 6 + 2 = 8; sorted 11/8.
check "arm64-module entry: files slots minimum bytes minimum" "1 10 9 144 132" \
	"$(by arm64-module files) $(by arm64-module slots.reserved) $(by arm64-module slots.minimum) \
$(by arm64-module bytes.reserved) $(by arm64-module bytes.minimum)"
check "arm64-module entry: relocations, sort" "11 11 8 8 2 0" \
	"$(jqr "$j" '(.totals.by_model[] | select(.model == "arm64-module")) | "\(.relocations) \(.sort | "\(.full) \(.loader) \(
		.needed) \(.sections) \(.sections_unsorted)")"')"
check "arm64-module entry: its own sums" "0 0 0" \
	"$(jqr "$j" '(.totals.by_model[] | select(.model == "arm64-module")).detail | "\(.veneers) \(.partition_leftover_sections) \(
		.kaslr_ignored)"')"

# object, plt-object-x86.yaml: 7 relocations; branches 4, undefined 3,
# at most 2 PLT slots; GOT relocations 3, at most 2 GOT entries.
check "object entry" "1 7 4 3 2 3 2" "$(jqr "$j" '(.totals.by_model[] | select(.model == "object")) |
	"\(.files) \(.relocations) \(.detail.branch_relocations) \(.detail.undefined_branches) \(
	.detail.plt_slots_max) \(.detail.got_relocations) \(.detail.got_entries_max)"')"
check "object entry: slots are the bounds 2 + 2, no bytes" "4 0" \
	"$(by object slots.reserved) $(by object bytes.reserved)"

# linked, plt-linked.yaml: .rela.dyn 3 + .rela.plt 3 relocations; 3 PLT
# slots (2 JUMP_SLOT, 1 IRELATIVE), 2 GLOB_DAT; sizes 64 48 16 40.
check "linked entry" "1 6 3 2 1 2" "$(jqr "$j" '(.totals.by_model[] | select(.model == "linked")) |
	"\(.files) \(.relocations) \(.detail.plt_slots) \(.detail.jump_slot) \(.detail.irelative) \(
	.detail.got_entries_glob_dat)"')"
check "linked entry sizes" "64 48 16 40" "$(jqr "$j" '(.totals.by_model[] | select(.model == "linked")).detail |
	"\(.plt_bytes) \(.plt_sec_bytes) \(.got_bytes) \(.got_plt_bytes)"')"
check "linked entry: slots 3 + 2, bytes 64 + 48 + 16 + 40" "5 168" \
	"$(by linked slots.reserved) $(by linked bytes.reserved)"

# The top level sums every file: slots 10 + 4 + 5, bytes 144 + 0 + 168.
check "top-level slots, minimum" "19 18" \
	"$(jqr "$j" '.totals.slots | "\(.reserved) \(.minimum)"')"
check "top-level bytes, minimum" "312 300" \
	"$(jqr "$j" '.totals.bytes | "\(.reserved) \(.minimum)"')"
check "top-level equals the sum of by_model[]" true \
	"$(jqr "$j" '.totals as $t | [.totals.by_model[].slots.reserved] | add == $t.slots.reserved')"
check "top-level relocations 11 + 7 + 6" 24 "$(jqr "$j" .totals.relocations)"
check "top-level PLT cells by kind and group" "plt core 6 plt init 2 plt module 5 got module 4 \
trampoline core 2" "$(jqr "$j" '[.totals.slots.by_kind[] | "\(.kind) \(.group) \(.reserved)"] |
	join(" ")')"

# Per-section GOT relocations and the target of .rela.dyn (sh_info 0),
# which is {"index": 0, "name": ""} as in elfplt-stats/2.
check ".rela.dyn target" '0 ""' "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.dyn") | "\(.target.index) \(.target.name | tojson)"')"
check ".rela.dyn GLOB_DAT (environ, stdout)" 2 "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.dyn") | .detail.got_relocations')"
check ".rela.plt target .got.plt" ".got.plt" "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.plt") | .target.name')"
check "x86 .rela.text GOT relocations" 3 "$(jqr "$j" '.files[1].sections[0].detail.got_relocations')"
check "x86 .rela.text distinct targets (slots)" 2 "$(jqr "$j" '.files[1].sections[0].slots.reserved')"

# Two modules and two objects: sums within each model.
# Modules: basic 8 + overcount 9 = 17 PLT slots (minimal 7 + 8 = 15), and
# basic's 2 trampoline entries; objects: plt_slots_max 2 (x86) + 2 (a64) =
# 4, got_entries_max 2 + 1 = 3.
"$ELFPLT" plt --json "$basic" "$over" "$x86" "$a64" >"$j" || fail "two-by-two exited $?"
check "two modules: PLT slots, minimal" "17 15" \
	"$(jqr "$j" '[(.totals.by_model[] | select(.model == "arm64-module")).slots.by_kind[] | select(.kind == "plt")] |
		"\(map(.reserved) | add) \(map(.minimum) | add)"')"
check "two modules: all slots, trampolines included" "19 17" \
	"$(by arm64-module slots.reserved) $(by arm64-module slots.minimum)"
check "two objects: files, plt_slots_max, got_entries_max" "2 4 3" \
	"$(by object files) $(by object detail.plt_slots_max) $(by object detail.got_entries_max)"
check "no linked file: an entry with zeros" "0 0" "$(by linked files) $(by linked detail.plt_slots)"

# Objects and linked files only: no arm64 figures.
"$ELFPLT" plt --json "$x86" "$linked" >"$j" || fail "no modules exited $?"
check "no modules: arm64-module slots 0" 0 "$(by arm64-module slots.reserved)"
check "no modules: linked PLT slots still summed" 3 "$(by linked detail.plt_slots)"

# --timing adds timing to the sums of models whose loader sorts.
"$ELFPLT" plt --json --timing=1 "$basic" "$x86" >"$j" || fail "timing exited $?"
check "timing in top-level and arm64 entry" "true true" \
	"$(jqr "$j" '"\(.totals.sort.timing.full_ns >= 0) \((.totals.by_model[] | select(.model == "arm64-module")).sort.timing != null)"')"
check "no timing in the object entry" null "$(by object sort.timing)"
done_testing
