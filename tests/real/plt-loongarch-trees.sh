#!/bin/sh
# elfplt plt on every module of Debian unstable's loong64 7.2 tree
# (tests/real/fetch-modules.sh 7.2 xz-d loong64; Debian 12 and 13 have no
# loong64).  For each module the reserved PLT and GOT slots, their minimum,
# the bytes of .got, .plt, .plt.idx and .ftrace_trampoline (reserved and
# minimum), the entries the loader sorts, the entries that need a slot and
# whether the loader refuses the module must equal those of an independent
# counter: the python3 program below, written from Linux 7.2.13
# arch/loongarch/kernel/module-sections.c and module.c over `readelf -SW
# -rW -sW` text.  It calls nothing of elfplt.
#
# What it follows (every module's vermagic is checked to be 7.2.13):
# - module_frob_arch_sections(): SHT_RELA sections whose target (sh_info)
#   has SHF_EXECINSTR; count_max_entries() sorts each one whole (every
#   entry counts as sorted) and counts the distinct (r_info, r_addend) of
#   R_LARCH_B26 / SOP_PUSH_PLT_PCREL (PLT) and GOT_PC_HI20 / GOT_PCADD_HI20
#   (GOT); .got (gots+1)*8, .plt (plts+1)*16, .plt.idx (plts+1)*8,
#   .ftrace_trampoline 2*16 when the section exists; refused when .got,
#   .plt or .plt.idx is missing, or there is no symbol table;
# - the minimum: distinct targets per kind over the whole module (the
#   emit functions reuse an entry by address), a target being (section,
#   value + addend) for a defined symbol, (ABS, value + addend), or
#   (symbol, addend) for an undefined one;
# - apply_relocate_add() over every relocation section whose target is
#   SHF_ALLOC: a type outside the 7.2.13 handler set refuses the module.
# The over-allocation is split by cause (type_split, alias,
# across_sections) and must sum to reserved - minimum.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }

cat >"$T/count.py" <<'EOF'
import sys

PLT = (66, 29)          # R_LARCH_B26, R_LARCH_SOP_PUSH_PLT_PCREL
GOT = (75, 130)         # R_LARCH_GOT_PC_HI20, R_LARCH_GOT_PCADD_HI20 (7.x)
# apply_relocate_add() in 7.2.13: types that reach a handler.
HANDLED = set([0, 1, 2, 20, 21, 22, 23, 24, 29, 66, 75, 76, 99, 109, 128, 129, 130, 131])
HANDLED |= set(range(32, 38)) | set(range(38, 47)) | set(range(50, 57)) | set(range(71, 75))

def module(path, secs, relas, syms, out):
    names = [s[0] for s in secs.values()]
    symtab = any(s[1] == "SYMTAB" for s in secs.values())
    reject = not symtab or not all(n in names for n in (".got", ".plt", ".plt.idx"))
    res = {"plt": 0, "got": 0}
    merged = {"plt": 0, "got": 0}
    untyped = {"plt": 0, "got": 0}
    targets = {"plt": set(), "got": set()}
    nsorted = needed = 0
    for ri, ents in relas:
        rtype, dst = secs[ri][1], secs[ri][3]
        if dst in secs and "A" in secs[dst][2]:
            for e in ents:
                if rtype != "RELA" or e[0] >= 140 or e[0] not in HANDLED:
                    reject = True
        if rtype != "RELA" or dst not in secs or "X" not in secs[dst][2]:
            continue
        nsorted += len(ents)
        for kind, types in (("plt", PLT), ("got", GOT)):
            mine = [e for e in ents if e[0] in types]
            needed += len(mine)
            res[kind] += len(set((e[0], e[1], e[2]) for e in mine))
            merged[kind] += len(set((e[1], e[2]) for e in mine))
            t = set()
            for e in mine:
                ndx, val = syms.get(e[1], ("UND", 0))
                if ndx == "ABS":
                    key = ("abs", (val + e[2]) & (2**64 - 1))
                elif ndx.isdigit() and int(ndx) > 0:
                    key = ("sec", int(ndx), (val + e[2]) & (2**64 - 1))
                else:
                    key = ("sym", e[1], e[2])
                t.add(key)
            untyped[kind] += len(t)
            targets[kind] |= t
    pmin, gmin = len(targets["plt"]), len(targets["got"])
    tramp = 32 if ".ftrace_trampoline" in names else 0
    b = (res["plt"] + 1) * 24 + (res["got"] + 1) * 8 + tramp
    bmin = (pmin + 1) * 24 + (gmin + 1) * 8 + tramp
    ts = res["plt"] - merged["plt"] + res["got"] - merged["got"]
    al = merged["plt"] - untyped["plt"] + merged["got"] - untyped["got"]
    ac = untyped["plt"] - pmin + untyped["got"] - gmin
    out.write("%s\t%d %d %d %d %d %d %d %d %d\t%d %d %d\n" % (
        path, res["plt"], res["got"], pmin, gmin, b, bmin, nsorted, needed, int(reject),
        ts, al, ac))

