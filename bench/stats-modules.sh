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
[ -x "$ELFPLT" ] || { echo "bench: $ELFPLT is not built (make)" >&2; exit 2; }
for tool in readelf eu-readelf; do
	command -v "$tool" >/dev/null || { echo "bench: $tool not found" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time not found: apt-get install time" >&2; exit 2; }

rc=0
dir=$(sh "$here/tests/real/fetch-modules.sh") || rc=$?
[ "$rc" -eq 0 ] || { echo "bench: no module tree (fetch-modules.sh exited $rc)" >&2; exit "$rc"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

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

# Warm the page cache and check that every command works.
while IFS='|' read -r name cmd; do
	sh -c "$cmd" >/dev/null 2>&1 || { echo "bench: '$cmd' failed" >&2; exit 1; }
done <"$T/cmds"

if command -v hyperfine >/dev/null 2>&1; then
	set --
	while IFS='|' read -r name cmd; do
		set -- "$@" -n "$name" "$cmd"
	done <"$T/cmds"
	hyperfine -N -w 2 -r "$RUNS" --style none --export-json "$T/h.json" "$@" >/dev/null
	jq -r '.results[] | "\(.command)|\(.mean * 1000)|\(.stddev * 1000)"' "$T/h.json" \
		>"$T/times"
else
	while IFS='|' read -r name cmd; do
		i=0
		while [ $i -lt "$RUNS" ]; do
			/usr/bin/time -f %e -a -o "$T/t.$i" sh -c "$cmd >/dev/null 2>&1"
			i=$((i + 1))
		done
		cat "$T"/t.* | awk -v n="$name" '{ s += $1; q += $1 * $1; k++ }
			END { m = s / k; v = q / k - m * m; print n "|" m * 1000 "|" sqrt(v > 0 ? v : 0) * 1000 }'
		rm -f "$T"/t.*
	done <"$T/cmds" >"$T/times"
fi

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
