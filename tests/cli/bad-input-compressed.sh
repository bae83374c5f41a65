#!/bin/sh
# Compressed inputs that are cut short, decode to something that is not
# ELF, or decode to more than the cap (a decompression bomb), through stats,
# plt and load: one stderr line naming the file, a JSON error, the good
# files around it still reported, exit status 1.  The cap is lowered for the
# test with --max-size so that no test decodes more than 64 KiB; a zstd
# frame that declares more than the default 1 GiB cap is refused from its
# header alone.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
for tool in zstd xz gzip; do
	command -v $tool >/dev/null || skip "$tool not found (./bootstrap --deps installs it)"
done

"$YAML2OBJ" --docnum=1 "$FIXTURES/bad-input-crafted.yaml" -o "$T/good.o" || exit 1
size=$(wc -c <"$T/good.o")

# Cut short: the first half of each stream.
zstd -q -c "$T/good.o" >"$T/good.zst"
xz -c "$T/good.o" >"$T/good.xz"
gzip -c "$T/good.o" >"$T/good.gz"
for z in zst xz gz; do
	n=$(wc -c <"$T/good.$z")
	head -c $((n / 2)) "$T/good.$z" >"$T/cut.$z"
done
# Streams that decode well to text.
printf 'hello\n' | zstd -q -c >"$T/text.zst"
printf 'hello\n' | xz -c >"$T/text.xz"
printf 'hello\n' | gzip -c >"$T/text.gz"
# Bombs under a 65536-byte cap: good.o followed by 128 KiB of zeros, a valid
# ELF file (trailing bytes are allowed) that decodes to size + 131072 bytes.
{ cat "$T/good.o"; head -c 131072 /dev/zero; } >"$T/big"
zstd -q -c "$T/big" >"$T/bomb.zst"	# the frame records its size
zstd -q -c --no-content-size <"$T/big" >"$T/bomb-nosize.zst"
xz -c "$T/big" >"$T/bomb.xz"
gzip -c "$T/big" >"$T/bomb.gz"
# A zstd frame header (RFC 8878 3.1.1.1): magic 28 B5 2F FD, descriptor 0xE0
# (Single_Segment, an 8-byte Frame_Content_Size), the size 5 GiB =
# 0x140000000 little-endian, then one empty last raw block (header 01 00 00).
printf '\050\265\057\375\340\000\000\000\100\001\000\000\000\001\000\000' >"$T/huge.zst"

# name, the cap (--max-size; -: the default), the JSON error
# code, the message after "PATH: ".
cases="
cut.zst		65536	truncated	zstd stream is truncated
cut.xz		65536	truncated	xz stream is truncated
cut.gz		65536	truncated	gzip stream is truncated
text.zst	65536	not_elf		not an ELF file
text.xz		65536	not_elf		not an ELF file
text.gz		65536	not_elf		not an ELF file
bomb.zst	65536	no_memory	zstd data decodes to $((size + 131072)) bytes, more than 65536 (--max-size)
bomb-nosize.zst	65536	no_memory	zstd data decodes to more than 65536 bytes (--max-size)
bomb.xz		65536	no_memory	xz data decodes to more than 65536 bytes (--max-size)
bomb.gz		65536	no_memory	gzip data decodes to more than 65536 bytes (--max-size)
huge.zst	-	no_memory	zstd data decodes to 5368709120 bytes, more than 1073741824 (--max-size)
"

# The whole streams decode to good.o itself under the same cap.
for z in zst xz gz; do
	out=$("$ELFPLT" --max-size=65536 stats --json "$T/good.$z" | "$JQ" -r \
		'.files[0] | "\(.path) \(.relocations.total)"')
	check "whole .$z decodes (2 relocations, as good.o)" "$T/good.$z 2" "$out"
done

while IFS='	' read -r name cap code msg; do
	[ -n "$name" ] || continue
	bad=$T/$name
	[ "$cap" = - ] && cap=
	sum=$(cksum <"$bad")
	for cmd in stats plt load; do
		if [ "$cmd" = load ]; then
			set -- --repeat 1 --sections=relocs
		else
			set --
		fi
		rc=0
		"$ELFPLT" ${cap:+--max-size=$cap} "$cmd" "$@" --json -o "$T/out" \
			"$T/good.o" "$bad" "$T/good.zst" 2>"$T/err" || rc=$?
		check "$cmd $name: exit status" 1 "$rc"
		check "$cmd $name: stderr" "elfplt: $bad: $msg" "$(cat "$T/err")"
		check "$cmd $name: JSON error" "$code $bad: $msg" \
			"$(jqr "$T/out" '.files[1].error | "\(.code) \(.message)"')"
		check "$cmd $name: the others reported" "3 null null" "$(jqr "$T/out" \
			'[(.files | length), .files[0, 2].error] | map(tostring) | join(" ")')"
	done
	check "$name: input unchanged" "$sum" "$(cksum <"$bad")"
done <<EOF
$cases
EOF

# A tree: a compressed file that does not decode to ELF is passed over
# quietly (its first bytes tell, so no more than those are decoded); one
# that is cut short is reported; the good one is analysed.
mkdir "$T/tree"
cp "$T/good.xz" "$T/text.gz" "$T/cut.zst" "$T/tree/"
for cmd in stats plt; do
	rc=0
	"$ELFPLT" "$cmd" --json -o "$T/out" "$T/tree" 2>"$T/err" || rc=$?
	check "$cmd tree: exit status" 1 "$rc"
	check "$cmd tree: stderr" "elfplt: $T/tree/cut.zst: zstd stream is truncated" \
		"$(cat "$T/err")"
	check "$cmd tree: files" "$T/tree/cut.zst:truncated $T/tree/good.xz:null" \
		"$(jqr "$T/out" '[.files[] | "\(.path):\(.error.code)"] | join(" ")')"
done

done_testing
