#!/bin/sh
# ar archives: each ELF member is one input, "lib.a(member.o)", in archive
# order; the symbol table, the long-name table and a member that is not ELF
# are passed over (the last counted in "skipped").  A regular archive made
# with ar rcs from three fixtures, a text file, a member with a name longer
# than 15 characters (so it lives in the "//" table) and a zstd-compressed
# member; a thin archive (ar rcsT) whose members are files relative to the
# archive's directory.  Expected counts come from readelf -rW on the member
# files themselves, never from elfplt.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF
command -v ar >/dev/null || skip "ar not found (binutils)"
command -v zstd >/dev/null || skip "zstd not found (./bootstrap --deps installs it)"

# entries FILE: the relocation entries readelf -rW lists in FILE, summed over
# its "Relocation section ... contains N entries" lines.
entries() {
	"$READELF" -rW "$1" | awk '/^Relocation section/ { n += $(NF - 1) } END { print n + 0 }'
}

mkdir "$T/d" "$T/d/sub" "$T/other"
cp "$(fixture stats-kmod)" "$T/d/kmod.o"
cp "$(fixture plt-arm64-basic)" "$T/d/sub/plt.o"
cp "$(fixture stats-x86-64)" "$T/d/a-member-name-longer-than-15.o"
cp "$T/d/kmod.o" "$T/other/far.o"
printf 'not an object\n' >"$T/d/notes.txt"
zstd -q -c "$T/d/sub/plt.o" >"$T/d/packed.o.zst"
n_kmod=$(entries "$T/d/kmod.o")
n_plt=$(entries "$T/d/sub/plt.o")
n_x86=$(entries "$T/d/a-member-name-longer-than-15.o")
# The fixtures' YAML lists 9, 12 and 12 relocations (stats-fixtures.sh,
# plt-arm64.sh); readelf must agree, or the fixtures changed.
check "readelf: kmod.o" 9 "$n_kmod"
check "readelf: plt.o" 12 "$n_plt"
check "readelf: long-named member" 12 "$n_x86"

cd "$T/d" || exit 1
ar rcs lib.a kmod.o notes.txt sub/plt.o a-member-name-longer-than-15.o packed.o.zst ||
	fail "ar rcs"
ar rcsT thin.a kmod.o notes.txt sub/plt.o ../other/far.o || fail "ar rcsT"
cd / || exit 1
# ar keeps the base name in a regular archive, the relative path in a thin one.
check "ar t lib.a" "kmod.o notes.txt plt.o a-member-name-longer-than-15.o packed.o.zst" \
	"$(ar t "$T/d/lib.a" | tr '\n' ' ' | sed 's/ $//')"

# --- stats on the regular archive ------------------------------------------
"$ELFPLT" stats --json "$T/d/lib.a" >"$T/out" 2>"$T/err" || fail "stats lib.a exited $?"
check "lib.a: no message" "" "$(cat "$T/err")"
L=$T/d/lib.a
check "lib.a: members in archive order, not ELF one passed over" \
	"$L(kmod.o) $L(plt.o) $L(a-member-name-longer-than-15.o) $L(packed.o.zst)" \
	"$(jqr "$T/out" '[.files[].path] | join(" ")')"
check "lib.a: relocations per member" "$n_kmod $n_plt $n_x86 $n_plt" \
	"$(jqr "$T/out" '[.files[].relocations.total] | map(tostring) | join(" ")')"
check "lib.a: archive and member keys" \
	"$L:kmod.o $L:plt.o $L:a-member-name-longer-than-15.o $L:packed.o.zst" \
	"$(jqr "$T/out" '[.files[] | "\(.archive):\(.member)"] | join(" ")')"
check "lib.a: compression" "none none none zstd" \
	"$(jqr "$T/out" '[.files[].compression] | join(" ")')"
# A member's file_size is its ar_size: the member file's own size.
check "lib.a: file_size of kmod.o" "$(wc -c <"$T/d/kmod.o" | tr -d ' ')" \
	"$(jqr "$T/out" '.files[0].file_size')"
check "lib.a: file_size of packed.o.zst" "$(wc -c <"$T/d/packed.o.zst" | tr -d ' ')" \
	"$(jqr "$T/out" '.files[3].file_size')"
# notes.txt only: the symbol table and the "//" table are the archive's own.
check "lib.a: skipped" 1 "$(jqr "$T/out" '.totals.skipped')"
check "lib.a: files" 4 "$(jqr "$T/out" '.totals.files')"
"$ELFPLT" stats --top 1 "$T/d/lib.a" >"$T/text" || fail "stats text"
check "lib.a: text says skipped" "skipped: 1 file (not ELF)" "$(tail -n 1 "$T/text")"

