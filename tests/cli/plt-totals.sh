#!/bin/sh
# elfplt plt --json totals over files of different models: each model's
# figures are summed on their own (totals.by_model[]), and the top-level
# slot, byte and sorting keys are arm64-module sums only.  Expected numbers
# come from the fixtures' hand derivations (their header comments).
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
check "by_model lists every model, in order" "arm64-module object linked" \
	"$(jqr "$j" '[.totals.by_model[].model] | join(" ")')"

# arm64-module, plt-arm64-basic.yaml: core 6 + init 2 = 8 slots, minimal
# 5 + 2 = 7; bytes 84 + 36 = 120, minimal 72 + 36 = 108; relocations of
# the exec-target sections 8 + 3 = 11, slot-needing 6 + 2 = 8; sorted 11/8.
check "top-level slots: the module's only, not + 3 linked + 2 object" 8 \
	"$(jqr "$j" .totals.slots)"
check "top-level slots_minimal" 7 "$(jqr "$j" .totals.slots_minimal)"
check "top-level bytes, bytes_minimal" "120 108" \
	"$(jqr "$j" '.totals | "\(.bytes) \(.bytes_minimal)"')"
check "top-level relocations, plt_relocations" "11 8" \
	"$(jqr "$j" '.totals | "\(.relocations) \(.plt_relocations)"')"
check "top-level sorted" "11 8 2 0" \
	"$(jqr "$j" '.totals.sorted | "\(.full) \(.partitioned) \(.sections) \(.sections_unsorted)"')"
check "arm64-module entry: files slots slots_minimal bytes" "1 8 7 120" \
	"$(by arm64-module files) $(by arm64-module slots) $(by arm64-module slots_minimal) $(by arm64-module bytes)"
check "arm64-module entry equals the top-level sums" true \
	"$(jqr "$j" '.totals as $t | .totals.by_model[0] | .slots == $t.slots and
		.relocations == $t.relocations and .sorted == $t.sorted and
		.kernel_rejects == $t.kernel_rejects')"

# object, plt-object-x86.yaml: 7 relocations; branches 4, undefined 3,
# at most 2 PLT slots; GOT relocations 3, at most 2 GOT entries.
check "object entry" "1 7 4 3 2 3 2" "$(jqr "$j" '.totals.by_model[1] |
	"\(.files) \(.relocations) \(.branch_relocations) \(.undefined_branches) \(.plt_slots_max) \(.got_relocations) \(.got_entries_max)"')"
check "object entry has no loader keys" null "$(by object slots)"

# linked, plt-linked.yaml: .rela.dyn 3 + .rela.plt 3 relocations; 3 PLT
# slots (2 JUMP_SLOT, 1 IRELATIVE), 2 GLOB_DAT; sizes 64 48 16 40.
check "linked entry" "1 6 3 2 1 2" "$(jqr "$j" '.totals.by_model[2] |
	"\(.files) \(.relocations) \(.plt_slots) \(.jump_slot) \(.irelative) \(.got_entries_glob_dat)"')"
check "linked entry sizes" "64 48 16 40" "$(jqr "$j" '.totals.by_model[2] |
	"\(.plt_bytes) \(.plt_sec_bytes) \(.got_bytes) \(.got_plt_bytes)"')"

# Per-section GOT relocations and the target of .rela.dyn (sh_info 0),
# which is {"index": 0, "name": ""} as in elfplt-stats/1.
check ".rela.dyn target" '0 ""' "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.dyn") | "\(.target.index) \(.target.name | tojson)"')"
check ".rela.dyn GLOB_DAT (environ, stdout)" 2 "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.dyn") | .got_relocations')"
check ".rela.plt target .got.plt" ".got.plt" "$(jqr "$j" '.files[2].sections[] |
	select(.name == ".rela.plt") | .target.name')"
check "x86 .rela.text GOT relocations" 3 "$(jqr "$j" '.files[1].sections[0].got_relocations')"
check "x86 .rela.text distinct targets (slots)" 2 "$(jqr "$j" '.files[1].sections[0].slots')"

# Two modules and two objects: sums within each model.
# Modules: basic 8 + overcount 9 = 17 slots (minimal 7 + 8 = 15);
# objects: plt_slots_max 2 (x86) + 2 (a64) = 4, got_entries_max 2 + 1 = 3.
"$ELFPLT" plt --json "$basic" "$over" "$x86" "$a64" >"$j" || fail "two-by-two exited $?"
check "two modules: slots, minimal" "17 15" \
	"$(jqr "$j" '.totals | "\(.slots) \(.slots_minimal)"')"
check "two objects: files, plt_slots_max, got_entries_max" "2 4 3" \
	"$(by object files) $(by object plt_slots_max) $(by object got_entries_max)"
check "no linked file: an entry with zeros" "0 0" "$(by linked files) $(by linked plt_slots)"

# Objects and linked files only: no arm64 slots at the top.
"$ELFPLT" plt --json "$x86" "$linked" >"$j" || fail "no modules exited $?"
check "no modules: top-level slots 0" 0 "$(jqr "$j" .totals.slots)"
check "no modules: linked PLT slots still summed" 3 "$(by linked plt_slots)"

# --timing adds timing to the arm64 sums only (never asserted beyond that).
"$ELFPLT" plt --json --timing=1 "$basic" "$x86" >"$j" || fail "timing exited $?"
check "timing in top-level and arm64 entry" "true true" \
	"$(jqr "$j" '"\(.totals.timing.full_ns >= 0) \(.totals.by_model[0].timing != null)"')"
check "no timing in the object entry" null "$(by object timing)"
done_testing
