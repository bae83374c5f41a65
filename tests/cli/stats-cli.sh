#!/bin/sh
# The command line of elfplt and elfplt stats: --version, --help, help,
# usage errors (exit 2 with a hint), the output options, the directory walk
# (by magic bytes, sorted), zstd-compressed modules, --top and the totals.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# run CMD...: exit status in $rc, stdout in $T/out, stderr in $T/err.
run() {
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
}

# usage_error DESCRIPTION CMD...: exit 2, a message and a "Try ..." hint.
usage_error() {
	d=$1
	shift
	run "$@"
	check "$d: exit status" 2 "$rc"
	grep -q "^elfplt: " "$T/err" || fail "$d: no 'elfplt: ' message: $(cat "$T/err")"
	grep -q "^Try 'elfplt.*--help'" "$T/err" || fail "$d: no hint: $(cat "$T/err")"
	check "$d: nothing on stdout" 0 "$(wc -c <"$T/out")"
}

x86=$(fixture stats-x86-64)
mips=$(fixture stats-mips-be32)
kmod=$(fixture stats-kmod)

# --- --version, --help, help ---------------------------------------------
run "$ELFPLT" --version
check "--version: exit status" 0 "$rc"
version=$(cat "$T/out")
case "$version" in
"elfplt "[0-9]*.[0-9]*.[0-9]*) echo "ok: --version: $version" ;;
*) fail "--version printed '$version'" ;;
esac
"$ELFPLT" stats --json "$x86" >"$T/v.json"
check "--version matches elfplt_version in JSON" "$version" "elfplt $(jqr "$T/v.json" .elfplt_version)"
check "JSON schema" "elfplt-stats/2" "$(jqr "$T/v.json" .schema)"

run "$ELFPLT" --help
check "--help: exit status" 0 "$rc"
grep -q '^usage: elfplt ' "$T/out" || fail "--help: no usage line"
grep -q '^  stats ' "$T/out" || fail "--help: the command table does not list stats"
run "$ELFPLT" stats --help
check "stats --help: exit status" 0 "$rc"
grep -q -- '--top N' "$T/out" || fail "stats --help does not describe --top"

# help shows the man page built from man/*.scd: the same text as man -l on it.
if command -v man >/dev/null 2>&1; then
	export MANPAGER=cat PAGER=cat MANWIDTH=80
	for page in stats ""; do
		name=elfplt${page:+-$page}
		run "$ELFPLT" help $page
		check "help $page: exit status" 0 "$rc"
		man -l "$top_builddir/man/$name.1" >"$T/man.txt" 2>/dev/null
		[ -s "$T/out" ] || fail "help $page printed nothing"
		cmp -s "$T/out" "$T/man.txt" || fail "help $page did not show $name(1)"
	done
else
	echo "note: man not installed, elfplt help not checked"
fi

# --- usage errors ---------------------------------------------------------
usage_error "unknown command" "$ELFPLT" frobnicate "$x86"
grep -q "frobnicate" "$T/err" || fail "unknown command: message does not name it"
usage_error "help for an unknown command" "$ELFPLT" help frobnicate
usage_error "unknown global option" "$ELFPLT" --frobnicate stats "$x86"
usage_error "unknown stats option" "$ELFPLT" stats --frobnicate "$x86"
grep -q "^elfplt: .*'--frobnicate'" "$T/err" || fail "unknown option: not named: $(cat "$T/err")"
usage_error "unknown short option" "$ELFPLT" stats -Z "$x86"
usage_error "--top without its number" "$ELFPLT" stats "$x86" --top
usage_error "bad --format" "$ELFPLT" stats --format=xml "$x86"
usage_error "--top 0" "$ELFPLT" stats --top 0 "$x86"
usage_error "--top not a number" "$ELFPLT" stats --top many "$x86"
usage_error "--top negative" "$ELFPLT" stats --top -3 "$x86"
usage_error "--jobs 0" "$ELFPLT" stats --jobs 0 "$x86"
usage_error "-j 9 (over the cap of 8)" "$ELFPLT" stats -j 9 "$x86"
usage_error "-j not a number" "$ELFPLT" stats -j two "$x86"
usage_error "-j without its number" "$ELFPLT" stats "$x86" -j
run "$ELFPLT"
check "no command: exit status" 2 "$rc"
grep -q '^usage: elfplt ' "$T/err" || fail "no command: no usage on stderr"
if [ ! -d "/lib/modules/$(uname -r)" ]; then
	usage_error "no PATH and no /lib/modules/$(uname -r)" "$ELFPLT" stats
