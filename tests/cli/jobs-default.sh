#!/bin/sh
# The default -j is chosen from the work (elfplt(1), -j): the first 32
# inputs are done by elfplt itself, and workers start for the rest only when
# those took long enough (ELFPLT_JOBS_MIN_NS, the average per input, sets
# that for tests: 0 starts them always, a huge value never).  Either way the
# report, stderr and the exit status are byte for byte -j 1's, with the pool
# starting in the middle of the inputs: a tree of 60 files (copies, not
# links, of the fixtures, with two malformed ones past the 32nd).  Where
# strace(1) runs, it also shows workers forked (clone) only when they should.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

tree=$T/tree
mkdir -p "$tree"
n=0
for f in stats-x86-64 stats-mips-be32 stats-relr stats-kmod stats-pie plt-arm64-basic \
	plt-object-x86 plt-riscv load-relocs plt-linked; do
	"$YAML2OBJ" "$FIXTURES/$f.yaml" -o "$T/$f.o" || exit 1
	for k in 1 2 3 4 5 6; do
		n=$((n + 1))
		cp "$T/$f.o" "$tree/$(printf '%02d' $n)-$f.o"
	done
done
"$YAML2OBJ" --docnum=2 "$FIXTURES/stats-bad.yaml" -o "$tree/45-entsize.o" || exit 1
head -c 40 "$T/stats-kmod.o" >"$tree/50-cut.ko"
check "inputs" 62 "$(find "$tree" -type f | wc -l)"

for cmd in "stats" "stats --json" "plt --json"; do
	# shellcheck disable=SC2086
	rc=0; "$ELFPLT" $cmd -j 1 "$tree" >"$T/j1.out" 2>"$T/j1.err" || rc=$?
	echo $rc >"$T/j1.rc"
	for min in 0 1000000000000; do
		# shellcheck disable=SC2086
		rc=0; ELFPLT_JOBS_MIN_NS=$min "$ELFPLT" $cmd "$tree" >"$T/d.out" 2>"$T/d.err" || rc=$?
		echo $rc >"$T/d.rc"
		for part in out err rc; do
			cmp -s "$T/j1.$part" "$T/d.$part" ||
				fail "$cmd, ELFPLT_JOBS_MIN_NS=$min: $part differs from -j 1"
		done
	done
	echo "ok: $cmd: default -j, workers from the 33rd input or none, byte-identical to -j 1"
done
check "stats: exit status" 1 "$(cat "$T/j1.rc")"

# LeakSanitizer's exit-time check clones a tracer thread (and does not work
# under ptrace): in a sanitized build it is off for the two counted runs.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
if command -v strace >/dev/null && strace -f -qq -e trace=none true 2>/dev/null; then
	ELFPLT_JOBS_MIN_NS=0 strace -f -qq -e trace=clone,clone3,fork,vfork -o "$T/st0" \
		"$ELFPLT" stats "$tree" >/dev/null 2>&1
	ELFPLT_JOBS_MIN_NS=1000000000000 strace -f -qq -e trace=clone,clone3,fork,vfork \
		-o "$T/st1" "$ELFPLT" stats "$tree" >/dev/null 2>&1
	[ "$(grep -c 'clone\|fork' "$T/st0")" -gt 0 ] || fail "ELFPLT_JOBS_MIN_NS=0: no worker forked"
	check "ELFPLT_JOBS_MIN_NS=10^12: forks" 0 "$(grep -c 'clone\|fork' "$T/st1")"
else
	echo "note: strace not usable here; the forks are not counted"
fi

done_testing
