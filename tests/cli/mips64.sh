#!/bin/sh
# MIPS64 (EM_MIPS, ELFCLASS64): r_info holds a 32-bit symbol index and three
# 8-bit types, laid out the same in the file in both byte orders (so a
# little-endian file's 64-bit r_info is not ELF64_R_INFO).  Both byte orders
# from tests/fixtures/mips64.yaml; the expected records are the ones written
# there by hand, and readelf -rW must show the same ones.
. "$top_srcdir/tests/lib.sh"
need JQ READELF YAML2OBJ

for d in 1 2; do
	"$YAML2OBJ" --docnum=$d "$FIXTURES/mips64.yaml" -o "$T/m$d.o" || exit 1
	order=$([ $d = 1 ] && echo MSB || echo LSB)
	# readelf: the type, then its Type2 and Type3 lines.
	check "$order: readelf -rW types" \
		"R_MIPS_GPREL16 foo R_MIPS_SUB R_MIPS_HI16 R_MIPS_26 bar R_MIPS_NONE R_MIPS_NONE" \
		"$("$READELF" -rW "$T/m$d.o" | awk '$3 ~ /^R_/ { printf "%s %s ", $3, $5 }
			/Type[23]:/ { printf "%s ", $2 }' | sed 's/ $//')"
	rc=0
	"$ELFPLT" stats --json "$T/m$d.o" >"$T/m$d.json" || rc=$?
	check "$order: exit status" 0 "$rc"
	# Each type readelf shows, R_MIPS_NONE in Type2/Type3 aside, counted once.
	check "$order: by type" "R_MIPS_26:4:1 R_MIPS_HI16:5:1 R_MIPS_GPREL16:7:1 R_MIPS_SUB:24:1" \
		"$(jqr "$T/m$d.json" '[.files[0].relocations.by_type[] |
			"\(.name):\(.value):\(.count)"] | join(" ")')"
	check "$order: relocations, undefined, distinct symbols" "2 2 2" \
		"$(jqr "$T/m$d.json" '.files[0].relocations | "\(.total) \(.symbols.undefined)" +
			" \(.symbols.distinct)"')"
done
done_testing
