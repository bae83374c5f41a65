#!/bin/sh
# SHF_COMPRESSED relocation and symbol tables, which no assembler or linker
# makes: tests/fixtures/gen-compressed writes the same tables plain, with
# ELFCOMPRESS_ZLIB (libelf's elf_compress()) and with ELFCOMPRESS_ZSTD (a
# libzstd frame behind a hand-set Elf*_Chdr), for x86-64 (ELF64 RELA), s390x
# (ELF64 RELA, big-endian: the decoded tables are converted to host order)
# and i386 (ELF32 REL).  readelf cannot read a compressed relocation table,
# so the streams themselves are first checked with independent decoders
# (zstd(1); eu-elfcompress, elfutils' own, for zlib): each must give back
# byte for byte the plain file's table.  Then elfplt's results must equal
# readelf -rW on the plain file and the numbers derived by hand from what
# the generator writes (see the comment at the top of gen-compressed.c):
#   .rel[a].text 300 relocations: i % 3 gives 100 PLT, 100 PC-relative,
#     100 word; .rel[a].data 40 word relocations: 140 word in all.
#   Symbols (3 + i % 5 for .text, 60 each of 3..7; 1 and 7 for .data, 20
#     each): undefined 5, 6 -> 120; same_section 3, 4 in .text (120) and 7
#     in .data (20) -> 140; other_section 7 from .text (60) and 1 from .data
#     (20) -> 80; distinct {1, 3, 4, 5, 6, 7} -> 6.
#   Decoded sizes (ch_size): 300 and 40 entries of 24 bytes (Elf64_Rela) or
#     8 (Elf32_Rel); 8 symbols of 24 (Elf64_Sym) or 16 (Elf32_Sym) bytes;
#     .debug_info 4096 bytes.
# Sizes in the file (sh_size) and the ch_size of each header come from
# readelf -SW and readelf -t.
. "$top_srcdir/tests/lib.sh"
need READELF JQ
GEN=$top_builddir/tests/fixtures/gen-compressed
PROBE=$top_builddir/tests/unit/decoded_probe
command -v zstd >/dev/null || skip "zstd(1) not found (./bootstrap --deps installs it)"
command -v eu-elfcompress >/dev/null || skip "eu-elfcompress not found (package elfutils)"

# shdr FILE NAME: "OFFSET SIZE FLAGS" of section NAME per readelf -SW
# (offset and size in hex without 0x; FLAGS "-" when there are none).
shdr() {
	"$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk -v n="$2" '$1 == n { print $4, $5, (NF == 10 ? $7 : "-"); exit }'
}

# chdr FILE NAME: "TYPE CH_SIZE CH_ADDRALIGN" per readelf -t (ZLIB or ZSTD,
# ch_size in hex); nothing when the section is not compressed.
chdr() {
	"$READELF" -t "$1" | awk -v n="$2" '
		$0 ~ ("\\] " n "$") { f = 1; next }
		f && /^  *\[ *[0-9]+\] / { exit }
		f && /COMPRESSED/ { getline; gsub(",", ""); print $1, $2, $3; exit }'
}

# bytes FILE OFFSET SIZE: those bytes of FILE on stdout (decimal numbers).
bytes() {
	tail -c +"$(($2 + 1))" "$1" | head -c "$3"
}

# type_counts FILE: "NAME=COUNT" per relocation type per readelf -rW, sorted.
type_counts() {
	"$READELF" -rW "$1" | awk '$3 ~ /^R_/ { n[$3]++ } END { for (t in n) print t "=" n[t] }' |
		LC_ALL=C sort | tr '\n' ' '
}

# The layouts' relocation names (gen-compressed.c) and entry sizes.
layout_info() {
	case $1 in
	64lsb) echo "R_X86_64_64=140 R_X86_64_PC32=100 R_X86_64_PLT32=100 .rela 24 24" ;;
	64msb) echo "R_390_64=140 R_390_PC32DBL=100 R_390_PLT32DBL=100 .rela 24 24" ;;
	32lsb) echo "R_386_32=140 R_386_PC32=100 R_386_PLT32=100 .rel 8 16" ;;
	esac
}

for lo in 64lsb 64msb 32lsb; do
	"$GEN" "$T/$lo-plain.o" $lo none none none none || exit 1
	# The generator's tables, read by readelf from the plain file.
	set -- $(layout_info $lo)
	check "$lo plain: types per readelf -rW" "$1 $2 $3 " "$(type_counts "$T/$lo-plain.o")"
done

