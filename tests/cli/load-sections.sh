#!/bin/sh
# elfplt load: which sections each --sections set loads, compressed inputs,
# bad inputs and usage errors.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
obj=$(fixture load-relocs)

# run NAME ARGS...: elfplt load --repeat 1 --json ARGS > $T/NAME.json
run() {
	n=$1
	shift
	"$ELFPLT" load --repeat 1 --json "$@" > "$T/$n.json"
}

# From readelf -SW of the fixture (sizes in hex):
#   [1] .text 0x10  [2] .rela.text 0x30 (sh_link 6)  [3] .data 0x8  [4] .bss NOBITS 0x40
#   [5] .comment 0x1  [6] .symtab 0x48 (sh_link 7)  [7] .strtab 0x9  [8] .shstrtab 0x3a
# relocs: .rela.text + .symtab + .strtab = 48 + 72 + 9 = 129 bytes in 3 sections.
run relocs --sections=relocs "$obj" || fail "relocs: exit $?"
check "relocs sections" 3 "$(jqr "$T/relocs.json" .inputs.sections)"
check "relocs bytes" 129 "$(jqr "$T/relocs.json" .inputs.bytes)"
check "relocs section_set" relocs "$(jqr "$T/relocs.json" .inputs.section_set)"
# alloc: .text + .data = 16 + 8 = 24 bytes in 2 (.bss has no file bytes).
run alloc --sections=alloc "$obj" || fail "alloc: exit $?"
check "alloc sections" 2 "$(jqr "$T/alloc.json" .inputs.sections)"
check "alloc bytes" 24 "$(jqr "$T/alloc.json" .inputs.bytes)"
# Checksum of .text (00000094 00000094 1f2003d5 c0035fd6) and .data
# (11..88) as little-endian words: 0x9400000094000000 + 0xd65f03c0d503201f +
# 0x8877665544332211 = 0xf2d66a16ad364230 (mod 2^64, by hand/python).
check "alloc checksum" f2d66a16ad364230 "$(jqr "$T/alloc.json" .checksum)"
# all (the default): every section but [0] and .bss:
# 16 + 48 + 8 + 1 + 72 + 9 + 58 = 212 bytes in 7.
run all "$obj" || fail "all: exit $?"
check "all sections" 7 "$(jqr "$T/all.json" .inputs.sections)"
check "all bytes" 212 "$(jqr "$T/all.json" .inputs.bytes)"
# A 212-byte file has no section of 4 pages: hybrid reads everything.
check "all hybrid mapped" 0 "$(jqr "$T/all.json" .inputs.hybrid.mapped_sections)"
check "all hybrid copies" 212 "$(jqr "$T/all.json" '.modes[2].bytes_copied.median')"
# --threshold 50 maps .symtab (72) and .shstrtab (58) and reads the other 5:
# 16 + 48 + 8 + 1 + 9 = 82 bytes copied.
run thr --threshold 50 "$obj" || fail "threshold: exit $?"
check "threshold mapped sections" 2 "$(jqr "$T/thr.json" .inputs.hybrid.mapped_sections)"
check "threshold hybrid copies" 82 "$(jqr "$T/thr.json" '.modes[2].bytes_copied.median')"

# A section set with bytes is not "nothing to load".
check "all nothing_to_load" false "$(jqr "$T/all.json" .nothing_to_load)"
check "all note" null "$(jqr "$T/all.json" .note)"

# Text: 212 bytes cost next to nothing, so many figures are zero or round to
# it, and some medians fall a hair below the empty child's; printf would
# write those as -0.000, -0 or -0.0%.  A zero carries no sign.
"$ELFPLT" load --repeat 5 "$obj" > "$T/all.txt" || fail "all text: exit $?"
if grep -E -- '(^|[^0-9.])-0(\.0+)?($|[^0-9.])' "$T/all.txt"; then
	fail "a signed zero in the text output (lines above)"
else
	echo "ok: no signed zero in the text output"
fi

# Compressed input: decoded into memory in every mode, so mmap copies the
# whole decoded image (the uncompressed file's size, from stat) as read does.
if command -v zstd >/dev/null 2>&1; then
	zstd -q "$obj" -o "$T/obj.zst"
	size=$(stat -c %s "$obj")
	run zst --sections=alloc "$T/obj.zst" || fail "zst: exit $?"
	check "zst compressed files" 1 "$(jqr "$T/zst.json" .inputs.compressed.files)"
	check "zst decoded bytes" "$size" "$(jqr "$T/zst.json" .inputs.compressed.decoded_bytes)"
	check "zst mmap copies the decoded image" "$size" \
		"$(jqr "$T/zst.json" '.modes[] | select(.mode == "mmap") | .bytes_copied.median')"
	check "zst checksum" f2d66a16ad364230 "$(jqr "$T/zst.json" .checksum)"
	"$ELFPLT" load --repeat 1 "$T/obj.zst" > "$T/zst.txt" || fail "zst text: exit $?"
	grep -q "mmap cannot help them" "$T/zst.txt" || fail "text does not say mmap cannot help"
	# The decompressor is primed in every child, the empty one too, so its
	# code pages are start-up and read, which maps nothing, shows no
	# file-backed growth beyond noise (the 16-page slack of load-peak.sh);
	# unprimed, libzstd's decoder code showed up here as over 200 KiB.
	run zst3 --sections=alloc --repeat 3 "$T/obj.zst" || fail "zst3: exit $?"
	v=$(jqr "$T/zst3.json" '.modes[] | select(.mode == "read") | .rss_file_kib.median')
	lim=$((16 * $(getconf PAGESIZE) / 1024))
	if [ "$("$JQ" -n "($v | fabs) <= $lim")" = true ]; then
		echo "ok: zst read rss_file_kib = $v (|.| <= $lim)"
	else
		fail "zst read rss_file_kib = $v, expected within $lim KiB of 0 (decompressor primed)"
	fi
else
	echo "note: zstd not installed, compressed input not tested"
fi

# A bad input is reported, the others still measured, exit 1.
echo "not an ELF file" > "$T/junk"
run bad --sections=alloc "$obj" "$T/junk"
check "bad input exit" 1 "$?"
check "bad input error" not_elf "$(jqr "$T/bad.json" '.files[1].error.code')"
check "bad input others" 24 "$(jqr "$T/bad.json" .inputs.bytes)"
check "bad input files_failed" 1 "$(jqr "$T/bad.json" .inputs.files_failed)"

# Usage errors exit 2.
for a in --repeat=0 --repeat=x --sections=text --threshold=0 --threshold=-5 --nope; do
	"$ELFPLT" load "$a" "$obj" > /dev/null 2>&1
	check "usage error $a" 2 "$?"
done
# The internal child is not a listed command.
if "$ELFPLT" --help | grep -q __load-child; then
	fail "--help lists the internal __load-child entry"
fi
done_testing
