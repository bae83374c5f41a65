#!/bin/sh
# A thin archive's members are files of their own, named in the archive:
# inputs as much as the archive.  -o naming one of them is refused like
# -o naming the archive (exit 2, "would overwrite an input"), whether the
# archive is a PATH or found by the walk of a directory, whether the member
# is ELF or not, by inode (a hard link to a member is the member); and the
# member stays byte for byte.  An output beside them that is no member is
# written as usual.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ
command -v ar >/dev/null || skip "ar not found (binutils)"

x86=$(fixture stats-x86-64)
d=$T/d
mkdir -p "$d/sub" "$T/tree/lib"
cp "$x86" "$d/a.o"
cp "$x86" "$d/b.o"
cp "$x86" "$d/sub/a.o"
echo "notes, not ELF" >"$d/notes.txt"
# A thin archive names its members relative to its own directory (ar rcsT);
# tree/lib/thin.a is found by a walk of tree/ while its members are not in it.
(cd "$d" && ar rcsT thin.a a.o b.o sub/a.o notes.txt) || fail "ar rcsT thin.a"
(cd "$T/tree/lib" && ar rcsT thin.a ../../d/b.o ../../d/notes.txt) || fail "ar rcsT tree"
ln "$d/b.o" "$T/b-link.o"
sum() { cksum <"$1"; }
before=$(cat "$d/a.o" "$d/b.o" "$d/sub/a.o" "$d/notes.txt" | cksum)

for cmd in stats plt "load --repeat 1"; do
	for case in "$d/a.o:$d/thin.a" "$d/sub/a.o:$d/thin.a" "$d/notes.txt:$d/thin.a" \
		"$T/b-link.o:$d/thin.a" "$d/b.o:$T/tree" "$d/notes.txt:$T/tree" \
		"$T/b-link.o:$T/tree/"; do
		out=${case%%:*}
		in=${case#*:}
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd -o "$out" "$in" >"$T/stdout" 2>"$T/err" || rc=$?
		check "$cmd -o $out $in: exit status" 2 "$rc"
		grep -q "^elfplt: -o $out would overwrite an input" "$T/err" ||
			fail "$cmd -o $out $in: message: $(cat "$T/err")"
	done
	check "$cmd: members unchanged" "$before" \
		"$(cat "$d/a.o" "$d/b.o" "$d/sub/a.o" "$d/notes.txt" | cksum)"

	# A file beside the members that is no member: written.
	cp "$x86" "$d/c.o"
	rc=0
	# shellcheck disable=SC2086
	"$ELFPLT" $cmd -o "$d/c.o" "$d/thin.a" >/dev/null 2>"$T/err" || rc=$?
	check "$cmd -o c.o thin.a (no member): exit status" 0 "$rc"
	[ "$(sum "$d/c.o")" != "$(sum "$x86")" ] || fail "$cmd -o c.o: report not written"
done
done_testing
