#!/bin/sh
# A value given to a long option that takes none ("--json=1") is a usage
# error naming the option (exit 2), for every command and before the
# command; an abbreviation is named in full, as getopt_long() takes it.  It
# was "unknown option '-'" or "'-q'": getopt's optopt, the option's val.
# An unknown option with a value is answered as before.
. "$top_srcdir/tests/lib.sh"

# expect DESCRIPTION "ARGS" "FIRST STDERR LINE"
expect() {
	rc=0
	# shellcheck disable=SC2086
	"$ELFPLT" $2 >"$T/out" 2>"$T/err" </dev/null || rc=$?
	check "$1: exit status" 2 "$rc"
	check "$1: message" "$3" "$(head -n 1 "$T/err")"
	[ -s "$T/out" ] && fail "$1: wrote to stdout: $(cat "$T/out")"
}

for cmd in stats plt load diff; do
	for opt in json quiet verbose; do
		expect "$cmd --$opt=1" "$cmd --$opt=1 x" "elfplt: option '--$opt' takes no value"
	done
	expect "$cmd --json= (empty)" "$cmd --json= x" "elfplt: option '--json' takes no value"
	expect "$cmd --jso=yes" "$cmd --jso=yes x" "elfplt: option '--json' takes no value"
done
for cmd in stats plt load; do
	expect "$cmd --summary=1" "$cmd --summary=1 x" "elfplt: option '--summary' takes no value"
done
expect "--quiet=1 before the command" "--quiet=1 stats x" \
	"elfplt: option '--quiet' takes no value"
expect "--allow-empty=yes before the command" "--allow-empty=yes stats x" \
	"elfplt: option '--allow-empty' takes no value"
expect "stats --no-such=1" "stats --no-such=1 x" "elfplt: unknown option '--no-such=1'"
done_testing
