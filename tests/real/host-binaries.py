#!/usr/bin/env python3
# Independent counts of linked ELF files for tests/real/host-binaries.sh,
# from binutils alone: readelf -hW -SW -rW and size -A -B, run here over the
# files named on standard input (one a line), in batches.  Prints one line
# per file:
#   PATH<TAB>TYPE<TAB>SECTIONS<TAB>DYNAMIC<TAB>RELR<TAB>SIZES<TAB>PLT
# TYPE       ET_EXEC or ET_DYN (readelf -h "Type:")
# SECTIONS   NAME:ENTRIES:RELOCATIONS:BYTES for each relocation section, in
#            section order (readelf -r "contains N entries"; a RELR table's
#            "N offsets" are its relocations; BYTES its sh_size, readelf -S)
# DYNAMIC    relative glob_dat jump_slot irelative other: the relocations of
#            SHF_ALLOC tables by the suffix of readelf's type name, RELR
#            offsets as relative
# RELR       relative_in_rel packable packed_bytes present present_bytes:
#            the RELATIVE entries of SHF_ALLOC REL/RELA tables, those at
#            word-aligned offsets, the SHT_RELR encoding of their distinct
#            offsets (gABI: an address word, then bitmap words whose bits
#            1..wordbits-1 cover the words after it), and the RELR tables'
#            relocations and bytes
# SIZES      size -B's text data bss
# PLT        jump_slot irelative glob_dat plt plt.sec got got.plt: JUMP_SLOT
#            and IRELATIVE of .rela.plt/.rel.plt, GLOB_DAT of every SHF_ALLOC
#            REL/RELA table, and size -A's sizes of those four sections (0
#            when absent)
import subprocess
import sys


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def relr_size(offsets, ws):
    bits = ws * 8 - 1
    words = 0
    i = 0
    offsets = sorted(set(offsets))
    while i < len(offsets):
        words += 1
        base = offsets[i] + ws
        i += 1
        while True:
            bitmap = 0
            while i < len(offsets):
                d = offsets[i] - base
                if d < 0 or d % ws or d // ws >= bits:
                    break
                bitmap |= 1 << (d // ws)
                i += 1
            if not bitmap:
                break
            words += 1
            base += bits * ws
    return words * ws


def parse_readelf(text):
    files = {}
    cur = None
    state = None
    for line in text.splitlines():
        if line.startswith("File: "):
            cur = files.setdefault(line[6:], {"secs": {}, "order": [], "rel": []})
            state = None
            continue
        f = line.split()
        if line.startswith("  Class:"):
            cur["ws"] = 8 if f[1] == "ELF64" else 4
        elif line.startswith("  Type:"):
            cur["type"] = "ET_" + f[1]
        elif line.startswith("Section Headers:"):
            state = "sec"
        elif state == "sec" and line.lstrip().startswith("[") and "]" in line:
            s = line.replace("[", " ", 1).replace("]", " ", 1).split()
            if not s[0].isdigit():
                continue
            # [Nr] Name Type Address Off Size ES [Flg] Lk Inf Al
            flags = s[7] if len(s) == 11 else ""
            cur["secs"][s[1]] = (s[2], int(s[5], 16), "A" in flags)
        elif line.startswith("Key to Flags"):
            state = None
        elif line.startswith("Relocation section "):
            name = line.split("'")[1]
            entries = int(line.split(" contains ")[1].split()[0])
            rec = {"name": name, "entries": entries, "types": [], "offsets": [],
                   "relr": None}
            cur["rel"].append(rec)
            state = "rel"
        elif state == "rel" and len(f) == 2 and f[1] == "offsets":
            rec["relr"] = int(f[0])
        elif state == "rel" and len(f) >= 3 and f[2].startswith("R_"):
            rec["types"].append(f[2])
            rec["offsets"].append(int(f[0], 16))
    return files


def kind(t):
    for k, suffix in (("irelative", "_IRELATIVE"), ("relative", "_RELATIVE"),
                      ("glob_dat", "_GLOB_DAT"), ("jump_slot", "_JUMP_SLOT")):
        if t.endswith(suffix):
            return k
    return "other"


def size_a(text):
    out, cur = {}, None
    for line in text.splitlines():
        if line.endswith("  :"):
            cur = out.setdefault(line[:-3].strip(), {})
        elif cur is not None and line.startswith(".") and len(line.split()) == 3:
            f = line.split()
            cur[f[0]] = int(f[1])
    return out


def size_b(text):
    out = {}
    for line in text.splitlines()[1:]:
        f = line.split(None, 5)
        if len(f) == 6:
            out[f[5]] = "%s %s %s" % (f[0], f[1], f[2])
    return out


def batch(paths):
    files = parse_readelf(run(["readelf", "-hW", "-SW", "-rW"] + paths))
    if len(paths) == 1:
        files = parse_readelf("File: %s\n" % paths[0] +
                              run(["readelf", "-hW", "-SW", "-rW", paths[0]]))
    sa = size_a(run(["size", "-A"] + paths))
    if len(paths) == 1:
        sa = {paths[0]: list(sa.values())[0]}
    sb = size_b(run(["size", "-B"] + paths))
    for p in paths:
        fi = files[p]
        dyn = dict.fromkeys(("relative", "glob_dat", "jump_slot", "irelative", "other"), 0)
        plt = {"jump_slot": 0, "irelative": 0, "glob_dat": 0}
        rel_in_rel, offsets, present, present_bytes = 0, [], 0, 0
        secs = []
        ws = fi["ws"]
        for r in fi["rel"]:
            stype, size, alloc = fi["secs"][r["name"]]
            if r["relr"] is not None:
                secs.append("%s:%d:%d:%d" % (r["name"], r["entries"], r["relr"], size))
                dyn["relative"] += r["relr"]
                present += r["relr"]
                present_bytes += size
                continue
            secs.append("%s:%d:%d:%d" % (r["name"], r["entries"], len(r["types"]), size))
            if not alloc:
                continue
            for t, off in zip(r["types"], r["offsets"]):
                k = kind(t)
                dyn[k] += 1
                if k == "relative":
                    rel_in_rel += 1
                    if off % ws == 0:
                        offsets.append(off)
                if k == "glob_dat":
                    plt["glob_dat"] += 1
                if r["name"] in (".rela.plt", ".rel.plt") and k in ("jump_slot", "irelative"):
                    plt[k] += 1
        s = sa[p]
        print("\t".join([
            p, fi["type"], " ".join(secs),
            " ".join(str(dyn[k]) for k in ("relative", "glob_dat", "jump_slot", "irelative",
                                           "other")),
            "%d %d %d %d %d" % (rel_in_rel, len(offsets), relr_size(offsets, ws), present,
                                present_bytes),
            sb[p],
            "%d %d %d %d %d %d %d" % (plt["jump_slot"], plt["irelative"], plt["glob_dat"],
                                      s.get(".plt", 0), s.get(".plt.sec", 0),
                                      s.get(".got", 0), s.get(".got.plt", 0))]))


def main():
    paths = [l.rstrip("\n") for l in sys.stdin if l.strip()]
    for i in range(0, len(paths), 50):
        batch(paths[i:i + 50])


main()
