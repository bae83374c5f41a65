#!/bin/sh
# Cross-references between tables checked without losing the file (issue
# 18): tests/fixtures/stats-xref.yaml breaks, in both byte orders, section
# 0, a symbol table's sh_info and local order, its string table's final NUL,
# a symbol's st_name, st_shndx and SHN_XINDEX entry.  Each is a warning,
# "elfplt: PATH: warning: ..." on stderr and {code, message} in the file's
# JSON warnings[] (stats and plt), exit status 0, and every figure still reported, as
# derived by hand in the fixture's header (readelf -sW shows the same
# faults).  The cases where a relocation section's own links break are in
# tests/cli/malformed.sh's corpus.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF
Y=$FIXTURES/stats-xref.yaml
for d in 1 2 3 4; do
	"$YAML2OBJ" --docnum=$d "$Y" -o "$T/x$d.o" || exit 1
done

# Warnings of docs 1/2 and 3/4, "CODE|MESSAGE" per line.
w12="section0_nonzero|section 0: sh_flags is 0x1, not 0
section0_nonzero|section 0: sh_info is 5 but e_phnum is 0, not PN_XNUM
symtab_info|section 3 (.symtab): sh_info 9 (first non-local symbol) is past its 5 symbols
symbol_name|section 3 (.symtab): symbol 2: st_name 500 is past its string table section 5 (.strtab), 17 bytes
symbol_shndx|section 3 (.symtab): symbol 3: st_shndx 40 is past the 7 sections
symbol_shndx|section 3 (.symtab): symbol 4: SHN_XINDEX leads to section 70000, past the 7 sections"
w34="symtab_local_order|section 3 (.symtab): symbol 1 is STB_LOCAL but sh_info (first non-local) is 1
strtab_unterminated|section 4 (.strtab), the string table of section 3 (.symtab), does not end in NUL"

# The faults as readelf sees them, so the fixture is what its header says.
"$READELF" -sW "$T/x1.o" >"$T/re1" 2>&1
grep -q '<corrupt>' "$T/re1" || fail "readelf: symbol 2's name is not <corrupt>"
grep -q 'bad section index\[ *40\]' "$T/re1" || fail "readelf: no bad section index 40"
grep -q 'bad section index\[70000\]' "$T/re1" || fail "readelf: no bad section index 70000"
"$READELF" -sW "$T/x3.o" 2>&1 | grep -q "local symbol 1 found at index >= .symtab's sh_info" ||
	fail "readelf: no complaint about local symbol 1"

for d in 1 2 3 4; do
	f=$T/x$d.o
	case $d in
	1 | 2) want=$w12 classes="0 0 2 1 0 0 3" ;;
	*) want=$w34 classes="0 2 1 0 0 0 2" ;;
	esac
	case $d in
	1) types="R_X86_64_64:1 R_X86_64_PC32:1 R_X86_64_PLT32:1" ;;
	2) types="R_PPC64_ADDR64:1 R_PPC64_REL24:1 R_PPC64_REL32:1" ;;
	3) types="R_X86_64_64:1 R_X86_64_PLT32:2" ;;
	4) types="R_PPC64_ADDR64:1 R_PPC64_REL24:2" ;;
	esac
	lines=$(printf '%s\n' "$want" | sed "s|^[a-z0-9_]*[|]|elfplt: $f: warning: |")
	for fmt in json text; do
		rc=0
		timeout 20 "$ELFPLT" stats --format=$fmt "$f" >"$T/out" 2>"$T/err" || rc=$?
		check "x$d ($fmt): exit status" 0 "$rc"
		check "x$d ($fmt): stderr" "$lines" "$(cat "$T/err")"
	done
	check "x$d: text still counts" 1 \
		"$(grep -c "relocatable, 3 relocations in 1 section" "$T/out")"
	"$ELFPLT" stats --format=json "$f" >"$T/out.json" 2>/dev/null
	check "x$d: JSON warnings" "$want" \
		"$(jqr "$T/out.json" '.files[0].warnings[] | "\(.code)|\(.message)"')"
	check "x$d: relocations" 3 "$(jqr "$T/out.json" '.files[0].relocations.total')"
	check "x$d: by type" "$types" "$(jqr "$T/out.json" \
		'.files[0].relocations.by_type | map("\(.name):\(.count)") | sort | join(" ")')"
	check "x$d: symbol classes" "$classes" "$(jqr "$T/out.json" '.files[0].relocations.symbols |
		[.none, .undefined, .same_section, .other_section, .absolute_or_common, .unknown,
		.distinct] | join(" ")')"
	# plt reads the same tables for an x86-64 object (the object model): the
	# same warnings, and its answer.  No model covers the big-endian ppc64
	# objects (docs 2 and 4): plt reads none of their tables, so it has no
	# warning to give.
	case $d in
	2 | 4) want= lines= ;;
	esac
	rc=0
	"$ELFPLT" plt --format=json "$f" >"$T/plt.json" 2>"$T/err" || rc=$?
	check "x$d plt: exit status" 0 "$rc"
	check "x$d plt: stderr" "$lines" "$(cat "$T/err")"
	check "x$d plt: JSON warnings" "$want" \
		"$(jqr "$T/plt.json" '.files[0].warnings[]? | "\(.code)|\(.message)"')"
	check "x$d plt: no error" null "$(jqr "$T/plt.json" '.files[0].error')"
done

# A valid file has none: the warnings key is absent.
"$YAML2OBJ" --docnum=1 "$FIXTURES/stats-bad.yaml" -o "$T/good.o" || exit 1
"$ELFPLT" stats --format=json "$T/good.o" >"$T/out.json" 2>"$T/err"
check "valid file: stderr" "" "$(cat "$T/err")"
check "valid file: no warnings key" null "$(jqr "$T/out.json" '.files[0].warnings')"

done_testing
