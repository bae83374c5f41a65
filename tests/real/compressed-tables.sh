#!/bin/sh
# Real relocation and symbol tables, SHF_COMPRESSED: a spread of Debian 12's
# arm64 modules (every 30th in sorted order, and xfs.ko, the one with most
# relocations) with every .rela* section and .symtab compressed by elfutils'
# eu-elfcompress (ELFCOMPRESS_ZLIB, --force even where a table grows).  No
# toolchain makes such tables, but the gABI allows them: elfplt must decode
# them and report exactly what it reports for the plain modules, and count
# by type what binutils readelf -rW counts on the plain modules.  The decoded
# sizes (ch_size) must be the plain modules' section sizes.  Skips (77)
# where fetch-modules.sh cannot reach apt.
. "$top_srcdir/tests/lib.sh"
need JQ READELF
command -v eu-elfcompress >/dev/null || skip "eu-elfcompress not found (package elfutils)"
PROBE=$top_builddir/tests/unit/decoded_probe

rc=0
dir=$(sh "$top_srcdir/tests/real/fetch-modules.sh") || rc=$?
[ "$rc" -eq 77 ] && skip "no arm64 modules: apt cannot reach the archive (see above)"
[ "$rc" -eq 0 ] || { echo "FAIL: fetch-modules.sh exited $rc"; exit 1; }

mkdir "$T/plain" "$T/z"
find "$dir" -name '*.ko' -type f | LC_ALL=C sort |
	awk 'NR % 30 == 1 || /\/xfs\.ko$/' >"$T/modules"
n=0
while read -r m; do
	n=$((n + 1))
	name=$(printf '%04d-%s' $n "$(basename "$m")")
	cp "$m" "$T/plain/$name"
	eu-elfcompress -q -f -t zlib -n '.rela*' -n .symtab -o "$T/z/$name" "$m" ||
		fail "eu-elfcompress $m"
done <"$T/modules"
echo "$n modules"
[ "$n" -gt 100 ] || fail "only $n modules"

# Every relocation section of the copies is compressed (readelf -SW flag C).
check "uncompressed relocation sections left" 0 \
	"$(for f in "$T"/z/*; do "$READELF" -SW "$f"; done |
		awk '$0 ~ /\] / && / RELA / && $0 !~ / [A-Z]*C[A-Z]* /' | wc -l)"

for cmd in stats plt; do
	rc=0
	"$ELFPLT" $cmd --json -o "$T/plain.json" "$T/plain" 2>"$T/err" || rc=$?
	check "$cmd plain: exit status, stderr" "0 " "$rc $(cat "$T/err")"
	rc=0
	"$ELFPLT" $cmd --json -o "$T/z.json" "$T/z" 2>"$T/err" || rc=$?
	check "$cmd compressed: exit status, stderr" "0 " "$rc $(cat "$T/err")"
	# Everything but where the bytes are and how they are stored (crel.bytes
	# is what the tables take in the file, compressed or not, so its savings
	# move with it; crel_bytes, the tables as CREL, must not).
	norm='.files[] | del(.path, .file_size, .image_size, .compressed_sections,
		.crel.bytes, .crel.savings_bytes) |
		if .relocations then .relocations.sections |=
			map(del(.bytes, .compression, .decoded_bytes)) else . end'
	"$JQ" -c "$norm" "$T/plain.json" >"$T/plain.norm"
	"$JQ" -c "$norm" "$T/z.json" >"$T/z.norm"
	if cmp -s "$T/plain.norm" "$T/z.norm"; then
		echo "ok: $cmd: the same report for the $n compressed modules"
	else
		fail "$cmd: reports differ: $(diff "$T/plain.norm" "$T/z.norm" | head -3)"
	fi
	[ $cmd = stats ] || continue
	check "stats: every relocation section ELFCOMPRESS_ZLIB (1)" "ELFCOMPRESS_ZLIB/1" \
		"$(jqr "$T/z.json" '[.files[].relocations.sections[].compression |
			"\(.name)/\(.value)"] | unique |
			join(" ")')"
	# ch_size of each table = its sh_size in the plain module.
	check "stats: decoded_bytes = the plain module's bytes" \
		"$(jqr "$T/plain.json" '[.files[].relocations.sections[].bytes] | add')" \
		"$(jqr "$T/z.json" '[.files[].relocations.sections[].decoded_bytes] | add')"
	check "stats: compressed_sections = relocation sections + one .symtab each" \
		"$(jqr "$T/z.json" '.totals.relocation_sections + (.files | length)')" \
		"$(jqr "$T/z.json" '.totals.compressed_sections.count')"
done

# By type over all the modules: readelf -rW on the plain ones.
for f in "$T"/plain/*; do
	"$READELF" -rW "$f"
done | awk '$3 ~ /^R_/ { n[$3]++ } END { for (t in n) print t "=" n[t] }' |
	LC_ALL=C sort | tr '\n' ' ' >"$T/readelf.types"
rc=0
"$ELFPLT" stats --json -o "$T/z.json" "$T/z" 2>"$T/err" || rc=$?
check "stats compressed (by type): exit status, stderr" "0 " "$rc $(cat "$T/err")"
check "types over all modules (readelf -rW on the plain ones)" "$(cat "$T/readelf.types")" \
	"$(jqr "$T/z.json" '.totals.by_machine[0].by_type | map("\(.name)=\(.count)") |
		sort | join(" ")') "

# Each relocation section of each compressed module, name and entries, as
# readelf -rW counts them in the plain module (not elfplt against itself).
for f in "$T"/plain/*; do
	"$READELF" -rW "$f" |
		sed -n "s/^Relocation section '\\([^']*\\)' at offset [^ ]* contains \\([0-9]*\\) entr.*/\\1=\\2/p" |
		sed "s|^|$(basename "$f"):|"
done >"$T/readelf.sections"
"$JQ" -r '.files[] | (.path | split("/") | last) as $m |
	.relocations.sections[] | "\($m):\(.name)=\(.entries)"' "$T/z.json" >"$T/elfplt.sections"
check "sections: count as readelf -rW lists" "$(wc -l <"$T/readelf.sections")" \
	"$(wc -l <"$T/elfplt.sections")"
if cmp -s "$T/readelf.sections" "$T/elfplt.sections"; then
	echo "ok: every compressed section's entries = readelf -rW on the plain module"
else
	fail "sections differ from readelf -rW: $(diff "$T/readelf.sections" "$T/elfplt.sections" |
		head -3)"
fi

# stats decodes each table once and nothing else: here, every compressed
# section, whose ch_size readelf -t prints.
f=$(ls "$T"/z/*-xfs.ko)
want=0
for h in $("$READELF" -t "$f" | sed -n 's/^ *ZLIB, \([0-9a-f]*\), .*/\1/p'); do
	want=$((want + 0x$h))
done
check "xfs.ko: bytes stats decodes = sum of ch_size (readelf -t)" "$want" \
	"$("$PROBE" "$f" | sed -n 's/^stats //p')"

done_testing
