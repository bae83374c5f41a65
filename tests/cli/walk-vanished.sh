#!/bin/sh
# A file the walk found that is removed before it is read (a module deleted
# from a tree mid-run): it is passed over with one warning line naming it,
# "elfplt: warning: PATH: removed since the walk found it; not read", not
# counted as "not ELF" (nobody can tell what it was), and the run's other
# files are reported as without it, exit status 0 (the tree still holds ELF
# files).  The removal is made deterministic with a preloaded shared object,
# built here, whose open() unlinks a path naming "gone-here" just before it
# opens it.  Skipped in a sanitized build: ASan must come first among the
# libraries.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
[ -n "${CC:-}" ] || skip "no C compiler (CC) to build the preloaded object"
skip_sanitized "ASan refuses LD_PRELOAD"

cat >"$T/gone.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
	va_end(ap);
	if (strstr(path, "gone-here"))
		unlink(path);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));
C
$CC -shared -fPIC -o "$T/gone.so" "$T/gone.c" || skip "$CC cannot build a shared object"

x86=$(fixture stats-x86-64)
for cmd in stats plt; do
	rm -rf "$T/tree"
	mkdir -p "$T/tree"
	cp "$x86" "$T/tree/a.o"
	cp "$x86" "$T/tree/b-gone-here.o"
	cp "$x86" "$T/tree/c.o"
	printf 'not ELF\n' >"$T/tree/d.txt"
	rc=0
	LD_PRELOAD=$T/gone.so "$ELFPLT" $cmd --json -j 1 "$T/tree" >"$T/out.json" \
		2>"$T/err" || rc=$?
	check "$cmd: exit status" 0 "$rc"
	check "$cmd: the warning" \
		"elfplt: warning: $T/tree/b-gone-here.o: removed since the walk found it; not read" \
		"$(cat "$T/err")"
	check "$cmd: the other files reported" "$T/tree/a.o $T/tree/c.o" \
		"$(jqr "$T/out.json" '[.files[].path] | join(" ")')"
	check "$cmd: only d.txt counted as not ELF" 1 "$(jqr "$T/out.json" .totals.skipped)"
	[ -e "$T/tree/b-gone-here.o" ] && fail "$cmd: the preloaded object did not remove the file"
done
done_testing
