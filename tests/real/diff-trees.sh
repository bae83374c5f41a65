#!/bin/sh
# elfplt diff on Debian 12's arm64 module trees, 6.1 (plain .ko) against
# the 6.12 backport (.ko.xz): per-file and total deltas of relocations and
# PLT slots must equal those tests/real/diff-trees.py computes from the two
# sides' own stats --json and plt --json reports, with the files paired as
# elfplt-diff(1) says (so every 6.12 .ko.xz meets its 6.1 .ko); gates trip
# exactly where those numbers say.  Saved reports are diffed whole; the
# live path (diff's own stats runs) over kernel/fs of each tree, to keep
# the test's runs few.
# tests/real/fetch-modules.sh fetches the trees; skips (77) where apt
# cannot reach the archive.
. "$top_srcdir/tests/lib.sh"
need JQ
. "$top_srcdir/tests/real/real-lib.sh"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

old=$(modules_dir 6.1) || exit $?
new=$(modules_dir 6.12) || exit $?
echo "trees: $old against $new"
for s in old new; do
	eval "d=\$$s"
	"$ELFPLT" stats -q --json -o "$T/$s-stats.json" "$d" || fail "stats $s"
	"$ELFPLT" plt -q --json -o "$T/$s-plt.json" "$d" || fail "plt $s"
done
D="$PY $top_srcdir/tests/real/diff-trees.py"

# Live: kernel/fs of the trees themselves, relocations (and one type) from
# diff's own stats runs.
M="relocations relocations.type.R_AARCH64_CALL26"
rc=0
"$ELFPLT" diff -q --json --metric=relocations,relocations.type.R_AARCH64_CALL26 \
	"$old/kernel/fs" "$new/kernel/fs" >"$T/live.json" || rc=$?
check "live trees: exit status" 0 "$rc"
# shellcheck disable=SC2086
$D expect "$T/old-stats.json" "$T/new-stats.json" "$old/kernel/fs" "$new/kernel/fs" $M \
	>"$T/live.want"
# shellcheck disable=SC2086
$D got "$T/live.json" $M >"$T/live.got"
check "live trees: lines compared" "$(wc -l <"$T/live.want")" "$(wc -l <"$T/live.got")"
cmp -s "$T/live.want" "$T/live.got" && echo "ok: live trees: every file's and the total deltas" ||
	fail "live trees differ: $(diff "$T/live.want" "$T/live.got" | head -20)"
check "live trees: most files paired" yes \
	"$(jqr "$T/live.json" 'if .totals.files.paired > 100 then "yes" else .totals.files end')"

# Saved stats reports, whole trees: relocations.
M="relocations"
"$ELFPLT" diff --json --metric=relocations "$T/old-stats.json" "$T/new-stats.json" \
	>"$T/stats.json" || fail "saved stats reports: diff"
$D expect "$T/old-stats.json" "$T/new-stats.json" - - $M >"$T/stats.want"
$D got "$T/stats.json" $M >"$T/stats.got"
cmp -s "$T/stats.want" "$T/stats.got" && echo "ok: saved stats: every file's and the total deltas" ||
	fail "saved stats differ: $(diff "$T/stats.want" "$T/stats.got" | head -20)"
check "saved stats: most files paired" yes \
	"$(jqr "$T/stats.json" 'if .totals.files.paired > 3000 then "yes" else .totals.files end')"
grep '^(total)' "$T/stats.want"

# Saved plt reports: slots, reserved and minimum (no ELF file read).
M="slots.reserved slots.minimum"
rc=0
"$ELFPLT" diff --json --metric=slots.reserved,slots.minimum "$T/old-plt.json" \
	"$T/new-plt.json" >"$T/plt.json" || rc=$?
check "saved plt reports: exit status" 0 "$rc"
# shellcheck disable=SC2086
$D expect "$T/old-plt.json" "$T/new-plt.json" - - $M >"$T/plt.want"
# shellcheck disable=SC2086
$D got "$T/plt.json" $M >"$T/plt.got"
cmp -s "$T/plt.want" "$T/plt.got" && echo "ok: saved plt: every file's and the total deltas" ||
	fail "saved plt differs: $(diff "$T/plt.want" "$T/plt.got" | head -20)"
grep '^(total)' "$T/plt.want"

# Gates, where the numbers say: total delta D passes +D and trips +(D-1)
# when D > 0; the largest per-file delta M passes --per-file +M and trips
# +(M-1) on exactly the files at M.
for rep in stats:relocations plt:slots.reserved; do
	kind=${rep%%:*}
	m=${rep#*:}
	"$ELFPLT" diff --json --metric="$m" "$T/old-$kind.json" "$T/new-$kind.json" \
		>"$T/g.json" || fail "$m: diff"
	set -- $($D gate "$T/g.json" "$m")
	total=$1 top=$2 attop=$3
	echo "$m: total delta $total, largest per-file delta $top ($attop files)"
	if [ "$total" -gt 0 ]; then
		rc=0
		"$ELFPLT" diff --fail-above "$m=+$total" "$T/old-$kind.json" "$T/new-$kind.json" \
			>/dev/null 2>"$T/err" || rc=$?
		check "$m +$total: passes" 0 "$rc"
		rc=0
		"$ELFPLT" diff --fail-above "$m=+$((total - 1))" "$T/old-$kind.json" \
			"$T/new-$kind.json" >/dev/null 2>"$T/err" || rc=$?
		check "$m +$((total - 1)): trips" 3 "$rc"
		check "$m: one line" 1 "$(grep -c '^elfplt: gate tripped: ' "$T/err")"
	fi
	if [ "$top" -gt 0 ]; then
		rc=0
		"$ELFPLT" diff --per-file --fail-above "$m=+$top" "$T/old-$kind.json" \
			"$T/new-$kind.json" >/dev/null 2>"$T/err" || rc=$?
		check "$m per file +$top: passes" 0 "$rc"
		rc=0
		"$ELFPLT" diff --per-file --fail-above "$m=+$((top - 1))" "$T/old-$kind.json" \
			"$T/new-$kind.json" >/dev/null 2>"$T/err" || rc=$?
		check "$m per file +$((top - 1)): trips" 3 "$rc"
		check "$m per file: a line per file at $top" "$attop" \
			"$(grep -c '^elfplt: gate tripped: ' "$T/err")"
	fi
done
done_testing
