#!/bin/sh
# Objects whose .debug_* sections the assembler compressed, as a debug build
# makes them: tests/fixtures/compressed-debug.c compiled with -g and gas's
# --compress-debug-sections=none, =zlib and =zstd (binutils 2.40 has all
# three; a compiler without them is skipped with the reason).  The
# relocation tables stay plain, so elfplt must count exactly what readelf
# -rW counts, the same for all three builds, and decode nothing: stats and
# plt never inflate .debug_info to count .rela.debug_info.  The sizes of the
# SHF_COMPRESSED sections are those of readelf -SW (flag C) in the file and
# those of the objcopy --decompress-debug-sections copy decoded, which must
# also be the ch_size readelf -t prints.
. "$top_srcdir/tests/lib.sh"
need READELF JQ
: "${CC:=cc}"
command -v objcopy >/dev/null || skip "objcopy not found (package binutils)"
PROBE=$top_builddir/tests/unit/decoded_probe
SRC=$FIXTURES/compressed-debug.c

# build HOW: the object compiled with its debug sections stored HOW.
build() {
	"$CC" -g -O1 -c -Wa,--compress-debug-sections="$1" "$SRC" -o "$T/$1.o" 2>"$T/cc.err" ||
		"$CC" -g -O1 -c -gz="$1" "$SRC" -o "$T/$1.o" 2>>"$T/cc.err"
}
build none ||
	skip "$CC cannot build with -Wa,--compress-debug-sections=none: $(head -1 "$T/cc.err")"
variants=none
for v in zlib zstd; do
	if build $v; then
		variants="$variants $v"
	else
		skip_part "$CC cannot compress debug sections with $v: $(head -1 "$T/cc.err")"
	fi
done
[ "$variants" != none ] || skip "$CC compresses no debug sections"

# sections FILE: "NAME SIZE FLAGS" per readelf -SW, size in decimal.
sections() {
	"$READELF" -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk 'NF >= 9 && $2 != "NULL" { print $1, $5, (NF == 10 ? $7 : "-"), $2 }' |
		while read -r n size flags type; do
			echo "$n $((0x$size)) $flags $type"
		done
}

# type_counts FILE: "NAME=COUNT" per relocation type per readelf -rW.
type_counts() {
	"$READELF" -rW "$1" | awk '$3 ~ /^R_/ { n[$3]++ } END { for (t in n) print t "=" n[t] }' |
		LC_ALL=C sort | tr '\n' ' '
}

# section_counts FILE: "NAME=ENTRIES" per relocation section per readelf -rW.
section_counts() {
	"$READELF" -rW "$1" |
		sed -n "s/^Relocation section '\\(.*\\)' .* contains \\([0-9]*\\) .*/\\1=\\2/p" |
		tr '\n' ' '
}

