#!/bin/sh
# A worker process that dies (elfplt(1), -j): the input it was analysing is
# reported as failed, "PATH: the worker process analysing it died" on stderr
# and as that file's error in the JSON, exit status 1; every other input is
# still reported, byte for byte as -j 1 reports it, whichever process ends
# up doing it (another worker, or the calling process for the inputs the
# dead one had been handed).  The death is made with a preloaded shared
# object, built here, whose open() kills the calling process (SIGKILL) when
# it is not the process that loaded it, i.e. a forked worker, and the path
# names "die-here".  -j 1 with it loaded kills nothing: the file is fine.
# Skipped in a sanitized build: ASan must come first among the libraries.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
[ -n "${CC:-}" ] || skip "no C compiler (CC) to build the preloaded object"
skip_sanitized "ASan refuses LD_PRELOAD"

cat >"$T/die.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pid_t main_pid;

__attribute__((constructor)) static void note_main_pid(void)
{
	main_pid = getpid();
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
	va_end(ap);
	if (strstr(path, "die-here") && getpid() != main_pid)
		kill(getpid(), SIGKILL);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));
C
$CC -shared -fPIC -o "$T/die.so" "$T/die.c" || skip "$CC cannot build a shared object"

# 20 copies of one object; the fourth in the walk's order is the one.
x86=$(fixture stats-x86-64)
mkdir -p "$T/tree"
for i in 00 01 02 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19; do
	cp "$x86" "$T/tree/$i.o"
done
cp "$x86" "$T/tree/03-die-here.o"
die=$T/tree/03-die-here.o

rc=0
"$ELFPLT" stats --json -j 1 "$T/tree" >"$T/ref.json" 2>"$T/ref.err" || rc=$?
check "-j 1: exit status" 0 "$rc"
check "-j 1: files" 20 "$(jqr "$T/ref.json" '.files | length')"
rc=0
LD_PRELOAD=$T/die.so "$ELFPLT" stats --json -j 1 "$T/tree" >"$T/pre.json" 2>&1 || rc=$?
check "-j 1 with the object loaded: exit status (no worker to kill)" 0 "$rc"
cmp -s "$T/ref.json" "$T/pre.json" || fail "-j 1 with the object loaded: output differs"

# The files but the one, as jq sorts them: what every run must agree on.
others='[.files[] | select(.path | test("die-here") | not)]'
"$JQ" -S "$others" "$T/ref.json" >"$T/ref.others" || exit 1
check "-j 1: the others" 19 "$("$JQ" length "$T/ref.others")"
for j in 2 3 8; do
	rc=0
	LD_PRELOAD=$T/die.so "$ELFPLT" stats --json -j "$j" "$T/tree" >"$T/j$j.json" \
		2>"$T/j$j.err" || rc=$?
	check "-j $j: exit status" 1 "$rc"
	check "-j $j: stderr" "elfplt: $die: the worker process analysing it died" \
		"$(cat "$T/j$j.err")"
	check "-j $j: its error" "io: $die: the worker process analysing it died" \
		"$(jqr "$T/j$j.json" '.files[3] | "\(.error.code): \(.error.message)"')"
	check "-j $j: files failed" 1 "$(jqr "$T/j$j.json" '.totals.files_failed')"
	"$JQ" -S "$others" "$T/j$j.json" >"$T/j$j.others" || fail "-j $j: JSON does not parse"
	cmp -s "$T/ref.others" "$T/j$j.others" || fail "-j $j: the other files differ from -j 1"
done
done_testing
