#!/bin/sh
# Malformed SHF_COMPRESSED sections through all three commands: each case
# is a copy of a generated object (tests/fixtures/gen-compressed) with a few
# bytes patched at the offsets readelf -SW and readelf -h report, in this
# test's temporary directory.  A bad compression header is an error for the
# file whatever the command (headers are checked when the image is opened);
# a bad stream only for a command that reads the section (stats and plt
# read the relocation tables, load only plans and copies bytes as they are
# on disk).  Each failing case: exit status 1, the good files on either side
# still reported, exactly one stderr line, asserted in full, and the same
# message and code in the JSON.
. "$top_srcdir/tests/lib.sh"
need READELF JQ
GEN=$top_builddir/tests/fixtures/gen-compressed

# The base: .rela.text ELFCOMPRESS_ZLIB (section 2, 300 Elf64_Rela: ch_size
# 7200), .rela.data ELFCOMPRESS_ZSTD (section 4, 40: ch_size 960), plain
# .symtab, .debug_info ELFCOMPRESS_ZLIB (section 8, ch_size 4096); and an
# ELF32 one with .rel.text ELFCOMPRESS_ZLIB (section 2).
"$GEN" "$T/base.o" 64lsb zlib zstd none zlib || exit 1
"$GEN" "$T/base32.o" 32lsb zlib none none none || exit 1
"$GEN" "$T/good.o" 64lsb none none none none || exit 1

