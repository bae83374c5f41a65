#!/bin/sh
# Whole-file compression through stats, plt and load: the same module plain,
# as .zst with its decoded size recorded in the frame (zstd's default: the
# one-shot path), without it (zstd --no-content-size, and a stream written
# through a pipe: the streaming path), as .xz and as .gz.  Every command's
# JSON for each compressed form must equal the plain file's once the keys
# that say where the bytes came from (path, compression, file_size) are
# taken out: the expected values are the plain file's own results.  Then a
# truncated .zst and a decompression bomb over --max-size: one exact error
# line each, the other files still reported.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
for tool in zstd xz gzip; do
	command -v $tool >/dev/null || skip "$tool not found (./bootstrap --deps installs it)"
done

# fcs FILE.zst: "yes" when the first frame's header records the decoded size.
# RFC 8878 3.1.1.1.1: Frame_Header_Descriptor (byte 4) bits 7-6 are the
# Frame_Content_Size_Flag, bit 5 the Single_Segment_Flag; the size is there
# when the flag is not 0 or the frame is a single segment.
fcs() {
	d=$(od -An -tu1 -j4 -N1 "$1" | tr -d ' ')
	if [ $((d >> 6)) -ne 0 ] || [ $(((d >> 5) & 1)) -ne 0 ]; then echo yes; else echo no; fi
}

# strip: the JSON on stdin without path, compression and file_size anywhere.
strip() {
	"$JQ" -S 'walk(if type == "object" then del(.path, .compression, .file_size) else . end)'
}

for name in stats-kmod plt-arm64-basic; do
	f=$(fixture "$name")
	zstd -q -c "$f" >"$f.zst"
	zstd -q -c --no-content-size "$f" >"$f.nosize.zst"
	cat "$f" | zstd -q -c >"$f.pipe.zst"
	xz -c "$f" >"$f.xz"
	gzip -c "$f" >"$f.gz"
	check "$name.zst records its size" yes "$(fcs "$f.zst")"
	check "$name.nosize.zst does not" no "$(fcs "$f.nosize.zst")"
	check "$name.pipe.zst does not" no "$(fcs "$f.pipe.zst")"

	"$ELFPLT" stats --json "$f" | strip >"$T/stats.plain" || fail "stats $name"
	"$ELFPLT" plt --json "$f" | strip >"$T/plt.plain" || fail "plt $name"
	# load: what was planned and the checksum over every loaded byte (the
	# timings differ from run to run; the compressed counts by design).
	"$ELFPLT" load --json --repeat 1 "$f" |
		"$JQ" -S '{files: .files, inputs: (.inputs | del(.compressed)), checksum}' |
		strip >"$T/load.plain" || fail "load $name"
	for z in zst nosize.zst pipe.zst xz gz; do
		case $z in
		*zst) want=zstd ;;
		xz) want=xz ;;
		gz) want=gzip ;;
		esac
		"$ELFPLT" stats --json "$f.$z" >"$T/out" || fail "stats $name.$z exited $?"
		check "stats $name.$z: compression" "$want" "$(jqr "$T/out" '.files[0].compression')"
		check "stats $name.$z: file_size" "$(wc -c <"$f.$z" | tr -d ' ')" \
			"$(jqr "$T/out" '.files[0].file_size')"
		strip <"$T/out" >"$T/stats.z"
		cmp -s "$T/stats.plain" "$T/stats.z" || fail "stats $name.$z differs from plain"
		"$ELFPLT" plt --json "$f.$z" >"$T/out" || fail "plt $name.$z exited $?"
		check "plt $name.$z: compression" "$want" "$(jqr "$T/out" '.files[0].compression')"
		strip <"$T/out" >"$T/plt.z"
		cmp -s "$T/plt.plain" "$T/plt.z" || fail "plt $name.$z differs from plain"
		"$ELFPLT" load --json --repeat 1 "$f.$z" >"$T/out" || fail "load $name.$z exited $?"
		check "load $name.$z: compression" "$want" "$(jqr "$T/out" '.files[0].compression')"
		"$JQ" -S '{files: .files, inputs: (.inputs | del(.compressed)), checksum}' \
			"$T/out" | strip >"$T/load.z"
		cmp -s "$T/load.plain" "$T/load.z" || fail "load $name.$z differs from plain"
	done
	# Two frames, each recording its size (the one-shot path, frame after
	# frame): they decode to the two halves joined.
	half=$(($(wc -c <"$f") / 2))
	head -c $half "$f" >"$T/first"
	tail -c +$((half + 1)) "$f" >"$T/rest"
	zstd -q -c "$T/first" >"$f.2.zst"
	zstd -q -c "$T/rest" >>"$f.2.zst"
	check "$name.2.zst: the first frame records its size" yes "$(fcs "$f.2.zst")"
	"$ELFPLT" stats --json "$f.2.zst" | strip >"$T/stats.z" || fail "stats $name.2.zst"
	cmp -s "$T/stats.plain" "$T/stats.z" || fail "stats $name.2.zst differs from plain"
	check "plain $name: compression none" none \
		"$("$ELFPLT" plt --json "$f" | "$JQ" -r '.files[0].compression')"
