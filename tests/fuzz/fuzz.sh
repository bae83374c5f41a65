#!/bin/sh
# make fuzz: run each libFuzzer target for a bounded time, one at a time.
#
#   tests/fuzz/fuzz.sh SRCDIR SECONDS TARGET...
#
# Run from the build tree of ./configure --enable-fuzz CC=clang, with the
# targets built (tests/fuzz/fuzz_TARGET).  SECONDS is per target (wall
# clock, one process: the machines this runs on are shared), so the whole
# run takes about SECONDS times the number of targets.
#   tests/fuzz/seeds/     the seed corpus, regenerated from the fixtures
#                         (tests/fuzz/seeds.sh) at every run
#   tests/fuzz/corpus/T/  target T's corpus, kept and grown from run to run
#   tests/fuzz/artifacts/T/  what target T found (crash-*, leak-*,
#                         timeout-*, oom-*): reproduce with
#                         tests/fuzz/fuzz_T FILE, or tests/fuzz/replay FILE
#   tests/fuzz/logs/T.log libFuzzer's output; the last lines give the
#                         executions (#N DONE), coverage and corpus size
# FUZZ_FLAGS adds libFuzzer options (-use_value_profile=1, -dict=FILE, ...).
# Exits 1 when any target found something, after running all of them.
set -eu
src=$1
secs=$2
shift 2
: "${FUZZ_NICE:=5}"
case $secs in '' | *[!0-9]*) echo "fuzz: FUZZ_SECONDS must be a number" >&2; exit 2 ;; esac

sh "$src/tests/fuzz/seeds.sh" "$src" tests/fuzz/seeds
mkdir -p tests/fuzz/logs
failed=
for t in "$@"; do
	case $t in
	zstd | xz | gzip) seeds=tests/fuzz/seeds/$t ;;
	archive) seeds=tests/fuzz/seeds/ar ;;
	crel) seeds=tests/fuzz/seeds/crel ;;
	*) seeds=tests/fuzz/seeds/elf ;;
	esac
	mkdir -p "tests/fuzz/corpus/$t" "tests/fuzz/artifacts/$t"
	before=$(ls "tests/fuzz/artifacts/$t" | wc -l)
	echo "fuzz: $t for $secs s (log: tests/fuzz/logs/$t.log)"
	rc=0
	# The archive target writes its input to a file per run: keep that in memory.
	[ -d /dev/shm ] && [ -w /dev/shm ] && [ -z "${TMPDIR:-}" ] && export TMPDIR=/dev/shm
	nice -n "$FUZZ_NICE" "tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="tests/fuzz/artifacts/$t/" ${FUZZ_FLAGS:-} \
		"tests/fuzz/corpus/$t" "$seeds" > "tests/fuzz/logs/$t.log" 2>&1 || rc=$?
	after=$(ls "tests/fuzz/artifacts/$t" | wc -l)
	grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed|average_exec|peak_rss)' \
		"tests/fuzz/logs/$t.log" | sed "s/^/fuzz: $t: /" || true
	echo "fuzz: $t: corpus $(ls "tests/fuzz/corpus/$t" | wc -l) files"
	if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
		echo "fuzz: $t FOUND SOMETHING (exit $rc): see tests/fuzz/artifacts/$t/ and" \
			"tests/fuzz/logs/$t.log" >&2
		failed="$failed $t"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: findings in:$failed" >&2
	exit 1
fi
echo "fuzz: no findings"
