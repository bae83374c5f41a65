#!/bin/sh
# elfplt plt: the object and linked models, files no model covers, and bad
# input.  Expected numbers are derived in the fixtures' comments.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

x86=$(fixture plt-object-x86)
a64=$(fixture plt-object-a64)
linked=$(fixture plt-linked)
riscv=$(fixture plt-riscv)
j=$T/out.json

"$ELFPLT" plt --json "$x86" "$a64" "$linked" "$riscv" >"$j" || fail "exit status $?"
check "x86 model" object "$(jqr "$j" '.files[0].model')"
check "x86 object" "4 3 2 3 2" "$(jqr "$j" '.files[0].detail |
	"\(.branch_relocations) \(.undefined_branches) \(.plt_slots_max) \(.got_relocations) \(.got_entries_max)"')"
check "x86: object slots, PLT and GOT, as bounds" "2 2 2 2" "$(jqr "$j" '.files[0].slots.by_kind |
	map("\(.reserved) \(.minimum)") | join(" ")')"
check "x86: no section sized" "0 0" "$(jqr "$j" '.files[0].bytes | "\(.reserved) \(.by_section | length)"')"
check "x86: no sort" null "$(jqr "$j" '.files[0].sort')"
check "a64 object" "4 3 2 1 1" "$(jqr "$j" '.files[1].detail |
	"\(.branch_relocations) \(.undefined_branches) \(.plt_slots_max) \(.got_relocations) \(.got_entries_max)"')"
check "linked model" linked "$(jqr "$j" '.files[2].model')"
check "linked counts" "3 2 1 2" "$(jqr "$j" '.files[2].detail |
	"\(.plt_slots) \(.jump_slot) \(.irelative) \(.got_entries_glob_dat)"')"
check "linked sizes" "64 48 16 40" "$(jqr "$j" '.files[2].detail |
	"\(.plt_bytes) \(.plt_sec_bytes) \(.got_bytes) \(.got_plt_bytes)"')"
check "linked slots: 3 PLT, 2 GLOB_DAT" "3 2" "$(jqr "$j" '.files[2].slots.by_kind |
	map(.reserved) | join(" ")')"
check "linked bytes: 64 + 48 + 16 + 40" 168 "$(jqr "$j" '.files[2].bytes.reserved')"
check "riscv: no model" null "$(jqr "$j" '.files[3].model')"
check "riscv: a note" true "$(jqr "$j" '.files[3].note | length > 0')"
check "not_covered" 1 "$(jqr "$j" .totals.not_covered)"

# --model=arm64-module counts an AArch64 object as if the loader read it.
"$ELFPLT" plt --json --model=arm64-module "$a64" >"$j" || fail "forced exit $?"
check "forced arm64-module" "arm64-module 4 4" \
	"$(jqp "$j" '.files[0] | "\(.model) \(plt("core").reserved) \(plt("core").minimum)"')"
check "forced on x86: a note, no model" null \
	"$("$ELFPLT" plt --json --model=arm64-module "$x86" | "$JQ" -r '.files[0].model')"

# Bad input: a clear error, the other files still reported, exit 1.
printf 'not an ELF file\n' >"$T/junk"
head -c 100 "$x86" >"$T/truncated"
"$ELFPLT" plt --json "$T/junk" "$x86" "$T/truncated" >"$j" 2>"$T/err"
check "bad input exit" 1 $?
check "good file still reported" object "$(jqr "$j" '.files[1].model')"
check "junk error code" not_elf "$(jqr "$j" '.files[0].error.code')"
check "truncated error present" true "$(jqr "$j" '.files[2].error.code != null')"
check "two error lines" 2 "$(grep -c '^elfplt: ' "$T/err")"
done_testing
