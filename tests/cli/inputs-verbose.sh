#!/bin/sh
# --verbose names each input passed over, and why (issue 18): in a tree, a
# file that is not ELF, and in an archive a member that is not ELF and a
# member that is an archive itself (members of members are not expanded).
# stderr gets "elfplt: PATH: skipped: REASON" for each, in input order,
# whatever -j; every command's JSON document has them in a top-level
# skipped[] of {path, reason}, with or without --verbose; without it stderr
# says nothing of them.  The expected list is the tree built here, walked in
# sorted order, each archive's members in their ar order (ar t).
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
"$YAML2OBJ" --docnum=1 "$FIXTURES/stats-bad.yaml" -o "$T/good.o" || exit 1
command -v ar >/dev/null || skip "ar not found (binutils)"
d=$T/tree
mkdir "$d"
cp "$T/good.o" "$d/a.o"
echo 'not ELF' >"$d/notes.txt"
(cd "$T" && ar rc "$d/inner.a" good.o) || exit 1
cp "$d/notes.txt" "$T/readme"
(cd "$T" && cp "$d/inner.a" nested.a && ar rc "$d/outer.a" nested.a readme good.o) || exit 1
check "outer.a members per ar t" "nested.a readme good.o" "$(ar t "$d/outer.a" | tr '\n' ' ' | sed 's/ $//')"

want="$d/notes.txt|not an ELF file
$d/outer.a(nested.a)|an ar archive inside an archive (not expanded)
$d/outer.a(readme)|not an ELF file"
lines=$(printf '%s\n' "$want" | sed 's/^\([^|]*\)|/elfplt: \1: skipped: /')

for j in 1 2; do
	rc=0
	"$ELFPLT" stats -j $j --verbose "$d" >"$T/out" 2>"$T/err" || rc=$?
	check "stats -j $j --verbose: exit" 0 "$rc"
	check "stats -j $j --verbose: stderr" "$lines" "$(cat "$T/err")"
	check "stats -j $j: still counts 3 files" 1 "$(grep -c '^total: 3 files' "$T/out")"
done
"$ELFPLT" stats "$d" >"$T/out" 2>"$T/err"
check "stats without --verbose: stderr" "" "$(cat "$T/err")"
check "stats without --verbose: the count" "skipped: 3 files (not ELF)" \
	"$(grep '^skipped:' "$T/out")"

for cmd in stats plt load; do
	set --
	[ $cmd = load ] && set -- --repeat 1
	rc=0
	"$ELFPLT" $cmd --json "$@" "$d" >"$T/out.json" 2>"$T/err" || rc=$?
	check "$cmd --json: exit" 0 "$rc"
	check "$cmd --json: skipped[]" "$want" \
		"$(jqr "$T/out.json" '.skipped[] | "\(.path)|\(.reason)"')"
done
check "stats --json: totals.skipped" 3 \
	"$("$ELFPLT" stats --json "$d" 2>/dev/null | "$JQ" -r '.totals.skipped')"
check "stats --json, nothing skipped: skipped[]" "[]" \
	"$("$ELFPLT" stats --json "$d/a.o" 2>/dev/null | "$JQ" -c '.skipped')"

done_testing
