#!/bin/sh
# elfplt plt on every module of Debian 13's ppc64el 6.12 tree
# (tests/real/fetch-modules.sh 6.12-trixie xz-d ppc64el: the .ko.xz
# decompressed by xz -d).  For each module, the .stubs entries reserved
# (branch stubs, ftrace stubs), the minimum, .stubs' bytes, the entries the
# loader sorts and those that needed a stub, the rejection and the
# over-allocation by cause must equal those of an independent counter: the
# python3 program below, written from Linux arch/powerpc/kernel/module_64.c
# as it is in 6.12.117 (get_stubs_size(), count_relocs(), relacmp(),
# apply_relocate_add()), over `readelf -hSW -rW -sW` text.  It calls nothing
# of elfplt.
#
# What it follows:
# - every SHT_RELA section is sorted, all its entries, by (r_info, r_addend)
#   descending (relacmp() swaps its arguments); count_relocs() then counts
#   an R_PPC_REL24 (10) whose symbol or addend differs from the last one
#   counted, kept in two 32-bit unsigned ints (so the addend is compared
#   truncated to 32 bits on one side only);
# - .stubs = (1 sentinel + the counts + 2 ftrace stubs) x 40 bytes: the
#   6.12 rules (CONFIG_DYNAMIC_FTRACE and _WITH_REGS, set in Debian's
#   config; no CONFIG_PPC_FTRACE_OUT_OF_LINE before 6.13); every module's
#   vermagic must name 6.12 and patchable-function-entry (checked below);
# - the minimum: distinct (symbol, addend) of the REL24 to an undefined
#   symbol in a section whose target is SHF_ALLOC, module-wide;
# - rejects: e_flags ABI level not 2, no symbol table, no .stubs, an
#   applied SHT_REL, an applied RELA entry of a type apply_relocate_add()
#   does not handle.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }

cat >"$T/count.py" <<'PY'
import sys

REL24 = 10
KNOWN = {1, 38, 51, 47, 48, 63, 64, 50, 10, 44, 26, 109, 118, 252, 250}
SENTINEL, FTRACE = 1, 2  # the 6.12 rules
STUB = 40

def module(path, m, out):
    secs, relas, ndx = m["secs"], m["relas"], m["ndx"]
    names = {v[0]: k for k, v in secs.items()}
    reject = 0
    if m["abi"] != 2:
        reject = 1
    if not any(v[1] == "SYMTAB" for v in secs.values()):
        reject = 1
    if ".stubs" not in names:
        reject = 1
    def applied(ri):
        inf = secs[ri][3]
        return inf != 0 and inf in secs and "A" in secs[inf][2]
    for ri, v in secs.items():
        if v[1] == "REL" and applied(ri):
            reject = 1
    counted = distinct = dneed = nsorted = nneed = 0
    needed = set()
    for ri, ents in relas:
        if secs[ri][1] != "RELA":
            continue
        app = applied(ri)
        r = sorted(ents, key=lambda e: ((e[1] << 32) | e[0], e[2]), reverse=True)
        nsorted += len(r)
        lsym = ladd = 0
        for t, s, a in r:
            if t == REL24 and (lsym != s or ladd != a):
                counted += 1
                lsym, ladd = s, a & 0xffffffff
        pairs = set((s, a) for t, s, a in r if t == REL24)
        npairs = set((s, a) for t, s, a in r if t == REL24 and app and ndx.get(s) == "UND")
        nneed += sum(1 for t, s, a in r if t == REL24 and app and ndx.get(s) == "UND")
        distinct += len(pairs)
        dneed += len(npairs)
        needed |= npairs
        if app and any(t not in KNOWN for t, s, a in r):
            reject = 1
    res, mn = counted + SENTINEL, len(needed)
    out.write("%s\t%d %d %d %d %d %d %d %d\t%d %d %d %d\n" % (
        path, res, mn, FTRACE, (res + FTRACE) * STUB, (mn + FTRACE) * STUB,
        nsorted, nneed, reject, SENTINEL, counted - distinct, distinct - dneed, dneed - mn))