done

f=$T/stats-kmod
# Truncated: the first half of the stream.  One line on stderr, exit 1.
n=$(wc -c <"$f.zst")
head -c $((n / 2)) "$f.zst" >"$T/cut.zst"
rc=0
"$ELFPLT" stats "$T/cut.zst" >/dev/null 2>"$T/err" || rc=$?
check "truncated .zst: exit status" 1 "$rc"
check "truncated .zst: the error" "elfplt: $T/cut.zst: zstd stream is truncated" "$(cat "$T/err")"

# Bombs: the module followed by 3,000,000 zero bytes (a valid ELF file:
# bytes after the image are allowed) decodes to more than --max-size=1M,
# 1048576 bytes; the zstd frame that records its size says how much.
size=$(wc -c <"$f")
{ cat "$f"; head -c 3000000 /dev/zero; } >"$T/big"
xz -c "$T/big" >"$T/bomb.xz"
gzip -c "$T/big" >"$T/bomb.gz"
zstd -q -c "$T/big" >"$T/bomb.zst"
zstd -q -c --no-content-size "$T/big" >"$T/bomb-nosize.zst"
for cmd in stats plt load; do
	[ $cmd = load ] && set -- --repeat 1 || set --
	rc=0
	"$ELFPLT" --max-size=1M "$cmd" "$@" --json -o "$T/out" "$f" "$T/bomb.xz" "$T/bomb.gz" \
		"$T/bomb.zst" "$T/bomb-nosize.zst" "$f.xz" 2>"$T/err" || rc=$?
	check "$cmd bombs: exit status" 1 "$rc"
	more="decodes to more than 1048576 bytes (--max-size)"
	check "$cmd bombs: errors" "elfplt: $T/bomb.xz: xz data $more
elfplt: $T/bomb.gz: gzip data $more
elfplt: $T/bomb.zst: zstd data decodes to $((size + 3000000)) bytes, more than 1048576 (--max-size)
elfplt: $T/bomb-nosize.zst: zstd data $more" "$(cat "$T/err")"
	check "$cmd bombs: the others reported" "null no_memory no_memory no_memory no_memory null" \
		"$(jqr "$T/out" '[.files[].error.code] | map(tostring) | join(" ")')"
done
# The same option after the command, with a unit suffix, and the cap exactly
# at the decoded size: the bomb is then analysed.
rc=0
"$ELFPLT" stats --max-size=$((size + 3000000)) --json -o "$T/out" "$T/bomb.xz" || rc=$?
check "cap = decoded size: exit status" 0 "$rc"
check "cap = decoded size: image_size" $((size + 3000000)) "$(jqr "$T/out" '.files[0].image_size')"
rc=0
"$ELFPLT" stats --max-size=2MiB "$T/bomb.xz" >/dev/null 2>"$T/err" || rc=$?
check "--max-size=2MiB: the error" \
	"elfplt: $T/bomb.xz: xz data decodes to more than 2097152 bytes (--max-size)" "$(cat "$T/err")"
for bad in 1X 0 -1 "" 17179869184G; do
	rc=0
	"$ELFPLT" stats --max-size="$bad" "$f" >/dev/null 2>"$T/err" || rc=$?
	check "--max-size=$bad: usage error" 2 "$rc"
done
check "--max-size=1X: the message" \
	"elfplt: --max-size takes a number of bytes, optionally with K, M, G (KiB, MiB, GiB), not '1X'" \
	"$("$ELFPLT" --max-size=1X stats "$f" 2>&1 | head -n 1)"

