# The timing harness the benchmarks share; sourced by bench/*-modules.sh
# after they set "here" (the source tree) and ELFPLT.  Not part of make check.

# bench_need TOOL...: exit 2 unless ELFPLT is built, each TOOL is on PATH
# and /usr/bin/time (GNU time: its -f and -o) is installed.
bench_need() {
	[ -x "$ELFPLT" ] || { echo "bench: $ELFPLT is not built (make)" >&2; exit 2; }
	for tool in "$@"; do
		command -v "$tool" >/dev/null || { echo "bench: $tool not found" >&2; exit 2; }
	done
	[ -x /usr/bin/time ] ||
		{ echo "bench: /usr/bin/time not found: apt-get install time" >&2; exit 2; }
}

# bench_modules: print the directory of the arm64 module tree
# (tests/real/fetch-modules.sh); exit with its status when it has none.
# Call it as dir=$(bench_modules).
bench_modules() {
	_rc=0
	sh "$here/tests/real/fetch-modules.sh" || _rc=$?
	[ "$_rc" -eq 0 ] ||
		{ echo "bench: no module tree (fetch-modules.sh exited $_rc)" >&2; exit "$_rc"; }
}

# bench_tmpdir: set T to a new scratch directory, removed at exit.
bench_tmpdir() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-bench.XXXXXX")
	trap 'rm -rf "$T"' EXIT
}

# bench_warm: run each command of $T/cmds (lines "name|command", the
# command's output is thrown away) once, to warm the page cache and check
# that it works; exit 1 at the first that fails.
bench_warm() {
	while IFS='|' read -r name cmd; do
		sh -c "$cmd" >/dev/null 2>&1 || { echo "bench: '$cmd' failed" >&2; exit 1; }
	done <"$T/cmds"
}

# bench_time WARMUP: time each command of $T/cmds RUNS times, after WARMUP
# runs under hyperfine (when installed; otherwise /usr/bin/time, after the
# warm-up of bench_warm), and write $T/times, one line a command in the
# order of $T/cmds: "name|mean wall ms|standard deviation ms|mean user ms".
bench_time() {
	_warmup=$1
	if command -v hyperfine >/dev/null 2>&1; then
		set --
		while IFS='|' read -r name cmd; do
			set -- "$@" -n "$name" "$cmd"
		done <"$T/cmds"
		hyperfine -N -w "$_warmup" -r "$RUNS" --style none --export-json "$T/h.json" "$@" \
			>/dev/null
		jq -r '.results[] |
			"\(.command)|\(.mean * 1000)|\((.stddev // 0) * 1000)|\(.user * 1000)"' \
			"$T/h.json" >"$T/times"
		return
	fi
	while IFS='|' read -r name cmd; do
		i=0
		while [ $i -lt "$RUNS" ]; do
			/usr/bin/time -f '%e %U' -a -o "$T/t.$i" sh -c "$cmd >/dev/null 2>&1"
			i=$((i + 1))
		done
		cat "$T"/t.* | awk -v n="$name" '{ s += $1; q += $1 * $1; u += $2; k++ }
			END { m = s / k; v = q / k - m * m
			print n "|" m * 1000 "|" sqrt(v > 0 ? v : 0) * 1000 "|" u / k * 1000 }'
		rm -f "$T"/t.*
	done <"$T/cmds" >"$T/times"
}
