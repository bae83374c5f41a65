#!/bin/sh
# The CI formats are well-formed by independent parsers: --format=openmetrics
# of diff, stats and plt through prometheus_client's OpenMetrics parser
# (Debian's python3-prometheus-client), with the values checked against
# tests/cli/diff-lib.sh's hand derivation; diff's --format=markdown through
# Python-Markdown (python3-markdown) with GitHub's table syntax.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cli/diff-lib.sh"
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import prometheus_client.openmetrics.parser, markdown' 2>/dev/null; then
		PY=$p
		break
	fi
done
[ -n "$PY" ] || skip "python3-prometheus-client or python3-markdown missing (./bootstrap --deps)"
diff_trees

# om FILE: "name{label=value,...} value" per sample, sorted, as the parser read them.
om() {
	"$PY" - "$1" <<'PYEOF'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
out = []
for fam in text_string_to_metric_families(text):
    for s in fam.samples:
        labels = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
        out.append("%s{%s} %g" % (s.name, labels, s.value))
print("\n".join(sorted(out)))
PYEOF
}

"$ELFPLT" diff --format=openmetrics --fail-above relocations=+7 "$T/old" "$T/new" \
	>"$T/diff.om" 2>/dev/null
check "diff openmetrics: ends with # EOF" "# EOF" "$(tail -n 1 "$T/diff.om")"
om "$T/diff.om" >"$T/diff.parsed" || fail "diff: the OpenMetrics parser refused it: $(cat "$T/diff.om")"
grep -qx 'elfplt_diff_before{metric=relocations} 10' "$T/diff.parsed" || fail "diff om: before"
grep -qx 'elfplt_diff_after{metric=relocations} 18' "$T/diff.parsed" || fail "diff om: after"
grep -qx 'elfplt_diff_delta{metric=slots.reserved} 6' "$T/diff.parsed" || fail "diff om: slots"
grep -qx 'elfplt_diff_files{status=added} 1' "$T/diff.parsed" || fail "diff om: added"
grep -qx 'elfplt_diff_gate_tripped{limit=+7,metric=relocations} 1' "$T/diff.parsed" ||
	fail "diff om: gate"
echo "ok: diff openmetrics parsed, $(wc -l <"$T/diff.parsed") samples"

"$ELFPLT" stats --format=openmetrics "$T/new" >"$T/stats.om" || fail "stats openmetrics"
om "$T/stats.om" >"$T/stats.parsed" || fail "stats: the parser refused it"
check "stats om: relocations" "elfplt_stats_relocations{} 18" \
	"$(grep '^elfplt_stats_relocations{' "$T/stats.parsed")"
check "stats om: PLT32 by machine" \
	"elfplt_stats_by_machine_by_type_count{machine=EM_X86_64,name=R_X86_64_PLT32} 12" \
	"$(grep 'R_X86_64_PLT32' "$T/stats.parsed")"
check "stats om: no per-file text" "" "$(grep -v '^#' "$T/stats.om" | grep -v '^elfplt_stats_')"

"$ELFPLT" plt --format=openmetrics "$T/new" >"$T/plt.om" || fail "plt openmetrics"
om "$T/plt.om" >"$T/plt.parsed" || fail "plt: the parser refused it"
check "plt om: slots" "elfplt_plt_slots_reserved{} 16" \
	"$(grep '^elfplt_plt_slots_reserved{' "$T/plt.parsed")"
# plt slots 4+1+2+4+1 = 12, got 2+2 = 4 (the module group of the object model).
check "plt om: by kind" "elfplt_plt_slots_by_kind_reserved{group=module,kind=got} 4
elfplt_plt_slots_by_kind_reserved{group=module,kind=plt} 12" \
	"$(grep '^elfplt_plt_slots_by_kind_reserved{' "$T/plt.parsed")"
rc=0
"$ELFPLT" load --format=openmetrics "$T/new" >/dev/null 2>&1 || rc=$?
check "load has no openmetrics: usage" 2 "$rc"

# Markdown: rendered by Python-Markdown with its tables extension (GitHub's
# table syntax): two tables, totals and files, with the counts of rows the
# trees give, and the verdict in <strong>.
"$ELFPLT" diff --format=markdown --fail-above relocations=+7 "$T/old" "$T/new" \
	>"$T/diff.md" 2>/dev/null
rc=$?
check "markdown: exit status" 3 "$rc"
"$PY" - "$T/diff.md" >"$T/diff.shape" <<'PYEOF' || fail "markdown: Python-Markdown failed"
import sys, html.parser, markdown
doc = markdown.markdown(open(sys.argv[1]).read(), extensions=["tables"])
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.out = []; self.cells = 0; self.text = ""; self.strong = False
    def handle_starttag(self, tag, a):
        if tag == "table": self.out.append("table")
        if tag == "tr": self.cells = 0
        if tag in ("td", "th"): self.cells += 1
        if tag == "strong": self.strong = True
    def handle_endtag(self, tag):
        if tag == "tr": self.out.append("row %d" % self.cells)
        if tag == "strong": self.strong = False
    def handle_data(self, d):
        if self.strong: self.out.append("strong " + d)
p = P(); p.feed(doc)
# one line per table: its rows' cell counts, run-length
lines, cur = [], None
for x in p.out:
    if x == "table": cur = []; lines.append(cur)
    elif x.startswith("row") and cur is not None: cur.append(x.split()[1])
    else: lines.append(x)
for l in lines:
    print(" ".join(l) if isinstance(l, list) else l)
PYEOF
# Totals: header + 9 default metrics, 5 cells; files: header + the rows of
# changed metrics of lib.a(net.o) and net.o (relocations, size.text,
# size.bss, slots.reserved, slots.minimum: 5 each), drv/old.o and
# drv/renamed.o (relocations, text, data, slots reserved and minimum: 5
# each): 21 rows of 7 cells.
check "markdown: rendered tables and verdict" \
	"$(
		echo "5 5 5 5 5 5 5 5 5 5"
		printf '7 %.0s' $(seq 21) | sed 's/ $//'
		echo
		echo "strong elfplt diff: FAIL"
	)" "$(cat "$T/diff.shape")"
check "markdown: the verdict line" \
	"**elfplt diff: FAIL**: relocations 10 → 18, limit +7 (at most 17); 2 changed, 1 added, 1 removed files" \
	"$(tail -n 1 "$T/diff.md")"
check "markdown: totals row" "| relocations | 10 | 18 | +8 | +80.0% |" \
	"$(grep '^| relocations |' "$T/diff.md")"
done_testing
