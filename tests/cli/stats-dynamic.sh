#!/bin/sh
# elfplt stats on linked files through PT_DYNAMIC (issue 18): files without
# section headers are counted from the dynamic tags' tables, files with both
# have the two compared (a disagreement is a warning), and a PT_DYNAMIC or a
# table outside the file or its PT_LOAD is an error naming it.
#
# Expected figures: the hand-derived ones of tests/fixtures/stats-dynamic.yaml
# (see its header), both byte orders; for gcc-linked files, readelf -rW
# --use-dynamic on the stripped file and readelf -rW on the unstripped one.
# Malformed cases are doc 3..7 of the fixture, and two copies of the valid
# stripped file patched with dd at offsets from the gABI's Elf64_Phdr layout
# (e_phoff 64, 56 bytes each: p_offset +8, p_filesz +32, p_memsz +40), each
# patch checked with readelf -lW first.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF
OBJCOPY=$(command -v llvm-objcopy) || skip "llvm-objcopy not found (./bootstrap installs llvm)"
Y=$FIXTURES/stats-dynamic.yaml

doc() { # doc N NAME: doc N with sections as $T/NAME, stripped as $T/NAME.nosec
	"$YAML2OBJ" --docnum="$1" "$Y" -o "$T/$2" || exit 1
	"$OBJCOPY" --strip-sections "$T/$2" "$T/$2.nosec" 2>/dev/null || rm -f "$T/$2.nosec"
}
doc 1 be
doc 2 le
doc 3 relasz
doc 4 nolo
doc 5 pastfile
doc 6 pastload
doc 7 dynpast

# stats PATH...: run stats --format=json; $T/out.json, $T/err, $rc.
stats() {
	rc=0
	timeout 20 "$ELFPLT" stats --format=json "$@" >"$T/out.json" 2>"$T/err" || rc=$?
}
# by_type N: "NAME:COUNT ..." sorted, of files[N].
by_type() {
	jqr "$T/out.json" ".files[$1].relocations.by_type | map(\"\(.name):\(.count)\") | sort | join(\" \")"
}
symbols() {
	jqr "$T/out.json" ".files[$1].relocations.symbols |
		\"\(.none) \(.undefined) \(.same_section) \(.other_section) \(.absolute_or_common) \(.distinct)\""
}

# --- valid, both byte orders: by hand --------------------------------------
for f in be le; do
	[ -f "$T/$f.nosec" ] || { fail "llvm-objcopy could not strip $f"; continue; }
	check "$f: no section headers left" "0" \
		"$("$READELF" -hW "$T/$f.nosec" | sed -n 's/^ *Number of section headers: *//p')"
	stats "$T/$f.nosec" "$T/$f"
	check "$f: exit" 0 "$rc"
	check "$f: stderr" "" "$(cat "$T/err")"
	check "$f.nosec: source" dynamic "$(jqr "$T/out.json" '.files[0].relocation_source')"
	check "$f: source" sections "$(jqr "$T/out.json" '.files[1].relocation_source')"
	check "$f.nosec: tables" "DT_RELA:RELA:3:3 DT_JMPREL:RELA:2:2 DT_RELR:RELR:2:3" \
		"$(jqr "$T/out.json" '[.files[0].relocations.sections[] |
			"\(.name):\(.kind.name | ltrimstr("SHT_")):\(.entries):\(.relocations)"] | join(" ")')"
	for i in 0 1; do
		check "$f[$i]: total" 8 "$(jqr "$T/out.json" ".files[$i].relocations.total")"
		check "$f[$i]: symbols" "4 2 0 2 0 2" "$(symbols $i)"
		check "$f[$i]: dynamic" "4 1 2 0 1 3" "$(jqr "$T/out.json" ".files[$i].dynamic |
			\"\(.relative) \(.glob_dat) \(.jump_slot) \(.irelative) \(.other) \(.relr.present)\"")"
		check "$f[$i]: warnings" null "$(jqr "$T/out.json" ".files[$i].warnings")"
	done
	case $f in
	be) want="R_PPC64_ADDR64:1 R_PPC64_GLOB_DAT:1 R_PPC64_JMP_SLOT:2 R_PPC64_RELATIVE:4" ;;
	le) want="R_AARCH64_ABS64:1 R_AARCH64_GLOB_DAT:1 R_AARCH64_JUMP_SLOT:2 R_AARCH64_RELATIVE:4" ;;
	esac
	check "$f.nosec: by type" "$want" "$(by_type 0)"
	check "$f: by type" "$want" "$(by_type 1)"
done

# --- warnings: sections and tags disagree, or PT_DYNAMIC is unreadable -------
# The sections are what is counted: every figure is still the valid file's.
warns() { # warns NAME CODE MESSAGE
	stats "$T/$1" "$T/be"
	check "$1: exit" 0 "$rc"
	check "$1: stderr" "elfplt: $T/$1: warning: $3" "$(cat "$T/err")"
	check "$1: JSON warnings" "$2|$3" \
		"$(jqr "$T/out.json" '.files[0].warnings | map("\(.code)|\(.message)") | join(";")')"
	check "$1: total" 8 "$(jqr "$T/out.json" '.files[0].relocations.total')"
	check "$1: by type" "R_PPC64_ADDR64:1 R_PPC64_GLOB_DAT:1 R_PPC64_JMP_SLOT:2 R_PPC64_RELATIVE:4" \
		"$(by_type 0)"
	check "$1: good file after it" 8 "$(jqr "$T/out.json" '.files[1].relocations.total')"
}
warns relasz dynamic_mismatch \
	"DT_RELASZ is 96 bytes but section 3 (.rela.dyn) at DT_RELA 0x1200 has sh_size 72"
