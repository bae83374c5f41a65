#!/bin/sh
# elfplt plt on every module of two whole riscv64 trees: Debian 13's 6.12
# (tests/real/fetch-modules.sh 6.12-trixie "" riscv64) and unstable's 7.2
# (fetch-modules.sh 7.2 "" riscv64), decompressed by xz -d (FORM xz-d).
# For each module, the reserved PLT and GOT entries, the minimum, the bytes,
# the entries the loader sorts, the relocations to symbols outside the
# module by type, the branches that rely on reach, the GOT_HI20 refused and
# the per-section count's is_rela_equal() calls must equal those of an
# independent counter: the python3 program below, written from Linux
# arch/riscv/kernel/module-sections.c and module.c as they are in 6.12.117
# and 7.2.13, over `readelf -SW -rW -sW` text.  It calls nothing of elfplt.
#
# What it follows:
# - CONFIG_MODULE_SECTIONS is on when the module has .plt, .got or .got.plt
#   (asm/module.lds.h); Debian's riscv64 kernels are not relocatable, so
#   their modules have none, and both trees are checked to have none;
# - with them, count_max_entries() over the SHT_RELA sections whose target
#   has X: per section (6.12.25+: CALL_PLT 19, PLT32 59, GOT_HI20 20) or,
#   7.2, module-wide distinct (r_info, r_addend); .plt (n + 1) x 12,
#   .got.plt (n + 1) x 8, .got (gots + 1) x 8; the minimum distinct (symbol,
#   addend) of CALL_PLT/PLT32, and of GOT_HI20; without them nothing;
# - duplicate_rela()'s calls: for each counted relocation at index i of its
#   section, i when no earlier one has the same r_info and r_addend, else
#   the index of the first such plus one;
# - apply_relocate_add() on every SHT_RELA section whose target has A (or
#   is .data..percpu): relocations to an undefined symbol (Ndx UND) by type
#   (CALL_PLT, PLT32, CALL 18, PCREL_HI20 23, JAL 17 / BRANCH 16 /
#   RVC_BRANCH 44 / RVC_JUMP 45); the branches on reach are CALL, plus
#   CALL_PLT and PLT32 without the sections; GOT_HI20 without the sections
#   is refused.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }

cat >"$T/count.py" <<'EOF2'
import sys

SORTED = sys.argv[1] == "sorted"
CALL_PLT, PLT32, GOT, CALL, PCREL = 19, 59, 20, 18, 23
SHORT = (16, 17, 44, 45)

def module(path, secs, relas, und, out):
    have = any(s[0] in (".plt", ".got", ".got.plt") for s in secs.values())
    ps = {}  # per section distinct keys
    mw = set()
    vals = set()
    cmp_calls = 0
    nsort = 0
    reach = {"cp": 0, "p32": 0, "call": 0, "pc": 0, "short": 0}
    on_reach = refused = 0
    for ri, ents in relas:
        if ri not in secs or secs[ri][1] != "RELA":
            continue
        tgt = secs[ri][3]
        if tgt not in secs:
            continue
        counted = "X" in secs[tgt][2]
        applied = "A" in secs[tgt][2] or secs[tgt][0] == ".data..percpu"
        if counted:
            first = {}
            keys = set()
            for i, (t, sym, add) in enumerate(ents):
                if t not in (CALL_PLT, PLT32, GOT):
                    continue
                k = (t, sym, add)
                if k in first:
                    cmp_calls += first[k] + 1
                else:
                    first[k] = i
                    cmp_calls += i
                keys.add(k)
                mw.add(k)
                vals.add((t == GOT, sym, add))
                nsort += 1
            ps[ri] = keys
        if applied:
            for t, sym, add in ents:
                if t == GOT and not have:
                    refused += 1
                if not (sym in und):
                    continue
                if t == CALL_PLT:
                    reach["cp"] += 1
                elif t == PLT32:
                    reach["p32"] += 1
                elif t == CALL:
                    reach["call"] += 1
                elif t == PCREL:
                    reach["pc"] += 1
                elif t in SHORT:
                    reach["short"] += 1
                if t == CALL or (t in (CALL_PLT, PLT32) and not have):
                    on_reach += 1
    if have:
        keys = mw if SORTED else [k for s in ps.values() for k in s]
        plt = sum(1 for k in keys if k[0] != GOT)
        got = sum(1 for k in keys if k[0] == GOT)
        mplt = sum(1 for v in vals if not v[0])
        mgot = sum(1 for v in vals if v[0])
        sorted_n = nsort if SORTED else 0
    else:
        plt = got = mplt = mgot = sorted_n = 0
    b = lambda p, g: (p + 1) * 12 + (p + 1) * 8 + (g + 1) * 8 if have else 0
    out.write("%s\t%d %d %d %d %d %d %d\t%d %d %d %d %d %d %d %d\n" % (
        path, plt, got, mplt, mgot, b(plt, got), b(mplt, mgot), sorted_n,
        reach["cp"], reach["p32"], reach["call"], reach["pc"], reach["short"],
        on_reach, refused, cmp_calls))