fi

# --- output options -------------------------------------------------------
"$ELFPLT" stats --format=json "$x86" >"$T/a.json"
"$ELFPLT" stats --json "$x86" >"$T/b.json"
"$ELFPLT" --json stats "$x86" >"$T/c.json"
"$ELFPLT" stats --json -o "$T/d.json" "$x86" >"$T/d.stdout"
"$ELFPLT" stats --json --output "$T/e.json" "$x86"
for v in b c d e; do
	cmp -s "$T/a.json" "$T/$v.json" || fail "JSON of variant $v differs from --format=json"
done
check "-o: nothing on stdout" 0 "$(wc -c <"$T/d.stdout")"
"$JQ" -e . "$T/a.json" >/dev/null || fail "--format=json is not JSON"
"$ELFPLT" stats "$x86" >"$T/a.txt"
"$ELFPLT" stats --format=text -o "$T/b.txt" "$x86"
cmp -s "$T/a.txt" "$T/b.txt" || fail "-o FILE text differs from stdout"
"$ELFPLT" stats --json --format=text "$x86" >"$T/c.txt"
cmp -s "$T/a.txt" "$T/c.txt" || fail "the last --format does not win"
# A report that cannot be written is a failure (exit 1), not a usage error.
run "$ELFPLT" stats -o "$T/no/such/dir/x" "$x86"
check "-o into a missing directory: exit status" 1 "$rc"
check "-o into a missing directory: message" \
	"elfplt: cannot write $T/no/such/dir/x: No such file or directory" "$(cat "$T/err")"

# --- directory walk: by magic bytes, sorted ----------------------------------
d=$T/tree
mkdir -p "$d/a" "$d/c" "$d/e"
cp "$x86" "$d/a/foo.txt"		# ELF named .txt: found
cp "$mips" "$d/b.o"
printf 'not ELF, named like a module\n' >"$d/c/foo.ko"	# text named .ko: not found
cp "$kmod" "$d/k.ko"
zstd -q -19 "$d/k.ko" -o "$d/k.ko.zst" 2>/dev/null || skip "zstd not installed"
printf 'plain text\n' | zstd -q >"$d/e/notes.zst"	# compressed, not ELF: passed over
printf '\177ELF' >"$d/0-short"	# ELF magic but truncated: found and fails
# ELF magic, EI_CLASS 3 (neither ELFCLASS32 nor 64), 64 bytes: an ELF file, and bad.
{ printf '\177ELF\003\001\001'; head -c 57 /dev/zero; } >"$d/0-badclass"
: >"$d/c/empty"			# empty: not ELF, passed over
run "$ELFPLT" stats --json "$d"
check "walk: exit status (two bad ELF files)" 1 "$rc"
# strcmp order at each level: 0-badclass < 0-short < a < b.o < c < e < k.ko < k.ko.zst.
check "walk: files in sorted order" \
	"$d/0-badclass $d/0-short $d/a/foo.txt $d/b.o $d/k.ko $d/k.ko.zst" \
	"$(jqr "$T/out" '[.files[].path] | join(" ")')"
check "walk: the bad class is reported" not_elf "$(jqr "$T/out" '.files[0].error.code')"
check "walk: the short file fails" truncated "$(jqr "$T/out" '.files[1].error.code')"
check "walk: two stderr lines" 2 "$(wc -l <"$T/err")"

# --- --jobs: the same report, stderr and exit status for any number ----------
# Files from several worker processes are still reported strictly in input order.
for n in 2 3 8; do
	cp "$kmod" "$d/k$n.ko"	# more files than workers
done
for fmt in text json; do
	run "$ELFPLT" stats --format=$fmt -j 1 "$d"
	mv "$T/out" "$T/j1.out"
	mv "$T/err" "$T/j1.err"
	rc1=$rc
	check "-j 1 --format=$fmt: exit status (two bad ELF files)" 1 "$rc1"
	for n in 2 3 8; do
		run "$ELFPLT" stats --format=$fmt --jobs $n "$d"
		check "-j $n --format=$fmt: exit status" "$rc1" "$rc"
		cmp -s "$T/j1.out" "$T/out" || fail "-j $n --format=$fmt: report differs from -j 1"
		cmp -s "$T/j1.err" "$T/err" || fail "-j $n --format=$fmt: stderr differs from -j 1"
	done
