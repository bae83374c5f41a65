#!/bin/sh
# --access and ELFPLT_ACCESS change how a file's bytes come in, never what
# is reported: stdout, stderr and the exit status of stats and plt (text and
# JSON) and of load's plan are byte for byte those of --access=mmap (the
# whole file mapped, as before the accessor read only what is needed) for
# read, hybrid, hybrid with ELFPLT_MMAP_THRESHOLD=1 (every range mapped in
# place over the reused buffer) and hybrid with a threshold of 1 GiB (every
# range read).  The tree is jobs-identical.sh's kind: good files of several
# machines, malformed ELF files, files cut short, an archive, a zstd-
# compressed copy, files that are not ELF; run at -j 1 and -j 2 so the
# buffer is reused from file to file in one process.  The threshold's exact
# boundary is tests/unit/shrink_test's; the malformed corpus under each
# mode, tests/cli/access-malformed.sh's.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

tree=$T/tree
mkdir -p "$tree/a/deep" "$tree/b"
n=0
for f in stats-x86-64 stats-mips-be32 stats-relr stats-relr-ppc32 stats-extnum stats-kmod \
	stats-pie plt-arm64-basic plt-arm64-overcount plt-arm64-adrp plt-arm64-noinitplt \
	plt-linked plt-object-x86 plt-object-a64 plt-object-one plt-riscv load-relocs; do
	n=$((n + 1))
	case $((n % 3)) in
	0) d=$tree ;; 1) d=$tree/a ;; *) d=$tree/a/deep ;;
	esac
	"$YAML2OBJ" "$FIXTURES/$f.yaml" -o "$d/$f.o" || exit 1
done
"$YAML2OBJ" --docnum=2 "$FIXTURES/stats-bad.yaml" -o "$tree/b/entsize.o" || exit 1
"$YAML2OBJ" --docnum=6 "$FIXTURES/stats-bad.yaml" -o "$tree/b/rsym.o" || exit 1
"$YAML2OBJ" --docnum=2 "$FIXTURES/bad-input-crafted.yaml" -o "$tree/b/crafted2.o" || exit 1
# Cut inside the ELF header, inside the section header table, inside a section.
head -c 40 "$tree/a/stats-x86-64.o" >"$tree/b/cut-ehdr.o"
sz=$(wc -c <"$tree/stats-kmod.o" 2>/dev/null || wc -c <"$tree/a/stats-kmod.o")
for f in "$tree"/*/stats-kmod.o "$tree"/stats-kmod.o "$tree"/*/*/stats-kmod.o; do
	[ -f "$f" ] && kmod=$f
done
sz=$(wc -c <"$kmod")
head -c $((sz - 30)) "$kmod" >"$tree/b/cut-shdrs.ko"
head -c 300 "$kmod" >"$tree/b/cut-body.ko"
if command -v ar >/dev/null; then
	ar rc "$tree/b/lib.a" "$tree/a/stats-x86-64.o" "$kmod" || exit 1
fi
if command -v zstd >/dev/null; then
	zstd -q -c "$kmod" >"$tree/b/kmod.ko.zst" || exit 1
fi
echo "not an ELF file" >"$tree/README"

# run NAME ARGS...: elfplt ARGS on the tree; stdout, stderr, status in $T/NAME.*
run() {
	name=$1
	shift
	rc=0
	"$@" "$tree" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	echo "$rc" >"$T/$name.rc"
}

# same CMD ARGS...: each mode against --access=mmap.
same() {
	for j in 1 2; do
		run mmap "$ELFPLT" --access=mmap "$@" -j $j
		run read "$ELFPLT" --access=read "$@" -j $j
		run hybrid env ELFPLT_ACCESS=hybrid "$ELFPLT" "$@" -j $j
		run mapall env ELFPLT_MMAP_THRESHOLD=1 "$ELFPLT" "$@" -j $j
		run readall env ELFPLT_ACCESS=hybrid ELFPLT_MMAP_THRESHOLD=1G "$ELFPLT" "$@" -j $j
		run envread env ELFPLT_ACCESS=read "$ELFPLT" "$@" -j $j
		run optwins env ELFPLT_ACCESS=read "$ELFPLT" "$@" --access=mmap -j $j
		for m in read hybrid mapall readall envread optwins; do
			for part in out err rc; do
				cmp -s "$T/mmap.$part" "$T/$m.$part" ||
					fail "$* -j $j: $m: $part differs from --access=mmap" \
						"($(cmp "$T/mmap.$part" "$T/$m.$part" 2>&1))"
			done
		done
	done
	echo "ok: $*: read, hybrid (thresholds 1, 4 pages, 1G) byte-identical to mmap"
}

same stats
# Something to agree on: the good files' relocations, the bad ones' errors.
check "stats: exit status" 1 "$(cat "$T/mmap.rc")"
same stats --json
check "stats --json: files failed" 6 "$(jqr "$T/mmap.out" '.totals.files_failed')"
check "stats --json: relocations in the zstd copy" \
	"$(jqr "$T/mmap.out" "[.files[] | select(.path == \"$kmod\")][0].relocations.total")" \
	"$(jqr "$T/mmap.out" '[.files[] | select(.path | endswith("kmod.ko.zst"))][0].relocations.total')"
same plt
same plt --json
same plt --summary

# load's plan (not its measured figures).
filter='del(.modes, .baseline, .cold, .peak_reset, .timer_resolution_ns)'
for m in mmap read hybrid; do
	rc=0
	"$ELFPLT" --access=$m load --repeat 1 --sections=relocs --json "$tree" >"$T/load-$m.json" \
		2>"$T/load-$m.err" || rc=$?
	"$JQ" "$filter" "$T/load-$m.json" >"$T/load-$m.plan" || fail "load --access=$m: bad JSON"
	echo "$rc" >>"$T/load-$m.plan"
done
for m in read hybrid; do
	cmp -s "$T/load-mmap.plan" "$T/load-$m.plan" || fail "load --access=$m: plan differs"
	cmp -s "$T/load-mmap.err" "$T/load-$m.err" || fail "load --access=$m: stderr differs"
done
echo "ok: load: plan byte-identical for each mode"

# Usage errors name the option or the variable.
rc=0
"$ELFPLT" --access=mapped stats "$tree" >/dev/null 2>"$T/u.err" || rc=$?
check "--access=mapped: exit status" 2 "$rc"
grep -q "access takes read, mmap or hybrid, not 'mapped'" "$T/u.err" ||
	fail "--access=mapped: $(cat "$T/u.err")"
rc=0
ELFPLT_ACCESS=sometimes "$ELFPLT" stats "$tree" >/dev/null 2>"$T/u.err" || rc=$?
check "ELFPLT_ACCESS=sometimes: exit status" 2 "$rc"
grep -q "ELFPLT_ACCESS takes read, mmap or hybrid, not 'sometimes'" "$T/u.err" ||
	fail "ELFPLT_ACCESS=sometimes: $(cat "$T/u.err")"
rc=0
ELFPLT_MMAP_THRESHOLD=lots "$ELFPLT" stats "$tree" >/dev/null 2>"$T/u.err" || rc=$?
check "ELFPLT_MMAP_THRESHOLD=lots: exit status" 2 "$rc"

done_testing
