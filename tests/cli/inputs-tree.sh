#!/bin/sh
# Directory trees: a file reached by two hard links is analysed once, by the
# first name in the walk's order (each directory's entries in strcmp() order,
# subdirectories where they sort); symbolic links inside the tree are not
# followed, one named as PATH is; a symbolic link loop named as PATH is one
# clear error (ELOOP), not a hang; files that are not ELF are passed over
# and counted exactly in "skipped" (the test makes each of them), in stats,
# plt and load alike, and said in one text line.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
command -v ar >/dev/null || skip "ar not found (binutils)"
command -v xz >/dev/null || skip "xz not found (./bootstrap --deps installs it)"

R=$T/tree
mkdir -p "$R/sub" "$R/zz"
cp "$(fixture stats-kmod)" "$R/b.ko"
cp "$(fixture plt-arm64-basic)" "$R/sub/plt.o"
# Hard links: sub/a-link.ko comes after b.ko (sub/ sorts after b.ko), and
# 0first.o comes before sub/plt.o, which it is a link to.
ln "$R/b.ko" "$R/sub/a-link.ko"
ln "$R/sub/plt.o" "$R/0first.o"
# Symbolic links in the tree, to a file and to a directory: not followed.
ln -s b.ko "$R/link-to-b.ko"
ln -s sub "$R/zz/link-to-sub"
# Not ELF: 6 files.  Text, an empty file, xz-compressed text, 0xAA bytes,
# a file with only the first 3 bytes of the ELF magic, and an archive whose
# one member is text (the member is what is skipped: an archive is listed as
# its members).
printf 'hello\n' >"$R/notes.txt"
: >"$R/empty"
printf 'hello\n' | xz -c >"$R/text.xz"
head -c 4096 /dev/zero | tr '\0' '\252' >"$R/zz/random.bin"
printf '\177EL' >"$R/zz/short"
(cd "$R/zz" && ar rc only-text.a ../notes.txt) || fail "ar rc"
# One ELF file inside an archive too: 3 ELF inputs in all.
(cd "$R/zz" && cp ../b.ko member.o && ar rc objs.a member.o && rm member.o) || fail "ar rc objs.a"

# stats with one job (everything in the main process) and with worker
# processes (the main process decides which link is first); plt and load.
for cmd in "stats -j 1" "stats -j 2" "stats -j 3" plt load; do
	case $cmd in
	load) set -- --repeat 1 ;;
	stats*) set -- -j "${cmd#stats -j }"; cmd=stats ;;
	*) set -- ;;
	esac
	"$ELFPLT" "$cmd" "$@" --json -o "$T/out" "$R" 2>"$T/err" || fail "$cmd exited $?"
	check "$cmd: no message" "" "$(cat "$T/err")"
	check "$cmd: each file once, by its first name" \
		"$R/0first.o $R/b.ko $R/zz/objs.a(member.o)" \
		"$(jqr "$T/out" '[.files[].path] | join(" ")')"
	# notes.txt, empty, text.xz, random.bin, short, only-text.a(notes.txt).
	check "$cmd: skipped" 6 "$(jqr "$T/out" '.totals.skipped')"
	check "$cmd: archive keys" "null null $R/zz/objs.a:member.o" \
		"$(jqr "$T/out" '[.files[] | "\(.archive):\(.member)"] |
			map(if . == "null:null" then "null" else . end) | join(" ")')"
done
"$ELFPLT" stats "$R" >"$T/text" || fail "stats text exited $?"
check "stats text: the skipped line" "skipped: 6 files (not ELF)" "$(tail -n 1 "$T/text")"
"$ELFPLT" plt --summary "$R" >"$T/text" || fail "plt text exited $?"
check "plt text: the skipped line" "skipped: 6 files (not ELF)" "$(tail -n 1 "$T/text")"
"$ELFPLT" load --repeat 1 "$R" >"$T/text" || fail "load text exited $?"
check "load text: the skipped line" "  skipped: 6 files (not ELF)" "$(sed -n 2p "$T/text")"
# Nothing skipped, nothing said.
"$ELFPLT" stats "$R/b.ko" >"$T/text" || fail "stats b.ko exited $?"
grep -q '^skipped' "$T/text" && fail "stats b.ko: a skipped line with nothing skipped"
check "stats b.ko: skipped 0" 0 "$("$ELFPLT" stats --json "$R/b.ko" | "$JQ" .totals.skipped)"

# Named twice by the user: the user asked twice, reported twice.
check "a file named twice" 2 \
	"$("$ELFPLT" stats --json "$R/b.ko" "$R/sub/a-link.ko" | "$JQ" '.files | length')"
# A file named, then its other link found in a walk: the walk's is a duplicate.
check "named, then walked" "$R/sub/plt.o" \
	"$("$ELFPLT" stats --json "$R/b.ko" "$R/sub" | "$JQ" -r '[.files[1:][].path] | join(" ")')"

# A symbolic link named as PATH is followed.
check "symlink named" "$R/link-to-b.ko 9" \
	"$("$ELFPLT" stats --json "$R/link-to-b.ko" |
		"$JQ" -r '.files[0] | "\(.path) \(.relocations.total)"')"
# A loop named as PATH: one error line, exit 1, the other input reported.
ln -s loop "$T/loop"
rc=0
"$ELFPLT" stats --json -o "$T/out" "$T/loop" "$R/b.ko" 2>"$T/err" || rc=$?
check "symlink loop: exit status" 1 "$rc"
check "symlink loop: the error" "elfplt: $T/loop: Too many levels of symbolic links" \
	"$(cat "$T/err")"
check "symlink loop: the other reported" "io null" \
	"$(jqr "$T/out" '[.files[].error.code] | map(tostring) | join(" ")')"
# A loop inside a tree is a symbolic link like any other: not followed.
ln -s loop2 "$R/zz/loop2"
"$ELFPLT" stats --json -o "$T/out" "$R" 2>"$T/err" || fail "tree with a loop exited $?"
check "loop in a tree: same files" 3 "$(jqr "$T/out" '.files | length')"

done_testing
