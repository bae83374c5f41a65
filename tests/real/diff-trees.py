#!/usr/bin/env python3
# An independent reading of two elfplt reports (stats --json or plt --json,
# one per side) for tests/real/diff-trees.sh: the files paired the way
# elfplt-diff(1) says (path below the side's root, .xz dropped; a saved
# report's root is the deepest directory its files share), each metric's
# before, after and delta per file, and the totals.  Written from the man
# page and elfplt-json(7), not from lib/diff.c.
#
#   diff-trees.py expect OLD.json NEW.json OLDROOT|- NEWROOT|- METRIC...
#       prints "path status before after delta" per file and metric, then
#       "(total) METRIC before after delta", sorted
#   diff-trees.py got DIFF.json METRIC...
#       the same lines out of an elfplt-diff/1 document
#   diff-trees.py gate DIFF.json METRIC
#       "TOTAL_DELTA MAX_FILE_DELTA FILES_AT_MAX": the numbers the gates need
import json
import os
import sys


def metric(f, m):
    if m == "relocations":
        return f["relocations"]["total"]
    if m.startswith("relocations.type."):
        name = m[len("relocations.type."):]
        return sum(t["count"] for t in f["relocations"]["by_type"] if t.get("name") == name)
    what, how = m.split(".")  # slots.reserved, bytes.minimum, ...
    return f[what][how] if f.get(what) else 0


def side(path, root):
    doc = json.load(open(path))
    files = [f for f in doc["files"] if "error" not in f]
    if root == "-":
        prefix = os.path.commonprefix([f["path"] for f in files])
        prefix = prefix[: prefix.rfind("/") + 1]
    else:
        prefix = root.rstrip("/") + "/"
    out = {}
    for f in files:
        if not f["path"].startswith(prefix):
            continue  # outside the root a live diff was given
        key = f["path"][len(prefix):]
        if key.endswith(".xz"):
            key = key[:-3]
        out[key] = f
    return out


def show(v):
    return "null" if v is None else str(v)


def expect(old, new, oroot, nroot, metrics):
    o, n = side(old, oroot), side(new, nroot)
    lines = []
    for m in metrics:
        tb = ta = 0
        for k in set(o) | set(n):
            b = metric(o[k], m) if k in o else None
            a = metric(n[k], m) if k in n else None
            status = "added" if b is None else "removed" if a is None else "paired"
            lines.append(f"{k} {m} {status} {show(b)} {show(a)} {(a or 0) - (b or 0)}")
            tb += b or 0
            ta += a or 0
        lines.append(f"(total) {m} {tb} {ta} {ta - tb}")
    print("\n".join(sorted(lines)))


def got(path, metrics):
    doc = json.load(open(path))
    lines = []
    for f in doc["files"]:
        status = f["status"] if f["status"] in ("added", "removed") else "paired"
        for m in metrics:
            c = f["metrics"][m]
            lines.append(f"{f['path']} {m} {status} {show(c['before'])} {show(c['after'])} {c['delta']}")
    for m in metrics:
        c = doc["totals"]["metrics"][m]
        lines.append(f"(total) {m} {c['before']} {c['after']} {c['delta']}")
    print("\n".join(sorted(lines)))


def gate(path, m):
    doc = json.load(open(path))
    deltas = [f["metrics"][m]["delta"] for f in doc["files"]]
    top = max(deltas)
    print(doc["totals"]["metrics"][m]["delta"], top, sum(1 for d in deltas if d == top))


if sys.argv[1] == "expect":
    expect(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
elif sys.argv[1] == "got":
    got(sys.argv[2], sys.argv[3:])
else:
    gate(sys.argv[2], sys.argv[3])
