#!/bin/sh
# elfplt plt on every module of two whole arm64 trees of today's kernels:
# Debian 13's 6.12 (tests/real/fetch-modules.sh 6.12-trixie) and unstable's
# 7.2 (fetch-modules.sh 7.2), decompressed by xz -d (FORM xz-d).  For each
# module, the reserved PLT slots (core, init), the minimum (core, init) and
# the entries the loader sorts must equal those of an independent counter:
# the python3 program below, written from Linux arch/arm64/kernel/
# module-plts.c as it is in 6.12.117 and 7.2.13 (the file is the same in
# both), over `readelf -SW -rW -sW` text (tests/real/plt-arm64-count.py,
# shared with plt-modules.sh's check of 6.1).  It calls nothing of elfplt.
#
# What it follows, from module_frob_arch_sections() and count_plts():
# - only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR count;
#   the group is init when the target's name starts with ".init" (Debian
#   builds with CONFIG_MODULE_UNLOAD, checked below from the vermagic, so
#   module_init_layout_section() is module_init_section());
# - a CALL26 (283) / JUMP26 (282) needs a slot when its symbol's st_shndx is
#   not the target's index (no CONFIG_RANDOMIZE_BASE test since v6.7);
# - partition_branch_plt_relas(): the same two-index loop, literally, and
#   sort() of the nents in front by (type, symbol, addend) (cmp_rela());
# - count_plts() walks every entry of the permuted array: a slot-needing
#   branch counts unless its addend is 0 and it equals the entry before it
#   (duplicate_rel()); an ADR_PREL_PG_HI21[_NC] (275/276) whose r_offset has
#   bits [11:3] all set needs a veneer (2 << ffz(r_offset | 7) > SZ_4K);
#   then DIV_ROUND_UP(ret, 4096 / 12) slack (CONFIG_ARM64_ERRATUM_843419, on
#   in Debian, and elfplt's default);
# - the minimum: distinct (type, symbol, addend) among the slot-needing
#   branches, plus the veneers, plus the slack of that.
# The difference between reserved and minimum per module is split by
# cause: non-zero addends never merged (a repeat of a branch with a non-zero
# addend, sorted or left out by the partition), the partition leftover
# (every relocation of the section needs a slot, the last stays out of the
# sorted range and repeats a sorted entry), and the slack computed on the
# larger count; elfplt's detail.over_allocation must say the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }


# tree SERIES: compare every module of SERIES, print its totals.
tree() {
	start=$(date +%s)
	dir=$(modules_dir "$1" xz-d) || exit $?
	find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
	n=$(wc -l <"$T/list")
	[ "$n" -gt 1000 ] || fail "$1: only $n modules in $dir"
	j=$T/plt.json
	"$ELFPLT" plt --json "$dir" >"$j" || fail "$1: elfplt plt exited $?"
	check "$1: every module analysed" "$n" "$(jqr "$j" '.files | length')"
	check "$1: every module has mod_unload (the counter's init rule)" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.mod_unload | not)] | length')"
	check "$1: no module rejected" 0 "$(jqr "$j" '[.files[] | select(.rejects)] | length')"
	check "$1: no module beyond the checked range" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.beyond_checked)] | length')"
	jqp "$j" '.files[] | "\(.path)\t\(plt("core").reserved) \(plt("init").reserved) \(
		plt("core").minimum) \(plt("init").minimum) \(.sort.loader)\t\(
		.detail.over_allocation | "\(.nonzero_addend) \(.partition_leftover) \(
		.erratum_slack)")"' | LC_ALL=C sort >"$T/elfplt"
	# readelf two at a time on batches of 100; one counter per batch.
	readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" \
		"$top_srcdir/tests/real/plt-arm64-count.py" ||
		fail "$1: readelf or the counter failed"
	cut -f1,2,3 "$T/counter" >"$T/want"
	check "$1: modules the counter read" "$n" "$(wc -l <"$T/want")"
	if cmp -s "$T/elfplt" "$T/want"; then
		echo "ok: $1: all $n modules: core, init, core minimum, init minimum, sorted," \
			"over-allocation by cause agree with the counter"
	else
		diff "$T/elfplt" "$T/want" | grep '^[<>]' >"$T/diff"
		fail "$1: $(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
		head -n 20 "$T/diff"
	fi
	awk -F '\t' -v s="$1" '{
		split($2, c, " "); split($3, w, " ")
		res += c[1] + c[2]; min += c[3] + c[4]; sorted += c[5]; files++
		over = c[1] + c[2] - c[3] - c[4]
		if (over > 0) nover++
		if (over != w[1] + w[2] + w[3]) bad++
		if (w[1]) na++
		if (w[2]) nl++
		if (w[3]) ns++
		xa += w[1]; xl += w[2]; xs += w[3]
	} END {
		printf "totals %s: %d modules, %d slots reserved, minimum %d, %d entries sorted\n",
			s, files, res, min, sorted
		printf "over the minimum %s: %d modules (%d slots): non-zero addends %d modules (%d),",
			s, nover, res - min, na, xa
		printf " partition leftover %d (%d), erratum spare slack %d (%d)\n", nl, xl, ns, xs
		if (bad) printf "FAIL: %s: %d modules whose excess is not the sum of its causes\n", s, bad
	}' "$T/counter" | tee "$T/summary"
	grep -q '^FAIL' "$T/summary" && nfail=$((nfail + 1))
	echo "wall time $1: $(($(date +%s) - start)) s"
}

tree 6.12-trixie
tree 7.2
done_testing