# shdr FILE NAME: "OFFSET SIZE" of section NAME (decimal) per readelf -SW.
shdr() {
	"$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk -v n="$2" '$1 == n { print $4, $5; exit }' |
		while read -r off size; do echo $((0x$off)) $((0x$size)); done
}
# e_shoff FILE: where the section header table starts (readelf -h).
e_shoff() {
	"$READELF" -hW "$1" | sed -n 's/.*Start of section headers: *\([0-9]*\).*/\1/p'
}
# put FILE OFFSET NBYTES VALUE: VALUE little-endian into NBYTES bytes.
put() {
	_v=$4 _i=0 _s=
	while [ $_i -lt "$3" ]; do
		_s="$_s\\$(printf '%03o' $((_v & 255)))"
		_v=$((_v >> 8)) _i=$((_i + 1))
	done
	# shellcheck disable=SC2059
	printf "$_s" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# flip FILE OFFSET NBYTES: invert those bytes.
flip() {
	for _b in $(od -An -tu1 -j "$2" -N "$3" "$1"); do
		put "$1" "$2" 1 $((_b ^ 255))
		set -- "$1" $(($2 + 1)) "$3"
	done
}

set -- $(shdr "$T/base.o" .rela.text)
zoff=$1 zsize=$2
set -- $(shdr "$T/base.o" .rela.data)
soff=$1 ssize=$2
set -- $(shdr "$T/base.o" .debug_info)
doff=$1
SHOFF=$(e_shoff "$T/base.o")
SHOFF32=$(e_shoff "$T/base32.o")
# Elf64_Chdr: ch_type at 0, ch_size at 8, ch_addralign at 16, stream at 24.
# sh_size: byte 32 of an Elf64_Shdr (64 bytes), 20 of an Elf32_Shdr (40).
mk() {
	cp "$T/${2:-base.o}" "$T/$1"
}

mk chsize-huge.o
put "$T/chsize-huge.o" $((zoff + 8)) 8 1099511627776 # 1 TiB
mk chtype-7.o
put "$T/chtype-7.o" "$doff" 4 7 # .debug_info: no command reads its contents
mk shsize-8.o
put "$T/shsize-8.o" $((SHOFF + 2 * 64 + 32)) 8 8
mk shsize32-4.o base32.o
put "$T/shsize32-4.o" $((SHOFF32 + 2 * 40 + 20)) 4 4
mk addralign-3.o
put "$T/addralign-3.o" $((zoff + 16)) 8 3
# zlib's header is 2 bytes, CMF and FLG, whose 16-bit value CMF x 256 + FLG
# must be a multiple of 31 (RFC 1950): 78 9D (deflate, 32 KiB window) is not.
mk zlib-header.o
put "$T/zlib-header.o" $((zoff + 24)) 2 $((0x9d78))
# The stream's last 4 bytes are its Adler-32 (RFC 1950): every bit flipped.
mk zlib-adler.o
flip "$T/zlib-adler.o" $((zoff + zsize - 4)) 4
# sh_size 4 short: everything decodes but the Adler-32 is missing.
mk zlib-short.o
put "$T/zlib-short.o" $((SHOFF + 2 * 64 + 32)) 8 $((zsize - 4))
mk zlib-chsize-more.o
put "$T/zlib-chsize-more.o" $((zoff + 8)) 8 7224 # one Elf64_Rela more
mk zlib-chsize-less.o
put "$T/zlib-chsize-less.o" $((zoff + 8)) 8 7176 # one less
# Under the cap and a multiple of 24, but more than 1032 x the stream.
mk zlib-ratio.o
put "$T/zlib-ratio.o" $((zoff + 8)) 8 1073741808
# A zstd frame starts with the magic 28 B5 2F FD (RFC 8878).
mk zstd-magic.o
put "$T/zstd-magic.o" $((soff + 24)) 4 0
# The frame cut 10 bytes short of its last block's end.
mk zstd-short.o
put "$T/zstd-short.o" $((SHOFF + 4 * 64 + 32)) 8 $((ssize - 10))
mk zstd-chsize-more.o
put "$T/zstd-chsize-more.o" $((soff + 8)) 8 984
mk zstd-chsize-less.o
put "$T/zstd-chsize-less.o" $((soff + 8)) 8 936
# ch_size 24 << 36 (1.5 TiB), for a --max-size above it: never allocated
# on the header's word, only as far as the stream can back it.
mk zstd-claim.o
put "$T/zstd-claim.o" $((soff + 8)) 8 $((24 << 36))
mk zlib-claim.o
put "$T/zlib-claim.o" $((zoff + 8)) 8 $((24 << 36))
# A corrupt stream in a section no command reads: not an error at all.
mk debug-corrupt.o
put "$T/debug-corrupt.o" $((doff + 24)) 2 0

# expect NAME FAILS CODE MESSAGE: elfplt stats, plt and load on good.o NAME
# good.o, in text and JSON.  FAILS: "all" (every command fails), "read"
# (stats and plt fail, load takes the file) or "none"; CODE: the JSON error
# code; MESSAGE: stderr after "elfplt: FILE: ".
expect() {
	bad=$T/$1 fails=$2 code=$3 msg=$4
	sum=$(cksum <"$bad")
	for cmd in stats plt load; do
		if [ "$cmd" = load ]; then set -- --repeat 1 --sections=all; else set --; fi
		for fmt in text json; do
			rc=0
			"$ELFPLT" "$cmd" "$@" --format=$fmt -o "$T/out" "$T/good.o" "$bad" \
				"$T/good.o" 2>"$T/err" || rc=$?
			name="$cmd $(basename "$bad") ($fmt)"
			ok=no
			[ "$fails" = none ] && ok=yes
			[ "$fails" = read ] && [ "$cmd" = load ] && ok=yes
			if [ $ok = yes ]; then
				check "$name: exit status" 0 "$rc"
				check "$name: stderr" "" "$(cat "$T/err")"
				continue
			fi
			check "$name: exit status" 1 "$rc"
			check "$name: stderr" "elfplt: $bad: $msg" "$(cat "$T/err")"
			[ "$fmt" = json ] || continue
			check "$name: files reported" 3 "$(jqr "$T/out" '.files | length')"
			check "$name: JSON error" "$code elfplt: $bad: $msg" "$(jqr "$T/out" \
				'.files[1].error | "\(.code) elfplt: \(.message)"')"
			check "$name: good files have no error" "null null" \
				"$(jqr "$T/out" '"\(.files[0].error) \(.files[2].error)"')"
		done
	done
	check "$(basename "$bad"): input unchanged" "$sum" "$(cksum <"$bad")"
}

R2='(section 2 .rela.text)' R4='(section 4 .rela.data)'
# Bad headers: an error for the file, whichever command.
expect chsize-huge.o all no_memory \
	"ch_size 1099511627776 bytes exceeds the 1073741824-byte cap on a decoded section $R2"
expect chtype-7.o all unsupported \
	"ch_type 7 is not ELFCOMPRESS_ZLIB (1) or ELFCOMPRESS_ZSTD (2) (section 8 .debug_info)"
expect shsize-8.o all malformed \
	"sh_size 8 of an SHF_COMPRESSED section is smaller than its 24-byte Elf64_Chdr $R2"
expect shsize32-4.o all malformed "sh_size 4 of an SHF_COMPRESSED section is smaller than\
 its 12-byte Elf32_Chdr (section 2 .rel.text)"
expect addralign-3.o all malformed "ch_addralign 3 is not a power of two $R2"
# Bad streams: an error for the commands that read the table.
expect zlib-header.o read malformed "zlib stream is corrupt: incorrect header check $R2"
expect zlib-adler.o read malformed "zlib stream is corrupt: incorrect data check $R2"
expect zlib-short.o read truncated "zlib stream is truncated after 7200 of ch_size 7200 bytes $R2"
expect zlib-chsize-more.o read malformed "zlib stream decodes to 7200 bytes, not ch_size 7224 $R2"
expect zlib-chsize-less.o read malformed "zlib stream decodes to more than ch_size 7176 bytes $R2"
# The stream is sh_size - 24 bytes long.
expect zlib-ratio.o read malformed "ch_size 1073741808 bytes cannot come from $((zsize - 24))\
 bytes of zlib stream (deflate expands at most 1032:1) $R2"
expect zstd-magic.o read malformed "zstd stream does not decode: Unknown frame descriptor $R4"
expect zstd-short.o read truncated "zstd stream is truncated: Src size is incorrect $R4"
expect zstd-chsize-more.o read malformed "zstd stream decodes to 960 bytes, not ch_size 984 $R4"
expect zstd-chsize-less.o read malformed "zstd stream decodes to more than ch_size 936 bytes $R4"
# A corrupt stream in a section no command reads is no error at all.
expect debug-corrupt.o none - -

# A claimed size beyond what the stream can hold, with the cap above it: the
# file is corrupt (it was malloc(ch_size) up front: "out of memory", or an
# ASan allocation-size-too-big under tests/sanitized.sh).  zstd: the stream
# decodes to its 40 Elf64_Rela (gen-compressed.c), 960 bytes; zlib: 1032:1.
for c in zstd zlib; do
	"$ELFPLT" stats --max-size=2048G "$T/$c-claim.o" >/dev/null 2>"$T/err"
	check "$c-claim.o --max-size=2048G: exit status" 1 "$?"
	case $c in
	zstd) msg="zstd stream decodes to 960 bytes, not ch_size $((24 << 36)) $R4" ;;
	zlib) msg="ch_size $((24 << 36)) bytes cannot come from $((zsize - 24)) bytes of zlib\
 stream (deflate expands at most 1032:1) $R2" ;;
	esac
	check "$c-claim.o --max-size=2048G: stderr" "elfplt: $T/$c-claim.o: $msg" "$(cat "$T/err")"
