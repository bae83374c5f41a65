#!/bin/sh
# Benchmark elfplt stats against the alternatives on the same input, in one run:
# Debian 12's arm64 module tree (tests/real/fetch-modules.sh), warm cache.
#
#   bench/stats-modules.sh [ELFPLT]     ELFPLT defaults to ./elfplt
#
# Times (wall, mean of several runs) of: elfplt stats (text, and --json),
# cat of the same files to /dev/null, binutils readelf -rW and elfutils
# eu-readelf -r over the same files; then each one's ratio to elfplt's text
# run.  Goal: elfplt no slower than cat, at least 20x faster than readelf -rW.
# Then peak RSS (KiB) of elfplt stats and readelf -rW on the largest shared
# library on this machine.  Uses hyperfine when installed, otherwise a loop
# of /usr/bin/time.  Not part of make check: timing is never asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${1:-${ELFPLT:-./elfplt}}
RUNS=${RUNS:-10}
. "$here/bench/lib.sh"
bench_need readelf eu-readelf

dir=$(bench_modules)
bench_tmpdir

# The same files for every tool: what elfplt's walk finds, in its order.
find "$dir" -name '*.ko' -type f | LC_ALL=C sort | tr '\n' '\0' >"$T/list"
nfiles=$(tr -cd '\0' <"$T/list" | wc -c)
bytes=$(xargs -0 -a "$T/list" cat | wc -c)
echo "input: $nfiles modules, $((bytes / 1048576)) MiB, in $dir"
echo "cpu: $(nproc) cores; $(uname -r); $RUNS runs each after warm-up"

# name|command: every command writes its output to /dev/null.
cat >"$T/cmds" <<EOF
elfplt stats|$ELFPLT stats -o /dev/null $dir
elfplt stats --json|$ELFPLT stats --json -o /dev/null $dir
cat|xargs -0 -a $T/list cat
readelf -rW|xargs -0 -a $T/list readelf -rW
eu-readelf -r|xargs -0 -a $T/list eu-readelf -r
EOF

bench_warm
bench_time 2

echo
awk -F'|' '
	NR == 1 { base = $2 }
	{ name[NR] = $1; mean[NR] = $2; sd[NR] = $3 }
	END {
		printf "%-22s %10s %8s %12s\n", "tool", "wall ms", "+-", "vs elfplt"
		for (i = 1; i <= NR; i++)
			printf "%-22s %10.1f %8.1f %11.2fx\n", name[i], mean[i], sd[i], mean[i] / base
		printf "\nelfplt stats vs cat: %.2fx cat'"'"'s time (goal <= 1)\n", base / mean[3]
		printf "readelf -rW / elfplt stats: %.1fx (goal >= 20)\n", mean[4] / base
		printf "eu-readelf -r / elfplt stats: %.1fx\n", mean[5] / base
	}' "$T/times"

# Peak RSS on the largest shared library here.
lib=$(find /usr/lib /lib /usr/local/lib -xdev -type f -name '*.so*' -size +1M \
	-printf '%s %p\n' 2>/dev/null | sort -rn | while read -r size path; do
		[ "$(head -c 4 "$path" | od -An -c | tr -d ' ')" = '177ELF' ] &&
			{ echo "$path"; break; }
	done)
if [ -n "$lib" ]; then
	echo
	echo "peak RSS on the largest shared library, $lib ($(($(wc -c <"$lib") / 1024)) KiB):"
	for cmd in "$ELFPLT stats" "$ELFPLT stats --json" "readelf -rW" "eu-readelf -r"; do
		# shellcheck disable=SC2086
		/usr/bin/time -f %M -o "$T/rss" $cmd "$lib" >/dev/null 2>&1 || true
		printf '  %-22s %8s KiB\n' "$cmd" "$(tail -n 1 "$T/rss")"
	done
fi
