#!/bin/sh
# elfplt load: peak RSS is never below its own anonymous or file-backed part.
# The trap: a child's start-up can peak above where it ends (it reads the
# plan into a buffer and frees it), and that mark, different in the empty
# child, used to be subtracted: peak came out below anonymous.  A plan of
# a few hundred KiB springs it, so this test makes one.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
obj=$(fixture load-relocs)

# 400 copies of one small object (not hard links: a walk takes a file once
# however many links it has), under a path of four 250-character
# directory names: each file adds about 1 KB of path to the plan (length-
# prefixed paths, lib/load-plan.c), about 400 KiB in all, which the child frees
# (it is over glibc's 128 KiB mmap threshold, so free() unmaps it) before it
# loads.
top=$T/$(printf "%0250d" 0 | tr 0 a)
d=$top
for c in b c d; do
	d=$d/$(printf "%0250d" 0 | tr 0 "$c")
done
mkdir -p "$d" || fail "mkdir of 250-character names"

i=0
while [ $i -lt 400 ]; do
	cp "$obj" "$d/f$i" || fail "cp $i"
	i=$((i + 1))
done
"$ELFPLT" load --sections=relocs --repeat 3 --json "$top" > "$T/out.json" ||
	fail "elfplt load exited $?"
check "files" 400 "$(jqr "$T/out.json" .inputs.files)"
# --sections=relocs of load-relocs: 3 sections of 129 bytes per file (see
# load-sections.sh for the readelf derivation), 400 times.
check "sections" 1200 "$(jqr "$T/out.json" .inputs.sections)"
check "bytes" 51600 "$(jqr "$T/out.json" .inputs.bytes)"

# In each run the child measures its load phase alone: VmHWM is reset to the
# resident set before it (clear_refs), so the peak is at least the growth of
# VmRSS = RssAnon + RssFile + RssShmem, hence of each part (ep_phase_cost()).
# Medians keep that order (peak >= anon in every run puts each order
# statistic of peak above the same one of anon).  The slack is for the empty
# child's medians, subtracted from both sides: its own load phase faults in
# one window of elfplt's code (fault_around_bytes, 64 KiB by default) that a
# mode's runs may map a page or two differently; 16 pages covers that and is
# far below the ~400 KiB the freed plan used to take off the peak.
page_kib=$(($(getconf PAGESIZE) / 1024))
slack=$((16 * page_kib))
for m in read mmap hybrid; do
	for part in rss_anon_kib rss_file_kib; do
		r=$("$JQ" -r --arg m "$m" --arg p "$part" --argjson s "$slack" \
			'.modes[] | select(.mode == $m) |
			 "\(.peak_rss_kib.median + $s >= .[$p].median) \(.peak_rss_kib.median) \(.[$p].median)"' \
			"$T/out.json")
		set -- $r
		if [ "$1" = true ]; then
			echo "ok: $m peak_rss_kib $2 >= $part $3 (slack $slack KiB)"
		else
			fail "$m peak_rss_kib $2 < $part $3 - $slack KiB"
		fi
	done
done
# read holds 1200 malloc'd copies: anonymous memory, so a peak above zero.
v=$(jqr "$T/out.json" '.modes[] | select(.mode == "read") | .rss_anon_kib.median')
if [ "$("$JQ" -n "$v > 0")" = true ]; then
	echo "ok: read rss_anon_kib = $v (> 0)"
else
	fail "read rss_anon_kib = $v, expected > 0 for 1200 malloc'd sections"
fi
reset=$(jqr "$T/out.json" .peak_reset.achieved)
[ "$reset" = true ] || echo "note: VmHWM not reset: $(jqr "$T/out.json" .peak_reset.reason)"
done_testing
