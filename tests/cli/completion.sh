#!/bin/sh
# Shell completion: completion/elfplt.bash driven as bash drives it (the
# function called with COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set,
# COMPREPLY read back), for commands, options, option values and files; the
# candidates expected are typed here from elfplt(1) and each command's
# manual, not taken from elfplt.  The zsh and fish scripts are checked for
# syntax where those shells are installed.  And --list-options names every
# option each command's --help documents, so the scripts miss none.
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not found"

mkdir -p "$T/d/sub"
: >"$T/d/a.ko"
: >"$T/d/b.o"

# complete WORD...: the sorted candidates for the last word, one a line.
cat >"$T/drive.bash" <<'DRIVE'
. "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}"
COMP_POINT=${#COMP_LINE}
_elfplt 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
DRIVE
complete() {
	bash "$T/drive.bash" "$top_srcdir/completion/elfplt.bash" "$ELFPLT" "$@"
}

# expect "WORDS" "CANDIDATES": WORDS split by spaces, "" for an empty word.
expect() {
	# shellcheck disable=SC2086
	set -f
	got=$(eval "complete $1")
	set +f
	check "elfplt $1" "$2" "$got"
}

# Commands, and help's topics.
expect '""' "diff help load plt stats"
expect 'st' "stats"
expect '--json p' "plt"
expect '--format json l' "load"
expect '--format = json l' "load"
expect '-j 2 -o out.json s' "stats"
expect 'help ""' "diff json load plt stats"
expect 'help j' "json"
# The hidden child entry point is not offered.
expect '__' ""

# Options: a long option that takes a value ends in '='; --timing's is optional.
expect 'plt --k' "--kaslr= --kernel="
expect 'plt --ti' "--timing --timing="
expect 'plt --to' "--top="
expect 'stats --su' "--summary"
expect 'load --to' "--top="
expect 'load --re' "--repeat="
expect 'load --c' "--cold"
expect 'stats --j' "--jobs= --json"
expect '--vers' "--version"
expect '--ver' "--verbose --version"

# Values: split at '=' (bash's COMP_WORDBREAKS), whole, or as the next word.
expect 'stats --format =' "json openmetrics text"
expect 'stats --format = ""' "json openmetrics text"
expect 'stats --format = j' "json"
expect 'stats --format=j' "--format=json"
expect 'stats --format ""' "json openmetrics text"
expect '--format ""' "json text"
expect 'diff --format ""' "json markdown openmetrics text"
expect 'load --sections = ""' "all alloc relocs"
expect 'plt --kaslr o' "off on"
expect 'plt --erratum-843419 = ""' "off on"
expect 'plt --kernel = ""' "auto"
expect 'plt --model = arm' "arm-module arm64-module"
expect 'plt --model ""' \
	"arm-module arm64-module linked loongarch-module object powerpc64-module riscv-module s390-module"
# A count has no candidates; --timing's value goes attached, so after it a PATH.
expect 'stats --top ""' ""
expect "plt --timing $T/d/a" "$T/d/a.ko"

# Files: PATH operands, and -o's value.
expect "stats $T/d/" "$T/d/a.ko $T/d/b.o $T/d/sub"
expect "plt --summary $T/d/b" "$T/d/b.o"
expect "stats -o $T/d/a" "$T/d/a.ko"
expect "load --output = $T/d/s" "$T/d/sub"
expect "stats --output=$T/d/b" "--output=$T/d/b.o"

# Every option a command's --help documents is in its --list-options.
for cmd in stats plt load; do
	"$ELFPLT" $cmd --list-options >"$T/list" || fail "$cmd --list-options: exit status $?"
	"$ELFPLT" $cmd --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u >"$T/documented"
	while read -r opt; do
		grep -q -- "^$opt " "$T/list" || fail "$cmd --list-options lacks $opt"
	done <"$T/documented"
	[ -s "$T/documented" ] || fail "$cmd --help documents no option"
done

# zsh and fish: the scripts parse.
if command -v zsh >/dev/null; then
	zsh -n "$top_srcdir/completion/_elfplt" && echo "ok: zsh -n _elfplt" ||
		fail "zsh -n _elfplt"
else
	echo "zsh not installed: _elfplt not checked"
fi
if command -v fish >/dev/null; then
	fish -n "$top_srcdir/completion/elfplt.fish" && echo "ok: fish -n elfplt.fish" ||
		fail "fish -n elfplt.fish"
	# fish completes a command line itself (complete -C): a few of the above.
	# It runs "elfplt" from PATH: the binary's directory (ELFPLT is
	# tests/elfplt-json-copy.sh, named otherwise).
	for case in "elfplt st|stats" "elfplt plt --k|--kaslr= --kernel=" \
		"elfplt load --sections |all alloc relocs" "elfplt plt --format=j|--format=json" \
		"elfplt help j|json" "elfplt stats -o $T/d/a|$T/d/a.ko"; do
		got=$(PATH=$(dirname "$ELFPLT_BIN"):$PATH HOME=$T fish -c \
			"source '$top_srcdir/completion/elfplt.fish'; complete -C '${case%%|*}'" \
			</dev/null | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
		check "fish: ${case%%|*}" "${case#*|}" "$got"
	done
else
	echo "fish not installed: elfplt.fish not checked"
fi

[ "$nfail" -eq 0 ]
