# Shared by tests/cli/diff-*.sh; sourced after tests/lib.sh, not run.
#
# diff_trees: build $T/old and $T/new from tests/fixtures/diff-x86.yaml (its
# header derives every count used below):
#   old/net.o          doc 1   3 relocations, 3 slots, text 64 data 16 bss 8
#   old/fs.o           doc 3   1 relocation,  1 slot,  text 32
#   old/drv/old.o      doc 4   2 relocations, 2 slots, text 48 data 8
#   old/lib.a          members net.o (doc 1), fs.o (doc 3)
#   new/net.o          doc 2   7 relocations, 6 slots, text 96 data 16 bss 24
#   new/fs.o.xz        doc 3, xz-compressed: pairs with old/fs.o, unchanged
#   new/drv/renamed.o  doc 4: old.o renamed, so one removed and one added
#   new/lib.a          members net.o (doc 2), fs.o (doc 3)
# Totals, old: relocations 3+1+2+3+1 = 10, slots 3+1+2+3+1 = 10,
#              text 64+32+48+64+32 = 240
#         new: relocations 7+1+2+7+1 = 18, slots 6+1+2+6+1 = 16,
#              text 96+32+48+96+32 = 304
need YAML2OBJ JQ

diff_trees() {
	for i in 1 2 3 4; do
		"$YAML2OBJ" --docnum=$i "$FIXTURES/diff-x86.yaml" -o "$T/d$i.o" ||
			fail "yaml2obj diff-x86.yaml doc $i"
	done
	mkdir -p "$T/old/drv" "$T/new/drv" "$T/a1" "$T/a2"
	cp "$T/d1.o" "$T/old/net.o"
	cp "$T/d3.o" "$T/old/fs.o"
	cp "$T/d4.o" "$T/old/drv/old.o"
	cp "$T/d2.o" "$T/new/net.o"
	xz -c "$T/d3.o" >"$T/new/fs.o.xz"
	cp "$T/d4.o" "$T/new/drv/renamed.o"
	cp "$T/d1.o" "$T/a1/net.o"
	cp "$T/d3.o" "$T/a1/fs.o"
	cp "$T/d2.o" "$T/a2/net.o"
	cp "$T/d3.o" "$T/a2/fs.o"
	(cd "$T/a1" && ar rc "$T/old/lib.a" net.o fs.o) || fail "ar old/lib.a"
	(cd "$T/a2" && ar rc "$T/new/lib.a" net.o fs.o) || fail "ar new/lib.a"
}

# run_diff ARGS...: elfplt diff ARGS; stdout in $T/out, stderr in $T/err, status in $rc.
run_diff() {
	rc=0
	"$ELFPLT" diff "$@" >"$T/out" 2>"$T/err" || rc=$?
}
