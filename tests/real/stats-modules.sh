#!/bin/sh
# elfplt stats on every module of Debian 12's arm64 kernel image package,
# cross-checked against binutils readelf -rW: for each module, the same total
# and the same count for each relocation type (compared by psABI name, e.g.
# R_AARCH64_CALL26).  Skips (77) where fetch-modules.sh cannot reach apt.
. "$top_srcdir/tests/lib.sh"
need JQ READELF

. "$top_srcdir/tests/real/real-lib.sh"
dir=$(modules_dir 6.1) || exit $?
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
elfplt_counts "$T/stats.json" >"$T/elfplt.tsv"
readelf_counts "$T/modules" >"$T/readelf.tsv" || exit 1
same_counts "modules" "$nmod" "$T/elfplt.tsv" "$T/readelf.tsv"
echo "relocations in all: $(jqr "$T/stats.json" .totals.relocations)"

done_testing