warns nolo dynamic_unreadable "DT_RELA 0x9000 is in no PT_LOAD segment"
warns pastfile dynamic_unreadable \
	"DT_RELA 0x1200 (12288 bytes) extends past the end of the file ($(wc -c <"$T/pastfile") bytes)"
warns pastload dynamic_unreadable \
	"DT_RELA 0x1200 (12288 bytes) is past the file bytes of PT_LOAD (program header 0, p_filesz 976)"
warns dynpast dynamic_unreadable \
	"PT_DYNAMIC (program header 1, p_offset 0x8000, p_filesz 208) extends past the end of the file ($(wc -c <"$T/dynpast") bytes)"

# --- errors: no section headers, so nothing else to count ------------------
# put FILE OFFSET HEX16: write 8 big-endian bytes at OFFSET.
put() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cp "$T/be.nosec" "$T/dynpast.nosec"
put "$T/dynpast.nosec" 128 0000000000008000 # phdr 1 (PT_DYNAMIC) p_offset
check "patched PT_DYNAMIC p_offset" 0x008000 \
	"$("$READELF" -lW "$T/dynpast.nosec" 2>/dev/null | awk '$1 == "DYNAMIC" { print $2 }')"
cp "$T/pastload.nosec" "$T/pastfile.nosec"
put "$T/pastfile.nosec" 96 0000000000010000  # phdr 0 (PT_LOAD) p_filesz
put "$T/pastfile.nosec" 104 0000000000010000 # and p_memsz
check "patched PT_LOAD p_filesz" 0x010000 \
	"$("$READELF" -lW "$T/pastfile.nosec" 2>/dev/null | awk '$1 == "LOAD" { print $5 }')"

fails() { # fails NAME CODE MESSAGE
	cp "$T/$1.nosec" "$T/$1.copy"
	stats "$T/be.nosec" "$T/$1.nosec" "$T/le.nosec"
	check "$1.nosec: exit" 1 "$rc"
	check "$1.nosec: stderr" "elfplt: $T/$1.nosec: $3" "$(cat "$T/err")"
	check "$1.nosec: JSON error" "$2|$T/$1.nosec: $3" \
		"$(jqr "$T/out.json" '.files[1].error | "\(.code)|\(.message)"')"
	check "$1.nosec: good files still reported" "8 8" \
		"$(jqr "$T/out.json" '"\(.files[0].relocations.total) \(.files[2].relocations.total)"')"
	check "$1.nosec: files_failed" 1 "$(jqr "$T/out.json" '.totals.files_failed')"
	cmp -s "$T/$1.nosec" "$T/$1.copy" || fail "$1.nosec: the input was changed"
}
size=$(wc -c <"$T/be.nosec")
fails nolo malformed "DT_RELA 0x9000 is in no PT_LOAD segment"
fails pastload malformed \
	"DT_RELA 0x1200 (12288 bytes) is past the file bytes of PT_LOAD (program header 0, p_filesz 976)"
fails pastfile truncated "DT_RELA 0x1200 (12288 bytes) extends past the end of the file ($size bytes)"
fails dynpast truncated \
	"PT_DYNAMIC (program header 1, p_offset 0x8000, p_filesz 208) extends past the end of the file ($size bytes)"

# --- gcc-linked files against readelf --------------------------------------
# readelf_types FILE [readelf options]: "TYPE:COUNT ..." sorted; an entry
# line's third field is its type, a RELR table's lines are bare addresses
# (R_X86_64_RELATIVE each).
readelf_types() {
	f=$1
	shift
	"$READELF" "$@" "$f" 2>/dev/null | awk '
		/^[0-9a-f]+ +[0-9a-f]+ +R_/ { n[$3]++; next }
		/^[0-9a-f]+$/ { n["R_X86_64_RELATIVE"]++ }
		END { for (t in n) print t ":" n[t] }' | sort | tr '\n' ' ' | sed 's/ $//'
}
if [ "$(uname -m)" = x86_64 ] && command -v "${CC%% *}" >/dev/null; then
	cat >"$T/lib.c" <<'EOC'
#include <stdio.h>
extern int ext_var;
int g = 1;
int *pg = &g;
void *tab[] = { &g, &pg, (void *)puts, (void *)printf };
int f(void) { printf("%d\n", ext_var); puts("x"); return g + *pg; }
EOC
	cat >"$T/main.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
int main(int c, char **v) { printf("%d\n", c); puts(v[0]); return atoi(v[0]) + abs(c); }
EOC
	$CC -shared -fPIC -o "$T/lib.so" "$T/lib.c" || fail "cc lib.so"
	$CC -shared -fPIC -Wl,-z,pack-relative-relocs -o "$T/relr.so" "$T/lib.c" ||
		fail "cc relr.so"
	$CC -no-pie -o "$T/exe" "$T/main.c" || fail "cc exe"
	for f in lib.so relr.so exe; do
		"$OBJCOPY" --strip-sections "$T/$f" "$T/$f.nosec" || { fail "strip $f"; continue; }
		stats "$T/$f.nosec" "$T/$f"
		check "$f: exit" 0 "$rc"
		check "$f: stderr" "" "$(cat "$T/err")"
		check "$f.nosec: by type = readelf -rW --use-dynamic" \
			"$(readelf_types "$T/$f.nosec" -rW --use-dynamic)" "$(by_type 0)"
		check "$f: by type = readelf -rW" "$(readelf_types "$T/$f" -rW)" "$(by_type 1)"
		[ -n "$(by_type 0)" ] || fail "$f.nosec: no relocations counted"
	done
else
	echo "note: not x86-64 or no CC: the gcc-linked cases are not run"
fi

done_testing
