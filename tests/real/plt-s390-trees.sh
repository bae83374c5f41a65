#!/bin/sh
# elfplt plt on every module of Debian 13's s390x 6.12 tree
# (tests/real/fetch-modules.sh 6.12-trixie xz-d s390x).  For each module the
# reserved GOT and PLT entries, their minimum and the bytes the loader adds
# to the core text must equal those of an independent counter: the python3
# program below, written from Linux arch/s390/kernel/module.c as it is in
# 6.12.117 (module_frob_arch_sections(), check_rela(); the counting code is
# the same in 6.1.176 and 7.2.13), over `readelf -SW -rW -sW` text.  It calls
# nothing of elfplt.  The modules are big-endian (ELFDATA2MSB); readelf and
# elfplt each read them in that byte order on this host.
#
# What it follows:
# - the LAST SHT_SYMTAB (frob's loop does not stop at the first);
# - every SHT_RELA section, whatever its target; r_info's type (low 32 bits)
#   GOT12 6, GOT32 7, GOT16 15, GOT64 24, GOTENT 26, GOTPLT12/16/32/64
#   29-32, GOTPLTENT 33, GOT20 58, GOTPLT20 59 give the symbol (high 32
#   bits) a GOT entry of 8 bytes once; PLT32 8, PLT16DBL 18, PLT32DBL 20,
#   PLT64 25, PLTOFF16/32/64 34-36 a PLT entry of 22 bytes once;
# - with expolines (a .s390_indirect* or .s390_return* section, or an
#   undefined __s390_indirect_jump_* symbol) one more PLT entry when the
#   PLT has any;
# - the minimum: the same over the sections whose target is allocated
#   (readelf flag A), with symbols merged by what their entry holds:
#   undefined ones by name (_GLOBAL_OFFSET_TABLE_ as absolute), defined ones
#   by (Ndx, Value), absolute ones by Value.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }

cat >"$T/count.py" <<'PY'
import sys

GOT = {6, 7, 15, 24, 26, 29, 30, 31, 32, 33, 58, 59}
PLT = {8, 18, 20, 25, 34, 35, 36}

def key(s):
    value, ndx, name = s
    if ndx == "UND":
        return ("A", 0, value) if name == "_GLOBAL_OFFSET_TABLE_" else ("U", name)
    if ndx == "ABS":
        return ("A", 0, value)
    return ("S", ndx, value)

def module(path, secs, relas, symtabs, out):
    tabs = [i for i in sorted(secs) if secs[i][1] == "SYMTAB"]
    syms = symtabs.get(secs[tabs[-1]][0], {}) if tabs else {}
    res = {"got": set(), "plt": set()}
    used = {"got": set(), "plt": set()}
    nrel = 0
    # What libelf must convert on a host of the other byte order: the RELA
    # tables and the symbol table, each once; strings are bytes.
    conv = sum(secs[i][4] for i in secs if secs[i][1] == "RELA") + \
        (secs[tabs[-1]][4] if tabs else 0)
    for ri, ents in relas:
        if secs[ri][1] != "RELA":
            continue
        target = secs[ri][3]
        applied = target in secs and "A" in secs[target][2]
        for t, sym in ents:
            nrel += 1
            c = "got" if t in GOT else "plt" if t in PLT else None
            if c is None:
                continue
            res[c].add(sym)
            if applied:
                used[c].add(key(syms[sym]))
    expo = any(secs[i][0].startswith((".s390_indirect", ".s390_return")) for i in secs) or \
        any(s[1] == "UND" and s[2].startswith("__s390_indirect_jump_") for s in syms.values())
    got, plt = len(res["got"]), len(res["plt"])
    gmin, pmin = len(used["got"]), len(used["plt"])
    if expo:
        plt += plt > 0
        pmin += pmin > 0
    out.write("%s\t%d %d %d %d %d %d\t%d\t%d\n" % (path, got, plt, gmin, pmin,
                                                  got * 8 + plt * 22, gmin * 8 + pmin * 22,
                                                  nrel, conv))