done

# The good files beside a bad one are counted in full (gen-compressed.c:
# 300 + 40 relocations each).
"$ELFPLT" stats --json "$T/good.o" "$T/zlib-header.o" "$T/good.o" >"$T/out" 2>/dev/null
check "stats: good files counted" "340 340" \
	"$(jqr "$T/out" '"\(.files[0].relocations.total) \(.files[2].relocations.total)"')"

# The cap on decoded sections, lowered (ep_section_decoded_max_set(), what
# --max-size will set) through tests/unit/decoded_probe, which runs stats:
# below one section's ch_size it fails the file at open; above each but
# below their sum (7200 + 960 = 8160 for the two tables stats decodes;
# .debug_info is never decoded) it stops at the second table.
PROBE=$top_builddir/tests/unit/decoded_probe
check "cap 7000: the file fails at open" \
	"decoded_probe: $T/base.o: ch_size 7200 bytes exceeds the 7000-byte cap on a\
 decoded section $R2" "$("$PROBE" "$T/base.o" 7000 2>&1 >/dev/null)"
check "cap 8000: decoding stops at the second table" \
	"decoded_probe: $T/base.o: ch_size 960 bytes would take the file's decoded\
 sections to 8160 bytes, over the 8000-byte cap $R4" \
	"$("$PROBE" "$T/base.o" 8000 2>&1 >/dev/null)"
check "cap 8160: both tables fit" "stats 8160" "$("$PROBE" "$T/base.o" 8160 2>/dev/null | head -1)"

# The bounded mutation test (tests/unit/mutate_test.c, as bad-input-mutants.sh
# runs it on the YAML fixtures) over compressed headers and streams of both
# types, ELF64 LSB and MSB and ELF32: every prefix and 3000 damaged copies
# through every library entry point; it aborts on a crash or a bad message.
"$GEN" "$T/msb.o" 64msb zstd zlib zstd zlib || exit 1
if "$top_builddir/tests/unit/mutate_test" 1 3000 "$T/base.o" "$T/base32.o" "$T/msb.o" \
	>"$T/mutate" 2>&1; then
	echo "ok: mutate_test: $(tr '\n' ' ' <"$T/mutate")"
else
	fail "mutate_test exited $?: $(tail -3 "$T/mutate")"
fi

done_testing
