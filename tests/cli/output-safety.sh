#!/bin/sh
# -o FILE never destroys an input: every command refuses an output that is
# one of its inputs, or an ELF file inside an input directory (the walk would
# take it), with a usage error (exit 2), and the input stays byte for byte.
# An output that is not an input is written as usual.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

x86=$(fixture stats-x86-64)
d=$T/tree
mkdir -p "$d/sub"
cp "$x86" "$d/sub/victim.o"
cp "$x86" "$T/single.o"
echo "notes, not ELF" >"$d/notes.txt"
sum() { cksum <"$1"; }
before_victim=$(sum "$d/sub/victim.o")
before_single=$(sum "$T/single.o")

for cmd in stats plt "load --repeat 1"; do
	# shellcheck disable=SC2086
	for case in "$T/single.o:$T/single.o" "$d/sub/victim.o:$d" "$d/sub/victim.o:$d/sub/"; do
		out=${case%%:*}
		in=${case#*:}
		rc=0
		"$ELFPLT" $cmd -o "$out" "$in" >"$T/stdout" 2>"$T/err" || rc=$?
		check "$cmd -o $out $in: exit status" 2 "$rc"
		grep -q "^elfplt: -o $out would overwrite an input" "$T/err" ||
			fail "$cmd -o $out $in: message: $(cat "$T/err")"
	done
	check "$cmd: victim.o unchanged" "$before_victim" "$(sum "$d/sub/victim.o")"
	check "$cmd: single.o unchanged" "$before_single" "$(sum "$T/single.o")"

	# A non-ELF file inside the input directory is not an input: written.
	rc=0
	"$ELFPLT" $cmd -o "$d/notes.txt" "$d" >/dev/null 2>"$T/err" || rc=$?
	check "$cmd -o notes.txt inside the tree: exit status" 0 "$rc"
	[ -s "$d/notes.txt" ] && ! grep -q "notes, not ELF" "$d/notes.txt" ||
		fail "$cmd -o notes.txt: report not written"
	echo "notes, not ELF" >"$d/notes.txt"
done
done_testing
