#!/bin/sh
# elfplt load on an archive: the mmap child maps the archive once and reads
# every member in place there (as lld maps each input file once), not the
# whole archive again for each member, which cost members x archive of
# address space (vm.max_map_count at 65530 members) and file-backed pages
# faulted around each member in every mapping.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
command -v ar >/dev/null || skip "ar not found (binutils)"
obj=$(fixture load-relocs)
mkdir "$T/m"
i=0
while [ $i -lt 400 ]; do
	cp "$obj" "$T/m/m$i.o"
	i=$((i + 1))
done
(cd "$T/m" && ar rc "$T/lib.a" m*.o) || fail "ar rc"
"$ELFPLT" load -q --repeat 3 --sections=all --json "$T/lib.a" > "$T/out.json" ||
	fail "elfplt load exited $?"
# ar t lists the members: every one is an input.
check "members measured" "$(ar t "$T/lib.a" | wc -l)" "$(jqr "$T/out.json" .inputs.files)"
check "files_failed" 0 "$(jqr "$T/out.json" .inputs.files_failed)"
# Mapped once, the mmap child can hold no more of the archive than its pages
# (stat -c %s rounded up to getconf PAGESIZE, in KiB), plus 256 KiB for
# anything else file-backed the load touches.  Mapped per member, each of the
# 400 mappings faults in its member's pages and their cached neighbours
# (fault_around_bytes, 64 KiB by default): far more.
page=$(getconf PAGESIZE)
size=$(stat -c %s "$T/lib.a")
bound=$(((size + page - 1) / page * page / 1024 + 256))
file_kib=$(jqr "$T/out.json" '.modes[] | select(.mode == "mmap") | .rss_file_kib.median')
# And no less than the archive's whole pages: every 4 KiB of it holds the
# ELF header and section headers of some of its 924-byte members (a 60-byte
# ar header and 864 bytes), which --sections=all reads through the mapping,
# so a child that reads members some other way (pread) or not at all fails.
low=$((size / page * page / 1024))
if [ "$("$JQ" -n "$file_kib <= $bound and $file_kib >= $low")" = true ]; then
	echo "ok: mmap file-backed growth $low KiB <= $file_kib KiB <= $bound KiB"
else
	fail "mmap file-backed growth $file_kib KiB, expected between $low and $bound KiB"
fi
done_testing
