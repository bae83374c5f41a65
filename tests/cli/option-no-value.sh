#!/bin/sh
# A value given to a long option that takes none ("--json=1") is a usage
# error naming the option (exit 2), for every command and before the
# command; an abbreviation is named in full, as getopt_long() takes it.  It
# was "unknown option '-'" or "'-q'": getopt's optopt, the option's val.
# An unknown option with a value is answered as before.
. "$top_srcdir/tests/lib.sh"


for cmd in stats plt load diff; do
	for opt in json quiet verbose; do
		expect_usage_error "$cmd --$opt=1" "$cmd --$opt=1 x" "elfplt: option '--$opt' takes no value"
	done
	expect_usage_error "$cmd --json= (empty)" "$cmd --json= x" "elfplt: option '--json' takes no value"
	expect_usage_error "$cmd --jso=yes" "$cmd --jso=yes x" "elfplt: option '--json' takes no value"
done
for cmd in stats plt load; do
	expect_usage_error "$cmd --summary=1" "$cmd --summary=1 x" "elfplt: option '--summary' takes no value"
done
expect_usage_error "--quiet=1 before the command" "--quiet=1 stats x" \
	"elfplt: option '--quiet' takes no value"
expect_usage_error "--allow-empty=yes before the command" "--allow-empty=yes stats x" \
	"elfplt: option '--allow-empty' takes no value"
expect_usage_error "stats --no-such=1" "stats --no-such=1 x" "elfplt: unknown option '--no-such=1'"
done_testing
