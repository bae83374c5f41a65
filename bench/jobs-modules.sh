#!/bin/sh
# Benchmark elfplt's worker processes: -j 1 against -j 2 on the same input, in
# one run: Debian 12's arm64 module tree (tests/real/fetch-modules.sh), warm
# cache.
#
#   bench/jobs-modules.sh [ELFPLT]     ELFPLT defaults to ./elfplt
#
# Times (wall, mean of several runs) of elfplt stats and plt, text and
# --json, each with -j 1 and -j 2, and the speed-up of -j 2 over -j 1 (goal
# on two idle cores: towards 2x; the emitting process and the pipes take
# their share).  Then the peak RSS (KiB) of each, which must not grow with
# the tree: the loop keeps only the files in flight.  The load average
# before and after is printed too: on a shared machine other work takes
# cores from -j 2.  Uses hyperfine when installed, otherwise a loop of
# /usr/bin/time.  Not part of make check: timing is never asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${1:-${ELFPLT:-./elfplt}}
RUNS=${RUNS:-10}
. "$here/bench/lib.sh"
bench_need

dir=$(bench_modules)
bench_tmpdir

nfiles=$(find "$dir" -name '*.ko' -type f | wc -l)
bytes=$(find "$dir" -name '*.ko' -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "input: $nfiles modules, $((bytes / 1048576)) MiB, in $dir"
echo "cpu: $(nproc) cores; $(uname -r); $RUNS runs each after warm-up"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# name|command: pairs, -j 1 then -j 2; every command writes to /dev/null.
cat >"$T/cmds" <<EOF
stats -j 1|$ELFPLT stats -j 1 -o /dev/null $dir
stats -j 2|$ELFPLT stats -j 2 -o /dev/null $dir
stats --json -j 1|$ELFPLT stats --json -j 1 -o /dev/null $dir
stats --json -j 2|$ELFPLT stats --json -j 2 -o /dev/null $dir
plt -j 1|$ELFPLT plt -j 1 -o /dev/null $dir
plt -j 2|$ELFPLT plt -j 2 -o /dev/null $dir
plt --json -j 1|$ELFPLT plt --json -j 1 -o /dev/null $dir
plt --json -j 2|$ELFPLT plt --json -j 2 -o /dev/null $dir
EOF

bench_warm
bench_time 2
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
awk -F'|' '
	{ name[NR] = $1; mean[NR] = $2; sd[NR] = $3 }
	END {
		printf "%-20s %10s %8s %14s\n", "elfplt", "wall ms", "+-", "-j 1 / -j 2"
		for (i = 1; i <= NR; i++) {
			if (i % 2 == 0)
				printf "%-20s %10.1f %8.1f %13.2fx\n", name[i], mean[i], sd[i],
					mean[i - 1] / mean[i]
			else
				printf "%-20s %10.1f %8.1f\n", name[i], mean[i], sd[i]
		}
	}' "$T/times"

# Peak RSS: the largest of the process and its workers (wait4's ru_maxrss).
echo
echo "peak RSS (KiB) on the whole tree:"
while IFS='|' read -r name cmd; do
	# shellcheck disable=SC2086
	/usr/bin/time -f %M -o "$T/rss" $cmd >/dev/null 2>&1 || true
	printf '  %-20s %8s\n' "$name" "$(tail -n 1 "$T/rss")"
done <"$T/cmds"