# The same cap holds for an SHF_COMPRESSED section: gas compresses .debug_info
# of tests/fixtures/compressed-debug.c; its ch_size (readelf -t, hex) is over
# a --max-size of one byte less, so opening the object fails, and is not
# over a --max-size of exactly it.
: "${CC:=cc}"
if [ "${READELF:-no}" != no ] && "$CC" -g -O1 -c -Wa,--compress-debug-sections=zlib \
	"$FIXTURES/compressed-debug.c" -o "$T/debug.o" 2>/dev/null; then
	ch=$("$READELF" -tW "$T/debug.o" | awk '/\] \.debug_info$/ { f = 1; next }
		f && /ZLIB/ { sub(",", "", $2); print $2; exit }')
	ch=$((0x$ch))
	rc=0
	"$ELFPLT" stats --max-size=$((ch - 1)) "$T/debug.o" >/dev/null 2>"$T/err" || rc=$?
	check "section over --max-size: exit status" 1 "$rc"
	grep -q "ch_size $ch bytes exceeds the $((ch - 1))-byte cap on a decoded section" \
		"$T/err" || fail "section over --max-size: $(cat "$T/err")"
	"$ELFPLT" stats --max-size=$ch "$T/debug.o" >/dev/null 2>"$T/err" ||
		fail "section at --max-size: $(cat "$T/err")"
else
	skip_part "$CC cannot compress debug sections with zlib: no section cap check"
fi

# Skippable frames (RFC 8878 3.1.2: magic 0x184D2A50..0x184D2A5F, little-
# endian, a 4-byte Frame_Size, that many bytes of user data), which zstd -d
# passes over: first (what pzstd writes), between and after the frames.
# Each decodes to the plain file (zstd -d says so), so the JSON must be the
# plain file's; named and found by a walk alike.
f=$T/stats-kmod
"$ELFPLT" stats --json "$f" | strip >"$T/stats.plain" || fail "stats plain"
printf '\120\052\115\030\004\000\000\000abcd' >"$T/skip"     # 0x184D2A50, 4 bytes
printf '\137\052\115\030\000\000\000\000' >"$T/skip0"        # 0x184D2A5F, 0 bytes
mkdir "$T/skiptree"
cat "$T/skip" "$f.zst" >"$T/skiptree/first.zst"
cat "$T/skip0" "$f.nosize.zst" >"$T/skiptree/first-nosize.zst"
cat "$f.2.zst" "$T/skip" >"$T/skiptree/last.zst"
half=$(($(wc -c <"$f") / 2))
head -c $half "$f" | zstd -q -c | cat - "$T/skip0" >"$T/skiptree/between.zst"
tail -c +$((half + 1)) "$f" | zstd -q -c >>"$T/skiptree/between.zst"
if command -v pzstd >/dev/null; then
	pzstd -q "$f" -o "$T/skiptree/pzstd.zst" || fail "pzstd"
	check "pzstd: its output starts with a skippable frame" "50 2a 4d 18" \
		"$(od -An -tx1 -N4 "$T/skiptree/pzstd.zst" | sed 's/^ *//')"
else
	skip_part "pzstd not found: no pzstd output checked"
fi
for z in "$T"/skiptree/*.zst; do
	zstd -q -d -c "$z" | cmp -s - "$f" || fail "zstd -d $z does not give the plain file"
	"$ELFPLT" stats --json "$z" >"$T/out" || fail "stats $z exited $?"
	check "stats ${z##*/}: compression" zstd "$(jqr "$T/out" '.files[0].compression')"
	strip <"$T/out" >"$T/stats.z"
	cmp -s "$T/stats.plain" "$T/stats.z" || fail "stats ${z##*/} differs from plain"
done
check "a walk finds every skippable-first file" "$(ls "$T/skiptree" | wc -l | tr -d ' ')" \
	"$("$ELFPLT" stats --json "$T/skiptree" | "$JQ" '[.files[] | select(.error == null)] | length')"

