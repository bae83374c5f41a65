#!/bin/sh
# elfplt load --cold: the inputs are dropped from the page cache before every
# run and mincore says whether the kernel let them go.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
"$YAML2OBJ" --max-size=0 "$FIXTURES/load-big.yaml" -o "$T/big" || {
	echo "FAIL: yaml2obj could not build load-big.yaml"
	exit 1
}
# Dirty pages cannot be dropped: write the fresh file back first (sync FILE
# is fsync(2); the kernel would otherwise keep all of it, rightly).
sync "$T/big" 2>/dev/null || sync
"$ELFPLT" load --cold --sections=alloc --repeat 1 --json "$T/big" > "$T/out.json" ||
	fail "elfplt load --cold exited $?"
check "cold.requested" true "$(jqr "$T/out.json" .cold.requested)"
# One drop before each of read, mmap, hybrid, accessor (the empty child needs none).
check "cold.drops" 4 "$(jqr "$T/out.json" .cold.drops)"
# The file's pages: its size (stat) rounded up to pages (getconf PAGESIZE).
page=$(getconf PAGESIZE)
size=$(stat -c %s "$T/big")
check "cold.file_pages" $(((size + page - 1) / page)) "$(jqr "$T/out.json" .cold.file_pages)"
resident=$(jqr "$T/out.json" .cold.resident_pages_max)
achieved=$(jqr "$T/out.json" .cold.achieved)
if [ "$resident" -eq 0 ]; then
	check "cold.achieved" true "$achieved"
	# Pages that are not cached must be read back: mmap's first touch of
	# each readahead window is a major fault.
	maj=$(jqr "$T/out.json" '.modes[] | select(.mode == "mmap") | .major_faults.median')
	if [ "$("$JQ" -n "$maj > 0")" = true ]; then
		echo "ok: cold mmap takes $maj major faults"
	else
		fail "cold mmap takes $maj major faults, expected > 0"
	fi
else
	check "cold.achieved" false "$achieved"
	echo "note: the kernel kept $resident pages (tmpfs or a busy file)"
fi
"$ELFPLT" load --cold --sections=alloc --repeat 1 "$T/big" > "$T/out.txt" ||
	fail "text: exit $?"
grep -q "page cache: cold" "$T/out.txt" || fail "the text report does not describe the cache"
# Without --cold, achieved is null: nothing was asked.
"$ELFPLT" load --sections=alloc --repeat 1 --json "$T/big" > "$T/warm.json"
check "warm cold.achieved" null "$(jqr "$T/warm.json" .cold.achieved)"
done_testing