# A member's results are those of the same file outside the archive.
strip='walk(if type == "object" then del(.path, .archive, .member, .compression,
	.file_size) else . end)'
"$ELFPLT" stats --json "$T/d/sub/plt.o" | "$JQ" -S ".files[0] | $strip" >"$T/plain"
"$JQ" -S ".files[1] | $strip" "$T/out" >"$T/member"
cmp -s "$T/plain" "$T/member" || fail "stats: lib.a(plt.o) differs from plt.o"
"$ELFPLT" plt --json "$T/d/sub/plt.o" | "$JQ" -S ".files[0] | $strip" >"$T/plain"
"$ELFPLT" plt --json "$T/d/lib.a" >"$T/out" || fail "plt lib.a exited $?"
check "plt lib.a: members" 4 "$(jqr "$T/out" '.files | length')"
check "plt lib.a: skipped" 1 "$(jqr "$T/out" '.totals.skipped')"
check "plt lib.a: member keys" "$L:plt.o" "$(jqr "$T/out" '.files[1] | "\(.archive):\(.member)"')"
"$JQ" -S ".files[1] | $strip" "$T/out" >"$T/member"
cmp -s "$T/plain" "$T/member" || fail "plt: lib.a(plt.o) differs from plt.o"
"$JQ" -S ".files[3] | $strip" "$T/out" >"$T/member"
cmp -s "$T/plain" "$T/member" || fail "plt: lib.a(packed.o.zst) differs from plt.o"

# load reads a member in place in the archive: the checksum over every
# loaded byte equals that of the member files loaded one after the other.
"$ELFPLT" load --json --repeat 1 "$T/d/lib.a" >"$T/out" || fail "load lib.a exited $?"
"$ELFPLT" load --json --repeat 1 "$T/d/kmod.o" "$T/d/sub/plt.o" \
	"$T/d/a-member-name-longer-than-15.o" "$T/d/packed.o.zst" >"$T/plain" ||
	fail "load of the member files exited $?"
check "load lib.a: checksum as the member files'" "$(jqr "$T/plain" .checksum)" \
	"$(jqr "$T/out" .checksum)"
check "load lib.a: sections as the member files'" "$(jqr "$T/plain" .inputs.sections)" \
	"$(jqr "$T/out" .inputs.sections)"
check "load lib.a: skipped" 1 "$(jqr "$T/out" '.totals.skipped')"

# --- the thin archive, named relative to another directory ------------------
cd "$T" || exit 1
"$ELFPLT" stats --json d/thin.a >"$T/out" 2>"$T/err" || fail "stats thin.a exited $?"
check "thin.a: members, relative to the archive's directory" \
	"d/thin.a(kmod.o) d/thin.a(sub/plt.o) d/thin.a(../other/far.o)" \
	"$(jqr "$T/out" '[.files[].path] | join(" ")')"
check "thin.a: relocations per member" "$n_kmod $n_plt $n_kmod" \
	"$(jqr "$T/out" '[.files[].relocations.total] | map(tostring) | join(" ")')"
check "thin.a: skipped" 1 "$(jqr "$T/out" '.totals.skipped')"
# A member file that is gone: one error naming the member and the file.
rm "$T/d/sub/plt.o"
rc=0
"$ELFPLT" stats --json -o "$T/out" d/thin.a 2>"$T/err" || rc=$?
check "thin.a, member gone: exit status" 1 "$rc"
check "thin.a, member gone: the error" \
	"elfplt: d/thin.a(sub/plt.o): d/sub/plt.o: No such file or directory" "$(cat "$T/err")"
check "thin.a, member gone: the others reported" "null io null" \
	"$(jqr "$T/out" '[.files[].error.code] | map(tostring) | join(" ")')"
cd / || exit 1

# --- broken archives ----------------------------------------------------------
# An ELF member cut short inside its header (16 bytes: magic, class, data,
# version, padding) between two good ones: reported, the one after it still
# analysed.
head -c 16 "$T/d/kmod.o" >"$T/short.o"
(cd "$T" && ar rc cut.a d/kmod.o short.o d/a-member-name-longer-than-15.o) || fail "ar rc"
rc=0
"$ELFPLT" stats --json -o "$T/out" "$T/cut.a" 2>"$T/err" || rc=$?
check "short member: exit status" 1 "$rc"
check "short member: the error" \
	"elfplt: $T/cut.a(short.o): file ends inside the ELF header (16 bytes)" "$(cat "$T/err")"
check "short member: the one after it analysed" "null truncated null" \
	"$(jqr "$T/out" '[.files[].error.code] | map(tostring) | join(" ")')"