def main():
    out = sys.stdout
    path, m, state, cur = None, None, None, None
    for line in sys.stdin:
        if line.startswith("File: "):
            if path is not None:
                module(path, m, out)
            path = line[6:].rstrip("\n")
            m = {"secs": {}, "relas": [], "ndx": {}, "names": {}, "abi": -1}
            state = None
            continue
        if line.startswith("  Flags:"):
            m["abi"] = int(line.split()[1].rstrip(","), 16) & 3
            continue
        if line.startswith("Section Headers:"):
            state = "sec"
            continue
        if line.startswith("Relocation section "):
            cur = []
            m["relas"].append((m["names"][line.split("'")[1]], cur))
            state = "rel"
            continue
        if line.startswith("Symbol table "):
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
            flags = s[7] if len(s) == 11 else ""
            m["secs"][int(s[0])] = (s[1], s[2], flags, int(s[-2]))
            m["names"][s[1]] = int(s[0])
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            info = int(f[1], 16)
            if len(f) >= 6 and f[-2] in ("+", "-"):
                addend = int(f[-1], 16) * (-1 if f[-2] == "-" else 1)
            elif len(f) == 4:
                addend = int(f[3], 16)
            else:
                addend = 0
            cur.append((info & 0xffffffff, info >> 32, addend))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit():
            if "[<localentry>:" in f:
                k = f.index("[<localentry>:")
                del f[k:k + 2]
            if len(f) >= 7:
                m["ndx"][int(f[0][:-1])] = f[6]
    if path is not None:
        module(path, m, out)

main()
PY

start=$(date +%s)
s=6.12-trixie
dir=$(modules_dir $s xz-d ppc64el) || exit $?
find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
n=$(wc -l <"$T/list")
[ "$n" -gt 1000 ] || fail "$s: only $n modules in $dir"
j=$T/plt.json
"$ELFPLT" plt --json "$dir" >"$j" || fail "$s: elfplt plt exited $?"
check "$s: every module analysed" "$n" "$(jqr "$j" '.files | length')"
check "$s: every module by the powerpc64-module model" 0 \
	"$(jqr "$j" '[.files[] | select(.model != "powerpc64-module")] | length')"
check "$s: every vermagic 6.12 with patchable-function-entry (the counter's rules)" 0 \
	"$(jqr "$j" '[.files[] | select((.rules.kernel.version | startswith("6.12.") | not)
		or (.rules.kernel.vermagic | test(" patchable-function-entry ") | not))] | length')"
"$JQ" -r '.files[] | def k($x): [.slots.by_kind[] | select(.kind == $x)][0];
	"\(.path)\t\(k("stub").reserved) \(k("stub").minimum) \(k("trampoline").reserved) \(
	.bytes.reserved) \(.bytes.minimum) \(.sort.loader) \(.sort.needed) \(
	if .rejects then 1 else 0 end)\t\(.detail.over_allocation | "\(.sentinel) \(.addend) \(
	.local) \(.per_section)")"' "$j" | LC_ALL=C sort >"$T/elfplt"
readelf_counter "$T/list" "$T/counter" "-hSW -rW -sW" "$T/count.py" ||
	fail "$s: readelf or the counter failed"
check "$s: modules the counter read" "$n" "$(wc -l <"$T/counter")"
if cmp -s "$T/elfplt" "$T/counter"; then
	echo "ok: $s: all $n modules: stubs, minimum, ftrace stubs, bytes, sorted, needed," \
		"rejects and over-allocation causes agree with the counter"
else
	diff "$T/elfplt" "$T/counter" | grep '^[<>]' >"$T/diff"
	fail "$s: $(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
	head -n 20 "$T/diff"
fi
awk -F '\t' -v s="$s" '{
	split($2, c, " "); split($3, w, " ")
	res += c[1]; min += c[2]; tr += c[3]; br += c[4]; bm += c[5]; so += c[6]; ne += c[7]
	rj += c[8]; files++
	xs += w[1]; xa += w[2]; xl += w[3]; xp += w[4]
	if (c[1] - c[2] != w[1] + w[2] + w[3] + w[4]) bad++
} END {
	printf "totals %s: %d modules (%d rejected), branch stubs %d (minimum %d), ftrace stubs %d,",
		s, files, rj, res, min, tr
	printf " .stubs %d bytes (minimum %d), %d entries sorted, %d needed a stub\n", br, bm, so, ne
	printf "over the minimum %s: %d stubs: sentinel %d, addend %d, local %d, per-section %d\n",
		s, res - min, xs, xa, xl, xp
	if (bad) printf "FAIL: %s: %d modules whose excess is not the sum of its causes\n", s, bad
}' "$T/counter" | tee "$T/summary"
grep -q '^FAIL' "$T/summary" && nfail=$((nfail + 1))
echo "the five modules with the most stubs (reserved, minimum):"
awk -F '\t' '{ split($2, c, " "); print c[1] + c[3], c[2] + c[3], $1 }' "$T/counter" |
	sort -k1,1nr -k3 | head -n 5 | sed "s|$dir/||"
echo "wall time $s: $(($(date +%s) - start)) s"
done_testing