# layout, then the storage of .rel[a].text, .rel[a].data, .symtab, .debug_info
specs="
64lsb zlib zlib none none
64lsb zstd zstd none none
64lsb zlib zstd zlib zstd
64lsb zstd zlib zstd zlib
64msb zlib zstd zstd zlib
64msb zstd zlib zlib zstd
32lsb zlib zstd zlib zlib
32lsb zstd zlib zstd zstd
"

while read -r lo rt rd sy dbg; do
	[ -n "$lo" ] || continue
	f=$T/$lo-$rt-$rd-$sy-$dbg.o
	ref=$T/$lo-plain.o
	"$GEN" "$f" "$lo" "$rt" "$rd" "$sy" "$dbg" || exit 1
	set -- $(layout_info "$lo")
	want_types="$1 $2 $3 " rel=$4 relsz=$5 symsz=$6
	if [ "$lo" = 32lsb ]; then hdr=12; else hdr=24; fi
	name=$(basename "$f")

	# Each compressed section, decoded by another tool, is the plain table.
	ncomp=0 disk=0 dec=0 nzlib=0 nzstd=0 tables_dec=0
	for sec in $rel.text $rel.data .symtab .debug_info; do
		set -- $(chdr "$f" "$sec")
		[ $# -eq 3 ] || continue
		ctype=$1 chsize=$((0x$2))
		set -- $(shdr "$f" "$sec")
		off=$((0x$1)) size=$((0x$2))
		set -- $(shdr "$ref" "$sec")
		bytes "$ref" $((0x$1)) $((0x$2)) >"$T/plain"
		case $ctype in
		ZSTD)
			bytes "$f" $((off + hdr)) $((size - hdr)) | zstd -dcq >"$T/decoded"
			nzstd=$((nzstd + 1))
			;;
		ZLIB)
			eu-elfcompress -q -t none -n "$sec" -o "$T/unz.o" "$f" ||
				fail "eu-elfcompress $sec"
			set -- $(shdr "$T/unz.o" "$sec")
			bytes "$T/unz.o" $((0x$1)) $((0x$2)) >"$T/decoded"
			nzlib=$((nzlib + 1))
			;;
		esac
		if cmp -s "$T/plain" "$T/decoded"; then
			echo "ok: $name $sec: $ctype stream decodes to the plain section"
		else
			fail "$name $sec: $ctype stream does not decode to the plain section"
		fi
		check "$name $sec: ch_size = plain sh_size" "$(wc -c <"$T/plain")" "$chsize"
		case $sec in
		*.text) want=$((300 * relsz)) ;;
		*.data) want=$((40 * relsz)) ;;
		.symtab) want=$((8 * symsz)) ;;
		*) want=4096 ;;
		esac
		check "$name $sec: ch_size (by hand)" "$want" "$chsize"
		ncomp=$((ncomp + 1)) disk=$((disk + size)) dec=$((dec + chsize))
		[ "$sec" = .debug_info ] || tables_dec=$((tables_dec + chsize))
	done

	"$ELFPLT" stats --json -o "$T/s.json" "$f" 2>"$T/err" || fail "$name: stats exit $?"
	check "$name: stats stderr" "" "$(cat "$T/err")"
	check "$name: types (= readelf -rW of the plain file)" "$want_types" \
		"$(jqr "$T/s.json" '.files[0].relocations.by_type | map("\(.name)=\(.count)") |
			sort | join(" ")') "
	check "$name: types (= elfplt on the plain file)" \
		"$("$ELFPLT" stats --json "$ref" | "$JQ" -c '.files[0].relocations.by_type')" \
		"$(jqr "$T/s.json" '.files[0].relocations.by_type | tostring')"
	check "$name: symbol classes" "0 120 140 80 0 6" \
		"$(jqr "$T/s.json" '.files[0].relocations.symbols | [.none, .undefined,
			.same_section, .other_section, .absolute_or_common, .distinct] |
			map(tostring) | join(" ")')"
	# Per relocation section: readelf -SW's sh_size, the generator's ch_size.
	i=0
	for sec in $rel.text $rel.data; do
		case $sec in *.text) n=300 comp=$rt ;; *) n=40 comp=$rd ;; esac
		# The gABI's ch_type: ELFCOMPRESS_ZLIB 1, ELFCOMPRESS_ZSTD 2; null if plain.
		case $comp in none) comp=null ;; zlib) comp=ELFCOMPRESS_ZLIB/1 ;;
		zstd) comp=ELFCOMPRESS_ZSTD/2 ;; esac
		set -- $(shdr "$f" "$sec")
		check "$name $sec: entries, compression, bytes, decoded_bytes" \
			"$n $comp $((0x$2)) $((n * relsz))" \
			"$(jqr "$T/s.json" ".files[0].relocations.sections[$i] |
				\"\(.entries) \(if .compression then \"\(.compression.name)/\(.compression.value)\"
				  else \"null\" end) \(.bytes) \(.decoded_bytes)\"")"
		i=$((i + 1))
	done
	check "$name: compressed_sections (readelf -SW, -t)" \
		"$ncomp $disk $dec" \
		"$(jqr "$T/s.json" '.files[0].compressed_sections |
			"\(.count) \(.bytes) \(.decoded_bytes)"')"
	want_bt=
	[ $nzlib -gt 0 ] && want_bt="ELFCOMPRESS_ZLIB/1=$nzlib"
	[ $nzstd -gt 0 ] && want_bt="${want_bt:+$want_bt }ELFCOMPRESS_ZSTD/2=$nzstd"
	check "$name: compressed_sections.by_type" "$want_bt" \
		"$(jqr "$T/s.json" '.files[0].compressed_sections.by_type |
			map("\(.name)/\(.value)=\(.count)") | join(" ")')"
	check "$name: totals.compressed_sections" "$ncomp $disk $dec" \
		"$(jqr "$T/s.json" '.totals.compressed_sections |
			"\(.count) \(.bytes) \(.decoded_bytes)"')"

	# Text: the kind column names the compression; one summary line.
	"$ELFPLT" stats "$f" >"$T/s.txt" || fail "$name: stats text exit $?"
	zl=
	[ $nzlib -gt 0 ] && zl="zlib $nzlib"
	[ $nzstd -gt 0 ] && zl="${zl:+$zl, }zstd $nzstd"
	want="  compressed: $ncomp SHF_COMPRESSED sections ($zl):"
	want="$want $disk bytes in the file, $dec decoded"
	check "$name: text summary" "$want" "$(grep '^  compressed:' "$T/s.txt")"
	want_kind=$(echo "$rel" | tr 'a-z' 'A-Z' | tr -d .)
	[ "$rt" = none ] || want_kind="$want_kind $rt"
	check "$name: text kind of $rel.text" "$want_kind" \
		"$(sed -n "s/.* $rel\\.text  *\\(REL[A]*\\( z[a-z]*\\)*\\)  .*/\\1/p" "$T/s.txt")"

	# Only the tables are decoded, each once; .debug_info never by stats.
	"$PROBE" "$f" >"$T/probe" || fail "$name: decoded_probe exit $?"
	check "$name: bytes stats decodes (the compressed tables)" "$tables_dec" \
		"$(sed -n 's/^stats //p' "$T/probe")"
	check "$name: bytes decoded for all compressed sections" "$dec" \
		"$(sed -n 's/^all //p' "$T/probe")"
	check "$name: a second ep_section_data() reuses the first" yes \
		"$(sed -n 's/^same //p' "$T/probe")"

	# plt: the x86-64 object model reads the decoded tables as the plain
	# ones (no model covers s390x or i386 objects: nothing is decoded).
	if [ "$lo" = 64lsb ]; then
		want_plt=$tables_dec
		check "$name: plt = plt on the plain file" \
			"$("$ELFPLT" plt --json "$ref" | "$JQ" -c '.files[0] | del(.path)')" \
			"$("$ELFPLT" plt --json "$f" | "$JQ" -c '.files[0] | del(.path)')"
		check "$name: plt branch relocations (the 100 R_X86_64_PLT32)" 100 \
			"$("$ELFPLT" plt --json "$f" | "$JQ" .files[0].detail.branch_relocations)"
	else
		want_plt=0
	fi
	check "$name: bytes plt decodes" "$want_plt" "$(sed -n 's/^plt //p' "$T/probe")"

	# load reads the tables' bytes as the file has them (sh_size).
	want_load=0
	for sec in $rel.text $rel.data .symtab .strtab; do
		set -- $(shdr "$f" "$sec")
		want_load=$((want_load + 0x$2))
	done
	"$ELFPLT" load --repeat 1 --sections=relocs --json -o "$T/l.json" "$f" ||
		fail "$name: load exit $?"
	check "$name: load bytes (sh_size, as in the file)" "$want_load" \
		"$(jqr "$T/l.json" '.files[0].bytes')"
done <<EOF
$specs
EOF

done_testing
