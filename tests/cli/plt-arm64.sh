#!/bin/sh
# elfplt plt, arm64-module model, on yaml2obj fixtures.  Every expected
# number is derived by hand in the fixture's comments from Linux 6.1
# arch/arm64/kernel/module-plts.c; none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

basic=$(fixture plt-arm64-basic)
over=$(fixture plt-arm64-overcount)
adrp=$(fixture plt-arm64-adrp)
noinit=$(fixture plt-arm64-noinitplt)

# sec JSON NAME KEY: one key of the section record named NAME.
sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | .$3"
}

"$ELFPLT" plt --json "$basic" >"$T/basic.json" || fail "plt basic exited $?"
j=$T/basic.json
check "schema" "elfplt-plt/2" "$(jqr "$j" .schema)"
check "basic model" "arm64-module" "$(jqr "$j" '.files[0].model')"
check "basic options" "true true" "$(jqr "$j" '.files[0].options | "\(.kaslr) \(.erratum_843419)"')"
check "basic rejects" "null" "$(jqr "$j" '.files[0].rejects')"
check ".rela.data skipped (non-exec target)" "2" "$(jqr "$j" '.files[0].sections | length')"
check ".rela.text relocations" 8 "$(sec "$j" .rela.text relocations)"
check ".rela.text branch_relocations" 7 "$(sec "$j" .rela.text detail.branch_relocations)"
check ".rela.text plt_relocations" 6 "$(sec "$j" .rela.text needed)"
check ".rela.text slots (5 + 1 spare)" 6 "$(sec "$j" .rela.text slots.reserved)"
check ".rela.text slots_minimal (4 + 1)" 5 "$(sec "$j" .rela.text slots.minimum)"
check ".rela.text group" core "$(sec "$j" .rela.text group)"
check ".rela.text sorted_full" 8 "$(sec "$j" .rela.text sort.full)"
check ".rela.text sorted_partitioned" 6 "$(sec "$j" .rela.text sort.loader)"
check ".rela.text veneers" 0 "$(sec "$j" .rela.text detail.veneers)"
check ".rela.init.text group" init "$(sec "$j" .rela.init.text group)"
check ".rela.init.text slots" 2 "$(sec "$j" .rela.init.text slots.reserved)"
check ".rela.init.text slots_minimal" 2 "$(sec "$j" .rela.init.text slots.minimum)"
check "core group" "6 5 84" "$(jqp "$j" '.files[0] | "\(plt("core") | "\(.reserved) \(.minimum)") \(sized(".plt").reserved)"')"
check "init group" "2 2 36" "$(jqp "$j" '.files[0] | "\(plt("init") | "\(.reserved) \(.minimum)") \(sized(".init.plt").reserved)"')"
check "ftrace trampoline bytes" 24 "$(jqp "$j" '.files[0] | sized(".text.ftrace_trampoline").reserved')"
check "sorted" "11 8" "$(jqr "$j" '.files[0].sort | "\(.full) \(.loader)"')"
# Over the minimum by cause (fixture comments): .rela.text's one extra slot
# is the second kmalloc+8, a non-zero addend the loader never merges; the
# slack is ceil(5/341) = ceil(4/341) = 1 either way.
check ".rela.text over_allocation" "1 0 0" "$(sec "$j" .rela.text 'detail.over_allocation |
	"\(.nonzero_addend) \(.partition_leftover) \(.erratum_slack)"')"
check "file over_allocation sums to reserved - minimum" "1 1" \
	"$(jqr "$j" '.files[0] | "\(.detail.over_allocation | add) \(.slots.reserved - .slots.minimum)"')"

# Erratum off: no spare slots.
"$ELFPLT" plt --json --erratum-843419=off "$basic" >"$j" || fail "erratum off exited $?"
check "erratum off: option" false "$(jqr "$j" '.files[0].options.erratum_843419')"
check "erratum off: .rela.text slots" 5 "$(sec "$j" .rela.text slots.reserved)"
check "erratum off: .rela.text minimal" 4 "$(sec "$j" .rela.text slots.minimum)"
check "erratum off: init slots" 1 "$(jqp "$j" '.files[0] | plt("init").reserved')"

# KASLR off (v6.1 without CONFIG_RANDOMIZE_BASE): no branch slots, no sort.
"$ELFPLT" plt --json --kaslr=off "$basic" >"$j" || fail "kaslr off exited $?"
check "kaslr off: option" false "$(jqr "$j" '.files[0].options.kaslr')"
check "kaslr off: core slots" 0 "$(jqp "$j" '.files[0] | plt("core").reserved')"
check "kaslr off: init slots" 0 "$(jqp "$j" '.files[0] | plt("init").reserved')"
check "kaslr off: .plt bytes (0+1)*12" 12 "$(jqp "$j" '.files[0] | sized(".plt").reserved')"
check "kaslr off: sorted" "11 0" "$(jqr "$j" '.files[0].sort | "\(.full) \(.loader)"')"
check "kaslr off: sections skipping the sort" 2 "$(jqr "$j" '.files[0].sort.sections_unsorted')"

