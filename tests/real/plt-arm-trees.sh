#!/bin/sh
# elfplt plt, arm-module model, on Debian's armhf (armmp) module trees:
# every module of Debian 13's 6.12 (fetch-modules.sh 6.12-trixie xz-d
# armhf), of Debian 12's 6.1 (fetch-modules.sh 6.1 "" armhf, plain .ko) and
# of unstable's 7.2 (fetch-modules.sh 7.2 xz-d armhf).  For each module the reserved PLT slots (core, init),
# the minimum (core, init), the .plt and .init.plt bytes, the entries the
# loader sorts and those that need a slot must equal those of
# tests/real/plt-arm-count.py: an independent counter written from Linux
# arch/arm/kernel/module-plts.c and lib/sort.c over readelf -SW -rW -sW and
# -x text (it decodes the addends from the instruction bytes itself and runs
# its own copy of the kernel's heapsort: one pop for 6.1, the double pop of
# v6.9 for 6.12 and 7.2).  It calls nothing of elfplt.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
counter=$top_srcdir/tests/real/plt-arm-count.py
total_start=$(date +%s)

# tree SERIES FORM SORT STEP: compare every STEPth module of SERIES.
tree() {
	start=$(date +%s)
	dir=$(modules_dir "$1" "$2" armhf) || exit $?
	find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/tree"
	[ "$(wc -l <"$T/tree")" -gt 1000 ] || fail "$1: only $(wc -l <"$T/tree") modules in $dir"
	awk -v s="$4" 'NR % s == 1 || s == 1' "$T/tree" >"$T/list"
	n=$(wc -l <"$T/list")
	j=$T/plt.json
	# elfplt reads the whole tree; the checks look at the sample.
	"$ELFPLT" plt --json "$dir" >"$T/all.json" || fail "$1: elfplt plt exited $?"
	"$JQ" --rawfile list "$T/list" '($list | split("\n") | map(select(. != "")) |
		map({(.): true}) | add) as $want | .files |= map(select($want[.path]))' \
		"$T/all.json" >"$j" || fail "$1: jq could not take the sample"
	check "$1: every module analysed by arm-module" "$n" \
		"$(jqr "$j" '[.files[] | select(.model == "arm-module")] | length')"
	check "$1: every module has mod_unload (the counter's init rule)" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.mod_unload | not)] | length')"
	check "$1: no module rejected" 0 "$(jqr "$j" '[.files[] | select(.rejects)] | length')"
	check "$1: sort modelled" "$3" "$(jqr "$j" '[.files[].rules.sort] | unique | join(" ")')"
	check "$1: causes sum to reserved - minimum in every module" 0 "$(jqr "$j" '[.files[] |
		select(([.detail.over_allocation[]] | add) != .slots.reserved - .slots.minimum)] |
		length')"
	jqp "$j" '.files[] | "\(.path)\t\(plt("core").reserved) \(plt("init").reserved) \(
		plt("core").minimum) \(plt("init").minimum) \(sized(".plt").reserved) \(
		sized(".init.plt").reserved) \(.sort.loader) \(.sort.needed)"' |
		LC_ALL=C sort >"$T/elfplt"
	mkdir -p "$T/out"
	rm -f "$T/out"/*
	sort=single
	[ "$3" = heapsort ] || sort=double
	# shellcheck disable=SC2016
	tr '\n' '\0' <"$T/list" | xargs -0 -P2 -n 100 sh -c '
		out=$(mktemp "$0/out/batch.XXXXXX")
		c=$1 s=$2
		shift 2
		python3 "$c" "$READELF" "$s" "$@" >"$out"
	' "$T" "$counter" "$sort" || fail "$1: readelf or the counter failed"
	LC_ALL=C sort "$T"/out/batch.* >"$T/want"
	check "$1: modules the counter read" "$n" "$(wc -l <"$T/want")"
	if cmp -s "$T/elfplt" "$T/want"; then
		echo "ok: $1: all $n modules: core, init, minima, bytes, sorted, needed" \
			"agree with the counter"
	else
		diff "$T/elfplt" "$T/want" | grep '^[<>]' >"$T/diff"
		fail "$1: $(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
		head -n 20 "$T/diff"
	fi
	jqr "$T/all.json" '.totals.by_model[] | select(.model == "arm-module") |
		"totals '"$1"': \(.files) modules, \(.relocations) relocations; PLT slots core \(
		[.slots.by_kind[] | select(.group == "core")][0] | "\(.reserved) (minimum \(.minimum))"
		), init \([.slots.by_kind[] | select(.group == "init")][0] |
		"\(.reserved) (minimum \(.minimum))"); bytes \(.bytes.reserved) (minimum \(
		.bytes.minimum)); entries sorted \(.sort.loader), needing a slot \(.sort.needed)",
		"over the minimum '"$1"': \(.slots.reserved - .slots.minimum) slots: \(
		.detail.over_allocation | to_entries | map("\(.key) \(.value)") | join(", "))"'
	echo "five modules with the most slots ($1, whole tree):"
	jqr "$T/all.json" '[.files[] | {p: (.path | sub(".*/"; "")), r: .slots.reserved, m: .slots.minimum}]
		| sort_by(-.r, .p) | .[:5][] | "  \(.p): \(.r) slots (minimum \(.m))"'
	echo "wall time $1 ($n modules): $(($(date +%s) - start)) s"
}

tree 6.12-trixie xz-d heapsort-double-pop 1
tree 6.1 "" heapsort 1
tree 7.2 xz-d heapsort-double-pop 1
echo "wall time, all trees: $(($(date +%s) - total_start)) s"
done_testing