# The archive magic and then 60 bytes that are no member header (no "`\n").
{ printf '!<arch>\n'; printf '%060d' 0; } >"$T/bad.a"
rc=0
"$ELFPLT" stats "$T/bad.a" "$T/d/kmod.o" >/dev/null 2>"$T/err" || rc=$?
check "bad header: exit status" 1 "$rc"
check "bad header: the error" \
	"elfplt: $T/bad.a: the member header at offset 8 is not an ar member header" "$(cat "$T/err")"
# A member that declares more bytes than there are: the last 100 cut off.
n=$(wc -c <"$T/d/lib.a")
head -c $((n - 100)) "$T/d/lib.a" >"$T/trunc.a"
rc=0
"$ELFPLT" stats --json -o "$T/out" "$T/trunc.a" 2>"$T/err" || rc=$?
check "truncated archive: exit status" 1 "$rc"
check "truncated archive: members before the cut reported" \
	"$T/trunc.a(kmod.o) $T/trunc.a(plt.o) $T/trunc.a(a-member-name-longer-than-15.o) $T/trunc.a" \
	"$(jqr "$T/out" '[.files[].path] | join(" ")')"
want="the member header at offset [0-9]* declares more bytes than the archive has"
grep -q "^elfplt: $T/trunc.a: $want\$" "$T/err" ||
	fail "truncated archive: the error: $(cat "$T/err")"

# An empty archive yields no ELF file: with --allow-empty the warning, exit 0.
printf '!<arch>\n' >"$T/empty.a"
rc=0
"$ELFPLT" stats --allow-empty "$T/empty.a" >/dev/null 2>"$T/err" || rc=$?
check "empty archive: exit status" 0 "$rc"
check "empty archive: warning" "elfplt: warning: $T/empty.a: no ELF files found" "$(cat "$T/err")"

# --- one file, one report ------------------------------------------------------
# An archive named and also met in a walk: its members are reported once,
# where they come first (a member is its archive's inode and its offset, as
# a hard link is a file's inode).  dd holds x.o and lib.a (one member, m.o):
# named x.o, lib.a, then dd gives two files; dd, then lib.a gives the same
# two, in the walk's order.  Whatever the number of jobs.
mkdir "$T/dd"
cp "$T/d/kmod.o" "$T/dd/x.o"
cp "$T/d/kmod.o" "$T/m.o"
(cd "$T" && ar rc dd/lib.a m.o) || fail "ar rc dd/lib.a"
for j in 1 2; do
	"$ELFPLT" stats --json -j $j "$T/dd/x.o" "$T/dd/lib.a" "$T/dd" >"$T/out" ||
		fail "stats -j $j x.o lib.a dd exited $?"
	check "-j $j: named lib.a and x.o, then dd: files" "$T/dd/x.o $T/dd/lib.a(m.o)" \
		"$(jqr "$T/out" '[.files[].path] | join(" ")')"
	check "-j $j: named lib.a and x.o, then dd: totals.files" 2 "$(jqr "$T/out" '.totals.files')"
	"$ELFPLT" stats --json -j $j "$T/dd" "$T/dd/lib.a" >"$T/out" 2>"$T/err" ||
		fail "stats -j $j dd lib.a exited $?"
	check "-j $j: dd, then lib.a: files" "$T/dd/lib.a(m.o) $T/dd/x.o" \
		"$(jqr "$T/out" '[.files[].path] | join(" ")')"
	check "-j $j: dd, then lib.a: the note" "elfplt: note: $T/dd/lib.a: no ELF files found that\
 were not already read under another PATH or name" "$(cat "$T/err")"
done
# A thin archive naming one file three times, and a hard link to it: one
# report (the first name), and the file is opened once, not once a name
# (openat(2) calls counted by strace, -j 1 for one process to trace).
ln "$T/dd/x.o" "$T/dd/y.o"
(cd "$T/dd" && ar qcT same.a x.o x.o y.o x.o) || fail "ar qcT same.a"
check "same.a: ar lists four members" 4 "$(ar t "$T/dd/same.a" | wc -l | tr -d ' ')"
"$ELFPLT" stats --json -j 1 "$T/dd/same.a" >"$T/out" || fail "stats same.a exited $?"
check "same.a: one report" "$T/dd/same.a(x.o)" "$(jqr "$T/out" '[.files[].path] | join(" ")')"
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	# LeakSanitizer cannot run under ptrace: a sanitized build checks leaks elsewhere.
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -e trace=openat -o "$T/trace" "$ELFPLT" stats -q -j 1 "$T/dd/same.a" \
		>/dev/null 2>&1 || fail "stats same.a under strace"
	check "same.a: x.o opened once" 1 "$(grep -c 'dd/[xy]\.o"' "$T/trace")"
else
	skip_part "strace not usable here: opens not counted"
fi

done_testing
