#!/bin/sh
# A compressed section name table: eu-elfcompress --name=.shstrtab makes
# .shstrtab SHF_COMPRESSED, and eu-readelf reads the names from its decoded
# bytes.  So must elfplt: reading them from the compressed bytes gave
# "sh_name ... runs past the end of .shstrtab (... no NUL)", or garbage names.
. "$top_srcdir/tests/lib.sh"
need READELF JQ
command -v eu-elfcompress >/dev/null || skip "eu-elfcompress not found (package elfutils)"
GEN=$top_builddir/tests/fixtures/gen-compressed
# .rela.text plain, .rela.data ELFCOMPRESS_ZSTD (gen-compressed.c).
"$GEN" "$T/g.o" 64lsb none zstd none none || exit 1
eu-elfcompress -q -f -t zlib --name=.shstrtab -o "$T/c.o" "$T/g.o" || fail "eu-elfcompress"

# The names binutils' readelf gives the plain original: each RELA section,
# its target (sh_info) and its symbol table (sh_link), in section order.
expected=$("$READELF" -SW "$T/g.o" | sed -n 's/^ *\[ *\([0-9]*\)\] //p' | awk '
	{ name[NR - 1] = $1; type[NR - 1] = $2
	  # Lk and Inf are the third and second fields from the end.
	  lk[NR - 1] = $(NF - 2); inf[NR - 1] = $(NF - 1) }
	END { for (i = 0; i < NR; i++) if (type[i] == "RELA") {
		printf "%s%s %s %s", sep, name[i], name[inf[i]], name[lk[i]]; sep = " " } }')
"$ELFPLT" stats -q --json "$T/c.o" > "$T/c.json" 2> "$T/c.err"
check "stats exit status" 0 "$?"
check "stderr" "" "$(cat "$T/c.err")"
check "relocation, target and symtab names" "$expected" \
	"$(jqr "$T/c.json" '[.files[0].relocations.sections[] |
		.name, .target.name, .symtab.name] | join(" ")')"
# Two compressed sections: .rela.data (zstd) and .shstrtab (zlib), whose
# decoded size is .shstrtab's sh_size in the plain file (readelf -SW, hex).
check "compressed sections" 2 "$(jqr "$T/c.json" .files[0].compressed_sections.count)"
size=$("$READELF" -SW "$T/g.o" | awk '$2 == ".shstrtab" || $3 == ".shstrtab" {
	for (i = 1; i <= NF; i++) if ($i == "STRTAB") { print $(i + 3); exit } }')
check ".shstrtab decoded bytes (zlib)" $((0x$size)) \
	"$(jqr "$T/c.json" '.files[0].compressed_sections.by_type[] |
		select(.name == "ELFCOMPRESS_ZLIB") | .decoded_bytes')"
# load and plt open the file the same way.
"$ELFPLT" load -q --repeat 1 --json "$T/c.o" > "$T/load.json" || fail "load exit $?"
check "load files_failed" 0 "$(jqr "$T/load.json" .inputs.files_failed)"

# ch_size one byte more than the names decode to: a clear error, exit 1.
shoff=$("$READELF" -hW "$T/c.o" | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p')
shstrndx=$("$READELF" -hW "$T/c.o" |
	sed -n 's/.*section header string table index: *\([0-9]*\).*/\1/ip')
# Elf64_Shdr is 64 bytes; sh_offset at 24 (gABI).
off=$(od -An -tu8 -j $((shoff + shstrndx * 64 + 24)) -N8 "$T/c.o" | tr -d ' ')
cp "$T/c.o" "$T/bad.o"
# Elf64_Chdr: ch_type (4), ch_reserved (4), ch_size (8): ch_size at 8.
printf "\\$(printf '%03o' $((0x$size + 1)))" |
	dd of="$T/bad.o" bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null
"$ELFPLT" stats -q "$T/bad.o" > /dev/null 2> "$T/bad.err"
check "bad ch_size: exit status" 1 "$?"
check "bad ch_size: stderr lines" 1 "$(wc -l < "$T/bad.err")"
check "bad ch_size: message" "elfplt: $T/bad.o: zlib stream decodes to $((0x$size)) bytes,\
 not ch_size $((0x$size + 1)) (section $shstrndx (no name))" \
	"$(cat "$T/bad.err")"
done_testing
