#!/bin/sh
# The malformed-input corpus (tests/cli/malformed.sh: every message, exit
# status, good neighbour and untouched input it checks) under each access
# mode besides the default hybrid one, which malformed.sh runs itself:
# ELFPLT_ACCESS=read, ELFPLT_ACCESS=mmap, and hybrid with
# ELFPLT_MMAP_THRESHOLD=1 (every range mapped over the reused buffer).
. "$top_srcdir/tests/lib.sh"

for mode in read mmap hybrid-map-all; do
	case $mode in
	hybrid-map-all) set -- ELFPLT_ACCESS=hybrid ELFPLT_MMAP_THRESHOLD=1 ;;
	*) set -- ELFPLT_ACCESS=$mode ;;
	esac
	rc=0
	env "$@" sh "$top_srcdir/tests/cli/malformed.sh" >"$T/$mode.log" 2>&1 || rc=$?
	case $rc in
	0) echo "ok: malformed.sh under $*: $(grep -c '^ok:' "$T/$mode.log") checks pass" ;;
	77) skip "malformed.sh skipped: $(tail -n 1 "$T/$mode.log")" ;;
	*)
		grep '^FAIL' "$T/$mode.log"
		fail "malformed.sh under $*: exit status $rc"
		;;
	esac
done

done_testing
