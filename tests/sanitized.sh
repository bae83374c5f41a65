#!/bin/sh
# The test runner of a ./configure --enable-sanitizers build (Makefile.am's
# LOG_COMPILER and SH_LOG_COMPILER): runs one test, "$@", with every
# AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer report
# written to a file of its own (log_path; one file per process that
# reported), and fails the test when any such file exists, printing them into
# the test's log.  A sanitized process that finds something exits 86 (set in
# Makefile.am), which fails a test that checks exit statuses; this catches
# what no status shows: a finding in a child process (load's __load-child, a
# stats -j worker, whose death the parent reports as a failed input) or in an
# elfplt whose status is lost in a pipe.  Exits with the test's status, or 1
# (FAIL) when a sanitizer reported.
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-san.XXXXXX") || exit 99
# Tests also run elfplt as another user (setpriv --reuid=nobody).
chmod 1777 "$dir"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$dir/asan"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$dir/ubsan"
export ASAN_OPTIONS UBSAN_OPTIONS

"$@"
rc=$?

found=0
for f in "$dir"/*; do
	[ -e "$f" ] || continue
	found=$((found + 1))
	echo "=== sanitizer report $(basename "$f") ==="
	cat "$f"
done
rm -rf "$dir"
if [ "$found" -ne 0 ]; then
	echo "FAIL: $found sanitizer report(s) while running $* (exit status $rc)"
	exit 1
fi
exit "$rc"
