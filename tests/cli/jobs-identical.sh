#!/bin/sh
# -j N changes how many worker processes analyse the files, never what is
# reported: stdout, stderr and the exit status of stats, plt and load are
# byte for byte those of -j 1 for -j 2, 3 and 8 (cmp), in text and JSON.
# The tree mixes good files of several machines, malformed ELF files (each
# an error line and a files[].error), files a walk passes over quietly (not
# ELF: text, empty, a 3-byte stub), subdirectories, a path that is not
# UTF-8, a missing PATH and a PATH with no ELF file (a warning).  With 20
# ELF files in the walk, 8 workers each get a few, so the merge in input
# order is exercised; a worker pipe's order would show as a permutation.
# load's measured figures (times, faults, RSS) differ from run to run: its
# JSON is compared without them (jq del), its text up to the first figure.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

tree=$T/tree
mkdir -p "$tree/a/deep/er" "$tree/b" "$tree/c" "$T/none"
n=0
for f in stats-x86-64 stats-mips-be32 stats-relr stats-relr-ppc32 stats-extnum stats-kmod \
	stats-pie plt-arm64-basic plt-arm64-overcount plt-arm64-adrp plt-arm64-noinitplt \
	plt-linked plt-object-x86 plt-object-a64 plt-object-one plt-riscv load-relocs; do
	n=$((n + 1))
	case $((n % 4)) in
	0) d=$tree ;; 1) d=$tree/a ;; 2) d=$tree/a/deep/er ;; *) d=$tree/b ;;
	esac
	"$YAML2OBJ" "$FIXTURES/$f.yaml" -o "$d/$f.o" || exit 1
	[ "$f" = stats-kmod ] && kmod=$d/$f.o
done
# Malformed, each said so by its document's comment: stats-bad.yaml documents
# 2 (sh_size not a multiple of sh_entsize) and 6 (r_sym out of range),
# bad-input-crafted.yaml document 2 (r_sym out of range, and a section name
# with a newline and an escape sequence); and a file cut inside its ELF
# header.  stats and plt read the relocations: all 4 fail for them.
"$YAML2OBJ" --docnum=2 "$FIXTURES/stats-bad.yaml" -o "$tree/a/entsize.o" || exit 1
"$YAML2OBJ" --docnum=6 "$FIXTURES/stats-bad.yaml" -o "$tree/c/rsym.o" || exit 1
"$YAML2OBJ" --docnum=2 "$FIXTURES/bad-input-crafted.yaml" -o "$tree/b/crafted2.o" || exit 1
head -c 40 "$kmod" >"$tree/c/cut.ko"
# A name that is not UTF-8 (byte 0xff): reported under a cleaned name.
cp "$tree/a/stats-x86-64.o" "$tree/b/$(printf 'odd\377name.o')"
# Passed over quietly by the walk: not ELF.
echo "not an ELF file" >"$tree/README"
: >"$tree/a/empty.ko"
printf 'ELF' >"$tree/b/stub.o"
echo "notes" >"$T/none/notes.txt"
# 17 fixtures + 3 malformed built by yaml2obj + cut.ko + the odd name.
nelf=22

# run NAME ARGS...: elfplt ARGS on the tree, a missing PATH and a PATH with no
# ELF file; stdout in $T/NAME.out, stderr in $T/NAME.err, status in $T/NAME.rc.
run() {
	name=$1
	shift
	rc=0
	"$ELFPLT" "$@" "$tree" "$T/missing.o" "$T/none" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	echo "$rc" >"$T/$name.rc"
}

# same CMD ARGS...: run at -j 1, 2, 3, 8 (also as a global option before CMD)
# and compare each with -j 1.
same() {
	run j1 "$@" -j 1
	for j in 2 3 8; do
		run "j$j" "$@" -j "$j"
		for part in out err rc; do
			cmp -s "$T/j1.$part" "$T/j$j.$part" ||
				fail "$* -j $j: $part differs from -j 1" \
					"($(cmp "$T/j1.$part" "$T/j$j.$part" 2>&1))"
		done
	done
	cmd=$1
	shift
	rc=0
	"$ELFPLT" -j 3 "$cmd" "$@" "$tree" "$T/missing.o" "$T/none" >"$T/g.out" 2>"$T/g.err" ||
		rc=$?
	cmp -s "$T/j1.out" "$T/g.out" && cmp -s "$T/j1.err" "$T/g.err" &&
		[ "$rc" = "$(cat "$T/j1.rc")" ] || fail "elfplt -j 3 $cmd $*: differs from -j 1"
	echo "ok: $cmd $*: -j 1, 2, 3, 8 byte-identical"
}

# The runs must have something to agree on: the files, the failures, the
# warning.  stderr: one line per malformed file (4), the missing PATH, the
# PATH with no ELF file (an error); exit status 1 as files failed.
check_run() {
	check "$1: exit status" 1 "$(cat "$T/j1.rc")"
	check "$1: stderr lines" 6 "$(wc -l <"$T/j1.err")"
	grep -q "^elfplt: $T/none: no ELF files found (--allow-empty to accept that)$" "$T/j1.err" ||
		fail "$1: no error for $T/none"
}

same stats --json
check_run "stats --json"
# The 22 ELF files and the missing PATH; none of the not-ELF files.
check "stats --json: files[]" $((nelf + 1)) "$(jqr "$T/j1.out" '.files | length')"
check "stats --json: failed" 5 "$(jqr "$T/j1.out" '.totals.files_failed')"
check "stats --json: not-ELF files left out" 0 \
	"$(jqr "$T/j1.out" '[.files[].path | select(test("README|empty.ko|stub.o"))] | length')"
same stats
check_run stats
same stats --top 3
same stats --json --top 3

same plt --json
check_run "plt --json"
check "plt --json: files[]" $((nelf + 1)) "$(jqr "$T/j1.out" '.files | length')"
same plt
check_run plt
same plt --summary
same plt --json --model=object

# load: the plan (files[], inputs, totals) and its errors; not the figures.
filter='del(.modes, .baseline, .cold, .peak_reset, .timer_resolution_ns)'
for j in 1 2 3 8; do
	run "load$j" load --repeat 1 --sections=relocs --json -j "$j"
	"$JQ" "$filter" "$T/load$j.out" >"$T/load$j.plan" || fail "load -j $j: JSON does not parse"
	run "loadt$j" load --repeat 1 -j "$j"
	sed '/^  page cache:/,$d' "$T/loadt$j.out" >"$T/loadt$j.plan"
	[ $j = 1 ] && continue
	for part in plan err rc; do
		cmp -s "$T/load1.$part" "$T/load$j.$part" ||
			fail "load --json -j $j: $part differs from -j 1"
		cmp -s "$T/loadt1.$part" "$T/loadt$j.$part" ||
			fail "load -j $j: $part differs from -j 1"
	done
done
echo "ok: load: plan, stderr and exit status byte-identical for -j 1, 2, 3, 8"
check "load --json: exit status" 1 "$(cat "$T/load1.rc")"
check "load --json: files[]" $((nelf + 1)) "$(jqr "$T/load1.out" '.files | length')"
# Which malformed files load's header-only planning rejects is not this
# test's business; every input is planned or failed, once.
planned=$(jqr "$T/load1.out" '.inputs.files')
check "load --json: planned + failed" $((nelf + 1)) \
	$((planned + $(jqr "$T/load1.out" '.inputs.files_failed')))
grep -q "^elfplt load: $planned files" "$T/loadt1.plan" ||
	fail "load text: header: $(head -n 1 "$T/loadt1.plan")"

done_testing
