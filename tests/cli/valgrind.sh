#!/bin/sh
# valgrind's memcheck over elfplt, where it is installed: stats, plt and load
# on a malformed file (its section contents past the end of the file,
# stats-bad.yaml's document 9), and stats and plt on a real module (xfs.ko,
# when tests/real/fetch-modules.sh has the modules; the valid fixture
# otherwise).  No memory error and nothing definitely or indirectly lost:
# valgrind's own exit status 99 says either, else elfplt's status (1 for the
# bad file, 0 for the good one) comes through; and stats -j 2 on a tree,
# whose workers must not leak either.  load on a good file is left
# out: it runs its measurements in children exec'd from /proc/self/exe,
# which valgrind cannot follow (the sanitized build's LeakSanitizer covers
# them); on the bad file it starts none.  Skipped in a sanitized build: the
# sanitizers and valgrind do not run together.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ
command -v valgrind >/dev/null || skip "valgrind not found (apt-get install valgrind)"
skip_sanitized "valgrind cannot run it"

"$YAML2OBJ" --docnum=1 "$FIXTURES/stats-bad.yaml" -o "$T/good.o" || exit 1
"$YAML2OBJ" --docnum=9 "$FIXTURES/stats-bad.yaml" -o "$T/contents.o" || exit 1
real=$T/good.o
rc=0
dir=$(sh "$top_srcdir/tests/real/fetch-modules.sh" 2>"$T/fetch.err") || rc=$?
if [ "$rc" -eq 0 ] && [ -f "$dir/kernel/fs/xfs/xfs.ko" ]; then
	real=$dir/kernel/fs/xfs/xfs.ko
else
	echo "note: no real modules (fetch-modules.sh: $rc), the fixture instead"
fi

# memcheck WANT CMD ARGS...: elfplt under valgrind must exit WANT.  The
# binary itself (ELFPLT_BIN), not tests/lib.sh's JSON-keeping wrapper.
memcheck() {
	want=$1
	shift
	rc=0
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=99 --log-file="$T/vg.log" \
		"$ELFPLT_BIN" "$@" >/dev/null 2>"$T/err" </dev/null || rc=$?
	check "valgrind elfplt $*: exit status" "$want" "$rc"
	[ "$rc" = "$want" ] || cat "$T/vg.log" "$T/err"
}

for cmd in stats plt load; do
	memcheck 1 $cmd "$T/contents.o"
done
for cmd in stats plt; do
	memcheck 0 $cmd "$real"
done
# The worker processes of -j 2 (forked, so memcheck follows them) exit with
# _exit(), and their status is not elfplt's: their leaks are read from the log.
mkdir -p "$T/tree"
for i in 1 2 3 4 5 6; do
	cp "$T/good.o" "$T/tree/$i.o"
done
memcheck 0 stats -j 2 "$T/tree"
check "valgrind elfplt stats -j 2: leaks in any process" 0 \
	"$(grep -c 'are definitely lost\|are indirectly lost' "$T/vg.log")"
done_testing
