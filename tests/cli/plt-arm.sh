#!/bin/sh
# elfplt plt, arm-module model, on yaml2obj fixtures (ELFCLASS32 EM_ARM,
# SHT_REL).  Every expected number is derived by hand in the fixture's
# comments from Linux arch/arm/kernel/module-plts.c and lib/sort.c (6.1.176,
# 6.12.117); none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

basic=$(fixture plt-arm-basic)
sorto=$(fixture plt-arm-sortorder)
be32=$(fixture plt-arm-be32)
be8=$(fixture plt-arm-be8)
noinit=$(fixture plt-arm-noinitplt)
oob=$(fixture plt-arm-oob)
# yaml2obj cannot name EF_ARM_BE8: write e_flags 0x00800000 (big-endian, offset 36).
printf '\000\200\000\000' | dd of="$be8" bs=1 seek=36 conv=notrunc 2>/dev/null ||
	fail "could not set EF_ARM_BE8"

sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | .$3"
}
groups() {
	jqp "$1" '.files[0] | "\(plt("core").reserved) \(plt("core").minimum) \(
		plt("init").reserved) \(plt("init").minimum) \(sized(".plt").reserved) \(
		sized(".init.plt").reserved)"'
}
causes() {
	jqr "$1" '.files[0].detail.over_allocation | "\(.fixed_ftrace) \(.cross_section) \(
		.sort_order) \(.nonzero_addend) \(.type)"'
}

j=$T/basic.json
"$ELFPLT" plt --json "$basic" >"$j" || fail "plt basic exited $?"
check "basic model" "arm-module" "$(jqr "$j" '.files[0].model')"
check "basic kernel" "6.12.118 heapsort-double-pop little" \
	"$(jqr "$j" '.files[0].rules | "\(.kernel.version) \(.sort) \(.instruction_byte_order)"')"
check "basic: SHT_RELA and non-exec targets ignored" \
	".rel.text .rel.text.unlikely .rel.init.text" \
	"$(jqr "$j" '[.files[0].sections[].name] | join(" ")')"
check ".rel.text relocations" 12 "$(sec "$j" .rel.text relocations)"
check ".rel.text branches" 11 "$(sec "$j" .rel.text detail.branch_relocations)"
check ".rel.text need (local_fn is in .text)" 10 "$(sec "$j" .rel.text needed)"
check ".rel.text slots" 8 "$(sec "$j" .rel.text slots.reserved)"
check ".rel.text new targets" 4 "$(sec "$j" .rel.text detail.new_targets)"
check ".rel.text.unlikely slots" 1 "$(sec "$j" .rel.text.unlikely slots.reserved)"
check ".rel.init.text group" init "$(sec "$j" .rel.init.text group)"
check "basic groups and bytes" "11 6 4 4 128 128" "$(groups "$j")"
check "basic sort" "16 16 13 3" \
	"$(jqr "$j" '.files[0].sort | "\(.full) \(.loader) \(.needed) \(.sections)"')"
check "basic causes" "1 1 0 0 3" "$(causes "$j")"
check "basic: causes sum to reserved - minimum" 5 \
	"$(jqr "$j" '[.files[0].detail.over_allocation[]] | add')"

# Sort order: the kernel's heapsort, per version, against a stable sort.
j=$T/sort.json
"$ELFPLT" plt --json "$sorto" >"$j" || fail "sortorder exited $?"
check "6.12: .text.a [X2 Z1 Z0] (stable sort: 2)" 2 "$(sec "$j" .rel.text.a slots.reserved)"
check "6.12: .text.b [P.Z1 P.X3 P.Z0 K.Z2] (stable sort: 3)" 4 \
	"$(sec "$j" .rel.text.b slots.reserved)"
check "6.12 groups" "8 5 2 2 128 128" "$(groups "$j")"
check "6.12 causes" "0 2 1 0 0" "$(causes "$j")"
for v in 6.1 6.8; do
	"$ELFPLT" plt --json --kernel=$v "$sorto" >"$j" || fail "sortorder $v exited $?"
	check "$v: single-pop heapsort" heapsort "$(jqr "$j" '.files[0].rules.sort')"
	check "$v: .text.a [Z1 X2 Z0] (stable sort: 2)" 3 "$(sec "$j" .rel.text.a slots.reserved)"
	check "$v: .text.b [P.Z1 P.Z0 P.X3 K.Z2]" 3 "$(sec "$j" .rel.text.b slots.reserved)"
	check "$v causes" "0 2 1 0 0" "$(causes "$j")"
done
"$ELFPLT" plt --json --kernel=6.9 "$sorto" >"$j" || fail "sortorder 6.9 exited $?"
check "6.9: double pop" "heapsort-double-pop 2 4" \
	"$(jqr "$j" '.files[0] | "\(.rules.sort) \(.sections[0].slots.reserved) \(.sections[1].slots.reserved)"')"

# Both big-endian kinds: BE32 code big-endian, BE8 code little-endian.
for f in be32 be8; do
	eval "p=\$$f"
	j=$T/$f.json
	"$ELFPLT" plt --json "$p" >"$j" || fail "$f exited $?"
	check "$f groups" "5 5 2 2 128 128" "$(groups "$j")"
	check "$f .rel.text" 2 "$(sec "$j" .rel.text slots.reserved)"
	check "$f .rel.text.t (Thumb-2)" 1 "$(sec "$j" .rel.text.t slots.reserved)"
done
check "be32 byte order" big "$(jqr "$T/be32.json" '.files[0].rules.instruction_byte_order')"
check "be8 byte order" little "$(jqr "$T/be8.json" '.files[0].rules.instruction_byte_order')"

# Rejected, and malformed.
j=$T/noinit.json
"$ELFPLT" plt --json "$noinit" >"$j" || fail "noinitplt exited $?"
check "no .init.plt: rejects" "module PLT section(s) missing: no .init.plt" \
	"$(jqr "$j" '.files[0].rejects')"
check "no .init.plt: still counted" "3 3 2 2" "$(groups "$j" | cut -d' ' -f1-4)"
"$ELFPLT" plt "$oob" >"$T/oob.out" 2>"$T/oob.err"
check "branch past its section: exit" 1 $?
grep -q "oob: a branch at offset 0x4 is past the end of section 1 .text (6 bytes)" \
	"$T/oob.err" || fail "past-the-end message: $(cat "$T/oob.err")"

# --timing: medians present.
"$ELFPLT" plt --json --timing=3 "$basic" >"$j" || fail "timing exited $?"
check "timing keys" "true true" \
	"$(jqr "$j" '.files[0].sort.timing | "\(.full_ns >= 0) \(.partitioned_ns >= 0)"')"
# Totals over files: text and JSON.
"$ELFPLT" plt --json "$basic" "$sorto" "$be32" >"$j" || fail "totals exited $?"
check "totals slots 15 + 10 + 7" 32 "$(jqr "$j" .totals.slots.reserved)"
# basic 1 0 0 3 +1 cross; sortorder 0 2 1 0 0; be32 none.
check "totals causes" "1 3 1 0 3" "$(jqr "$j" '.totals.by_model[] | select(.model == "arm-module") |
	.detail.over_allocation | "\(.fixed_ftrace) \(.cross_section) \(.sort_order) \(
	.nonzero_addend) \(.type)"')"
"$ELFPLT" plt "$basic" "$sorto" | grep -q "arm-module, 2 modules" || fail "text totals missing"
done_testing