def main():
    out = sys.stdout
    path = None
    secs, relas, und, name_idx, cur, state = {}, [], set(), {}, None, None
    for line in sys.stdin:
        if line.startswith("File: "):
            if path is not None:
                module(path, secs, relas, und, out)
            path = line[6:].rstrip("\n")
            secs, relas, und, name_idx, cur, state = {}, [], set(), {}, None, None
            continue
        if line.startswith("Section Headers:"):
            state = "sec"
            continue
        if line.startswith("Relocation section "):
            cur = []
            relas.append((name_idx[line.split("'")[1]], cur))
            state = "rel"
            continue
        if line.startswith("Symbol table '.symtab'"):
            state = "sym"
            continue
        if line.startswith("Symbol table "):
            state = None
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
            secs[int(s[0])] = (s[1], s[2], flags, int(s[-2]))
            name_idx[s[1]] = int(s[0])
        elif state == "rel" and len(f) >= 3 and all(c in "0123456789abcdef" for c in f[1]):
            info = int(f[1], 16)
            if len(f) >= 6 and f[-2] in ("+", "-"):
                addend = int(f[-1], 16) * (-1 if f[-2] == "-" else 1)
            elif len(f) == 4:
                addend = int(f[3], 16)
            else:
                addend = 0
            cur.append((info & 0xffffffff, info >> 32, addend))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit() and len(f) >= 7:
            if f[6] == "UND" and int(f[0][:-1]) != 0:
                und.add(int(f[0][:-1]))
    if path is not None:
        module(path, secs, relas, und, out)

main()
EOF2

# tree SERIES VERSION COUNT: compare every module of SERIES (kernel VERSION,
# counted "per-section" or "sorted"), print its totals.
tree() {
	start=$(date +%s)
	dir=$(modules_dir "$1" xz-d riscv64) || exit $?
	find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
	n=$(wc -l <"$T/list")
	[ "$n" -gt 1000 ] || fail "$1: only $n modules in $dir"
	j=$T/plt.json
	"$ELFPLT" plt --json "$dir" >"$j" || fail "$1: elfplt plt exited $?"
	check "$1: every module analysed by riscv-module" "$n" \
		"$(jqr "$j" '[.files[] | select(.model == "riscv-module")] | length')"
	check "$1: every module at $2" "$n" \
		"$(jqr "$j" "[.files[] | select(.rules.kernel.version == \"$2\")] | length")"
	check "$1: count rule" "$3" "$(jqr "$j" '[.files[].rules.count] | unique | join(" ")')"
	check "$1: no module has the sections (not relocatable)" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.module_sections)] | length')"
	check "$1: no module rejected" 0 "$(jqr "$j" '[.files[] | select(.rejects)] | length')"
	jqr "$j" '.files[] | def k($k): [.slots.by_kind[] | select(.kind == $k)] |
		(.[0] // {reserved: 0, minimum: 0}); "\(.path)\t\(k("plt").reserved) \(
		k("got").reserved) \(k("plt").minimum) \(k("got").minimum) \(.bytes.reserved) \(
		.bytes.minimum) \(.sort.loader // 0)\t\(.detail.reach | "\(.call_plt) \(.plt32) \(
		.call) \(.pcrel_hi20) \(.short_unchecked) \(.branches_on_reach)") \(
		.detail.got_hi20_refused) \(.detail.quadratic_comparisons)"' |
		LC_ALL=C sort >"$T/elfplt"
	readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" "$T/count.py" "$COUNT" ||
		fail "$1: readelf or the counter failed"
	check "$1: modules the counter read" "$n" "$(wc -l <"$T/counter")"
	if cmp -s "$T/elfplt" "$T/counter"; then
		echo "ok: $1: all $n modules: entries, minimum, bytes, sorted, reach, refused," \
			"comparisons agree with the counter"
	else
		diff "$T/elfplt" "$T/counter" | grep '^[<>]' >"$T/diff"
		fail "$1: $(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
		head -n 20 "$T/diff"
	fi
	awk -F '\t' -v s="$1" '{
		split($2, c, " "); split($3, r, " ")
		for (i = 1; i <= 7; i++) t[i] += c[i]
		for (i = 1; i <= 8; i++) q[i] += r[i]
		files++
	} END {
		printf "totals %s: %d modules, PLT %d GOT %d reserved, minimum %d %d, %d bytes" \
			" (minimum %d), %d entries sorted\n", s, files, t[1], t[2], t[3], t[4], t[5],
			t[6], t[7]
		printf "outside the module %s: CALL_PLT %d, PLT32 %d, CALL %d, PCREL_HI20 %d," \
			" unchecked %d; %d branches rely on reach, not a slot; %d GOT_HI20 refused;" \
			" %.0f is_rela_equal() calls in the per-section count\n", s, q[1], q[2], q[3],
			q[4], q[5], q[6], q[7], q[8]
	}' "$T/counter"
	echo "most branches on reach ($1):"
	awk -F '\t' '{ split($3, r, " "); print r[6] "\t" $1 }' "$T/counter" | sort -rn | head -n 5
	echo "most is_rela_equal() calls ($1):"
	awk -F '\t' '{ split($3, r, " "); print r[8] "\t" $1 }' "$T/counter" | sort -rn | head -n 5
	echo "wall time $1: $(($(date +%s) - start)) s"
}

COUNT=per-section
export COUNT
tree 6.12-trixie 6.12.118 per-section+plt32
COUNT=sorted
tree 7.2 7.2.13 sorted
done_testing
