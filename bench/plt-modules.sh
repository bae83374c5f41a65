#!/bin/sh
# elfplt plt over the whole Debian arm64 module tree against cat(1) of the
# same files, warm page cache, best of N runs each; prints both times and
# the ratio (goal: elfplt at most 1.2 x cat).  Not part of make check.
#   bench/plt-modules.sh [ELFPLT] [RUNS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
elfplt=${1:-$here/elfplt}
runs=${2:-5}
dir=$("$here/tests/real/fetch-modules.sh")
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find "$dir" -name '*.ko' | sort >"$list"
echo "$(wc -l <"$list") modules, $(du -sh "$dir" | cut -f1) in $dir"

# best CMD...: the smallest wall time of $runs runs, in ms.
best() {
	b=
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		"$@" >/dev/null
		t1=$(date +%s%N)
		t=$(((t1 - t0) / 1000000))
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
		i=$((i + 1))
	done
	echo "$b"
}

xargs cat <"$list" >/dev/null	# warm the cache
cat_ms=$(best sh -c 'xargs cat <"$1"' sh "$list")
plt_ms=$(best sh -c 'xargs "$2" plt --summary <"$1"' sh "$list" "$elfplt")
echo "cat:        ${cat_ms} ms"
echo "elfplt plt: ${plt_ms} ms"
awk -v a="$plt_ms" -v b="$cat_ms" 'BEGIN { printf "ratio: %.2fx cat\n", b ? a / b : 0 }'
