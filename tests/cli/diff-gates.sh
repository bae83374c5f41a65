#!/bin/sh
# elfplt diff --fail-above: just under, at and just over each limit, for
# the totals and --per-file; +N% when the old value is 0; exit statuses 1
# (an input failed, a mistyped or empty PATH), 2 (usage), 3 (a gate
# tripped).  Values from tests/cli/diff-lib.sh's hand derivation:
# relocations 10 -> 18 (+8, +80%), slots.reserved 10 -> 16 (+6, +60%);
# per file net.o and lib.a(net.o) 3 -> 7 relocations (+4, +133.3%),
# drv/renamed.o added with 2, relocations.type.R_X86_64_64 0 -> 2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cli/diff-lib.sh"
diff_trees
# The gates read the stats and plt reports, saved once: each case is quick.
for s in old new; do
	"$ELFPLT" stats --json -o "$T/$s-stats.json" "$T/$s" || fail "stats $s"
	"$ELFPLT" plt --json -o "$T/$s-plt.json" "$T/$s" || fail "plt $s"
done
O="$T/old-stats.json"
N="$T/new-stats.json"

# gate EXPECTED_STATUS DESCRIPTION ARGS...: run diff on the stats reports.
gate() {
	want=$1
	what=$2
	shift 2
	run_diff "$@"
	check "$what: exit status" "$want" "$rc"
}

gate 0 "relocations +8 (at the limit)" --fail-above relocations=+8 "$O" "$N"
check "at the limit: nothing on stderr" "" "$(cat "$T/err")"
gate 0 "relocations +9 (under)" --fail-above relocations=+9 "$O" "$N"
gate 3 "relocations +7 (over)" --fail-above relocations=+7 "$O" "$N"
check "over: the line" "elfplt: gate tripped: relocations 10 -> 18, limit +7 (at most 17)" \
	"$(cat "$T/err")"
gate 0 "relocations +80% (at)" --fail-above relocations=+80% "$O" "$N"
gate 0 "relocations 80% (no +)" --fail-above relocations=80% "$O" "$N"
gate 3 "relocations +79.999% (just over)" --fail-above relocations=+79.999% "$O" "$N"
check "just over: the line" \
	"elfplt: gate tripped: relocations 10 -> 18, limit +79.999% (at most 17)" "$(cat "$T/err")"
gate 0 "relocations +80.001% (just under)" --fail-above relocations=+80.001% "$O" "$N"
# Two gates, one trips: one line, exit 3.
gate 3 "two gates" --fail-above relocations=+100% --fail-above size.text=+63 "$O" "$N"
check "two gates: one line" "elfplt: gate tripped: size.text 240 -> 304, limit +63 (at most 303)" \
	"$(cat "$T/err")"

# Slots, from the plt reports.
gate 0 "slots +60% (at)" --fail-above slots.reserved=+60% "$T/old-plt.json" "$T/new-plt.json"
gate 3 "slots +5 (over)" --fail-above slots.reserved=+5 "$T/old-plt.json" "$T/new-plt.json"
check "slots over: the line" "elfplt: gate tripped: slots.reserved 10 -> 16, limit +5 (at most 15)" \
	"$(cat "$T/err")"
# A gate on slots with stats reports: they have none (an input problem).
gate 1 "slots gate without plt reports" --fail-above slots.reserved=+5 "$O" "$N"

# Per file: net.o and lib.a(net.o) +4, drv/renamed.o +2 (added: from 0).
gate 0 "per file +4 (at)" --per-file --fail-above relocations=+4 "$O" "$N"
gate 3 "per file +3 (over)" --per-file --fail-above relocations=+3 "$O" "$N"
check "per file over: a line per file, largest change first" \
	"elfplt: gate tripped: lib.a(net.o): relocations 3 -> 7, limit +3 (at most 6)
elfplt: gate tripped: net.o: relocations 3 -> 7, limit +3 (at most 6)" "$(cat "$T/err")"
# 4 / 3 = 133.333...%: +133.334% holds, +133.333% does not.
gate 3 "per file: an added file against a percentage" --per-file \
	--fail-above relocations=+133.334% "$O" "$N"
check "+N% from 0: any growth trips" \
	"elfplt: gate tripped: drv/renamed.o: relocations 0 -> 2, limit +133.334% (at most 0)" \
	"$(cat "$T/err")"
gate 3 "per file +133.333%" --per-file --fail-above relocations=+133.333% "$O" "$N"
check "per file +133.333%: three lines" 3 "$(wc -l <"$T/err")"
# +N% when the old total is 0: R_X86_64_64 0 -> 2 trips any percentage;
# an absolute gate is the one for a metric that may start from nothing.
gate 3 "total +1000% from 0" --fail-above relocations.type.R_X86_64_64=+1000% "$O" "$N"
check "total from 0: the line" \
	"elfplt: gate tripped: relocations.type.R_X86_64_64 0 -> 2, limit +1000% (at most 0)" \
	"$(cat "$T/err")"
gate 0 "total +2 from 0" --fail-above relocations.type.R_X86_64_64=+2 "$O" "$N"
# A metric that stayed at 0 passes +0%.
# size.bss: old 8 + 8 (net.o twice) = 16, new 24 + 24 = 48: +200%.
gate 0 "size.bss +200% under +500%" --fail-above size.bss=+500% "$O" "$N"
gate 0 "size.bss +200% at +200%" --fail-above size.bss=+200% "$O" "$N"
gate 3 "size.bss +200% over +199.999%" --fail-above size.bss=+199.999% "$O" "$N"
gate 0 "unchanged zero +0%" --fail-above relr.savings_bytes=+0% "$O" "$N"