tot_n=0 tot_disk=0 tot_dec=0 tot_types= files=
want_types=$(type_counts "$T/none.o")
want_secs=$(section_counts "$T/none.o")
"$ELFPLT" plt --json "$T/none.o" | "$JQ" -c '.files[0] | del(.path)' >"$T/plt-none"
for v in $variants; do
	f=$T/$v.o
	case $v in zlib) chname=ZLIB ;; zstd) chname=ZSTD ;; *) chname=- ;; esac

	# What readelf says the file holds.
	sections "$f" >"$T/secs"
	objcopy --decompress-debug-sections "$f" "$T/dec.o" || fail "$v: objcopy"
	sections "$T/dec.o" >"$T/dec-secs"
	ncomp=0 disk=0 dec=0 alldisk=0
	while read -r n size flags type; do
		[ "$type" = NOBITS ] || alldisk=$((alldisk + size))
		case $flags in *C*) ;; *) continue ;; esac
		ncomp=$((ncomp + 1)) disk=$((disk + size))
		dec=$((dec + $(awk -v n="$n" '$1 == n { print $2 }' "$T/dec-secs")))
	done <"$T/secs"
	chsum=0 chtypes=
	for t in $("$READELF" -t "$f" | sed -n 's/^ *\(Z[A-Z]*\), \([0-9a-f]*\), .*/\1:\2/p'); do
		chsum=$((chsum + 0x${t#*:})) chtypes="$chtypes ${t%%:*}"
	done
	if [ "$v" = none ]; then
		check "none: no SHF_COMPRESSED section" 0 "$ncomp"
	else
		[ "$ncomp" -gt 0 ] || fail "$v: gas compressed nothing"
		check "$v: every header is $chname (readelf -t)" "$chname" \
			"$(echo $chtypes | tr ' ' '\n' | sort -u)"
		check "$v: ch_size sum (readelf -t) = decoded sizes (objcopy copy)" "$dec" "$chsum"
	fi

	tot_n=$((tot_n + ncomp)) tot_disk=$((tot_disk + disk)) tot_dec=$((tot_dec + dec))
	[ "$v" = none ] || tot_types="${tot_types:+$tot_types, }$v $ncomp"
	files="$files $f"

	# Relocations: as readelf -rW counts them, and as in the plain build.
	"$ELFPLT" stats --json -o "$T/s.json" "$f" 2>"$T/err" || fail "$v: stats exit $?"
	check "$v: stats stderr" "" "$(cat "$T/err")"
	check "$v: readelf -rW types = the plain build's" "$want_types" "$(type_counts "$f")"
	check "$v: types (readelf -rW)" "$want_types" \
		"$(jqr "$T/s.json" '.files[0].relocations.by_type | map("\(.name)=\(.count)") |
			sort | join(" ")') "
	check "$v: relocations per section (readelf -rW)" "$want_secs" \
		"$(jqr "$T/s.json" '.files[0].relocations.sections |
			map("\(.name)=\(.relocations)") | join(" ")') "
	check "$v: relocation tables stay plain (compression null, bytes = decoded_bytes)" "null true" \
		"$(jqr "$T/s.json" '[.files[0].relocations.sections[] |
			"\(.compression) \(.bytes == .decoded_bytes)"] | unique | join(", ")')"
	check "$v: compressed_sections (readelf -SW; objcopy'd copy)" "$ncomp $disk $dec" \
		"$(jqr "$T/s.json" '.files[0].compressed_sections |
			"\(.count) \(.bytes) \(.decoded_bytes)"')"
	if [ "$v" != none ]; then
		check "$v: compressed_sections.by_type" "ELFCOMPRESS_$chname=$ncomp" \
			"$(jqr "$T/s.json" '.files[0].compressed_sections.by_type |
				map("\(.name)=\(.count)") | join(" ")')"
		"$ELFPLT" stats "$f" >"$T/s.txt"
		want="  compressed: $ncomp SHF_COMPRESSED sections ($v $ncomp):"
		want="$want $disk bytes in the file, $dec decoded"
		check "$v: text summary" "$want" "$(grep '^  compressed:' "$T/s.txt")"
	fi

	# Nothing is decoded: no command reads a debug section's contents.
	"$PROBE" "$f" >"$T/probe" || fail "$v: decoded_probe exit $?"
	check "$v: bytes stats decodes" 0 "$(sed -n 's/^stats //p' "$T/probe")"
	check "$v: bytes plt decodes" 0 "$(sed -n 's/^plt //p' "$T/probe")"
	check "$v: bytes decoding every compressed section takes" "$dec" \
		"$(sed -n 's/^all //p' "$T/probe")"

	check "$v: plt = plt on the plain build" "$(cat "$T/plt-none")" \
		"$("$ELFPLT" plt --json "$f" | "$JQ" -c '.files[0] | del(.path)')"

	# load brings in the bytes as the file has them: compressed ones too.
	"$ELFPLT" load --repeat 1 --sections=all --json -o "$T/l.json" "$f" ||
		fail "$v: load exit $?"
	check "$v: load bytes = sh_size sum (readelf -SW)" "$alldisk" \
		"$(jqr "$T/l.json" '.files[0].bytes')"
done

# The run's totals over the three builds, text and JSON.
"$ELFPLT" stats $files >"$T/s.txt" || fail "stats on all builds: exit $?"
want="compressed: $tot_n SHF_COMPRESSED sections ($tot_types):"
want="$want $tot_disk bytes in the file, $tot_dec decoded"
check "totals: text" "$want" "$(grep '^compressed:' "$T/s.txt")"
"$ELFPLT" stats --json $files >"$T/s.json" || fail "stats --json on all builds: exit $?"
check "totals: JSON" "$tot_n $tot_disk $tot_dec" "$(jqr "$T/s.json" \
	'.totals.compressed_sections | "\(.count) \(.bytes) \(.decoded_bytes)"')"

done_testing
