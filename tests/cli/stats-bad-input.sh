#!/bin/sh
# Bad input: every malformed file gives exactly one stderr line
# "elfplt: PATH: what is wrong (section N NAME)", a JSON files[].error
# {code, message}, the good files of the same run are still reported, the exit
# status is 1, and the bad file is not changed.  The malformed files are made
# here, from tests/fixtures/stats-bad.yaml (one document per broken field) and
# by cutting a valid file short.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF

"$YAML2OBJ" --docnum=1 "$FIXTURES/stats-bad.yaml" -o "$T/good.o" || exit 1
bad_doc() {
	"$YAML2OBJ" --docnum="$1" "$FIXTURES/stats-bad.yaml" -o "$T/$2" || exit 1
}

# The valid document's .rela.text holds 2 relocations (both R_X86_64_PLT32);
# readelf agrees, so the good files' counts are known independently.
check "good file per readelf" 2 \
	"$("$READELF" -rW "$T/good.o" | grep -c 'R_X86_64_PLT32')"
shoff=$("$READELF" -hW "$T/good.o" | awk '/Start of section headers/ { print $5 }')

# Cut-short and non-ELF files.
printf 'just some text, not an ELF file\n' >"$T/text.o"
: >"$T/empty.o"
head -c 40 "$T/good.o" >"$T/hdr40.o"	# inside the 64-byte Elf64_Ehdr
head -c 10 "$T/good.o" >"$T/hdr10.o"	# inside e_ident
# libelf's quirk: with the section header table cut off it reports zero
# sections rather than an error; elfplt must say the file is truncated.
head -c "$shoff" "$T/good.o" >"$T/noshdr.o"
head -c $((shoff + 64 * 3 + 10)) "$T/good.o" >"$T/halfshdr.o"
bad_doc 2 entsize.o
bad_doc 3 link-range.o
bad_doc 4 link-type.o
bad_doc 5 info-range.o
bad_doc 6 rsym.o
bad_doc 7 shstrndx.o
bad_doc 8 shname.o
bad_doc 9 contents.o
bad_doc 10 shoff.o

# case FILE CODE PATTERN: what the one stderr line must look like (after
# "elfplt: FILE: "), as a shell pattern, and the JSON error code.
cases="
text.o		not_elf		not an ELF file
empty.o		not_elf		not an ELF file
hdr40.o		truncated	file ends inside the ELF header*
hdr10.o		truncated	file ends inside the ELF header*
noshdr.o	truncated	section header table*outside the file*
halfshdr.o	truncated	section header table of 6 entries*outside the file*
shoff.o		truncated	section header table at offset 1048576 is outside the file*
contents.o	truncated	contents at offset 1048576, 48 bytes, are outside the file*(section 2 .rela.text)
entsize.o	malformed	sh_size 47 is not a multiple of sh_entsize 24 (section 2 .rela.text)
link-range.o	malformed	sh_link 99 is out of range*(section 2 .rela.text)
link-type.o	malformed	sh_link 1 (.text) is not a symbol table (section 2 .rela.text)
info-range.o	malformed	sh_info 99 is out of range*(section 2 .rela.text)
rsym.o		malformed	relocation 0: r_sym 9 is out of range (2 symbols) (section 2 .rela.text)
shstrndx.o	malformed	e_shstrndx 80 is out of range (6 sections)
shname.o	malformed	sh_name 4096 is outside .shstrtab*(section 1)
"

while IFS='	' read -r name code pattern; do
	[ -n "$name" ] || continue
	bad=$T/$name
	sum_before=$(sha256sum "$bad" | cut -d' ' -f1)
	for fmt in json text; do
		rc=0
		"$ELFPLT" stats --format=$fmt -o "$T/out" "$T/good.o" "$bad" "$T/good.o" \
			2>"$T/err" || rc=$?
		check "$name ($fmt): exit status" 1 "$rc"
		check "$name ($fmt): one stderr line" 1 "$(wc -l <"$T/err")"
		line=$(cat "$T/err")
		# shellcheck disable=SC2254
		case "$line" in
		"elfplt: $bad: "$pattern) echo "ok: $name ($fmt): $line" ;;
		*) fail "$name ($fmt): stderr '$line' does not match 'elfplt: $bad: $pattern'" ;;
		esac
		if [ $fmt = json ]; then
			check "$name: three files reported" 3 "$(jqr "$T/out" '.files | length')"
			check "$name: error code" "$code" "$(jqr "$T/out" '.files[1].error.code')"
			check "$name: error path" "$bad" "$(jqr "$T/out" '.files[1].path')"
			check "$name: error message = stderr" "$line" \
				"elfplt: $(jqr "$T/out" '.files[1].error.message')"
			check "$name: good files still counted" "2 2" \
				"$(jqr "$T/out" '"\(.files[0].relocations.total) \(.files[2].relocations.total)"')"
			check "$name: totals" "2 1 4" \
				"$(jqr "$T/out" '.totals | "\(.files) \(.files_failed) \(.relocations)"')"
		else
			check "$name: good files still reported" 2 \
				"$(grep -c "^$T/good.o: ELF64 LSB x86-64 relocatable, 2 relocations" "$T/out")"
		fi
	done
	check "$name: input unchanged" "$sum_before" "$(sha256sum "$bad" | cut -d' ' -f1)"
done <<EOF
$cases
EOF

# A path that does not exist is an input that fails, not a usage error.
rc=0
"$ELFPLT" stats "$T/no-such.o" >/dev/null 2>"$T/err" || rc=$?
check "missing file: exit status" 1 "$rc"
check "missing file: message" "elfplt: $T/no-such.o: No such file or directory" "$(cat "$T/err")"

done_testing
