#!/bin/sh
# elfplt plt, text output: each model's own columns, the summary tables
# with paths that tell files apart, per-model totals and singular forms.
# Numbers are the fixtures' hand derivations (see their header comments).
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

basic=$(fixture plt-arm64-basic)
x86=$(fixture plt-object-x86)
one=$(fixture plt-object-one)
linked=$(fixture plt-linked)
out=$T/out.txt
printf 'not an ELF file\n' >"$T/junk"

# squeeze: runs of blanks to one space, so column widths do not matter.
squeeze() {
	tr -s ' ' <"$1" | sed 's/^ //'
}

# has DESCRIPTION LINE FILE: FILE (squeezed) has LINE exactly.
has() {
	if squeeze "$3" | grep -qxF -- "$2"; then
		echo "ok: $1"
	else
		fail "$1: no line '$2' in:"
		cat "$3"
	fi
}

# hasnt DESCRIPTION REGEX FILE
hasnt() {
	if squeeze "$3" | grep -qE -- "$2"; then
		fail "$1: '$2' found in:"
		cat "$3"
	else
		echo "ok: $1"
	fi
}

# --wide: every table in one piece (elfplt(1) TEXT WIDTH; the fitted
# tables are checked below and in text-fit.sh).
"$ELFPLT" plt --wide "$basic" "$x86" "$linked" >"$out" || fail "details exited $?"
# Each model its own section columns.
has "arm64 columns" "[Nr] relocations target group relocs branches need slots minimal \
veneers spare sorted<5.8 sorted>=5.8" "$out"
has "object columns" "[Nr] relocations target relocs branches undefined distinct GOT" "$out"
has "linked columns" "[Nr] relocations target relocs PLT slots GLOB_DAT" "$out"
# plt-object-x86.yaml .rela.text: 7 relocations, 4 PLT32, 3 undefined,
# 2 distinct (puts, printf), 3 GOT relocations.
has "object row" "[2] .rela.text [1] .text 7 4 3 2 3" "$out"
# plt-linked.yaml: .rela.dyn (sh_info 0: target '-') 3 relocations, 0 PLT,
# 2 GLOB_DAT; .rela.plt [2] targets .got.plt ([6]), 3 relocations, 3 PLT.
has ".rela.dyn target is '-'" "[1] .rela.dyn - 3 0 2" "$out"
has ".rela.plt row" "[2] .rela.plt [6] .got.plt 3 3 0" "$out"
hasnt "no '[0]' target" '\[0\]' "$out"

# Totals: files by model, then one block per model, never a mixed sum.
has "files by model" "total: 3 files: 1 arm64 module, 1 object, 1 linked file" "$out"
has "arm64 block" "arm64-module, 1 module (0 rejected by the kernel):" "$out"
# basic: 6 + 2 = 8 slots, minimal 5 + 2 = 7; 84 + 36 = 120 bytes, 72 + 36.
has "arm64 slots" "PLT slots: 8 (minimal 7), 0 veneers; .plt and .init.plt 120 bytes \
(minimal 108)" "$out"
has "arm64 sorting" "sorting: 11 entries before v5.8, 8 since; no sort in 0 of 2 sections" "$out"
has "object block" "object, 1 file (bounds added file by file):" "$out"
has "object bounds" "branch relocations: 4, to undefined symbols: 3, distinct targets: 2 \
-> at most 2 PLT slots" "$out"
has "linked block" "linked, 1 file:" "$out"
has "linked PLT" "PLT: 3 slots (2 JUMP_SLOT, 1 IRELATIVE); GOT: 2 GLOB_DAT entries" "$out"
# 8 module + 2 object + 3 linked = 13 would be the mixed sum.
hasnt "no sum across models" "slots: 13|13 slots" "$out"

