#!/bin/sh
# Crafted inconsistencies that fuzzing elfplt turned up or that the obvious
# cases (tests/cli/malformed.sh) do not reach, through all three
# commands: every bad file gives exactly one stderr line
# "elfplt: PATH: what is wrong (section N NAME)" and a JSON error, the good
# files around it are still reported, the exit status is 1, and the bad file
# is not changed.  A command that does not read the broken structure (load
# plans sections and never reads symbols) must instead take the file without
# a word and exit 0.  The files are made here from
# tests/fixtures/bad-input-crafted.yaml, one document per case, and with dd.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF

Y=$FIXTURES/bad-input-crafted.yaml
"$YAML2OBJ" --docnum=1 "$Y" -o "$T/good.o" || exit 1
doc() {
	"$YAML2OBJ" --docnum="$1" "$Y" -o "$T/$2" || exit 1
}
# The good file's counts, from readelf: 2 R_X86_64_PLT32 relocations.
check "good file per readelf" 2 "$("$READELF" -rW "$T/good.o" | grep -c R_X86_64_PLT32)"

doc 2 name-ctrl.o
doc 3 xindex.o
doc 4 compressed.o
doc 5 shstrndx-xindex.o
doc 6 shndx-short.o
# e_ident[EI_VERSION] (byte 6) set to 2: libelf reads only EV_CURRENT (1).
cp "$T/good.o" "$T/version.o"
printf '\002' | dd of="$T/version.o" bs=1 seek=6 conv=notrunc 2>/dev/null

# name; for plt and load "=" (fails as stats does) or "ok" (takes the file);
# then the pattern of stats' message after "elfplt: FILE: " (a shell pattern:
# '?' also stands for '[' and ']').  The section numbers are from the YAML:
# [1] .text [2] .rela.text [3] .symtab (.symtab_shndx in document 6).  ESC
# and newline print as '?'.
cases="
name-ctrl.o	=	ok	relocation 1: r_sym 9 is out of range (3 symbols) (section 2 .rela?bad??31m)
xindex.o	=	ok	symbol 2 has st_shndx SHN_XINDEX but no SHT_SYMTAB_SHNDX*(section 3 .symtab)
compressed.o	=	=	ch_size 4294967300 bytes exceeds the 1073741824-byte cap on a decoded section (section 2 .rela.text)
shstrndx-xindex.o	=	=	e_shstrndx is SHN_XINDEX and section 0's sh_link 99 is out*
shndx-short.o	=	ok	SHT_SYMTAB_SHNDX has 1 entries for 3 symbols (section 3 .symtab_shndx)
version.o	=	=	unknown ELF version 2 in e_ident?EI_VERSION? (expected 1)
"

# run CMD FMT FILE: elfplt CMD on good.o FILE good.o; sets rc, $T/out, $T/err.
run() {
	rc=0
	cmd=$1 fmt=$2 file=$3
	if [ "$cmd" = load ]; then
		set -- --repeat 1 --sections=relocs
	else
		set --
	fi
	"$ELFPLT" "$cmd" "$@" --format="$fmt" -o "$T/out" "$T/good.o" "$file" "$T/good.o" \
		2>"$T/err" || rc=$?
}

while IFS='	' read -r name plt load stats; do
	[ -n "$name" ] || continue
	bad=$T/$name
	sum=$(cksum <"$bad")
	[ "$plt" = "=" ] && plt=$stats
	[ "$load" = "=" ] && load=$stats
	for cmd in stats plt load; do
		eval "want=\$$cmd"
		for fmt in json text; do
			run "$cmd" "$fmt" "$bad"
			# Issue 18: stats counts what does not need the symbol
			# table it cannot read, with two warnings: the table's
			# fault, and the relocations counted without symbols.
			case "$cmd $name" in
			"stats xindex.o" | "stats shndx-short.o")
				if [ "$name" = xindex.o ]; then
					m="symbol 2 has st_shndx SHN_XINDEX but no SHT_SYMTAB_SHNDX section links to its table (section 3 .symtab)"
				else
					m="SHT_SYMTAB_SHNDX has 1 entries for 3 symbols (section 3 .symtab_shndx)"
				fi
				check "$cmd $name ($fmt): exit status" 0 "$rc"
				check "$cmd $name ($fmt): stderr" "elfplt: $bad: warning: $m
elfplt: $bad: warning: section 2 (.rela.text): its symbol table is unreadable ($m): relocations counted, their symbols not classed" \
					"$(cat "$T/err")"
				[ "$fmt" = json ] && check "$cmd $name: warnings, total, unknown" \
					"symtab_unreadable reloc_link 2 2" "$(jqr "$T/out" '.files[1] |
					"\([.warnings[].code] | join(" ")) \(.relocations.total)" +
					" \(.relocations.symbols.unknown)"')"
				continue ;;
			esac
			if [ "$want" = ok ]; then
				check "$cmd $name ($fmt): exit status" 0 "$rc"
				check "$cmd $name ($fmt): stderr" "" "$(cat "$T/err")"
				continue
			fi
			check "$cmd $name ($fmt): exit status" 1 "$rc"
			check "$cmd $name ($fmt): one stderr line" 1 "$(wc -l <"$T/err")"
			line=$(cat "$T/err")
			# shellcheck disable=SC2254
			case "$line" in
			"elfplt: $bad: "$want) echo "ok: $cmd $name ($fmt): $line" ;;
			*) fail "$cmd $name ($fmt): stderr '$line' is not 'elfplt: $bad: $want'" ;;
			esac
			[ "$fmt" = json ] || continue
			check "$cmd $name: files reported" 3 "$(jqr "$T/out" '.files | length')"
			check "$cmd $name: error path" "$bad" "$(jqr "$T/out" '.files[1].path')"
			check "$cmd $name: error message = stderr" "$line" \
				"elfplt: $(jqr "$T/out" '.files[1].error.message')"
			check "$cmd $name: good files have no error" "null null" \
				"$(jqr "$T/out" '"\(.files[0].error) \(.files[2].error)"')"
		done
	done
	check "$name: input unchanged" "$sum" "$(cksum <"$bad")"
done <<EOF
$cases
EOF

# Exactly, without patterns: the newline and ESC of the name became '?'.
run stats text "$T/name-ctrl.o"
msg="relocation 1: r_sym 9 is out of range (3 symbols) (section 2 .rela?bad?[31m)"
check "name-ctrl: the message" "elfplt: $T/name-ctrl.o: $msg" "$(cat "$T/err")"

# The good files' results beside a bad one, per command (from the YAML):
# stats: 2 relocations each; plt (object model): 2 branches each.
run stats json "$T/xindex.o"
check "stats: good files counted" "2 2" \
	"$(jqr "$T/out" '"\(.files[0].relocations.total) \(.files[2].relocations.total)"')"
run plt json "$T/xindex.o"
check "plt: good files counted" "2 2" \
	"$(jqr "$T/out" '[.files[0, 2].detail.branch_relocations] | map(tostring) | join(" ")')"

done_testing
