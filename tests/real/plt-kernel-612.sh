#!/bin/sh
# elfplt plt on Debian 12's 6.12 arm64 modules (.ko.xz; tests/real/
# fetch-modules.sh 6.12): each module's vermagic names 6.12, and Linux
# v6.12's arch/arm64/kernel/module-plts.c and asm/ftrace.h give
#  - NR_FTRACE_PLTS 1: .text.ftrace_trampoline and .init.text.ftrace_trampoline
#    (where the module has them) get 1 x sizeof(struct plt_entry) = 12 bytes;
#  - no CONFIG_RANDOMIZE_BASE check left in count_plts() or
#    partition_branch_plt_relas() (removed in v6.7): --kaslr=off changes
#    nothing.
# Which modules have the trampoline sections is read by readelf -SW from the
# xz -d copies, independently of elfplt.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"
need JQ READELF

dir=$(modules_dir 6.12) || exit $?
plain=$(modules_dir 6.12 xz-d) || exit $?

j=$T/on.json
"$ELFPLT" plt --json "$dir" >"$j" || fail "elfplt plt on $dir exited $?"
n=$(find "$dir" -name '*.ko.xz' | wc -l)
check "every module analysed" "$n" "$(jqr "$j" '.files | length')"
check "every module modelled as its vermagic's 6.12" "$n" \
	"$(jqr "$j" '[.files[] | select(.rules.kernel.from == "vermagic" and
		(.rules.kernel.version | startswith("6.12.")))] | length')"
check "KASLR does not apply to any" 0 \
	"$(jqr "$j" '[.files[] | select(.rules.kaslr_applies)] | length')"
check "no .text.ftrace_trampoline other than 12 bytes" 0 \
	"$(jqp "$j" '[.files[] | select(sized(".text.ftrace_trampoline") != null and
		sized(".text.ftrace_trampoline").reserved != 12)] | length')"
check "no .init.text.ftrace_trampoline other than 12 bytes" 0 \
	"$(jqp "$j" '[.files[] | select(sized(".init.text.ftrace_trampoline") != null and
		sized(".init.text.ftrace_trampoline").reserved != 12)] | length')"

# Every 40th module (sorted paths): which trampolines readelf sees, against
# what elfplt sized ("-" absent).
find "$plain" -name '*.ko' | LC_ALL=C sort | awk 'NR % 40 == 1' >"$T/sample"
check "a sample of modules" 1 "$([ "$(wc -l <"$T/sample")" -ge 50 ] && echo 1)"
while read -r f; do
	rel=${f#"$plain"/}
	"$READELF" -SW "$f" | awk -v p="$rel" '
		$2 == ".text.ftrace_trampoline" || $3 == ".text.ftrace_trampoline" { t = 12 }
		$2 == ".init.text.ftrace_trampoline" || $3 == ".init.text.ftrace_trampoline" { i = 12 }
		END { print p "\t" (t ? t : "-") "\t" (i ? i : "-") }'
done <"$T/sample" | LC_ALL=C sort >"$T/readelf.tsv"
"$JQ" -r --arg d "$dir/" "$PLT2_JQ"' .files[] | "\(.path | ltrimstr($d) | rtrimstr(".xz"))\t\(
	sized(".text.ftrace_trampoline").reserved // "-")\t\(
	sized(".init.text.ftrace_trampoline").reserved // "-")"' "$j" |
	LC_ALL=C sort >"$T/all.tsv"
cut -f1 "$T/readelf.tsv" >"$T/names"
grep -F -f "$T/names" "$T/all.tsv" | LC_ALL=C sort >"$T/elfplt.tsv"
if cmp -s "$T/readelf.tsv" "$T/elfplt.tsv"; then
	echo "ok: sample of $(wc -l <"$T/sample"): trampolines where readelf finds them, 12 bytes"
else
	fail "sample: trampolines differ from readelf -SW (< readelf, > elfplt):"
	diff "$T/readelf.tsv" "$T/elfplt.tsv" | head -n 20
fi
check "sample: some module has a trampoline" 1 \
	"$(awk -F'\t' '$2 == 12 { print 1; exit }' "$T/readelf.tsv")"

# --kaslr=off: every figure the same (only options.kaslr differs).
"$ELFPLT" plt --json --kaslr=off "$dir" >"$T/off.json" || fail "--kaslr=off exited $?"
check "--kaslr=off: options recorded" "$n" \
	"$(jqr "$T/off.json" '[.files[] | select(.options.kaslr == false)] | length')"
"$JQ" -S 'del(.elfplt_version) | del(.files[].options)' "$j" >"$T/on.norm"
"$JQ" -S 'del(.elfplt_version) | del(.files[].options)' "$T/off.json" >"$T/off.norm"
if cmp -s "$T/on.norm" "$T/off.norm"; then
	echo "ok: --kaslr=off: every file's figures and the totals unchanged on 6.12"
else
	fail "--kaslr=off changed figures on 6.12 modules"
fi
check "slots were counted at all" 1 "$(jqr "$j" 'if .totals.slots.reserved > 0 then 1 else 0 end')"

# --kernel=6.1 on the same modules: 24-byte trampolines, the init one unsized,
# and --kaslr now counts.
"$ELFPLT" plt --json --kernel=6.1 "$dir" >"$T/k61.json" || fail "--kernel=6.1 exited $?"
check "--kernel=6.1: 24-byte trampolines where 6.12 has 12" \
	"$(jqp "$j" '[.files[] | select(sized(".text.ftrace_trampoline").reserved == 12)] | length')" \
	"$(jqp "$T/k61.json" '[.files[] | select(sized(".text.ftrace_trampoline").reserved == 24)] |
		length')"
check "--kernel=6.1: no init trampoline sized" 0 \
	"$(jqp "$T/k61.json" '[.files[] | select(sized(".init.text.ftrace_trampoline") != null)] |
		length')"
echo "totals 6.12: $(jqr "$j" "$TOTALS_LINE")"
echo "totals --kernel=6.1: $(jqr "$T/k61.json" "$TOTALS_LINE")"

done_testing
