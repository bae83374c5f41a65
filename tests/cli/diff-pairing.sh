#!/bin/sh
# elfplt diff pairs files across two trees and reports per-file and total
# deltas derived by hand in tests/cli/diff-lib.sh: added, removed, renamed
# (removed + added), compressed on one side only, archive members, a model
# change between two single files, and saved reports diffed with the trees
# deleted (no ELF file read).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/cli/diff-lib.sh"
diff_trees

run_diff --json --metric='relocations,slots.reserved,size.text,relocations.type.*' \
	"$T/old" "$T/new"
check "trees: exit status" 0 "$rc"
cp "$T/out" "$T/trees.json"
f() { jqr "$T/trees.json" "$1"; }
check "schema" "elfplt-diff/1" "$(f .schema)"
check "file counts paired/added/removed/changed/unchanged" "4 1 1 2 2" \
	"$(f '.totals.files | "\(.paired) \(.added) \(.removed) \(.changed) \(.unchanged)"')"
check "net.o" "changed 3 7 4" \
	"$(f '.files[] | select(.path == "net.o") | "\(.status) \(.metrics.relocations | "\(.before) \(.after) \(.delta)")"')"
check "net.o slots" "3 6 3 100" \
	"$(f '.files[] | select(.path == "net.o") | .metrics["slots.reserved"] | "\(.before) \(.after) \(.delta) \(.percent)"')"
check "archive member lib.a(net.o)" "changed 3 7" \
	"$(f '.files[] | select(.path == "lib.a(net.o)") | "\(.status) \(.metrics.relocations.before) \(.metrics.relocations.after)"')"
check "archive member lib.a(fs.o)" "unchanged" \
	"$(f '.files[] | select(.path == "lib.a(fs.o)") | .status')"
check "fs.o against fs.o.xz" "unchanged $T/old/fs.o $T/new/fs.o.xz" \
	"$(f '.files[] | select(.path == "fs.o") | "\(.status) \(.old_path) \(.new_path)"')"
check "renamed: old name removed" "removed 2 null -2" \
	"$(f '.files[] | select(.path == "drv/old.o") | "\(.status) \(.metrics.relocations | "\(.before) \(.after) \(.delta)")"')"
check "renamed: new name added" "added null 2 2 null" \
	"$(f '.files[] | select(.path == "drv/renamed.o") | "\(.status) \(.metrics.relocations | "\(.before) \(.after) \(.delta) \(.percent)")"')"
check "total relocations" "10 18 8 80" \
	"$(f '.totals.metrics.relocations | "\(.before) \(.after) \(.delta) \(.percent)"')"
check "total slots" "10 16 6 60" \
	"$(f '.totals.metrics["slots.reserved"] | "\(.before) \(.after) \(.delta) \(.percent)"')"
check "total text" "240 304 64" \
	"$(f '.totals.metrics["size.text"] | "\(.before) \(.after) \(.delta)"')"
# PLT32: old 2+1+2+2+1 = 8, new 4+1+2+4+1 = 12; R_X86_64_64: 0 -> 2 (percent unknown).
check "by type PLT32" "8 12 4" \
	"$(f '.totals.metrics["relocations.type.R_X86_64_PLT32"] | "\(.before) \(.after) \(.delta)"')"
check "by type 64, from nothing" "0 2 null" \
	"$(f '.totals.metrics["relocations.type.R_X86_64_64"] | "\(.before) \(.after) \(.percent)"')"
# Largest change first: net.o and lib.a(net.o) (+4 relocations) tie; by path.
check "order" "lib.a(net.o) net.o drv/old.o drv/renamed.o" \
	"$(f '[.files[] | select(.status != "unchanged") | .path] | join(" ")')"

# Text: unchanged files hidden unless --all; --top limits the files shown.
run_diff --metric=relocations "$T/old" "$T/new"
check "text: rows of changed files" 4 "$(grep -c -E '^(lib|net|drv)' "$T/out")"
grep -q '^fs.o' "$T/out" && fail "text: unchanged fs.o shown without --all"
run_diff --metric=relocations --all "$T/old" "$T/new"
check "text --all: fs.o shown" 1 "$(grep -c '^fs.o ' "$T/out")"
run_diff --metric=relocations --top 1 "$T/old" "$T/new"
check "text --top 1: one file" "lib.a(net.o)" "$(grep -E '^(lib|net|drv)' "$T/out" | cut -d' ' -f1)"
grep -q '^3 more files not shown' "$T/out" || fail "text --top 1: no count of the rest"
grep -q '^relocations  *10  *18  *+8  *+80.0%$' "$T/out" || fail "text: totals row: $(cat "$T/out")"