def main():
    out = sys.stdout
    path = None
    secs, relas, syms, name_idx, state, cur = {}, [], {}, {}, None, None
    for line in sys.stdin:
        if line.startswith("File: "):
            if path is not None:
                module(path, secs, relas, syms, out)
            path = line[6:].rstrip("\n")
            secs, relas, syms, name_idx, state, cur = {}, [], {}, {}, None, None
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
            state = "sym" if "'.symtab'" in line else None
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
            secs[int(s[0])] = (s[1], s[2], flags, int(s[-2]))
            name_idx[s[1]] = int(s[0])
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            info = int(f[1], 16)
            if len(f) >= 6 and f[-2] in ("+", "-"):
                addend = int(f[-1], 16) * (-1 if f[-2] == "-" else 1)
            elif len(f) == 4:
                addend = int(f[3], 16)
            else:
                addend = 0
            cur.append((info & 0xffffffff, info >> 32, addend))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit() and len(f) >= 7:
            syms[int(f[0][:-1])] = (f[6], int(f[1], 16))
    if path is not None:
        module(path, secs, relas, syms, out)

main()
EOF

start=$(date +%s)
dir=$(modules_dir 7.2 xz-d loong64) || exit $?
find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
n=$(wc -l <"$T/list")
[ "$n" -gt 1000 ] || fail "only $n modules in $dir"
j=$T/plt.json
"$ELFPLT" plt --json "$dir" >"$j" || fail "elfplt plt exited $?"
check "every module analysed" "$n" \
	"$(jqr "$j" '[.files[] | select(.model == "loongarch-module")] | length')"
check "every module's kernel is 7.2.13 (the counter's rules)" 0 \
	"$(jqr "$j" '[.files[] | select(.rules.kernel.version != "7.2.13")] | length')"
"$JQ" -r '.files[] | (.slots.by_kind | map({(.kind): .}) | add) as $k |
	"\(.path)\t\($k.plt.reserved) \($k.got.reserved) \($k.plt.minimum) \($k.got.minimum) \(
	.bytes.reserved) \(.bytes.minimum) \(.sort.loader) \(.sort.needed) \(
	if .rejects then 1 else 0 end)\t\(.detail.over_allocation |
	"\(.type_split) \(.alias) \(.across_sections)")"' "$j" | LC_ALL=C sort >"$T/elfplt"
readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" "$T/count.py" ||
	fail "readelf or the counter failed"
check "modules the counter read" "$n" "$(wc -l <"$T/counter")"
if cmp -s "$T/elfplt" "$T/counter"; then
	echo "ok: all $n modules: plt, got, minimum, bytes, sorted, needed, refusal and the" \
		"over-allocation's causes agree with the counter"
else
	diff "$T/elfplt" "$T/counter" | grep '^[<>]' >"$T/diff"
	fail "$(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
	head -n 20 "$T/diff"
fi
awk -F '\t' '{
	split($2, c, " "); split($3, w, " ")
	p += c[1]; g += c[2]; pm += c[3]; gm += c[4]; b += c[5]; bm += c[6]
	so += c[7]; ne += c[8]; rj += c[9]; files++
	ts += w[1]; al += w[2]; ac += w[3]
	if (c[1] + c[2] - c[3] - c[4] != w[1] + w[2] + w[3]) bad++
} END {
	printf "totals 7.2 loong64: %d modules (%d refused), plt %d (minimum %d), got %d (minimum %d)\n",
		files, rj, p, pm, g, gm
	printf "bytes: %d (minimum %d); entries sorted %d, needed a slot %d\n", b, bm, so, ne
	printf "over the minimum by cause: type_split %d, alias %d, across_sections %d\n", ts, al, ac
	if (bad) printf "FAIL: %d modules whose excess is not the sum of its causes\n", bad
}' "$T/counter" | tee "$T/summary"
grep -q '^FAIL' "$T/summary" && nfail=$((nfail + 1))
echo "the five modules with the most slots (plt + got + trampoline):"
"$JQ" -r '.files[] | "\(.slots.reserved)\t\(.path | sub(".*/"; ""))"' "$j" |
	LC_ALL=C sort -k1,1nr | head -n 5
echo "wall time: $(($(date +%s) - start)) s"
done_testing