# The tree runs: the same gate, exit 3; a JSON report says which.
gate 3 "trees: over" --json --fail-above relocations=+7 "$T/old" "$T/new"
check "trees: JSON verdict and gate" "fail 1 17" \
	"$(jqr "$T/out" '"\(.verdict) \(.gates[0].tripped) \(.gates[0].results[0].allowed)"')"

# Exit status 1: a mistyped PATH, an empty tree; a gate cannot pass over them.
gate 1 "mistyped NEW" --fail-above relocations=+100 "$T/old" "$T/nwe"
check "mistyped NEW: one line naming it" "elfplt: $T/nwe: No such file or directory" \
	"$(cat "$T/err")"
mkdir "$T/empty"
gate 1 "empty NEW" --fail-above relocations=+100 "$T/old" "$T/empty"
check "empty NEW: one line naming it" \
	"elfplt: $T/empty: no ELF files found (--allow-empty to accept that)" "$(cat "$T/err")"
# A file that fails on one side is "failed", not "removed": out of the totals
# and the gates (old net.o's 3 relocations are not a drop to 0), verdict
# "error", exit status 1 even though the gate holds.
cp -r "$T/new" "$T/broken"
head -c 40 "$T/d2.o" >"$T/broken/net.o"
gate 1 "a file failed on one side" --json --fail-above relocations=+100 "$T/old" "$T/broken"
# (removed 1: drv/old.o, renamed in new, as in diff-lib.sh)
check "failed: status, verdict, totals" "failed error 1 1" \
	"$(jq -r '[(.files[] | select(.path == "net.o") | .status), .verdict,
		.totals.files.failed, .totals.files.removed] | join(" ")' "$T/out")"
# Totals without net.o on either side: old 10 - 3 = 7; new 18 - 7 = 11.
check "failed: totals without it" "7 11" \
	"$(jq -r '.totals.metrics.relocations | "\(.before) \(.after)"' "$T/out")"
# A gate on a name neither side has: a warning naming it, and it passes.
gate 0 "misspelt type" --fail-above relocations.type.R_X86_64_PLT33=+0 "$O" "$N"
check "misspelt type: the warning" \
	"elfplt: warning: --fail-above relocations.type.R_X86_64_PLT33: neither $O nor $N has this metric (misspelt?); it compares 0 with 0" \
	"$(cat "$T/err")"
# Hostile saved reports: a figure no file has (beyond 2^53: the sums would
# overflow) is refused naming the entry; a file entry without the optional
# archive and member keys is read.
echo '{"schema":"elfplt-stats/2","files":[{"path":"a.ko","relocations":{"total":9223372036854775807}}]}' >"$T/huge.json"
gate 1 "a figure beyond 2^53" "$T/huge.json" "$N"
check "a figure beyond 2^53: the line" \
	"elfplt: $T/huge.json: files[0] (a.ko): a figure beyond 2^53, which no file has" \
	"$(cat "$T/err")"
echo '{"schema":"elfplt-stats/2","files":[{"path":"a.ko","relocations":{"total":5}}]}' >"$T/min1.json"
echo '{"schema":"elfplt-stats/2","files":[{"path":"a.ko","relocations":{"total":7}}]}' >"$T/min2.json"
gate 0 "minimal reports" --json --metric=relocations "$T/min1.json" "$T/min2.json"
check "minimal reports: 5 -> 7" "5 7 2" \
	"$(jq -r '.totals.metrics.relocations | "\(.before) \(.after) \(.delta)"' "$T/out")"
# A path with control characters (ESC, a newline) reaches the text as '?'.
printf '{"schema":"elfplt-stats/2","files":[{"path":"a.ko","relocations":{"total":5}},{"path":"e\\u001b[31mvil\\n.ko","relocations":{"total":7}}]}\n' >"$T/esc.json"
gate 0 "control characters" --metric=relocations "$T/min1.json" "$T/esc.json"
check "control characters: cleaned in text" "e?[31mvil?.ko" \
	"$(sed -n 's/^\(e?[^ ]*\) .*/\1/p' "$T/out" | head -n 1)"
check "control characters: no ESC byte in the text" 0 "$(tr -cd '\033' <"$T/out" | wc -c)"
echo '{"schema": "elfplt-load/1", "files": []}' >"$T/load.json"
gate 1 "a load report" "$T/load.json" "$N"
# Exit status 2: usage.
gate 2 "one operand" "$O"
gate 2 "three operands" "$O" "$N" "$N"
gate 2 "no such metric" --fail-above relocs=+1 "$O" "$N"
gate 2 "--metric: no such metric" --metric=relocations,relocs "$O" "$N"
check "--metric: no such metric: the message" \
	"elfplt: --metric: 'relocs' is not a metric (relocations, relocations.type.NAME, size.text, slots.reserved, ...)" \
	"$(head -n 1 "$T/err")"
# A pattern that matches nothing of either side: an input problem.
gate 1 "--metric pattern matching nothing" --metric='dynamic.*' "$O" "$N"
gate 2 "limit not a number" --fail-above relocations=+x "$O" "$N"
gate 2 "limit with 4 decimals" --fail-above relocations=+1.2345% "$O" "$N"
gate 2 "--per-file without a gate" --per-file "$O" "$N"
gate 2 "bad --format" --format=csv "$O" "$N"
gate 2 "bad --top" --top 0 "$O" "$N"
done_testing
