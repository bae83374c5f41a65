#!/usr/bin/env python3
# The arm64 loader's PLT slots per module, independent of elfplt: reads
# `readelf -SW -rW -sW` text of one or more modules (each after a "File:
# PATH" line) on standard input and prints, per module,
#   PATH<TAB>CORE INIT CORE_MIN INIT_MIN SORTED<TAB>ADDEND LEFTOVER SLACK
# following Linux arch/arm64/kernel/module-plts.c: count_plts(),
# partition_branch_plt_relas(), cmp_rela(), duplicate_rel() and
# module_frob_arch_sections(), the same in 6.1.176 (with CONFIG_RANDOMIZE_BASE
# and CONFIG_ARM64_ERRATUM_843419, both set by Debian), 6.12.117 and 7.2.13.
# The rules are listed in tests/real/plt-arm64-trees.sh's header.  Used by
# that test (6.12, 7.2) and tests/real/plt-modules.sh (6.1).
import sys

def spare(n):
    return (n + 340) // 341

def module(path, secs, relas, ndx, out):
    core = init = cmin = imin = nsorted = 0
    by_addend = by_leftover = by_spare = 0
    for ri, ents in relas:
        if ri not in secs:
            continue
        rtype, rinfo = secs[ri][1], secs[ri][3]
        if rtype != "RELA" or rinfo not in secs or "X" not in secs[rinfo][2]:
            continue
        dst = rinfo
        r = ents
        n = len(r)
        need = lambda e: e[0] in (282, 283) and ndx.get(e[1], -1) != dst
        i, j = 0, n - 1
        while i < j:
            if need(r[i]):
                i += 1
            elif need(r[j]):
                r[i], r[j] = r[j], r[i]
            else:
                j -= 1
        nents = i
        r[:nents] = sorted(r[:nents], key=lambda e: (e[0], e[1], e[2]))
        ret = ven = dup_addend = 0
        keys = set()
        for k in range(n):
            e = r[k]
            if e[0] in (282, 283):
                if not need(e):
                    continue
                key = (e[0], e[1], e[2])
                dup = k > 0 and (r[k - 1][0], r[k - 1][1], r[k - 1][2]) == key
                if e[2] != 0 or not dup:
                    ret += 1
                # A repeat with a non-zero addend costs a slot wherever it
                # stands: in the sorted range, or left out by the partition.
                if e[2] != 0 and (dup if k < nents else key in keys):
                    dup_addend += 1
                keys.add(key)
            elif e[0] in (275, 276) and (e[3] & 0xff8) == 0xff8:
                ven += 1
                ret += 1
        mn = len(keys) + ven
        slots, minimum = ret + spare(ret), mn + spare(mn)
        by_addend += dup_addend
        by_leftover += ret - mn - dup_addend
        by_spare += spare(ret) - spare(mn)
        if secs[dst][0].startswith(".init"):
            init += slots
            imin += minimum
        else:
            core += slots
            cmin += minimum
        nsorted += nents
    out.write("%s\t%d %d %d %d %d\t%d %d %d\n" % (path, core, init, cmin, imin, nsorted,
                                                 by_addend, by_leftover, by_spare))

def main():
    out = sys.stdout
    path = None
    state = None
    secs, relas, ndx = {}, [], {}
    name_idx = {}
    cur = None
    for line in sys.stdin:
        if line.startswith("File: "):
            if path is not None:
                module(path, secs, relas, ndx, out)
            path = line[6:].rstrip("\n")
            secs, relas, ndx, name_idx, cur, state = {}, [], {}, {}, None, None
            continue
        if line.startswith("Section Headers:"):
            state = "sec"
            continue
        if line.startswith("Relocation section "):
            name = line.split("'")[1]
            cur = []
            relas.append((name_idx[name], cur))
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
            idx = int(s[0])
            # [Nr] Name Type Address Off Size ES [Flg] Lk Inf Al
            flags = s[7] if len(s) == 11 else ""
            secs[idx] = (s[1], s[2], flags, int(s[-2]))
            name_idx[s[1]] = idx
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            info = int(f[1], 16)
            if len(f) >= 6 and f[-2] in ("+", "-"):
                addend = int(f[-1], 16) * (-1 if f[-2] == "-" else 1)
            elif len(f) == 4:
                addend = int(f[3], 16)
            else:
                addend = 0
            cur.append((info & 0xffffffff, info >> 32, addend, int(f[0], 16)))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit() and len(f) >= 7:
            ndx[int(f[0][:-1])] = int(f[6]) if f[6].isdigit() else -1
    if path is not None:
        module(path, secs, relas, ndx, out)

main()
