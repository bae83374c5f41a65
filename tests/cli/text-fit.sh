#!/bin/sh
# Text that fits (elfplt(1) TEXT WIDTH): stats, plt and load print no line
# wider than 100 columns into a pipe or a file, nor wider than the terminal
# (COLUMNS, or the pseudo-terminal's size); a name too long for its column
# is abbreviated in its middle with one '~' (its first and last characters
# kept); a table too wide even so continues below, led again by its first
# column, so no figure is lost; --wide prints every line whole.  Checked on
# fixtures under a long directory name (tests/real/text-fit-modules.sh: on
# real modules).  The expected names come from readelf -SW, not from elfplt.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ READELF
command -v python3 >/dev/null || skip "python3 not found (./bootstrap --deps installs it)"

# A directory name long enough that a path alone is wider than 100 columns.
d=$T/a-directory-with-a-rather-long-name-to-make-every-path-wider-than-a-line/and-deeper-still
mkdir -p "$d"
for f in stats-x86-64 stats-kmod stats-relr plt-arm64-basic plt-arm64-overcount plt-object-x86 \
	plt-linked plt-arm-basic plt-ppc64-basic plt-s390-basic; do
	"$YAML2OBJ" "$FIXTURES/$f.yaml" -o "$d/$f.o" || exit 1
done
# A section name longer than any column leaves room for (readelf shows it whole).
tail=.a_function_name_far_longer_than_the_column_that_shows_it
long=.rela.text$tail
sed "s/\\.text\$/.text$tail/; s/\\.text,/.text$tail,/" "$FIXTURES/stats-x86-64.yaml" >"$T/long.yaml"
"$YAML2OBJ" "$T/long.yaml" -o "$d/long-names.o" || exit 1
check "readelf names the long section" 1 "$("$READELF" -SW "$d/long-names.o" | grep -c -- "$long")"

# widest FILE: the widest line of FILE in characters (UTF-8), without CRs.
widest() {
	python3 -c 'import sys
print(max([len(l.rstrip("\r\n")) for l in open(sys.argv[1], encoding="utf-8", errors="replace")] + [0]))' "$1"
}

# abbrev_ok FITTED NAMES: every token with a '~' in FITTED is a name of
# NAMES (one a line) with its middle replaced: prefix and suffix of one name.
abbrev_ok() {
	python3 - "$1" "$2" <<'PY'
import sys
names = [n.strip() for n in open(sys.argv[2]) if n.strip()]
bad = []
n_abbrev = 0
for line in open(sys.argv[1], errors="replace"):
    for tok in line.split():
        if "~" not in tok:
            continue
        n_abbrev += 1
        tok = tok.rstrip(":,;")
        head, _, tail = tok.partition("~")
        if not any(n.startswith(head) and n.endswith(tail) and len(n) > len(tok) - 1
                   for n in names):
            bad.append(tok)
print("%d %s" % (n_abbrev, " ".join(bad[:5]) or "ok"))
PY
}

# numbers FILE: the multiset of purely numeric tokens, one a line, sorted.
numbers() {
	tr -s ' \t' '\n\n' <"$1" | grep -E '^[0-9]+(\.[0-9]+)?%?,?$' | sed 's/,$//' | sort
}

