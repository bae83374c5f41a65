#!/bin/sh
# elfplt stats and plt on the host's own linked files: a few hundred ELF
# executables and shared objects of /usr/bin and /usr/lib (files up to
# 8 MiB, every k-th in sorted order when there are more than 400), plus
# three built here so the paths exist on any host: a -no-pie executable
# (ET_EXEC) and a PIE and a shared object linked with -z
# pack-relative-relocs (SHT_RELR).  Every file's type, relocation sections
# (entries, relocations, bytes), dynamic relocations by kind, RELR figures,
# size -B sizes and the linked model's PLT and GOT counts and section bytes
# must equal those of tests/real/host-binaries.py, which reads only readelf
# -hW -SW -rW, size -A and size -B.  Needs no network: it never skips.
. "$top_srcdir/tests/lib.sh"
need JQ READELF PYTHON3

# Built inputs: a -no-pie executable and RELR in a PIE and a shared object.
cat >"$T/r.c" <<'C'
int x, y;
int *p[20] = { &x, &y, &x, &y, &x, &y, &x, &y, &x, &y, &x, &y, &x, &y, &x, &y, &x, &y, &x, &y };
int get(int i) { return *p[i]; }
int main(void) { return get(1); }
C
mkdir "$T/built"
${CC:-cc} -O2 -no-pie -o "$T/built/nopie" "$T/r.c" || fail "cc -no-pie"
${CC:-cc} -O2 -fPIE -pie -Wl,-z,pack-relative-relocs -o "$T/built/relr-pie" "$T/r.c" ||
	fail "cc -pie -z pack-relative-relocs"
${CC:-cc} -O2 -fPIC -shared -Wl,-z,pack-relative-relocs -o "$T/built/relr.so" "$T/r.c" ||
	fail "cc -shared -z pack-relative-relocs"
check "built: ET_EXEC, RELR in both others" "EXEC 1 1" \
	"$("$READELF" -h "$T/built/nopie" | awk '/Type:/ { printf "%s", $2 }') $(
	"$READELF" -SW "$T/built/relr-pie" | grep -c ' RELR ') $(
	"$READELF" -SW "$T/built/relr.so" | grep -c ' RELR ')"

# The host's linked ELF files (e_type 2 or 3 at offset 16, either byte order).
find /usr/bin /usr/lib -maxdepth 2 -type f -size -8M 2>/dev/null | LC_ALL=C sort |
	"$PYTHON3" -c '
import sys
for p in sys.stdin:
    p = p.rstrip("\n")
    try:
        with open(p, "rb") as f:
            h = f.read(18)
    except OSError:
        continue
    if len(h) == 18 and h[:4] == b"\x7fELF" and " " not in p:
        t = h[16] | h[17] << 8 if h[5] == 1 else h[17] | h[16] << 8
        if t in (2, 3):
            print(p)' >"$T/all"
total=$(wc -l <"$T/all")
k=$(((total + 399) / 400))
awk -v k="$k" '(NR - 1) % k == 0' "$T/all" >"$T/list"
ls "$T"/built/* >>"$T/list"
n=$(wc -l <"$T/list")
echo "$n files ($total linked ELF files on this host, every ${k}th, and 3 built)"
[ "$n" -ge 200 ] || fail "only $n files"

"$PYTHON3" "$top_srcdir/tests/real/host-binaries.py" <"$T/list" | LC_ALL=C sort >"$T/want" ||
	fail "the counter failed"
check "files the counter read" "$n" "$(wc -l <"$T/want")"

rc=0
tr '\n' '\0' <"$T/list" | xargs -0 "$ELFPLT" stats --json -j 2 -o "$T/stats.json" \
	2>"$T/err" || rc=$?
check "stats: exit status, stderr" "0 " "$rc $(cat "$T/err")"
rc=0
tr '\n' '\0' <"$T/list" | xargs -0 "$ELFPLT" plt --json -j 2 -o "$T/plt.json" \
	2>"$T/err" || rc=$?
check "plt: exit status, stderr" "0 " "$rc $(cat "$T/err")"
check "plt: every file the linked model" "$n" \
	"$(jqr "$T/plt.json" '[.files[] | select(.model == "linked")] | length')"
check "plt: reserved = PLT slots + GOT entries, every file" 0 \
	"$(jqr "$T/plt.json" '[.files[] | select(.slots.reserved !=
		.detail.plt_slots + .detail.got_entries_glob_dat or
		.detail.plt_slots != .detail.jump_slot + .detail.irelative)] | length')"

"$JQ" -r --slurpfile plt "$T/plt.json" '
	($plt[0].files | map({key: .path, value: .detail}) | from_entries) as $d |
	.files[] | $d[.path] as $p | [.path, .elf.type.name,
	([.relocations.sections[] | "\(.name):\(.entries):\(.relocations):\(.bytes)"] |
		join(" ")),
	(.dynamic | "\(.relative) \(.glob_dat) \(.jump_slot) \(.irelative) \(.other)"),
	(.dynamic.relr | "\(.relative_in_rel) \(.packable) \(.packed_bytes) \(.present) \(
		.present_bytes)"),
	(.sizes | "\(.text) \(.data) \(.bss)"),
	($p | "\(.jump_slot) \(.irelative) \(.got_entries_glob_dat) \(.plt_bytes) \(
		.plt_sec_bytes) \(.got_bytes) \(.got_plt_bytes)")] | join("\t")' \
	"$T/stats.json" | LC_ALL=C sort >"$T/got"
if cmp -s "$T/want" "$T/got"; then
	echo "ok: all $n files: type, relocation sections, dynamic kinds, RELR, size -B," \
		"PLT and GOT agree with readelf and size"
else
	diff "$T/got" "$T/want" | grep '^[<>]' >"$T/diff"
	fail "$(cut -f1 "$T/diff" | sed 's/^[<>] //' | sort -u | wc -l) files differ (< elfplt, > counter):"
	head -n 20 "$T/diff"
fi
check "ET_EXEC files" "$(grep -c '	ET_EXEC	' "$T/want")" \
	"$(jqr "$T/stats.json" '[.files[] | select(.elf.type.name == "ET_EXEC")] | length')"
check "files with RELR (at least the two built)" 1 \
	"$(awk -F '\t' '{ split($5, r, " "); if (r[4] > 0) n++ } END { print (n >= 2) }' "$T/want")"
echo "totals: $(awk -F '\t' '{ split($4, d, " "); rel += d[1]; gd += d[2]; js += d[3]
	e[$2]++ } END { printf "%d ET_EXEC, %d ET_DYN; relative %d, glob_dat %d, jump_slot %d",
	e["ET_EXEC"], e["ET_DYN"], rel, gd, js }' "$T/want")"
done_testing
