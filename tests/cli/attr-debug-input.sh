#!/bin/sh
# --by's debug info is an input: a FIFO where debug info is looked for is
# never opened (open() would block for a writer: the run hung), and -o naming
# the --debug-file, or a file under --debug-dir, is refused as for any input.
# The object is compiled from tests/fixtures/attr-calls.c; its debug info is
# split off with objcopy, as a distribution's build does.
. "$top_srcdir/tests/lib.sh"
need JQ
command -v objcopy >/dev/null || skip "no objcopy"
command -v timeout >/dev/null || skip "no timeout"
cc=${CC:-cc}

$cc -c -g -O1 -fno-inline -o "$T/full.o" "$FIXTURES/attr-calls.c" ||
	fail "$cc could not compile attr-calls.c"
objcopy --strip-debug "$T/full.o" "$T/stripped.o" || fail "objcopy --strip-debug"

# A .gnu_debuglink naming a FIFO beside the object (objcopy computes the CRC
# of a regular file, which is then replaced by the FIFO).
mkdir "$T/dl"
objcopy --only-keep-debug "$T/full.o" "$T/dl/evil.debug" || fail "objcopy --only-keep-debug"
(cd "$T/dl" && objcopy --add-gnu-debuglink=evil.debug "$T/stripped.o" victim.o) ||
	fail "objcopy --add-gnu-debuglink"
rm "$T/dl/evil.debug" && mkfifo "$T/dl/evil.debug" || skip "no mkfifo"
timeout 20 "$ELFPLT" stats --json --by=cu "$T/dl/victim.o" >"$T/out.json" 2>/dev/null
check ".gnu_debuglink naming a FIFO: no hang, exit 0" 0 $?
check ".gnu_debuglink naming a FIFO: no debug info" null \
	"$(jqr "$T/out.json" '.files[0].attribution.debug_info')"
timeout 20 "$ELFPLT" plt --json --by=line "$T/dl/victim.o" >/dev/null 2>&1
check "plt --by=line, .gnu_debuglink naming a FIFO: no hang" 0 $?
# No .gnu_debuglink: libdwfl's lookup also tries the file's name + ".debug".
cp "$T/stripped.o" "$T/dl/plain.o" && mkfifo "$T/dl/plain.o.debug"
timeout 20 "$ELFPLT" stats --by=cu "$T/dl/plain.o" >/dev/null 2>&1
check "FIFO named after the object + .debug: no hang" 0 $?

mkfifo "$T/fifo"
timeout 20 "$ELFPLT" stats --by=cu --debug-file="$T/fifo" "$T/stripped.o" >/dev/null 2>&1
check "--debug-file=FIFO: no hang" 0 $?
mkdir -p "$T/ddir$T"
mkfifo "$T/ddir$T/stripped.o.debug"
timeout 20 "$ELFPLT" stats --by=cu --debug-dir="$T/ddir" "$T/stripped.o" >/dev/null 2>&1
check "FIFO under --debug-dir: no hang" 0 $?

# The debug info still found where it is a regular file.
objcopy --only-keep-debug "$T/full.o" "$T/good.debug"
(cd "$T" && objcopy --add-gnu-debuglink=good.debug stripped.o linked.o) ||
	fail "objcopy --add-gnu-debuglink"
"$ELFPLT" stats --json --by=cu "$T/linked.o" >"$T/out.json" || fail "linked: exit $?"
check ".gnu_debuglink to a regular file: found" "$T/good.debug" \
	"$(jqr "$T/out.json" '.files[0].attribution.debug_info')"

# An unusable --debug-file: one warning line naming it and why, not used.
need YAML2OBJ
mkdir "$T/adir"
echo "not ELF" >"$T/text.debug"
arm=$(fixture attr-ctrl) # an aarch64 object
for c in "adir:is not a regular file" "text.debug:is not ELF" \
	"stripped.o:has no .debug_info (no DWARF)"; do
	f=$T/${c%%:*}
	"$ELFPLT" stats --by=cu --debug-file="$f" "$T/stripped.o" >"$T/text" 2>"$T/err"
	check "--debug-file ${c%%:*}: exit 0" 0 $?
	check "--debug-file ${c%%:*}: one warning naming it" \
		"elfplt: $T/stripped.o: warning: --debug-file $f ${c#*:}: not used" \
		"$(grep warning: "$T/err")"
	check "--debug-file ${c%%:*}: no debug info" 1 \
		"$(grep -c '^  debug info: none' "$T/text")"
