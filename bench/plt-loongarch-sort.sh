#!/bin/sh
# The LoongArch module loader's sort, told the way the 2020 arm64 change
# (d4e0340919fb, "one driver: 243,739 entries sorted before, 22,454 after")
# was: on Debian unstable's loong64 7.2 tree, the entries
# count_max_entries() sorts (every relocation of each executable-target
# RELA section, since 63dbd8fb2af3) against the entries that need a PLT or
# GOT slot, over the whole tree and for the largest module; then the time
# of both ways on that module (elfplt plt --timing: the loader's sort and
# count, and a partition + sort of the needed entries only, medians of REPS
# runs on copies), and the time the pre-6.17 duplicate_rela() scan took
# (--kernel=6.16).  A benchmark, not a test: not part of make check.
#   bench/plt-loongarch-sort.sh [ELFPLT] [REPS]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${1:-$here/elfplt}
reps=${2:-9}
. "$here/bench/lib.sh"
bench_need jq
bench_tmpdir
dir=$(sh "$here/tests/real/fetch-modules.sh" 7.2 xz-d loong64) || exit $?
echo "tree: $(find "$dir" -name '*.ko' | wc -l) modules in $dir"

"$ELFPLT" plt --json "$dir" >"$T/tree.json"
jq -r '[.files[] | select(.model == "loongarch-module")] |
	(map(.sort.loader) | add) as $s | (map(.sort.needed) | add) as $n |
	"whole tree: \($s) entries sorted, \($n) needed a slot (\($n * 1000 / $s | floor / 10)%); " +
	"sorting only those would skip \($s - $n)"' "$T/tree.json"

# The largest module by entries sorted.
big=$(jq -r '[.files[] | select(.model == "loongarch-module")] | max_by(.sort.loader) | .path' \
	"$T/tree.json")
echo "largest: $big"
"$ELFPLT" plt --json --timing="$reps" "$big" >"$T/big.json"
"$ELFPLT" plt --json --timing="$reps" --kernel=6.16 "$big" >"$T/scan.json"
jq -r '.files[0] | "  \(.sort.loader) entries sorted, \(.sort.needed) needed a slot " +
	"(\(.sort.needed * 1000 / .sort.loader | floor / 10)%)",
	"  sort of every entry (7.2, the loader):  \(.sort.timing.full_ns / 1000 | floor) us",
	"  partition + sort of the needed entries: \(.sort.timing.partitioned_ns / 1000 | floor) us" +
	" (\(.sort.timing.full_ns / ([.sort.timing.partitioned_ns, 1] | max) * 10 | floor / 10)x less)"' \
	"$T/big.json"
jq -r '.files[0] | "  duplicate_rela() scan (6.1 to 6.16): \(.sort.timing.full_ns / 1000 | floor) us" +
	" for \(.detail.duplicate_rela_comparisons) comparisons"' "$T/scan.json"
echo "(medians of $reps runs each; $(nproc) CPUs; $(uname -m) host, not a LoongArch machine)"
