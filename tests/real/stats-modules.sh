#!/bin/sh
# elfplt stats on every module of Debian 12's arm64 kernel image package,
# cross-checked against binutils readelf -rW: for each module, the same total
# and the same count for each relocation type (compared by psABI name, e.g.
# R_AARCH64_CALL26).  Skips (77) where fetch-modules.sh cannot reach apt.
. "$top_srcdir/tests/lib.sh"
need JQ READELF

rc=0
dir=$(sh "$top_srcdir/tests/real/fetch-modules.sh") || rc=$?
[ "$rc" -eq 77 ] && skip "no arm64 modules: apt cannot reach the archive (see above)"
[ "$rc" -eq 0 ] || { echo "FAIL: fetch-modules.sh exited $rc"; exit 1; }
echo "modules in $dir"

find "$dir" -name '*.ko' -type f | LC_ALL=C sort >"$T/modules"
nmod=$(wc -l <"$T/modules")
[ "$nmod" -gt 1000 ] || { echo "FAIL: only $nmod modules in $dir"; exit 1; }

rc=0
"$ELFPLT" stats --json "$dir" >"$T/stats.json" 2>"$T/stats.err" || rc=$?
check "elfplt stats exit status" 0 "$rc"
check "elfplt stats stderr" "" "$(cat "$T/stats.err")"
check "modules analysed" "$nmod 0" \
	"$(jqr "$T/stats.json" '.totals | "\(.files) \(.files_failed)"')"
check "every module is a kernel module" 0 \
	"$(jqr "$T/stats.json" '[.files[] | select(.kernel_module != true)] | length')"

# PATH<TAB>TYPE<TAB>COUNT lines, and PATH<TAB>TOTAL<TAB>N, from each side.
"$JQ" -r '.files[] | .path as $p |
	(.relocations.by_type[] | "\($p)\t\(.name // "unknown-\(.value)")\t\(.count)"),
	"\($p)\tTOTAL\t\(.relocations.total)"' "$T/stats.json" | LC_ALL=C sort >"$T/elfplt.tsv"

# readelf, two at a time, batches of 100 modules, each batch into its own
# file so the outputs do not interleave.  readelf prints "File: PATH" before
# each file only when given more than one; a relocation line starts with
# r_offset and r_info in hex, and its third field is the type's name.
mkdir "$T/re"
# shellcheck disable=SC2016
tr '\n' '\0' <"$T/modules" | xargs -0 -P2 -n 100 sh -c '
	out=$(mktemp "$0/batch.XXXXXX")
	{ [ $# -gt 1 ] || echo "File: $1"; "$READELF" -rW "$@"; } | awk -v OFS="\t" "
		/^File: / { file = substr(\$0, 7); total[file] += 0; next }
		/^Relocation section / { inrel = 1; next }
		/^$/ { inrel = 0; next }
		inrel && \$1 ~ /^[0-9a-f]+\$/ && \$2 ~ /^[0-9a-f]+\$/ {
			n[file OFS \$3]++; total[file]++
		}
		END {
			for (k in n) print k, n[k]
			for (f in total) print f, \"TOTAL\", total[f]
		}" >"$out"
' "$T/re" || { echo "FAIL: readelf -rW failed"; exit 1; }
LC_ALL=C sort "$T"/re/batch.* >"$T/readelf.tsv"

check "modules readelf read" "$nmod" "$(grep -c '	TOTAL	' "$T/readelf.tsv")"
if cmp -s "$T/elfplt.tsv" "$T/readelf.tsv"; then
	echo "ok: all $nmod modules: totals and per-type counts agree with readelf -rW" \
		"($(wc -l <"$T/elfplt.tsv") lines)"
else
	# "<" elfplt only, ">" readelf only: the modules that differ, by name.
	diff "$T/elfplt.tsv" "$T/readelf.tsv" | grep '^[<>]' >"$T/diff"
	cut -f1 "$T/diff" | sed 's/^[<>] //' | sort -u >"$T/bad"
	fail "$(wc -l <"$T/bad") of $nmod modules differ from readelf -rW (< elfplt, > readelf):"
	head -n 40 "$T/diff"
fi
echo "relocations in all: $(jqr "$T/stats.json" .totals.relocations)"

done_testing
