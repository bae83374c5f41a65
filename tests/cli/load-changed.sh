#!/bin/sh
# elfplt load: an input replaced or changed between planning and the measured
# runs.  The measured child must never block on a FIFO put in its place, must
# refuse a file that is not the one planned (st_dev, st_ino, st_size), and the
# parent must say so in one line, leave that file out and report the others.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
obj=$(fixture load-relocs)

# plan FILE DEV INO SIZE: a one-file plan (the encoding documented at
# ep_load_plan_encode in lib/load-plan.c) loading bytes 0..64 of FILE, planned
# with identity DEV INO SIZE and FILE's st_mtim now (date -r: s and ns).
plan() {
	printf 'elfplt-load-plan 3 16384 1\nF 0 64 1 %d\n%s\nP 0 64\nI %s %s %s %s %s\n0 64\n' \
		"${#1}" "$1" "$2" "$3" "$4" $(date -r "$1" '+%s %N')
}

# child MODE NAME < PLAN: run the measured child under a timeout (124: it hung).
child() {
	timeout 30 "$ELFPLT" __load-child --mode="$1" > "$T/$2.json" 2> "$T/$2.err"
}

# A FIFO where the plan expects a file: refused at once, not opened for ever.
mkfifo "$T/fifo" || skip "mkfifo failed"
plan "$T/fifo" $(stat -c '%d %i' "$T/fifo") 0 > "$T/fifo.plan"
child read fifo < "$T/fifo.plan"
check "FIFO: child exit status (124 = hung)" 1 "$?"
check "FIFO: failed_file" 0 "$(jqr "$T/fifo.json" .failed_file)"
check "FIFO: error" "$T/fifo: changed since it was planned: not a regular file now" \
	"$(jqr "$T/fifo.json" .error)"
check "FIFO: nothing on stderr (the parent says it)" "" "$(cat "$T/fifo.err")"

# The size planned is one more than the file's (stat -c %s).
size=$(stat -c %s "$obj")
plan "$obj" $(stat -c '%d %i' "$obj") $((size + 1)) > "$T/size.plan"
child mmap size < "$T/size.plan"
check "size: exit status" 1 "$?"
check "size: error" "$obj: changed since it was planned: $((size + 1)) bytes then, $size now" \
	"$(jqr "$T/size.json" .error)"

# Another inode than the one planned (stat's inode plus one).
set -- $(stat -c '%d %i' "$obj")
plan "$obj" "$1" $(($2 + 1)) "$size" > "$T/ino.plan"
child hybrid ino < "$T/ino.plan"
check "inode: exit status" 1 "$?"
check "inode: error" \
	"$obj: changed since it was planned: another file now (device and inode differ)" \
	"$(jqr "$T/ino.json" .error)"

# The same file rewritten in place since (same size, inode; st_mtime one
# second on, touch -d): refused.
touch -d "@$(($(date -r "$obj" +%s) + 1))" "$T/later" && cp -p "$obj" "$T/rw.o"
set -- $(stat -c '%d %i' "$T/rw.o")
plan "$T/rw.o" "$1" "$2" "$size" > "$T/rw.plan"
touch -r "$T/later" "$T/rw.o"
child read rw < "$T/rw.plan"
check "rewritten: exit status" 1 "$?"
check "rewritten: error" \
	"$T/rw.o: changed since it was planned: rewritten in place (same size, another st_mtime)" \
	"$(jqr "$T/rw.json" .error)"
set -- $(stat -c '%d %i' "$obj")

# The plan as it was: loads.
plan "$obj" "$1" "$2" "$size" > "$T/same.plan"
child read same < "$T/same.plan"
check "unchanged: exit status" 0 "$?"
check "unchanged: bytes_loaded" 64 "$(jqr "$T/same.json" .bytes_loaded)"

# The whole command: five copies, one of them changed once the measured runs
# have begun.  The change is made at a fixed point, not raced against the
# run: a preloaded shared object, built here, makes it in the first measured
# child (a process whose argv has "__load-child") that opens the file named
# by ELFPLT_TEST_CHANGE_PATH, once, before that open goes on: "truncate:N"
# cuts the file to N bytes, "fifo" renames a FIFO into its place.  Skipped
# without a C compiler, and in a sanitized build (ASan refuses LD_PRELOAD).
[ -n "${CC:-}" ] || { echo "note: no C compiler (CC): the whole-command cases are not run"; done_testing; }
if [ "${ELFPLT_SANITIZED:-no}" != no ]; then
	echo "note: a sanitized build (ASan refuses LD_PRELOAD): the whole-command cases are not run"
	done_testing
fi
cat >"$T/change.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int measured_child;

__attribute__((constructor)) static void note_child(void)
{
	char buf[4096];
	ssize_t n, i;
	int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/cmdline", O_RDONLY);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (i = 0; n > 0 && i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (strcmp(buf + i, "__load-child") == 0)
			measured_child = 1;
}

