# Shared helpers for the shell tests; sourced, not run.
#
# Environment (set by the Makefile's AM_TESTS_ENVIRONMENT): top_srcdir,
# top_builddir, ELFPLT (the binary), YAML2OBJ, READELF, JQ ("no" if missing).
# Each test exits 0 (pass), 1 (fail) or 77 (skipped, with the reason).
#
# Every JSON document a test makes elfplt write is validated against its
# schema in schema/: ELFPLT becomes tests/elfplt-json-copy.sh, which runs
# ELFPLT_BIN (the binary; use it for valgrind) and keeps a copy of each
# document in $ELFPLT_JSON_DIR; done_testing validates them all.

set -u
: "${top_srcdir:?run the tests through make check}"
FIXTURES=$top_srcdir/tests/fixtures
T=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
nfail=0
ELFPLT_BIN=${ELFPLT_BIN:-$ELFPLT}
ELFPLT=$top_srcdir/tests/elfplt-json-copy.sh
ELFPLT_JSON_DIR=$T/json
export ELFPLT ELFPLT_BIN ELFPLT_JSON_DIR

# skip REASON: skip the test (exit 77).  A skip cannot hide a failure: after
# a recorded failure it fails, and under CI=true (CI runs .ci/run where
# ./bootstrap installed every tool and the archive is reachable) every skip
# fails, save skip_sanitized()'s.
skip() {
	echo "SKIP: $*"
	if [ "$nfail" -ne 0 ]; then
		echo "FAIL: skipped after $nfail failed check(s)"
		exit 1
	fi
	if [ "${CI:-}" = true ]; then
		echo "FAIL: a skip under CI=true"
		exit 1
	fi
	exit 77
}

# skip_sanitized REASON: skip in a sanitized build (./configure
# --enable-sanitizers, ELFPLT_SANITIZED=yes), one the test cannot run in
# (ASan refuses LD_PRELOAD, valgrind cannot run ASan code).  A declared
# condition, so CI=true accepts it; elsewhere it is a no-op.
skip_sanitized() {
	[ "${ELFPLT_SANITIZED:-no}" = no ] && return 0
	echo "SKIP: a sanitized build: $*"
	if [ "$nfail" -ne 0 ]; then
		echo "FAIL: skipped after $nfail failed check(s)"
		exit 1
	fi
	exit 77
}

# skip_part REASON: a part of the test not run; a failure under CI=true.
skip_part() {
	echo "SKIP: part: $*"
	[ "${CI:-}" = true ] && fail "a part skipped under CI=true: $*"
	return 0
}

# need TOOL...: skip unless each tool variable names a program.
need() {
	for v in "$@"; do
		eval "p=\${$v:-no}"
		[ "$p" != no ] && [ -n "$p" ] || skip "$v not found (./bootstrap --deps installs it)"
	done
}

# expect_usage_error DESCRIPTION "ARGS" "FIRST STDERR LINE": elfplt ARGS
# (split on blanks) exits 2, its first line on stderr is the one given, and
# nothing goes to stdout.
expect_usage_error() {
	rc=0
	# shellcheck disable=SC2086
	"$ELFPLT" $2 >"$T/out" 2>"$T/err" </dev/null || rc=$?
	check "$1: exit status" 2 "$rc"
	check "$1: message" "$3" "$(head -n 1 "$T/err")"
	[ -s "$T/out" ] && fail "$1: wrote to stdout: $(cat "$T/out")"
}

# fail MESSAGE: record a failure and go on, so one run shows every mismatch.
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}

# check DESCRIPTION EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1 = $2"
	else
		fail "$1: expected '$2', got '$3'"
	fi
}

# fixture NAME: build tests/fixtures/NAME.yaml with yaml2obj; prints the path.
fixture() {
	need YAML2OBJ
	"$YAML2OBJ" "$FIXTURES/$1.yaml" -o "$T/$1" || {
		echo "FAIL: yaml2obj could not build $1.yaml" >&2
		exit 1
	}
	echo "$T/$1"
}

# jqr FILE FILTER: one raw value from a JSON file.
jqr() {
	"$JQ" -r "$2" "$1"
}

# jq definitions over an elfplt-plt/2 file object, the way elfplt-json(7)
# tells a reader to find them:
#   plt(G)    the PLT slots of group G ("core", "init", "module"):
#             {kind, group, reserved, minimum}
#   sized(N)  the section named N the loader sizes: {name, index, kind,
#             group, reserved, minimum} bytes; null when it sizes none
#   kernel    the kernel modelled and the model's rules in one object
PLT2_JQ='def plt($g): [.slots.by_kind[] | select(.kind == "plt" and .group == $g)] | .[0];
def sized($n): [.bytes.by_section[] | select(.name == $n)] | .[0];
def kernel: .rules.kernel + (.rules | del(.kernel));'

# An elfplt-plt/2 document's totals in one line, for a test's log.
# shellcheck disable=SC2034
TOTALS_LINE='.totals | "slots \(.slots.reserved), minimum \(.slots.minimum), bytes \(
	.bytes.reserved), sorted \(.sort.full) -> \(.sort.loader)"'

# jqp JSON FILTER: jqr with PLT2_JQ's definitions.
jqp() {
	"$JQ" -r "$PLT2_JQ $2" "$1"
}

# validate_json: validate the documents elfplt wrote in this test
# (tests/validate-json.py); a document that fails its schema fails the test.
# Python 3 with jsonschema is a dependency of the tests (./bootstrap).
validate_json() {
	[ -d "$ELFPLT_JSON_DIR" ] || return 0
	if python3 "$top_srcdir/tests/validate-json.py" "$top_srcdir/schema" "$ELFPLT_JSON_DIR"; then
		:
	else
		fail "elfplt's JSON does not match schema/ (above)"
	fi
}

# done_testing: exit 1 if any check failed.
done_testing() {
	validate_json
	if [ "$nfail" -ne 0 ]; then
		echo "$nfail check(s) failed"
		exit 1
	fi
	exit 0
}
