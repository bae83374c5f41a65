#!/bin/sh
# elfplt load on a 64 MiB section: what read, mmap and hybrid must copy and
# hold, whatever the machine's speed.  No time is asserted.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# yaml2obj caps its output at 10 MiB unless told otherwise.
"$YAML2OBJ" --max-size=0 "$FIXTURES/load-big.yaml" -o "$T/big" || {
	echo "FAIL: yaml2obj could not build load-big.yaml"
	exit 1
}
"$ELFPLT" load --sections=alloc --repeat 3 --json "$T/big" > "$T/out.json" ||
	fail "elfplt load exited $?"

# Loaded bytes: the SHF_ALLOC sections .big (Size 0x4000000 = 67108864) and
# .small (10 bytes of Content), as the fixture says and readelf -SW shows.
check "inputs.sections" 2 "$(jqr "$T/out.json" .inputs.sections)"
check "inputs.bytes" 67108874 "$(jqr "$T/out.json" .inputs.bytes)"

mode() { jqr "$T/out.json" ".modes[] | select(.mode == \"$1\") | $2"; }

# read: malloc + pread copies every loaded byte, in every run.
check "read bytes_copied min" 67108874 "$(mode read .bytes_copied.min)"
check "read bytes_copied max" 67108874 "$(mode read .bytes_copied.max)"
# mmap: the sections are used in place, nothing is copied.
check "mmap bytes_copied max" 0 "$(mode mmap .bytes_copied.max)"
# hybrid with the default 4-page threshold maps .big and reads .small (10 bytes).
check "hybrid bytes_copied max" 10 "$(mode hybrid .bytes_copied.max)"

# Anonymous memory: read holds 64 MiB = 65536 KiB of malloc'd copies that mmap
# does not; ask for at least three quarters of it (49152 KiB) as the gap.
gap=$("$JQ" -r '(.modes[] | select(.mode == "read") | .rss_anon_kib.median) -
	(.modes[] | select(.mode == "mmap") | .rss_anon_kib.median) | floor' "$T/out.json")
if [ "$gap" -ge 49152 ]; then
	echo "ok: read's RssAnon exceeds mmap's by $gap KiB (>= 49152)"
else
	fail "read's RssAnon exceeds mmap's by only $gap KiB, expected >= 49152"
fi
# mmap's touched pages are file-backed instead (tmpfs pages count as shmem).
if [ "$(stat -f -c %T "$T")" != tmpfs ]; then
	file=$(mode mmap '.rss_file_kib.median | floor')
	if [ "$file" -ge 49152 ]; then
		echo "ok: mmap's RssFile $file KiB (>= 49152)"
	else
		fail "mmap's RssFile is $file KiB, expected >= 49152"
	fi
fi

# Copy time is the time inside pread(2) alone, a part of the load phase's
# wall time, and throughput is bytes copied / copy time.  These are relations
# between figures of the same runs, not times: no speed is asserted.  With 3
# runs the median of bytes/copy_s is bytes/median(copy_s) (a decreasing map
# keeps the middle one); JSON reals carry 9 digits, hence 1e-6.
for m in read hybrid; do
	ok=$("$JQ" -r --arg m "$m" '.modes[] | select(.mode == $m) |
		.copy_s.median <= .wall_s.median and
		((.copy_bytes_per_s.median * .copy_s.median / .bytes_copied.median) - 1 | fabs) < 1e-6' \
		"$T/out.json")
	check "$m copy_s <= wall_s and throughput = bytes_copied / copy_s" true "$ok"
done
# mmap copies nothing, so it spends no time copying.
check "mmap copy_s max" 0 "$(mode mmap .copy_s.max)"

# Every mode brings 64 MiB of pages in, so each takes page faults.
for m in read mmap hybrid; do
	f=$(mode $m '.minor_faults.median + .major_faults.median')
	if [ "$("$JQ" -n "$f > 0")" = true ]; then
		echo "ok: $m takes $f faults"
	else
		fail "$m reports $f faults, expected > 0"
	fi
done

# The checksum: little-endian 64-bit words summed.  .big is zeros; .small is
# 01..08 = 0x0807060504030201 plus the tail 09 0a = 0x0a09:
# 0x0807060504030201 + 0x0a09 = 0x0807060504030c0a.
check "checksum" 0807060504030c0a "$(jqr "$T/out.json" .checksum)"
check "schema" elfplt-load/1 "$(jqr "$T/out.json" .schema)"
check "modes" "read mmap hybrid accessor" "$(jqr "$T/out.json" '[.modes[].mode] | join(" ")')"
check "repeat" 3 "$(mode read .repeat)"
done_testing