done
"$ELFPLT" plt --json --by=line --debug-file="$arm" "$T/stripped.o" >"$T/out.json" 2>"$T/err"
check "--debug-file for aarch64, an x86-64 input: exit 0" 0 $?
check "--debug-file for another machine: the warning's code" debug_file \
	"$(jqr "$T/out.json" '.files[0].warnings[0].code')"
check "--debug-file for another machine: not used" null \
	"$(jqr "$T/out.json" '.files[0].attribution.debug_info')"
check "--debug-file for another machine: one line on stderr" 1 \
	"$(grep -c "warning: --debug-file $arm is for another machine" "$T/err")"

# Another object's debug file (no build IDs in a .o): its allocated sections
# are not the input's (.rodata where the input has .comment), so it is not
# used; libdwfl asserts they agree and would abort the run.
cat >"$T/other.c" <<'EOF2'
int counter = 3;
const int table[64] = { 1, 2, 3 };
int bump(int x) { counter += x; return table[x & 63] + counter; }
EOF2
$cc -c -g -O1 -o "$T/other.o" "$T/other.c" && objcopy --only-keep-debug "$T/other.o" "$T/other.debug" ||
	fail "could not make other.debug"
for cmd in "stats --by=cu" "plt --by=line"; do
	# shellcheck disable=SC2086
	"$ELFPLT" $cmd --json --debug-file="$T/other.debug" "$T/stripped.o" >"$T/out.json" 2>"$T/err"
	check "$cmd, another object's debug file: exit 0" 0 $?
	check "$cmd, another object's debug file: not used" null \
		"$(jqr "$T/out.json" '.files[0].attribution.debug_info')"
	check "$cmd, another object's debug file: one warning naming it and why" \
		"elfplt: $T/stripped.o: warning: --debug-file $T/other.debug has other sections than the input (section flags differ): not used" \
		"$(grep warning: "$T/err")"
done
mkdir -p "$T/odir$T"
cp "$T/other.debug" "$T/odir$T/stripped.o.debug"
"$ELFPLT" stats --by=cu --debug-dir="$T/odir" "$T/stripped.o" >/dev/null 2>"$T/err"
check "--debug-dir holding another object's debug file: one warning" 1 \
	"$(grep -c "warning: --debug-dir file $T/odir$T/stripped.o.debug has other sections" "$T/err")"

# -o naming an input read as debug info: refused (exit 2), the file untouched.
cp "$T/good.debug" "$T/keep.debug"
"$ELFPLT" stats --by=cu --debug-file="$T/good.debug" -o "$T/good.debug" "$T/stripped.o" \
	>/dev/null 2>"$T/err"
check "-o the --debug-file: a usage error" 2 $?
cmp -s "$T/good.debug" "$T/keep.debug"
check "-o the --debug-file: the file untouched" 0 $?
check "-o the --debug-file: one line naming it" 1 "$(grep -c "$T/good.debug would overwrite" "$T/err")"
ln "$T/good.debug" "$T/hard.debug"
"$ELFPLT" plt --by=line --debug-file="$T/good.debug" -o "$T/hard.debug" "$T/stripped.o" \
	>/dev/null 2>&1
check "plt -o a hard link of the --debug-file: a usage error" 2 $?
mkdir -p "$T/dd/sub"
cp "$T/good.debug" "$T/dd/sub/stripped.o.debug"
"$ELFPLT" stats --by=cu --debug-dir="$T/dd" -o "$T/dd/sub/stripped.o.debug" "$T/stripped.o" \
	>/dev/null 2>&1
check "-o a file under --debug-dir: a usage error" 2 $?
cmp -s "$T/dd/sub/stripped.o.debug" "$T/keep.debug"
check "-o a file under --debug-dir: the file untouched" 0 $?
"$ELFPLT" stats --by=cu --debug-dir="$T/dd" -o "$T/report.txt" "$T/stripped.o" >/dev/null 2>&1
check "-o a new file outside --debug-dir: written" 0 $?
done_testing
