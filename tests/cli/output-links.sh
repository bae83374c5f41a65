#!/bin/sh
# -o FILE never destroys an input, whatever name the output reaches it by: a
# hard link to a file the directory walk takes (another name for the same
# inode), a symbolic link to it, or a path through "..".  Each is refused
# with a usage error (exit 2) and the input stays byte for byte.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

x86=$(fixture stats-x86-64)
mkdir -p "$T/tree/sub" "$T/out"
cp "$x86" "$T/tree/sub/victim.o"
ln "$T/tree/sub/victim.o" "$T/out/hard.o"
ln -s ../tree/sub/victim.o "$T/out/sym.o"
before=$(cksum <"$T/tree/sub/victim.o")

for cmd in stats "stats -j 2" plt "load --repeat 1"; do
	for case in "$T/out/hard.o:$T/tree" "$T/out/hard.o:$T/out/../tree/sub/" \
		"$T/out/sym.o:$T/tree" "$T/tree/sub/../sub/victim.o:$T/tree"; do
		out=${case%%:*}
		in=${case#*:}
		rc=0
		# shellcheck disable=SC2086
		"$ELFPLT" $cmd -o "$out" "$in" >/dev/null 2>"$T/err" || rc=$?
		check "$cmd -o $out $in: exit status" 2 "$rc"
		grep -q "^elfplt: -o $out would overwrite an input" "$T/err" ||
			fail "$cmd -o $out $in: message: $(cat "$T/err")"
		check "$cmd -o $out $in: victim.o unchanged" "$before" \
			"$(cksum <"$T/tree/sub/victim.o")"
	done
done

# A hard link outside the tree to a file that is not ELF is no input: written.
echo "notes, not ELF" >"$T/tree/notes.txt"
ln "$T/tree/notes.txt" "$T/out/notes-link.txt"
rc=0
"$ELFPLT" stats -o "$T/out/notes-link.txt" "$T/tree" >/dev/null 2>"$T/err" || rc=$?
check "stats -o a hard link of a non-ELF file in the tree: exit status" 0 "$rc"
grep -q "notes, not ELF" "$T/tree/notes.txt" &&
	fail "stats -o notes-link.txt: report not written"
done_testing