# Decoding to exactly --max-size passes when input that decodes to nothing
# follows (an empty zstd frame or gzip member, a skippable frame); a byte
# less is refused.  The sizes are wc -c's of the plain file.
: >"$T/empty"
{ cat "$f.zst"; zstd -q -c "$T/empty"; } >"$T/exact1.zst"
{ cat "$f.nosize.zst"; zstd -q -c --no-content-size "$T/empty"; } >"$T/exact2.zst"
cat "$f.zst" "$T/skip" >"$T/exact3.zst"
{ cat "$f.gz"; gzip -c "$T/empty"; } >"$T/exact.gz"
for z in exact1.zst exact2.zst exact3.zst exact.gz; do
	rc=0
	"$ELFPLT" stats --max-size="$size" --json -o "$T/out" "$T/$z" 2>"$T/err" || rc=$?
	check "$z at --max-size=$size (its size): exit status" 0 "$rc"
	check "$z at --max-size=$size: image_size" "$size" "$(jqr "$T/out" '.files[0].image_size')"
	rc=0
	"$ELFPLT" stats --max-size=$((size - 1)) "$T/$z" >/dev/null 2>"$T/err" || rc=$?
	check "$z at --max-size=$((size - 1)): exit status" 1 "$rc"
	case $z in
	exact1.zst | exact3.zst) # the frames record the size
		want="zstd data decodes to $size bytes, more than $((size - 1)) (--max-size)" ;;
	*.zst) want="zstd data decodes to more than $((size - 1)) bytes (--max-size)" ;;
	*.gz) want="gzip data decodes to more than $((size - 1)) bytes (--max-size)" ;;
	esac
	check "$z at --max-size=$((size - 1)): the error" "elfplt: $T/$z: $want" "$(cat "$T/err")"
done

# gzip -d ignores zero bytes after the last member (block padding): so do we.
{ cat "$f.gz"; head -c 1000 /dev/zero; } >"$T/padded.gz"
gzip -t "$T/padded.gz" 2>/dev/null || fail "gzip -t refuses the padded file"
"$ELFPLT" stats --json "$T/padded.gz" | strip >"$T/stats.z" || fail "stats padded.gz"
cmp -s "$T/stats.plain" "$T/stats.z" || fail "stats padded.gz differs from plain"
# Anything else after the zeros is still corrupt ("incorrect header check":
# zlib's word for a gzip header that is not one).
{ cat "$f.gz"; printf '\0\0junk'; } >"$T/junk.gz"
rc=0
"$ELFPLT" stats "$T/junk.gz" >/dev/null 2>"$T/err" || rc=$?
check "gzip, zeros and junk: the error" \
	"elfplt: $T/junk.gz: gzip data is corrupt: incorrect header check" "$(cat "$T/err")"

# A 20-byte zstd frame (RFC 8878: magic, Frame_Header_Descriptor 0xE0 = an
# 8-byte Frame_Content_Size and Single_Segment, the size 2^41, one last
# Raw_Block of 4 bytes: header (4 << 3) | 1 = 0x21 0 0, "\177ELF") records
# 2 TiB.  Under a cap above that it is refused as corrupt, not allocated:
# 20 bytes of blocks decode to at most 20 / 4 * 128 KiB.
printf '\050\265\057\375\340\000\000\000\000\000\002\000\000\041\000\000\177ELF' >"$T/claim.zst"
check "claim.zst: 20 bytes" 20 "$(wc -c <"$T/claim.zst" | tr -d ' ')"
rc=0
"$ELFPLT" stats --max-size=4096G "$T/claim.zst" >/dev/null 2>"$T/err" || rc=$?
check "claim.zst: exit status" 1 "$rc"
check "claim.zst: the error" "elfplt: $T/claim.zst: zstd data is corrupt: its frames record\
 $((1 << 41)) decoded bytes, more than 20 bytes can hold" "$(cat "$T/err")"

# Non-ELF data in a frame that records its size is refused after its first
# block, before the rest is decoded: 400 KiB of text (four blocks), its
# last four bytes (the frame's Content_Checksum) damaged.  Decoding it all
# would find the bad checksum; stopping early finds no ELF magic.  The same
# for an ELF file shows the damage is there to be found.
yes 'not an ELF file' | head -c 409600 >"$T/text"
for x in text big; do
	zstd -q -c --check "$T/$x" >"$T/$x.zst"
	n=$(wc -c <"$T/$x.zst")
	printf 'XXXX' | dd of="$T/$x.zst" bs=1 seek=$((n - 4)) conv=notrunc 2>/dev/null
	zstd -q -t "$T/$x.zst" 2>/dev/null && fail "zstd -t accepts the damaged $x.zst"
done
rc=0
"$ELFPLT" stats "$T/text.zst" >/dev/null 2>"$T/err" || rc=$?
check "damaged text.zst: the error" "elfplt: $T/text.zst: not an ELF file" "$(cat "$T/err")"
rc=0
"$ELFPLT" stats "$T/big.zst" >/dev/null 2>"$T/err" || rc=$?
check "damaged big.zst: exit status" 1 "$rc"
grep -q "^elfplt: $T/big.zst: zstd: .*checksum" "$T/err" || fail "damaged big.zst: $(cat "$T/err")"

done_testing
