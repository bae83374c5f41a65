#!/bin/sh
# A file reached again (a hard link, a PATH named twice, a thin archive
# naming one file twice) counts as an ELF file already read only when it was
# ELF: a PATH whose files are all text, however linked, is "no ELF files
# found" (exit 1; a warning and exit 0 with --allow-empty), not a note that
# its files were read already (it was, with exit 0, so a CI gate passed on
# an empty tree).  An ELF file's hard link still gets the note
# (tests/cli/walk-nested.sh).
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

x86=$(fixture stats-x86-64)
mkdir -p "$T/hl" "$T/thin" "$T/elf"
echo "notes, not ELF" >"$T/hl/a.txt"
ln "$T/hl/a.txt" "$T/hl/b.txt"
echo "notes, not ELF" >"$T/thin/n.txt"
(cd "$T/thin" && ar qcT t.a n.txt n.txt) || fail "ar qcT t.a"
cp "$x86" "$T/elf/x.o"
ln "$T/elf/x.o" "$T/elf/y.o"
empty() { echo "elfplt: $1: no ELF files found (--allow-empty to accept that)"; }

for cmd in stats plt; do
	for j in 1 2; do
		for case in "$T/hl" "$T/hl $T/hl" "$T/thin" "$T/thin/t.a"; do
			rc=0
			# shellcheck disable=SC2086
			"$ELFPLT" $cmd -j $j $case >/dev/null 2>"$T/err" || rc=$?
			check "$cmd -j $j $case: exit status" 1 "$rc"
			for p in $case; do
				grep -qxF "$(empty "$p")" "$T/err" ||
					fail "$cmd -j $j $case: no error for $p: $(cat "$T/err")"
			done
			grep -q "note:" "$T/err" && fail "$cmd -j $j $case: a note: $(cat "$T/err")"
		done
		rc=0
		"$ELFPLT" $cmd -j $j --allow-empty "$T/hl" >/dev/null 2>"$T/err" || rc=$?
		check "$cmd -j $j --allow-empty hl: exit status" 0 "$rc"
		check "$cmd -j $j --allow-empty hl: stderr" \
			"elfplt: warning: $T/hl: no ELF files found" "$(cat "$T/err")"
		# The control: ELF and its hard link, the directory named twice.
		rc=0
		"$ELFPLT" $cmd -j $j "$T/elf" "$T/elf" >/dev/null 2>"$T/err" || rc=$?
		check "$cmd -j $j elf elf: exit status" 0 "$rc"
		check "$cmd -j $j elf elf: stderr" "elfplt: note: $T/elf: no ELF files found that were\
 not already read under another PATH or name" "$(cat "$T/err")"
	done
done

# /proc/self/: files, none ELF (exe is a symbolic link the walk does not follow).
if [ -r /proc/self/status ]; then
	rc=0
	"$ELFPLT_BIN" stats /proc/self/ >/dev/null 2>"$T/err" || rc=$?
	check "stats /proc/self/: exit status" 1 "$rc"
	grep -qxF "$(empty /proc/self/)" "$T/err" ||
		fail "stats /proc/self/: no error: $(cat "$T/err")"
else
	skip_part "no /proc"
fi
done_testing