static void change(const char *path)
{
	const char *how = getenv("ELFPLT_TEST_CHANGE");
	char mark[4096], tmp[4096];
	int fd;

	snprintf(mark, sizeof(mark), "%s.changed", path);
	fd = (int)syscall(SYS_openat, AT_FDCWD, mark, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return; /* made before */
	close(fd);
	if (how && strncmp(how, "truncate:", 9) == 0) {
		truncate(path, atol(how + 9));
	} else if (how && strcmp(how, "rewrite") == 0) {
		/* One byte changed in place, st_mtime a second on (a coarse clock
		 * could leave it as it was within one tick). */
		struct stat st;
		struct timespec t[2];
		unsigned char c;

		fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR);
		if (fd < 0)
			return;
		if (pread(fd, &c, 1, 64) == 1) {
			c ^= 0xff;
			pwrite(fd, &c, 1, 64);
		}
		if (fstat(fd, &st) == 0) {
			t[0] = st.st_atim;
			t[1] = st.st_mtim;
			t[1].tv_sec += 1;
			futimens(fd, t);
		}
		close(fd);
	} else if (how && strcmp(how, "fifo") == 0) {
		snprintf(tmp, sizeof(tmp), "%s.fifo", path);
		if (mkfifo(tmp, 0600) == 0)
			rename(tmp, path);
	}
}

int open(const char *path, int flags, ...)
{
	const char *target = getenv("ELFPLT_TEST_CHANGE_PATH");
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
	va_end(ap);
	if (measured_child && target && strcmp(path, target) == 0)
		change(path);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...) __attribute__((alias("open")));
C
$CC -shared -fPIC -o "$T/change.so" "$T/change.c" || skip "$CC cannot build a shared object"

# measured NAME HOW [OPTIONS]: load five copies, m1 changed as HOW says
# (ELFPLT_TEST_CHANGE) when the first measured child opens it.
measured() {
	n=$1
	how=$2
	shift 2
	rm -rf "$T/lr"
	mkdir "$T/lr"
	for i in 1 2 3 4 5; do cp "$obj" "$T/lr/m$i"; done
	rc=0
	LD_PRELOAD=$T/change.so ELFPLT_TEST_CHANGE_PATH=$T/lr/m1 ELFPLT_TEST_CHANGE=$how \
		timeout 120 "$ELFPLT" load -q -j 1 --sections=alloc --repeat 3 --json "$@" "$T/lr" \
		> "$T/$n.json" 2> "$T/$n.err" || rc=$?
	check "$n: the change was made" yes "$([ -e "$T/lr/m1.changed" ] && echo yes)"
	check "$n: exit status (124 = hung)" 1 "$rc"
	check "$n: stderr lines" 1 "$(wc -l < "$T/$n.err")"
	# The four others: .data and .text of each, 24 bytes (readelf -SW: 0x10 + 0x8).
	check "$n: files measured" 4 "$(jqr "$T/$n.json" .inputs.files)"
	check "$n: files_failed" 1 "$(jqr "$T/$n.json" .inputs.files_failed)"
	check "$n: bytes" 96 "$(jqr "$T/$n.json" .inputs.bytes)"
	check "$n: m1's entry is an error" true \
		"$(jqr "$T/$n.json" '[.files[] | select(.path | endswith("/m1")) | has("error")] == [true]')"
}

measured shrink truncate:10
# The size then: stat -c %s of the fixture; now: truncate's 10.
check "shrink: stderr" "elfplt: $T/lr/m1: changed since it was planned: $size bytes then, 10 now" \
	"$(cat "$T/shrink.err")"
# Rewritten in place, same size and inode: st_mtime tells (one byte changed,
# st_mtime a second on).
measured rewrite rewrite
check "rewrite: stderr" \
	"elfplt: $T/lr/m1: changed since it was planned: rewritten in place (same size, another st_mtime)" \
	"$(cat "$T/rewrite.err")"
# --cold drops each input from the page cache in the parent: the FIFO met
# there too (renamed into place, so m1 is never missing).
measured fifo-cold fifo --cold
check "fifo-cold: stderr" "elfplt: $T/lr/m1: changed since it was planned: not a regular file now" \
	"$(cat "$T/fifo-cold.err")"

# An archive that changes: all its members fail with it, in one line and one
# restart (not one per member), and the file beside it is still measured.
if ! command -v ar > /dev/null; then
	echo "note: ar not found (binutils): the archive case is not run"
	done_testing
fi
mkdir "$T/ar"
for i in 1 2 3 4 5 6 7 8 9 10; do cp "$obj" "$T/ar/m$i.o"; done
(cd "$T/ar" && ar rc "$T/lib.a" m*.o) || fail "ar rc"
asize=$(stat -c %s "$T/lib.a")
# 8 bytes: the archive magic "!<arch>\n" alone.
rc=0
LD_PRELOAD=$T/change.so ELFPLT_TEST_CHANGE_PATH=$T/lib.a ELFPLT_TEST_CHANGE=truncate:8 \
	timeout 120 "$ELFPLT" load -q -j 1 --sections=alloc --repeat 3 --json "$T/lib.a" "$obj" \
	> "$T/ar.json" 2> "$T/ar.err" || rc=$?
check "archive: the change was made" yes "$([ -e "$T/lib.a.changed" ] && echo yes)"
check "archive: exit status" 1 "$rc"
check "archive: stderr" \
	"elfplt: $T/lib.a: changed since it was planned: $asize bytes then, 8 now" "$(cat "$T/ar.err")"
# ar t: ten members, all failed; the fixture beside it measured, 24 bytes as above.
check "archive: files_failed" 10 "$(jqr "$T/ar.json" .inputs.files_failed)"
check "archive: files measured" 1 "$(jqr "$T/ar.json" .inputs.files)"
check "archive: bytes" 24 "$(jqr "$T/ar.json" .inputs.bytes)"
done_testing
