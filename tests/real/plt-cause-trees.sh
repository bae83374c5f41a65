#!/bin/sh
# elfplt plt --by=cause on every module of Debian 12's arm64 6.1 tree
# (tests/real/fetch-modules.sh 6.1): for each module the causes must sum to
# slots.reserved - slots.minimum and say what detail.over_allocation says;
# --by=callee's rows must add up to the PLT slots less the erratum slack.
# And for a few modules the nonzero_addend cause is counted here,
# independently, by the python3 program below over `readelf -SW -sW -rW`:
# in each SHT_RELA section whose target is executable, the CALL26 (283) and
# JUMP26 (282) branches whose symbol's section is not the target need a
# slot (Linux 6.1 arch/arm64/kernel/module-plts.c, branch_rela_needs_plt()
# with CONFIG_RANDOMIZE_BASE, as Debian builds); duplicate_rel() never
# merges one with a non-zero addend, so each repeat of such a (type,
# symbol, addend) costs a slot the minimum does not have.  qede.ko's
# 236 branches with a non-zero addend (issue 15) make that count there.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }
dir=$(modules_dir 6.1) || exit $?
j=$T/tree.json

"$ELFPLT" plt --json -q --by=cause,callee "$dir" >"$j" || fail "elfplt plt exit $?"
n=$(jqr "$j" '[.files[] | select(.model == "arm64-module")] | length')
echo "modules: $n"
[ "$n" -gt 3000 ] || fail "fewer than 3000 arm64 modules ($n)"
check "every module: the causes sum to reserved - minimum" 0 "$(jqr "$j" '[.files[] |
	select(.model == "arm64-module") |
	select((.attribution.cause | map(.slots) | add) != .slots.reserved - .slots.minimum)] |
	length')"
check "every module: the causes are detail.over_allocation" 0 "$(jqr "$j" '[.files[] |
	select(.model == "arm64-module") |
	select((.attribution.cause | map({(.name): .slots}) | add) != .detail.over_allocation)] |
	length')"
check "every module: callee rows add up to the PLT slots less the erratum slack" 0 "$(jqr "$j" '
	[.files[] | select(.model == "arm64-module") |
	 ([.slots.by_kind[] | select(.kind == "plt")] | map(.reserved) | add) as $plt |
	 ([.sections[].detail.spare] | add // 0) as $spare |
	 select((.attribution.callee | map(.reserved) | add // 0) != $plt - $spare)] | length')"
check "the tree over-allocates" true "$(jqr "$j" '[.files[] | select(.model == "arm64-module") |
	.attribution.cause[] | select(.name == "nonzero_addend") | .slots] | add > 1000')"

cat >"$T/addend.py" <<'PY'
import re, sys
secs, syms, out, cur = {}, {}, 0, None
text = sys.stdin.read().splitlines()
for line in text:
    m = re.match(r'\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+([A-Z]*)', line)
    if m and not line.lstrip().startswith('[Nr]'):
        secs[m.group(2)] = (int(m.group(1)), m.group(4))
        continue
    m = re.match(r'\s*(\d+):\s+[0-9a-f]+\s+\d+\s+\S+\s+\S+\s+\S+\s+(\S+)', line)
    if m:
        syms[int(m.group(1))] = m.group(2)
total = 0
keys = None
for line in text + ["Relocation section 'end'"]:
    m = re.match(r"Relocation section '([^']*)'", line)
    if m:
        if keys is not None:
            for k, c in keys.items():
                total += c - 1
        name = m.group(1)
        keys = None
        if name.startswith('.rela') and name[5:] in secs and 'X' in secs[name[5:]][1]:
            keys, target = {}, secs[name[5:]][0]
        continue
    f = line.split()
    if keys is None or len(f) < 3 or not re.fullmatch(r'[0-9a-f]{16}', f[0]):
        continue
    if f[2] not in ('R_AARCH64_CALL26', 'R_AARCH64_JUMP26'):
        continue
    info = int(f[1], 16)
    sym = info >> 32
    ndx = syms.get(sym, 'UND')
    if ndx.isdigit() and int(ndx) == target:
        continue
    am = re.search(r'([+-]) ([0-9a-f]+)$', line)
    addend = int(am.group(2), 16) * (-1 if am.group(1) == '-' else 1) if am else 0
    if addend:
        keys[(f[2], sym, addend)] = keys.get((f[2], sym, addend), 0) + 1
print(total)
PY
for m in drivers/net/ethernet/qlogic/qede/qede.ko fs/xfs/xfs.ko fs/btrfs/btrfs.ko \
	drivers/gpu/drm/amd/amdgpu/amdgpu.ko net/mac80211/mac80211.ko; do
	f=$(find "$dir" -path "*/$m" | head -n 1)
	[ -n "$f" ] || { fail "$m not in the tree"; continue; }
	want=$("$READELF" -SW -sW -rW "$f" | python3 "$T/addend.py") || fail "$m: counter failed"
	check "$m: nonzero_addend (readelf)" "$want" "$("$JQ" -r --arg p "$f" '.files[] |
		select(.path == $p) | .attribution.cause[] | select(.name == "nonzero_addend") |
		.slots' "$j")"
done
done_testing
