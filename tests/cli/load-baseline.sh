#!/bin/sh
# elfplt load subtracts the empty child: a run that loads nothing reports
# (nearly) nothing, while the baseline itself is a real process's cost.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# load-big has no relocation section, so --sections=relocs selects nothing
# (readelf -SW lists only PROGBITS and STRTAB sections): each mode then runs
# the same exec and reads the same plan as the empty child, and loads nothing.
"$YAML2OBJ" --max-size=0 "$FIXTURES/load-big.yaml" -o "$T/big" || {
	echo "FAIL: yaml2obj could not build load-big.yaml"
	exit 1
}
"$ELFPLT" load --sections=relocs --repeat 5 --json "$T/big" > "$T/out.json" ||
	fail "elfplt load exited $?"
check "inputs.files" 1 "$(jqr "$T/out.json" .inputs.files)"
check "inputs.sections" 0 "$(jqr "$T/out.json" .inputs.sections)"
check "inputs.bytes" 0 "$(jqr "$T/out.json" .inputs.bytes)"

# within NAME FILTER LIMIT: |value| <= LIMIT.
within() {
	v=$(jqr "$T/out.json" "$2")
	if [ "$("$JQ" -n "($v | fabs) <= $3")" = true ]; then
		echo "ok: $1 = $v (|.| <= $3)"
	else
		fail "$1 = $v, expected within +-$3 of 0 after the baseline is subtracted"
	fi
}

# The limits are noise, not measurements: a process that maps elfplt and its
# libraries takes hundreds of faults and a few MiB (checked below), and two
# such processes differ by a few pages of fault-around and library data.
for m in read mmap hybrid; do
	sel=".modes[] | select(.mode == \"$m\")"
	check "$m bytes_copied max" 0 "$(jqr "$T/out.json" "$sel | .bytes_copied.max")"
	within "$m minor_faults" "$sel | .minor_faults.median" 64
	within "$m major_faults" "$sel | .major_faults.median" 16
	within "$m rss_anon_kib" "$sel | .rss_anon_kib.median" 256
	within "$m peak_rss_kib" "$sel | .peak_rss_kib.median" 1024
done

# The empty child's load phase is what was subtracted: nearly nothing, since
# each child measures from just before its load (same limits as above)...
for k in minor_faults major_faults rss_anon_kib; do
	within "baseline $k" ".baseline.$k.median" 64
done
# ...while its start-up (exec, dynamic linking, reading the plan) is a real
# process's cost, reported apart: faults, and resident pages of elfplt and
# its libraries, file-backed.
for k in minor_faults peak_rss_kib rss_file_kib; do
	v=$(jqr "$T/out.json" ".baseline.startup.$k.median")
	if [ "$("$JQ" -n "$v > 0")" = true ]; then
		echo "ok: baseline startup $k = $v (> 0)"
	else
		fail "baseline startup $k = $v, expected > 0: the empty child was not measured"
	fi
done
v=$(jqr "$T/out.json" .timer_resolution_ns)
if [ "$v" -gt 0 ] 2>/dev/null; then
	echo "ok: timer_resolution_ns = $v"
else
	fail "timer_resolution_ns = '$v', expected a positive number"
fi
# No section, so the JSON says its figures are noise, and keeps its modes.
check "nothing_to_load" true "$(jqr "$T/out.json" .nothing_to_load)"
check "note is a string" string "$(jqr "$T/out.json" '.note | type')"
check "modes kept" "read mmap hybrid accessor" "$(jqr "$T/out.json" '[.modes[].mode] | join(" ")')"

# Text: one line saying there is nothing to measure, not a table of noise.
"$ELFPLT" load --sections=relocs --repeat 1 "$T/big" > "$T/none.txt" ||
	fail "text with no sections exited $?"
check "no-section text lines" 1 "$(wc -l < "$T/none.txt")"
grep -q "nothing to measure" "$T/none.txt" || fail "no-section text: $(cat "$T/none.txt")"

# An empty input set: a directory without ELF files (--allow-empty, or
# that is an error).
mkdir "$T/empty"
"$ELFPLT" load --repeat 1 --json --allow-empty "$T/empty" > "$T/empty.json" ||
	fail "elfplt load on an empty directory exited $?"
check "empty inputs.files" 0 "$(jqr "$T/empty.json" .inputs.files)"
check "empty read bytes_copied" 0 "$(jqr "$T/empty.json" '.modes[0].bytes_copied.median')"
check "empty nothing_to_load" true "$(jqr "$T/empty.json" .nothing_to_load)"
"$ELFPLT" load --repeat 1 --allow-empty "$T/empty" > "$T/empty.txt" 2> /dev/null ||
	fail "text on an empty directory exited $?"
check "empty text lines" 1 "$(wc -l < "$T/empty.txt")"
grep -q "nothing to measure" "$T/empty.txt" || fail "empty text: $(cat "$T/empty.txt")"
done_testing