def main():
    out = sys.stdout
    path = state = None
    secs, relas, symtabs, name_idx, cur, tab = {}, [], {}, {}, None, None
    for line in sys.stdin:
        if line.startswith("File: "):
            if path is not None:
                module(path, secs, relas, symtabs, out)
            path = line[6:].rstrip("\n")
            secs, relas, symtabs, name_idx, cur, state = {}, [], {}, {}, None, None
            continue
        if line.startswith("Section Headers:"):
            state = "sec"
            continue
        if line.startswith("Relocation section "):
            cur = []
            relas.append((name_idx[line.split("'")[1]], cur))
            state = "rel"
            continue
        if line.startswith("Symbol table "):
            tab = {}
            symtabs[line.split("'")[1]] = tab
            state = "sym"
            continue
        f = line.split()
        if not f:
            if state == "rel":
                state = None
            continue
        if state == "sec" and line.lstrip().startswith("["):
            s = line.replace("[", " ", 1).replace("]", " ", 1).split()
            if not s[0].isdigit():
                continue
            # [Nr] Name Type Address Off Size ES [Flg] Lk Inf Al
            flags = s[7] if len(s) == 11 else ""
            secs[int(s[0])] = (s[1], s[2], flags, int(s[-2]), int(s[5], 16))
            name_idx[s[1]] = int(s[0])
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            info = int(f[1], 16)
            cur.append((info & 0xffffffff, info >> 32))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit() and len(f) >= 7:
            # Num: Value Size Type Bind Vis Ndx [Name]
            tab[int(f[0][:-1])] = (int(f[1], 16), f[6], f[7] if len(f) > 7 else "")
    if path is not None:
        module(path, secs, relas, symtabs, out)

main()
PY

start=$(date +%s)
series=6.12-trixie
dir=$(modules_dir $series xz-d s390x) || exit $?
find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
n=$(wc -l <"$T/list")
[ "$n" -gt 1000 ] || fail "$series s390x: only $n modules in $dir"
j=$T/plt.json
"$ELFPLT" plt --json "$dir" >"$j" || fail "elfplt plt exited $?"
check "every module analysed" "$n" "$(jqr "$j" '.files | length')"
check "every module by s390-module" 0 \
	"$(jqr "$j" '[.files[] | select(.model != "s390-module")] | length')"
check "every module big-endian (the byte order under test)" 0 \
	"$(jqr "$j" '[.files[] | select(.elf.data.name != "ELFDATA2MSB")] | length')"
check "no module rejected" 0 "$(jqr "$j" '[.files[] | select(.rejects)] | length')"
check "no module beyond the checked range" 0 \
	"$(jqr "$j" '[.files[] | select(.rules.beyond_checked)] | length')"
check "over_allocation sums to reserved - minimum" 0 "$(jqr "$j" '[.files[] |
	select((.detail.over_allocation | add) != .slots.reserved - .slots.minimum)] | length')"
jqr "$j" 'def k($k): [.slots.by_kind[] | select(.kind == $k and .group == "core")] | .[0];
	.files[] | "\(.path)\t\(k("got").reserved) \(k("plt").reserved) \(k("got").minimum) \(
	k("plt").minimum) \(.bytes.reserved) \(.bytes.minimum)"' | LC_ALL=C sort >"$T/elfplt"
readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" "$T/count.py" ||
	fail "readelf or the counter failed"
cut -f1,2 "$T/counter" >"$T/want"
check "modules the counter read" "$n" "$(wc -l <"$T/want")"
if cmp -s "$T/elfplt" "$T/want"; then
	echo "ok: $series s390x: all $n modules: GOT, PLT, their minimum and bytes agree" \
		"with the counter"
else
	diff "$T/elfplt" "$T/want" | grep '^[<>]' >"$T/diff"
	fail "$(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
	head -n 20 "$T/diff"
fi
# The tables were read in their byte order through libelf, which copies each
# once to convert it on a little-endian host, and nothing else.
if [ "$(python3 -c 'import sys; print(sys.byteorder)')" = little ]; then
	cut -f1,4 "$T/counter" >"$T/conv-want"
else
	awk -F '\t' '{ print $1 "\t0" }' "$T/counter" >"$T/conv-want"
fi
jqr "$j" '.files[] | "\(.path)\t\(.detail.bytes_converted)"' | LC_ALL=C sort >"$T/conv"
check "bytes libelf converted: the RELA and symbol tables, once each" "" \
	"$(diff "$T/conv" "$T/conv-want" | head -n 4)"
awk -F '\t' '{
	split($2, c, " "); files++
	got += c[1]; plt += c[2]; gmin += c[3]; pmin += c[4]; b += c[5]; bmin += c[6]
	rel += $3
} END {
	printf "totals 6.12-trixie s390x: %d modules, %d relocations; GOT %d entries (minimum %d),",
		files, rel, got, gmin
	printf " PLT %d (minimum %d); %d bytes (minimum %d)\n", plt, pmin, b, bmin
}' "$T/counter"
jqr "$j" '.totals.by_model[] | select(.model == "s390-module") |
	"over-allocation by cause (entries): \(.detail.over_allocation | tojson); libelf converted \(
	.detail.bytes_converted) bytes"'
echo "five modules with the most entries:"
awk -F '\t' '{ split($2, c, " ");
	printf "%d\t%s (GOT %d, PLT %d, minimum %d)\n", c[1] + c[2], $1, c[1], c[2], c[3] + c[4] }' \
	"$T/counter" | sort -rn | head -n 5
echo "wall time: $(($(date +%s) - start)) s"
done_testing
