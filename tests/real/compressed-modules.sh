#!/bin/sh
# Compressed modules as distributions ship them give the same results as the
# same modules decompressed by the independent tools:
#  - every module of Debian 12's linux-image-6.12.*-arm64-unsigned, shipped
#    as .ko.xz, against the tree's copy decompressed by xz -d;
#  - 300 of the 6.1 package's plain .ko, recompressed by the zstd tool (half
#    of them with --no-content-size), against the plain files;
# for elfplt stats --json and elfplt plt --json, file by file, after removing
# only what differs by nature (path, compression, file_size).  And the .ko.xz
# relocation counts of every module against binutils readelf -rW on the xz -d
# copy.  tests/real/fetch-modules.sh makes the copies; skips (77) where it
# cannot reach apt.
. "$top_srcdir/tests/lib.sh"
need JQ READELF
. "$top_srcdir/tests/real/real-lib.sh"

xzdir=$(modules_dir 6.12) || exit $?
plain612=$(modules_dir 6.12 xz-d) || exit $?
plain61=$(modules_dir 6.1) || exit $?
zstdir=$(modules_dir 6.1 zstd) || exit $?
echo "modules: $xzdir ($plain612), $zstdir ($plain61)"

# keyed JSON DIR SUFFIX: one line per file of an elfplt document, its path
# below DIR without SUFFIX, a tab, and the file's object without the keys
# that legitimately differ between a compressed file and its plain twin
# (plt's objects have no compression or file_size: del() passes over them);
# then a line "(totals)", a tab and the totals but skipped (the non-ELF
# files beside the modules, such as modules.dep, differ between the trees).
keyed() {
	"$JQ" -r --arg dir "$2/" --arg suffix "$3" '(.files[] |
		"\(.path | ltrimstr($dir) | rtrimstr($suffix))\t\(
			del(.path, .compression, .file_size) | tojson)"),
		"(totals)\t\(.totals | del(.skipped) | tojson)"' "$1" | LC_ALL=C sort
}

# run NAME ARGS...: elfplt ARGS into $T/NAME.json; it must succeed silently.
run() {
	_name=$1
	shift
	_rc=0
	"$ELFPLT" "$@" >"$T/$_name.json" 2>"$T/$_name.err" || _rc=$?
	check "$_name: exit status" 0 "$_rc"
	check "$_name: stderr" "" "$(head -n 5 "$T/$_name.err")"
}

# same WHAT A.json ADIR ASUFFIX B.json BDIR: the files and the totals agree.
same() {
	keyed "$2" "$3" "$4" >"$T/a.keyed"
	keyed "$5" "$6" "" >"$T/b.keyed"
	if cmp -s "$T/a.keyed" "$T/b.keyed"; then
		echo "ok: $1: all $(($(wc -l <"$T/a.keyed") - 1)) files and the totals agree"
	else
		diff "$T/a.keyed" "$T/b.keyed" | grep "^[<>]" | cut -f1 | sed "s/^[<>] //" | sort -u >"$T/bad"
		fail "$1: $(wc -l <"$T/bad") files (or the totals) differ; the first ones:"
		head -n 10 "$T/bad"
	fi
}

# --- 6.12: .ko.xz against xz -d ---------------------------------------------
# The module count from find(1), not from elfplt.
find "$xzdir" -name '*.ko.xz' -type f | LC_ALL=C sort >"$T/xz.list"
nxz=$(wc -l <"$T/xz.list")
[ "$nxz" -gt 4000 ] || { echo "FAIL: only $nxz .ko.xz modules in $xzdir"; exit 1; }
find "$plain612" -name '*.ko' -type f | LC_ALL=C sort >"$T/plain612.list"
check "xz -d copy: one .ko per .ko.xz" "$nxz" "$(wc -l <"$T/plain612.list")"

run stats-xz stats --json "$xzdir"
run stats-xz-d stats --json "$plain612"
# One jq over each 50 MB document: files, failed, files that say xz.
check "stats .ko.xz: files, failed, compression xz" "$nxz 0 $nxz" \
	"$(jqr "$T/stats-xz.json" '"\(.totals.files) \(.totals.files_failed) \(
		[.files[] | select(.compression == "xz")] | length)"')"
check "stats xz -d copy: every file says compression none" "$nxz" \
	"$(jqr "$T/stats-xz-d.json" '[.files[] | select(.compression == "none")] | length')"
# image_size is compared below with the plain file's: that is its size on disk.
same "stats, 6.12 .ko.xz vs xz -d" "$T/stats-xz.json" "$xzdir" .xz \
	"$T/stats-xz-d.json" "$plain612"

run plt-xz plt --json "$xzdir"
run plt-xz-d plt --json "$plain612"
check "plt .ko.xz: files analysed" "$nxz" "$(jqr "$T/plt-xz.json" '.files | length')"
same "plt, 6.12 .ko.xz vs xz -d" "$T/plt-xz.json" "$xzdir" .xz "$T/plt-xz-d.json" "$plain612"

# The .ko.xz counts against readelf -rW on the xz -d copy, by relative path.
elfplt_counts "$T/stats-xz.json" | sed "s|^$xzdir/||; s|\.xz	|	|" >"$T/elfplt.tsv"
readelf_counts "$T/plain612.list" | sed "s|^$plain612/||" >"$T/readelf.tsv"
same_counts "6.12 .ko.xz" "$nxz" "$T/elfplt.tsv" "$T/readelf.tsv"
echo "6.12: $nxz modules, $(jqr "$T/stats-xz.json" .totals.relocations) relocations"

# --- 6.1: .ko.zst against the plain .ko -------------------------------------
(cd "$zstdir" && find . -name '*.ko.zst' -type f) | sed 's|^\./||; s|\.zst$||' |
	LC_ALL=C sort >"$T/zst.names"
nzst=$(wc -l <"$T/zst.names")
check "zstd copies" 300 "$nzst"
run stats-zst stats --json "$zstdir"
check "stats .ko.zst: every file says compression zstd" "$nzst" \
	"$(jqr "$T/stats-zst.json" '[.files[] | select(.compression == "zstd")] | length')"
# The plain twins, named one by one (the same 300 files).
sed "s|^|$plain61/|" "$T/zst.names" | tr '\n' '\0' >"$T/twins"
xargs -0 -a "$T/twins" "$ELFPLT" stats --json >"$T/stats-61.json" ||
	fail "elfplt stats on the 300 plain twins exited $?"
same "stats, 6.1 .ko.zst vs plain" "$T/stats-zst.json" "$zstdir" .zst \
	"$T/stats-61.json" "$plain61"
run plt-zst plt --json "$zstdir"
xargs -0 -a "$T/twins" "$ELFPLT" plt --json >"$T/plt-61.json" ||
	fail "elfplt plt on the 300 plain twins exited $?"
same "plt, 6.1 .ko.zst vs plain" "$T/plt-zst.json" "$zstdir" .zst "$T/plt-61.json" "$plain61"

done_testing
