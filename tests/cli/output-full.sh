#!/bin/sh
# A report that cannot be written to standard output (/dev/full: ENOSPC) is
# an error that names "standard output", for every command and format; the
# text report goes through the folding stream (cmd/output.c, fit_text()),
# whose close once named the output "(null)".
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

[ -c /dev/full ] || skip "no /dev/full"
x86=$(fixture stats-x86-64)
"$ELFPLT" stats --json -o "$T/r.json" "$x86" || fail "stats --json -o r.json exited $?"
msg="elfplt: error writing standard output: No space left on device"

for fmt in "" --json; do
	for cmd in stats plt "load --repeat 1" diff; do
		if [ "$cmd" = diff ]; then
			set -- "$T/r.json" "$T/r.json"
		else
			set -- "$x86"
		fi
		rc=0
		# ELFPLT_BIN: the JSON copier (tests/lib.sh) would write in its place.
		# shellcheck disable=SC2086
		"$ELFPLT_BIN" $cmd $fmt "$@" >/dev/full 2>"$T/err" || rc=$?
		check "$cmd $fmt >/dev/full: exit status" 1 "$rc"
		check "$cmd $fmt >/dev/full: message" "$msg" "$(cat "$T/err")"
	done
done
done_testing
