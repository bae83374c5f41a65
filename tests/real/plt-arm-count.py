# An independent counter for the 32-bit arm module loader's PLTs, written
# from Linux arch/arm/kernel/module-plts.c (module_frob_arch_sections(),
# count_plts(), duplicate_rel(), cmp_rel(), is_zero_addend_relocation()) and
# lib/sort.c (6.1.176: one pop; 6.12.117 and 7.2.13: the double pop of
# v6.9), over binutils readelf text: -SW -rW -sW for the tables, -x for the
# bytes of the sections whose branches need a slot.  It uses nothing of
# elfplt.  Usage: python3 plt-arm-count.py READELF SORT FILE...; SORT is
# "single" or "double".  One line per file:
#   PATH<TAB>core init core_min init_min core_bytes init_bytes sorted needed
import subprocess
import sys

BRANCH = {1, 28, 29, 10, 30}  # PC24, CALL, JUMP24, THM_CALL, THM_JUMP24
THUMB = {10, 30}
FIXED = 2  # fixed_plts[]: FTRACE_ADDR, MCOUNT_ADDR (CONFIG_DYNAMIC_FTRACE)
FIXED_NAMES = {"__gnu_mcount_nc", "ftrace_caller"}


def round_up(x, m):
    return (x + m - 1) // m * m


def key(e):
    # cmp_rel(): ELF32_R_TYPE, then ELF32_R_SYM (24 bits), as one number.
    return e[2]


def kcmp(x, y):
    a, b = x[2], y[2]
    return (a > b) - (a < b)


def sift(a, root, n, right_on_tie):
    # Down to a leaf along the larger child, back up, rotate in (lib/sort.c).
    b = root
    while True:
        c = 2 * b + 1
        d = c + 1
        if d >= n:
            break
        r = kcmp(a[c], a[d])
        b = c if (r > 0 if right_on_tie else r >= 0) else d
    if d == n:
        b = c
    while b != root and kcmp(a[root], a[b]) >= 0:
        b = (b - 1) // 2
    c = b
    while b != root:
        b = (b - 1) // 2
        a[b], a[c] = a[c], a[b]


def sort_single(a):
    n = len(a)
    i = n // 2
    if i == 0:
        return
    while True:
        if i:
            i -= 1
        else:
            n -= 1
            if n == 0:
                break
            a[0], a[n] = a[n], a[0]
        sift(a, i, n, False)


def sort_double(a):
    n = len(a)
    i = n // 2
    shift = 0
    if i == 0:
        return
    while True:
        if i:
            i -= 1 << shift
        elif n > 3:
            n -= 1
            a[0], a[n] = a[n], a[0]
            shift = 1 if kcmp(a[1], a[2]) <= 0 else 0
            i = 1 << shift
            n -= 1
            a[i], a[n] = a[n], a[i]
        else:
            break
        sift(a, i, n, True)
    n -= 1
    a[0], a[n] = a[n], a[0]
    if n == 2 and kcmp(a[0], a[1]) > 0:
        a[0], a[1] = a[1], a[0]


def addend(text, off, rtype):
    """(zero as the kernel tests it, the target offset with the PC bias off)"""
    if any(b not in text for b in range(off, off + 4)):
        raise ValueError("branch past its section")
    data = {off + i: text[off + i] for i in range(4)}
    if rtype in THUMB:
        hi = data[off] | data[off + 1] << 8
        lo = data[off + 2] | data[off + 3] << 8
        zero = (hi & 0x7FF) == 0x7FF and (lo & 0x2FFF) == 0x2FFE
        s = (hi >> 10) & 1
        j1, j2 = (lo >> 13) & 1, (lo >> 11) & 1
        v = (s << 24 | (1 - (j1 ^ s)) << 23 | (1 - (j2 ^ s)) << 22 |
             (hi & 0x3FF) << 12 | (lo & 0x7FF) << 1)
        if s:
            v -= 1 << 25
        return zero, v + 4
    w = data[off] | data[off + 1] << 8 | data[off + 2] << 16 | data[off + 3] << 24
    imm = w & 0xFFFFFF
    v = imm << 2
    if imm & 0x800000:
        v -= 1 << 26
    return imm == 0xFFFFFE, v + 8


def is_init(name):
    return name.startswith((".init", ".ARM.extab.init", ".ARM.exidx.init"))


