#!/bin/sh
# Benchmark elfplt on compressed modules against the decompressors alone, in
# one run, warm page cache: Debian 12's 6.12 arm64 modules as shipped (.ko.xz)
# and 300 of the 6.1 modules recompressed with zstd (tests/real/fetch-modules.sh
# makes both).
#
#   bench/compressed-modules.sh [ELFPLT]     ELFPLT defaults to ./elfplt
#
# Times (wall, mean of RUNS runs, default 3) of
#   elfplt stats (default -j: one job per CPU) on the .ko.xz tree, against
#   xz -dc of the same files (one xz process, single-threaded, as a user
#   would run it: goal elfplt <= 0.7x its time on two cores); elfplt stats
#   -j 1 and elfplt plt on the same tree; elfplt stats on the .ko.zst files
#   against zstd -dc of them; elfplt stats -j 1 and -j 2 on the plain tree
#   (the .ko.xz tree decompressed by xz -d).
# Then peak RSS over the whole .ko.xz tree of elfplt stats, stats --json and
# plt --json, -j 1 and -j 2: the largest single process (/usr/bin/time's
# maximum resident set size: the parent or one worker) and the sum over the
# process tree (parent plus workers), sampled every 10 ms from /proc.
# Uses hyperfine when installed, otherwise a loop of /usr/bin/time.  Not part
# of make check: timing is never asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${1:-${ELFPLT:-./elfplt}}
RUNS=${RUNS:-3}
. "$here/bench/lib.sh"
bench_need xz zstd jq

tree() {
	_rc=0
	sh "$here/tests/real/fetch-modules.sh" "$@" || _rc=$?
	[ "$_rc" -eq 0 ] || { echo "bench: fetch-modules.sh $* exited $_rc" >&2; exit "$_rc"; }
}
xzdir=$(tree 6.12)
plain=$(tree 6.12 xz-d)
zstdir=$(tree 6.1 zstd)
bench_tmpdir

find "$xzdir" -name '*.ko.xz' -type f | LC_ALL=C sort | tr '\n' '\0' >"$T/xz.list"
find "$zstdir" -name '*.ko.zst' -type f | LC_ALL=C sort | tr '\n' '\0' >"$T/zst.list"
count() { tr -cd '\0' <"$1" | wc -c; }
mib() { xargs -0 -a "$1" cat | wc -c | awk '{ printf "%.1f MiB", $1 / 1048576 }'; }
echo "input: $(count "$T/xz.list") .ko.xz, $(mib "$T/xz.list") ($(du -sm "$plain" |
	cut -f1) MiB decompressed), in $xzdir"
echo "       $(count "$T/zst.list") .ko.zst, $(mib "$T/zst.list"), in $zstdir"
echo "cpu: $(nproc) cores; $(uname -r); $RUNS runs each after warm-up;" \
	"xz $(xz --version | awk 'NR == 1 { print $NF }'), liblzma" \
	"$(xz --version | awk 'NR == 2 { print $NF }'), zstd $(zstd -V | awk '{ print $5 }' | tr -d ,)"

# name|command: every command writes its output to /dev/null.  xargs -s: one
# xz (zstd) process for all the files, as one command line holds them.
cat >"$T/cmds" <<EOF
elfplt stats .ko.xz|$ELFPLT stats -o /dev/null $xzdir
xz -dc|xargs -0 -s 2000000 -a $T/xz.list xz -dc
elfplt stats -j 1 .ko.xz|$ELFPLT stats -j 1 -o /dev/null $xzdir
elfplt plt .ko.xz|$ELFPLT plt -o /dev/null $xzdir
elfplt stats .ko.zst|$ELFPLT stats -o /dev/null $zstdir
zstd -dc|xargs -0 -s 2000000 -a $T/zst.list zstd -qdc
elfplt stats -j 1 plain|$ELFPLT stats -j 1 -o /dev/null $plain
elfplt stats -j 2 plain|$ELFPLT stats -j 2 -o /dev/null $plain
EOF

bench_warm
bench_time 1

echo
awk -F'|' '
	{ name[NR] = $1; mean[NR] = $2; sd[NR] = $3; user[NR] = $4 }
	END {
		printf "%-24s %10s %8s %10s\n", "command", "wall ms", "+-", "user ms"
		for (i = 1; i <= NR; i++)
			printf "%-24s %10.1f %8.1f %10.1f\n", name[i], mean[i], sd[i], user[i]
		print ""
		printf "elfplt stats / xz -dc, .ko.xz:        %.2fx (goal <= 0.7)\n", mean[1] / mean[2]
		printf "elfplt stats -j 1 / xz -dc, .ko.xz:   %.2fx\n", mean[3] / mean[2]
		printf "elfplt plt / xz -dc, .ko.xz:          %.2fx\n", mean[4] / mean[2]
		printf "elfplt stats / zstd -dc, .ko.zst:     %.2fx\n", mean[5] / mean[6]
		printf "elfplt stats plain, -j 2 / -j 1:      %.2fx\n", mean[8] / mean[7]
		printf "CPU time, elfplt stats -j 1 / xz -dc: %.2fx (user)\n", user[3] / user[2]
	}' "$T/times"

# rss CMD...: run CMD, print "MAX SUM": /usr/bin/time's maximum resident set
# size (KiB, the largest one process reached) and the largest sum of VmRSS
# over the process and its children seen by sampling /proc every 10 ms.
rss() {
	/usr/bin/time -f %M -o "$T/rss" "$@" >/dev/null 2>&1 &
	tpid=$!
	sum=0
	while kill -0 "$tpid" 2>/dev/null; do
		# /usr/bin/time's child is elfplt; elfplt's children are its workers.
		now=$(ps -o rss= --ppid "$tpid" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
		kids=$(pgrep -d, -P "$(pgrep -P "$tpid" | head -n 1)" 2>/dev/null || true)
		[ -z "$kids" ] || now=$((now + $(ps -o rss= -p "$kids" | awk '{ s += $1 }
			END { print s + 0 }')))
		[ "$now" -le "$sum" ] || sum=$now
		sleep 0.01
	done
	wait "$tpid" || true
	echo "$(tail -n 1 "$T/rss") $sum"
}

echo
echo "peak RSS over the whole .ko.xz tree (KiB): largest process, sum over the tree (sampled):"
plt_j=
"$ELFPLT" plt --help 2>&1 | grep -q -- '--jobs' && plt_j=yes
for args in "stats" "stats --json" "plt --json"; do
	for j in 1 2; do
		# plt without -j (an older elfplt) runs one job whatever -j says.
		case $args in
		plt*) [ -n "$plt_j" ] && jarg="-j $j" || { [ "$j" -eq 1 ] || continue; jarg=; } ;;
		*) jarg="-j $j" ;;
		esac
		# shellcheck disable=SC2086
		set -- $(rss "$ELFPLT" $args $jarg -o /dev/null "$xzdir")
		printf '  %-28s %8s %8s\n' "elfplt $args ${jarg:-(no -j)}" "$1" "$2"
	done
done