# --summary: one table per model, headers as in the details (5.8 kept).
"$ELFPLT" plt --wide --summary "$basic" "$x86" "$linked" >"$out" || fail "summary exited $?"
has "module summary header" "module sorted<5.8 sorted>=5.8 slots minimal" "$out"
has "object summary header" "object branches undefined PLT slots max GOT relocs GOT entries max" "$out"
has "linked summary header" "linked file PLT slots JUMP_SLOT IRELATIVE GLOB_DAT .plt bytes \
.plt.sec bytes .got bytes .got.plt bytes" "$out"
has "the common directory" "paths below $T/" "$out"
has "module row: sorted 11/8, slots 8, minimal 7" "plt-arm64-basic 11 8 8 7" "$out"
has "object row" "plt-object-x86 4 3 2 3 2" "$out"
has "linked row" "plt-linked 3 2 1 2 64 48 16 40" "$out"

# Fitted to 100 columns (a pipe), the tables too wide go on below, each
# block led again by the first column: joined, the same columns and rows.
# unsplit FILE FIRST: the lines of the table whose header starts with FIRST,
# squeezed, each block's rows appended to the first block's, the repeated
# first cell dropped.
unsplit() {
	squeeze "$1" | awk -v first="$2" '
		index($0, first " ") == 1 { blk++; row = 0; on = 1 }
		on && ($0 == "" || (index($0, first " ") != 1 && $1 !~ /^\[|^plt-/)) { on = 0 }
		on { key = $1; sub(/^[^ ]+ /, ""); line[row] = line[row] (blk > 1 ? " " $0 : key " " $0);
		     row++; n = row > n ? row : n }
		END { for (i = 0; i < n; i++) print line[i] }'
}
"$ELFPLT" plt "$basic" >"$out" || fail "fitted exited $?"
check "arm64 table: split in two blocks at 100 columns" 2 "$(grep -c '^ *\[Nr\]' "$out")"
check "arm64 table, joined: header and rows" "[Nr] relocations target group relocs branches \
need slots minimal veneers spare sorted<5.8 sorted>=5.8|[2] .rela.text [1] .text core 8 7 6 6 5 0 1 8 6|\
[4] .rela.init.text [3] .init.text init 3 3 2 2 2 0 1 3 2" "$(unsplit "$out" '[Nr]' | paste -sd '|')"

# Two modules of one name in different directories stay apart.
mkdir "$T/a" "$T/b"
cp "$basic" "$T/a/dummy.ko"
cp "$basic" "$T/b/dummy.ko"
"$ELFPLT" plt --summary "$T/a/dummy.ko" "$T/b/dummy.ko" >"$out" || fail "dummy exited $?"
has "a/dummy.ko" "a/dummy.ko 11 8 8 7" "$out"
has "b/dummy.ko" "b/dummy.ko 11 8 8 7" "$out"
(cd "$T" && "$ELFPLT" plt --summary a/dummy.ko b/dummy.ko) >"$out" || fail "relative exited $?"
has "relative a/dummy.ko as given" "a/dummy.ko 11 8 8 7" "$out"
hasnt "no common directory to name" "^paths below" "$out"
# The detailed view ends with the same module table.
"$ELFPLT" plt "$T/a/dummy.ko" "$T/b/dummy.ko" >"$out" || fail "dummy details exited $?"
has "details: b/dummy.ko row" "b/dummy.ko 11 8 8 7" "$out"

# Singular forms.  plt-object-one.yaml: at most 1 PLT slot, 1 GOT entry.
"$ELFPLT" plt --summary "$one" >"$out" || fail "one exited $?"
has "1 file" "total: 1 file: 1 object" "$out"
has "1 PLT slot" "branch relocations: 2, to undefined symbols: 2, distinct targets: 1 \
-> at most 1 PLT slot" "$out"
has "1 GOT entry" "GOT relocations: 1, distinct symbols: 1 -> at most 1 GOT entry" "$out"
# basic with the erratum off: init 1 slot (printk once), 24 bytes.
"$ELFPLT" plt --erratum-843419=off "$basic" "$T/junk" >"$out" 2>/dev/null
has "1 slot" "init: 1 slot (minimal 1), .init.plt 24 bytes (minimal 24)" "$out"
has "1 file failed" "total: 1 file: 1 arm64 module; 1 file failed" "$out"
hasnt "no plural after 1" "(^|[^0-9])1 (files|modules|objects|slots|sections|entries|veneers)\\b" "$out"
done_testing