done
rm "$d/0-short" "$d/0-badclass" "$d/k2.ko" "$d/k3.ko" "$d/k8.ko"
run "$ELFPLT" stats --json "$d"
check "walk: exit status" 0 "$rc"
check "walk: nothing on stderr" "" "$(cat "$T/err")"

# --- zstd-compressed module: the same counts as the plain one ---------------
"$ELFPLT" stats --json "$d/k.ko" "$d/k.ko.zst" >"$T/z.json"
check "zstd: compression" "none zstd" "$(jqr "$T/z.json" '[.files[].compression] | join(" ")')"
check "zstd: file_size is the compressed size" "$(wc -c <"$d/k.ko.zst")" \
	"$(jqr "$T/z.json" '.files[1].file_size')"
check "zstd: image_size is the module's size" "$(wc -c <"$d/k.ko")" \
	"$(jqr "$T/z.json" '.files[1].image_size')"
check "zstd: same counts as the plain module" \
	"$(jqr "$T/z.json" '.files[0] | del(.path, .file_size, .compression) | tojson')" \
	"$(jqr "$T/z.json" '.files[1] | del(.path, .file_size, .compression) | tojson')"
check "zstd: 9 relocations (as in stats-fixtures.sh)" 9 \
	"$(jqr "$T/z.json" '.files[1].relocations.total')"

# --- totals and --top -------------------------------------------------------
# Hand-derived in stats-fixtures.sh: x86-64 12 relocations in 2 sections,
# sizes 37/16/8; mips 7 in 2, 24/12/0; kmod 9 in 3, 99/1024/40.
# Totals: 28 relocations in 7 sections, text 160, data 1052, bss 48.
"$ELFPLT" stats --json "$x86" "$mips" "$kmod" >"$T/t.json"
check "totals: files" "3 0" "$(jqr "$T/t.json" '.totals | "\(.files) \(.files_failed)"')"
check "totals: relocations" 28 "$(jqr "$T/t.json" '.totals.relocations')"
check "totals: relocation sections" 7 "$(jqr "$T/t.json" '.totals.relocation_sections')"
check "totals: sizes" "160 1052 48" \
	"$(jqr "$T/t.json" '.totals.sizes | "\(.text) \(.data) \(.bss)"')"
# by machine, in order of first appearance: x86-64 12, MIPS 7, AArch64 9.
check "totals: by machine" "EM_X86_64:1:12 EM_MIPS:1:7 EM_AARCH64:1:9" \
	"$(jqr "$T/t.json" '[.totals.by_machine[] | "\(.machine.name):\(.files):\(.relocations)"] |
		join(" ")')"
check "totals: no top list without --top" 0 "$(jqr "$T/t.json" '.totals.top | length')"
"$ELFPLT" stats "$x86" "$mips" "$kmod" >"$T/t.txt"
check "totals: text line" \
	"total: 3 files, 28 relocations in 7 sections; text 160, data 1052, bss 48 bytes" \
	"$(grep '^total:' "$T/t.txt")"
check "totals: the totals come last" 3 \
	"$(awk '/^total:/ { print n } / relocations in [0-9]+ sections$/ { n++ }' "$T/t.txt")"
"$ELFPLT" stats "$x86" >"$T/one.txt"
check "one file: no totals block" 0 "$(grep -c '^total:' "$T/one.txt")"

# --top 2: x86-64 (12) and kmod (9) beat mips (7).
"$ELFPLT" stats --json --top 2 "$x86" "$mips" "$kmod" >"$T/top.json"
check "--top 2 (JSON)" "$x86:12 $kmod:9" \
	"$(jqr "$T/top.json" '[.totals.top[] | "\(.path):\(.relocations)"] | join(" ")')"
check "--top 2 (JSON): every file still reported" 3 "$(jqr "$T/top.json" '.files | length')"
"$ELFPLT" stats --top 2 "$x86" "$mips" "$kmod" >"$T/top.txt"
check "--top 2 (text): ranked list" "1 12 $x86|2 9 $kmod" \
	"$(awk '/^top 2 files/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1, $2, $3 }' \
		"$T/top.txt" | paste -sd'|')"
check "--top 2 (text): no per-file details" 0 \
	"$(grep -c ' relocations in [0-9]* sections$' "$T/top.txt")"
"$ELFPLT" stats --top 10 "$x86" "$mips" >"$T/top10.txt"
check "--top 10 of 2 files lists 2" "top 2 files by relocations:" \
	"$(grep '^top ' "$T/top10.txt")"

done_testing