def hexdump(readelf, files, wanted):
    """{path: {section name: {offset: byte}}} for the bytes wanted[path][name]
    holds offsets of (4 each), from one readelf -x run over every file."""
    names = sorted({n for w in wanted.values() for n in w})
    args = [readelf]
    for n in names:
        args += ["-x", n]
    out = subprocess.run(args + files, capture_output=True, text=True).stdout
    data = {p: {} for p in files}
    path = files[0] if len(files) == 1 else None
    lines = None
    for line in out.splitlines():
        if line.startswith("File: "):
            path, lines = line[6:], None
        elif line.startswith("Hex dump of section '"):
            name = line.split("'")[1]
            want = wanted.get(path, {}).get(name)
            lines = None
            if want:
                got = data[path].setdefault(name, {})
                lines = {}
                for off in want:
                    for b in range(off, off + 4):
                        lines.setdefault(b & ~15, []).append(b)
        elif lines is not None and line.startswith("  0x"):
            at = int(line[4:12], 16)
            if at in lines:
                raw = bytes.fromhex("".join(line[13:48].split()))
                for b in lines[at]:
                    if b - at < len(raw):
                        got[b] = raw[b - at]
    return data


def tables(path, secs, rels, syms):
    symidx = plt = iplt = None
    for i, (name, typ, flags, info) in sorted(secs.items()):
        if name == ".plt":
            plt = i
        elif name == ".init.plt":
            iplt = i
        elif typ == "SYMTAB":
            symidx = i
    assert plt and iplt and symidx, path + ": the loader would reject it"
    work = []
    for ri, ents in rels:
        name, typ, flags, dst = secs[ri]
        if typ != "REL" or "X" not in secs[dst][2]:
            continue
        need = [e for e in ents if (e[1] & 0xFF) in BRANCH and syms[e[1] >> 8][0] != dst]
        work.append((dst, ents, need))
    wanted = {}
    for dst, ents, need in work:
        for e in need:
            wanted.setdefault(secs[dst][0], set()).add(e[0])
    return work, wanted


def count(sort, path, secs, syms, work, data):
    slots = [FIXED, FIXED]
    targets = [set(), set()]
    nsorted = nneed = 0
    for dst, ents, need in work:
        g = 1 if is_init(secs[dst][0]) else 0
        a = list(ents)
        (sort_single if sort == "single" else sort_double)(a)
        nsorted += len(a)
        nneed += len(need)
        text = data.get(secs[dst][0], {})
        for k, e in enumerate(a):
            t, s = e[1] & 0xFF, e[1] >> 8
            if t not in BRANCH or syms[s][0] == dst:
                continue
            zero, tgt = addend(text, e[0], t)
            dup = (k > 0 and key(a[k - 1]) == key(e) and
                   addend(text, a[k - 1][0], t)[0])
            if not zero or not dup:
                slots[g] += 1
            if not (zero and syms[s][1] in FIXED_NAMES):
                targets[g].add((s, tgt))
    mins = [FIXED + len(targets[0]), FIXED + len(targets[1])]
    b = [round_up(x * 8, 128) for x in slots]
    return "%s\t%d %d %d %d %d %d %d %d" % (path, slots[0], slots[1], mins[0], mins[1],
                                          b[0], b[1], nsorted, nneed)


def main():
    readelf, sort, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = subprocess.run([readelf, "-SW", "-rW", "-sW"] + files, capture_output=True,
                         text=True, check=True).stdout
    path = files[0] if len(files) == 1 else None
    state = None
    secs, rels, syms, name_idx = {}, [], {}, {}
    results, wanted_all = [], {}

    def flush():
        if path is not None:
            work, wanted = tables(path, secs, rels, syms)
            results.append((path, secs, syms, work))
            wanted_all[path] = wanted

    for line in out.splitlines():
        if line.startswith("File: "):
            flush()
            path = line[6:]
            secs, rels, syms, name_idx, state = {}, [], {}, {}, None
            continue
        if line.startswith("Section Headers:"):
            state = "sec"
            continue
        if line.startswith("Relocation section "):
            cur = []
            rels.append((name_idx[line.split("'")[1]], cur))
            state = "rel"
            continue
        if line.startswith("Symbol table "):
            state = "sym"
            continue
        f = line.split()
        if not f:
            continue
        if state == "sec" and line.lstrip().startswith("["):
            s = line.replace("[", " ", 1).replace("]", " ", 1).split()
            if not s[0].isdigit():
                continue
            # Nr Name Type Addr Off Size ES [Flg] Lk Inf Al
            flags = s[7] if len(s) == 11 else ""
            secs[int(s[0])] = (s[1], s[2], flags, int(s[-2]))
            name_idx[s[1]] = int(s[0])
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            info = int(f[1], 16)
            cur.append((int(f[0], 16), info, (info & 0xFF) << 24 | info >> 8))
        elif state == "sym" and f[0].endswith(":") and f[0][:-1].isdigit() and len(f) >= 7:
            ndx = {"UND": 0, "ABS": 0xFFF1, "COM": 0xFFF2}.get(f[6])
            if ndx is None:
                ndx = int(f[6])
            syms[int(f[0][:-1])] = (ndx, f[7] if len(f) > 7 else "")
    flush()
    data = hexdump(readelf, files, wanted_all)
    sys.stdout.write("".join(count(sort, p, secs, syms, work, data[p]) + "\n"
                             for p, secs, syms, work in results))


main()