# Every file's section names and paths as readelf and find have them.
for f in "$d"/*.o; do
	"$READELF" -SW "$f" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p'
done >"$T/names"
echo "$long" >>"$T/names"
find "$T" -name '*.o' >>"$T/names"
find "$T" -type d | sed 's,$,/,' >>"$T/names" # "paths below DIR/"
"$READELF" -SW "$d/long-names.o" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' | grep -q -- "$long" ||
	fail "readelf -SW does not list $long"

for cmd in stats plt load; do
	"$ELFPLT" $cmd -q -j 1 "$d" >"$T/$cmd.txt" 2>"$T/$cmd.err"
	"$ELFPLT" $cmd -q -j 1 --wide "$d" >"$T/$cmd.wide" 2>/dev/null
	"$ELFPLT" --wide $cmd -q -j 1 -o "$T/$cmd.wide-o" "$d" 2>/dev/null
	w=$(widest "$T/$cmd.txt")
	[ "$w" -le 100 ] && echo "ok: $cmd in a pipe: widest line $w <= 100" ||
		fail "$cmd in a pipe: a line of $w columns: $(awk 'length > 100' "$T/$cmd.txt" | head -n 2)"
	"$ELFPLT" $cmd -q -j 1 -o "$T/$cmd.o.txt" "$d" 2>/dev/null
	w=$(widest "$T/$cmd.o.txt")
	[ "$w" -le 100 ] && echo "ok: $cmd -o FILE: widest line $w <= 100" ||
		fail "$cmd -o FILE: a line of $w columns"
	w=$(widest "$T/$cmd.wide")
	[ "$w" -gt 100 ] && echo "ok: $cmd --wide: widest line $w, not fitted" ||
		fail "$cmd --wide: widest line only $w"
	[ "$cmd" = load ] && continue # figures are timings, run to run different
	cmp -s "$T/$cmd.wide" "$T/$cmd.wide-o" || fail "$cmd: --wide before the command differs"
	check "$cmd --wide: the whole path of every file" \
		"$(find "$d" -name '*.o' | wc -l)" \
		"$(find "$d" -name '*.o' | while read -r p; do grep -c -F "$p:" "$T/$cmd.wide"; done |
			awk '{ n += ($1 > 0) } END { print n }')"
	set -- $(abbrev_ok "$T/$cmd.txt" "$T/names")
	check "$cmd: every abbreviation is a real name's head~tail" ok "$2"
	[ "$1" -gt 0 ] || fail "$cmd: nothing was abbreviated (the test needs long names)"
	check "$cmd: no '~' in --wide" 0 "$(grep -c '~' "$T/$cmd.wide")"
	check "$cmd: fitted and --wide have the same figures" "$(numbers "$T/$cmd.wide" | md5sum)" \
		"$(numbers "$T/$cmd.txt" | md5sum)"
done
check "stats --wide: the long section name whole" 1 \
	"$(grep -c -- "  $long  " "$T/stats.wide")"
# plt's table for arm64 has more columns than 100 hold: it goes on below,
# each block led by the section index, as many rows in each.
blocks=$(grep -c '^  \[Nr\]' "$T/plt.txt")
wblocks=$(grep -c '^  \[Nr\]' "$T/plt.wide")
[ "$blocks" -gt "$wblocks" ] && echo "ok: plt: $wblocks tables in $blocks blocks" ||
	fail "plt: no table continued below ($blocks blocks, $wblocks tables)"

# On a terminal: COLUMNS, else the terminal's size (stty cols).
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	for cmd in stats plt; do
		COLUMNS=80 script -qec "'$ELFPLT' $cmd -q -j 1 '$d'" /dev/null </dev/null >"$T/tty80"
		w=$(widest "$T/tty80")
		[ "$w" -le 80 ] && echo "ok: $cmd on a terminal, COLUMNS=80: widest line $w" ||
			fail "$cmd on a terminal, COLUMNS=80: a line of $w columns"
		[ "$w" -gt 60 ] || fail "$cmd on a terminal, COLUMNS=80: widest only $w"
		env -u COLUMNS script -qec "stty cols 64; '$ELFPLT' $cmd -q -j 1 '$d'" /dev/null \
			</dev/null >"$T/tty64"
		w=$(widest "$T/tty64")
		[ "$w" -le 64 ] && echo "ok: $cmd on a 64-column terminal: widest line $w" ||
			fail "$cmd on a 64-column terminal: a line of $w columns"
		COLUMNS=80 script -qec "'$ELFPLT' $cmd -q -j 1 --wide '$d'" /dev/null </dev/null >"$T/ttyw"
		w=$(widest "$T/ttyw")
		[ "$w" -gt 100 ] && echo "ok: $cmd --wide on a terminal: widest line $w" ||
			fail "$cmd --wide on a terminal: widest only $w"
	done
else
	echo "note: script cannot open a pseudo-terminal here: the terminal cases are not run"
fi

done_testing
