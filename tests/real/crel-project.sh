#!/bin/sh
# SHT_CREL on a real C project: elfplt's own lib/*.c and cmd/*.c compiled by
# clang-19 twice, once assembled with CREL (-Wa,--crel) and once with RELA.
# The same compiler and flags give both builds the same relocations in the
# same order, so:
#   - elfplt's counts by type on the CREL build equal llvm-readelf-19 -r's
#     (an independent CREL decoder: LLVM's own) on the same objects;
#   - they equal elfplt's counts on the RELA build (and readelf -rW's there);
#   - elfplt's what-if CREL size of each RELA build's tables equals the
#     sh_size of the CREL sections LLVM's assembler wrote (llvm-readelf -S),
#     object by object: the sizer follows LLVM's encoder exactly.
. "$top_srcdir/tests/lib.sh"
need JQ READELF CLANG19 LLVM_READELF19

srcs=$(ls "$top_srcdir"/lib/*.c "$top_srcdir"/cmd/*.c)
mkdir "$T/crel" "$T/rela"
n=0
for f in $srcs; do
	o=$(basename "$f" .c).o
	"$CLANG19" -c -O2 -I"$top_builddir" -I"$top_srcdir" $(pkg-config --cflags libelf 2>/dev/null) \
		-Wa,--crel,--allow-experimental-crel "$f" -o "$T/crel/$o" 2>"$T/cc.err" ||
		skip "clang-19 cannot assemble CREL: $(head -1 "$T/cc.err")"
	"$CLANG19" -c -O2 -I"$top_builddir" -I"$top_srcdir" $(pkg-config --cflags libelf 2>/dev/null) \
		"$f" -o "$T/rela/$o" || fail "clang-19 $f"
	n=$((n + 1))
done
echo "compiled $n sources both ways"

# Counts by type as "NAME COUNT" lines, sorted, from a readelf -r listing:
# relocation rows start with a hex offset and have the type third.
by_type_readelf() {
	awk '$1 ~ /^[0-9a-f]+$/ && length($1) >= 8 && $3 ~ /^R_/ { n[$3]++ }
		END { for (t in n) print t, n[t] }' | sort
}
by_type_elfplt() {
	"$JQ" -r '.totals.by_machine[].by_type[] | "\(.name) \(.count)"' "$1" | sort
}

"$ELFPLT" stats --json "$T/crel" >"$T/crel.json" || fail "elfplt stats (CREL build) exit $?"
"$ELFPLT" stats --json "$T/rela" >"$T/rela.json" || fail "elfplt stats (RELA build) exit $?"
by_type_elfplt "$T/crel.json" >"$T/elfplt-crel"
by_type_elfplt "$T/rela.json" >"$T/elfplt-rela"
for o in "$T"/crel/*.o; do "$LLVM_READELF19" -r "$o"; done | by_type_readelf >"$T/llvm-crel"
for o in "$T"/rela/*.o; do "$READELF" -rW "$o"; done | by_type_readelf >"$T/readelf-rela"

total=$(awk '{ s += $2 } END { print s }' "$T/llvm-crel")
echo "relocations (llvm-readelf-19 -r on the CREL build): $total"
[ "$total" -gt 1000 ] || fail "too few relocations to mean anything: $total"
check "CREL build: elfplt by type = llvm-readelf-19 -r" "$(cat "$T/llvm-crel")" \
	"$(cat "$T/elfplt-crel")"
check "RELA build: elfplt by type = readelf -rW" "$(cat "$T/readelf-rela")" \
	"$(cat "$T/elfplt-rela")"
check "elfplt: CREL build = RELA build" "$(cat "$T/elfplt-rela")" "$(cat "$T/elfplt-crel")"
check "relocation sections, CREL build = RELA build" \
	"$(jqr "$T/rela.json" '.totals.relocation_sections')" \
	"$(jqr "$T/crel.json" '.totals.relocation_sections')"

# What-if against the real thing, object by object: the CREL sections'
# sh_size summed (llvm-readelf-19 -S) and elfplt's crel_bytes of the twin.
for o in "$T"/crel/*.o; do
	sum=0
	for h in $("$LLVM_READELF19" -SW "$o" | awk '/ CREL / { sub(/.*] /, ""); print $5 }'); do
		sum=$((sum + 0x$h))
	done
	printf '%s %d\n' "$(basename "$o")" "$sum"
done | sort >"$T/real-sizes"
"$JQ" -r '.files[] | "\(.path | sub(".*/"; "")) \(.crel.crel_bytes)"' "$T/rela.json" |
	sort >"$T/whatif-sizes"
check "what-if CREL bytes of the RELA build = real CREL sh_size, per object" \
	"$(cat "$T/real-sizes")" "$(cat "$T/whatif-sizes")"
real=$(awk '{ s += $2 } END { print s }' "$T/real-sizes")
echo "figures: RELA tables $(jqr "$T/rela.json" '.totals.crel.bytes') bytes;" \
	"what-if CREL $(jqr "$T/rela.json" '.totals.crel.crel_bytes') bytes;" \
	"real CREL sections $real bytes (CREL build's own: $(jqr "$T/crel.json" '.totals.crel.bytes'))"
check "CREL build: crel.bytes = crel.crel_bytes (a CREL table re-priced is itself)" \
	"$(jqr "$T/crel.json" '.totals.crel.bytes')" "$(jqr "$T/crel.json" '.totals.crel.crel_bytes')"
done_testing