# Every relocation needs a slot: the partition's leftover.
j=$T/over.json
"$ELFPLT" plt --json "$over" >"$j" || fail "overcount exited $?"
check "overcount .rela.text slots (3 + 1)" 4 "$(sec "$j" .rela.text slots.reserved)"
check "overcount .rela.text minimal (2 + 1)" 3 "$(sec "$j" .rela.text slots.minimum)"
check "overcount .rela.text sorted_partitioned" 2 "$(sec "$j" .rela.text sort.loader)"
check "overcount .rela.text leftover" true "$(sec "$j" .rela.text detail.partition_leftover)"
# The leftover printk repeats a sorted entry: one slot over, by the partition.
check "overcount .rela.text over_allocation" "0 1 0" "$(sec "$j" .rela.text 'detail.over_allocation |
	"\(.nonzero_addend) \(.partition_leftover) \(.erratum_slack)"')"
check "overcount totals over_allocation" "0 1 0" "$(jqr "$j" '.totals.by_model[0].detail.over_allocation |
	"\(.nonzero_addend) \(.partition_leftover) \(.erratum_slack)"')"
check "leftover equal to the largest: slots" 3 "$(sec "$j" .rela.text.unlikely slots.reserved)"
check "leftover equal to the largest: minimal" 3 "$(sec "$j" .rela.text.unlikely slots.minimum)"
check "single relocation: sorted_partitioned" 0 "$(sec "$j" .rela.text.other sort.loader)"
check "single relocation: slots" 2 "$(sec "$j" .rela.text.other slots.reserved)"
check "overcount core" "9 8 120" "$(jqp "$j" '.files[0] | "\(plt("core") | "\(.reserved) \(.minimum)") \(sized(".plt").reserved)"')"
check "overcount sorted" "7 4 3 1" \
	"$(jqr "$j" '.files[0].sort | "\(.full) \(.loader) \(.sections) \(.sections_unsorted)"')"
"$ELFPLT" plt --json --erratum-843419=off "$over" >"$j" || fail "overcount off exited $?"
check "overcount erratum off core" "6 5" "$(jqp "$j" '.files[0] | plt("core") | "\(.reserved) \(.minimum)"')"

# Erratum 843419 veneers.
j=$T/adrp.json
"$ELFPLT" plt --json "$adrp" >"$j" || fail "adrp exited $?"
check "adrp veneers" 3 "$(sec "$j" .rela.text detail.veneers)"
check "adrp slots" 5 "$(sec "$j" .rela.text slots.reserved)"
check "adrp minimal" 5 "$(sec "$j" .rela.text slots.minimum)"
check "adrp min_align" 4096 "$(sec "$j" .rela.text detail.min_align)"
check "adrp init veneers" 1 "$(sec "$j" .rela.init.text detail.veneers)"
check "adrp groups" "5 2" "$(jqp "$j" '.files[0] | "\(plt("core").reserved) \(plt("init").reserved)"')"
"$ELFPLT" plt --json --erratum-843419=off "$adrp" >"$j" || fail "adrp off exited $?"
check "adrp off veneers" 0 "$(sec "$j" .rela.text detail.veneers)"
check "adrp off groups" "1 0 24 12" \
	"$(jqp "$j" '.files[0] | "\(plt("core").reserved) \(plt("init").reserved) \(sized(".plt").reserved) \(sized(".init.plt").reserved)"')"

# A module the kernel rejects.
j=$T/noinit.json
"$ELFPLT" plt --json "$noinit" >"$j" || fail "noinitplt exited $?"
check "no .init.plt: rejects" "module PLT section(s) missing: no .init.plt" \
	"$(jqr "$j" '.files[0].rejects')"
check "no .init.plt: core slots still counted" 2 "$(jqp "$j" '.files[0] | plt("core").reserved')"
"$ELFPLT" plt "$noinit" | grep -q "the kernel rejects this module" ||
	fail "text output does not say the kernel rejects the module"

# --timing adds medians; never asserted beyond their presence.
"$ELFPLT" plt --json --timing=3 "$basic" >"$j" || fail "timing exited $?"
check "timing keys" "true true" \
	"$(jqr "$j" '.files[0].sort.timing | "\(.full_ns >= 0) \(.partitioned_ns >= 0)"')"
"$ELFPLT" plt --timing "$basic" | grep -q "full ns" || fail "timing table missing"

# Totals over several files.
"$ELFPLT" plt --json "$basic" "$over" "$adrp" >"$j" || fail "totals exited $?"
check "totals PLT slots 6+2 + 9 + 5+2" 24 \
	"$(jqr "$j" '[.totals.slots.by_kind[] | select(.kind == "plt") | .reserved] | add')"
check "totals PLT minimum 5+2 + 8 + 5+2" 22 \
	"$(jqr "$j" '[.totals.slots.by_kind[] | select(.kind == "plt") | .minimum] | add')"
# Only basic has .text.ftrace_trampoline: NR_FTRACE_PLTS (2 on v6.1) entries.
check "totals slots, trampolines included: 24 + 2" 26 "$(jqr "$j" .totals.slots.reserved)"
check "totals minimum, trampolines included: 22 + 2" 24 "$(jqr "$j" .totals.slots.minimum)"

# Usage errors exit 2.
"$ELFPLT" plt --kaslr=maybe "$basic" >/dev/null 2>&1
check "bad --kaslr exit" 2 $?
"$ELFPLT" plt --model=nope "$basic" >/dev/null 2>&1
check "bad --model exit" 2 $?
done_testing