# The documents validate against schema/elfplt-diff.schema.json (draft
# 2020-12), with gates too, where python3-jsonschema is installed.
run_diff --json --per-file --fail-above relocations=+3 --fail-above size.text=+50% \
	"$T/old" "$T/new"
cp "$T/out" "$T/gates.json"
for p in /usr/bin/python3 python3; do
	"$p" -c 'import jsonschema' 2>/dev/null || continue
	# The schema can refuse: a document without its verdict.
	"$JQ" 'del(.verdict)' "$T/gates.json" >"$T/bad.json"
	for d in trees gates bad; do
		"$p" -c '
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
' "$top_srcdir/schema/elfplt-diff.schema.json" "$T/$d.json" &&
			res=valid || res=invalid
		[ "$d" = bad ] && want=invalid || want=valid
		check "$d.json against elfplt-diff.schema.json" "$want" "$res"
	done
	break
done

# A model change: an arm64 module against an x86-64 object, one file each,
# paired whatever their names.  plt-arm64-basic.yaml's header: 12
# relocations (8 + 3 + 1), 10 slots (core 6, init 2, trampoline 2).
a64=$(fixture plt-arm64-basic)
run_diff --json --metric=relocations,slots.reserved,slots.reserved.trampoline "$a64" "$T/d1.o"
check "model change: exit status" 0 "$rc"
check "model change" "1 -9 -7 -2" "$(jqr "$T/out" '"\(.totals.files.paired) \(.totals.metrics.relocations.delta) \(.totals.metrics["slots.reserved"].delta) \(.totals.metrics["slots.reserved.trampoline"].delta)"')"

# Relocation section kinds, dynamic relocations and RELR savings: the x86-64
# net.o (doc 1: 3 RELA, not linked: no dynamic relocations) against the
# linked AArch64 stats-relr.yaml, whose counts tests/cli/stats-fixtures.sh
# derives: RELA .rela.dyn 8 + .rela.plt 2 = 10, RELR 6; dynamic relative 11
# (5 RELA + 6 RELR), jump_slot 2; RELR would save 72 bytes.
relr=$(fixture stats-relr)
run_diff --json --metric='relocations.section.*,dynamic.relative,dynamic.jump_slot,relr.savings_bytes' \
	"$T/d1.o" "$relr"
check "kinds: exit status" 0 "$rc"
check "kinds: deltas" "dynamic.jump_slot 2 dynamic.relative 11 relocations.section.RELA 7 relocations.section.RELR 6 relr.savings_bytes 72" \
	"$(jqr "$T/out" '[.totals.metrics | to_entries[] | "\(.key) \(.value.delta)"] | sort | join(" ")')"

# Saved reports: the same deltas with the trees gone.
for s in old new; do
	"$ELFPLT" stats --json -o "$T/$s-stats.json" "$T/$s" || fail "stats $s"
	"$ELFPLT" plt --json -o "$T/$s-plt.json" "$T/$s" || fail "plt $s"
done
mv "$T/old" "$T/old.gone"
mv "$T/new" "$T/new.gone"
run_diff --json --metric=relocations "$T/old-stats.json" "$T/new-stats.json"
check "saved stats: exit status" 0 "$rc"
check "saved stats: total" "10 18" "$(jqr "$T/out" '.totals.metrics.relocations | "\(.before) \(.after)"')"
check "saved stats: per file as from the trees" \
	"$(jqr "$T/trees.json" '[.files[] | "\(.path) \(.status) \(.metrics.relocations.delta)"] | sort | join(",")')" \
	"$(jqr "$T/out" '[.files[] | "\(.path) \(.status) \(.metrics.relocations.delta)"] | sort | join(",")')"
run_diff --json --metric=slots.reserved "$T/old-plt.json" "$T/new-plt.json"
check "saved plt: total slots" "10 16" "$(jqr "$T/out" '.totals.metrics["slots.reserved"] | "\(.before) \(.after)"')"
check "saved plt: source" "report report" "$(jqr "$T/out" '"\(.old.source) \(.new.source)"')"
# A stats report against a plt report has nothing in common.
run_diff "$T/old-stats.json" "$T/new-plt.json"
check "stats against plt: exit status" 1 "$rc"
done_testing
