#!/bin/sh
# A PATH inside another PATH, or a tree of hard links to files already read:
# its files are read once, under the first name (hard-link dedupe), and the
# PATH is not "no ELF files found": a note says its files were read already.
# A PATH with really no ELF file still gets the warning.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

x86=$(fixture stats-x86-64)
m=$T/m
mkdir -p "$m/kernel/fs" "$T/links" "$T/empty"
cp "$x86" "$m/a.o"
cp "$x86" "$m/kernel/fs/b.o"
ln "$m/a.o" "$T/links/a-link.o"
note() {
	echo "elfplt: note: $1: no ELF files found that were not already read" \
		"under another PATH or name"
}

for cmd in stats plt; do
	for j in 1 2; do
		rc=0
		"$ELFPLT" $cmd -j $j --json "$m" "$m/kernel/fs" >"$T/out.json" 2>"$T/err" || rc=$?
		check "$cmd -j $j M M/kernel/fs: exit status" 0 "$rc"
		# By hand: M holds two ELF files, a.o and kernel/fs/b.o, each read once.
		check "$cmd -j $j M M/kernel/fs: files" 2 "$(jqr "$T/out.json" '.totals.files')"
		check "$cmd -j $j M M/kernel/fs: stderr" "$(note "$m/kernel/fs")" "$(cat "$T/err")"

		rc=0
		"$ELFPLT" $cmd -j $j --json --allow-empty "$m" "$T/links" "$T/empty" >"$T/out.json" \
			2>"$T/err" || rc=$?
		check "$cmd -j $j M links empty: exit status" 0 "$rc"
		check "$cmd -j $j M links empty: files" 2 "$(jqr "$T/out.json" '.totals.files')"
		check "$cmd -j $j M links empty: stderr" \
			"$(
				note "$T/links"
				echo "elfplt: warning: $T/empty: no ELF files found"
			)" \
			"$(cat "$T/err")"
	done
done
done_testing
