#!/bin/sh
# elfplt plt on every module of two whole arm64 trees of today's kernels:
# Debian 13's 6.12 (tests/real/fetch-modules.sh 6.12-trixie) and unstable's
# 7.2 (fetch-modules.sh 7.2), decompressed by xz -d (FORM xz-d).  For each
# module, the reserved PLT slots (core, init), the minimum (core, init) and
# the entries the loader sorts must equal those of an independent counter:
# the python3 program below, written from Linux arch/arm64/kernel/
# module-plts.c as it is in 6.12.117 and 7.2.13 (the file is the same in
# both), over `readelf -SW -rW -sW` text.  It calls nothing of elfplt.
#
# What it follows, from module_frob_arch_sections() and count_plts():
# - only SHT_RELA sections whose target (sh_info) has SHF_EXECINSTR count;
#   the group is init when the target's name starts with ".init" (Debian
#   builds with CONFIG_MODULE_UNLOAD, checked below from the vermagic, so
#   module_init_layout_section() is module_init_section());
# - a CALL26 (283) / JUMP26 (282) needs a slot when its symbol's st_shndx is
#   not the target's index (no CONFIG_RANDOMIZE_BASE test since v6.7);
# - partition_branch_plt_relas(): the same two-index loop, literally, and
#   sort() of the nents in front by (type, symbol, addend) (cmp_rela());
# - count_plts() walks every entry of the permuted array: a slot-needing
#   branch counts unless its addend is 0 and it equals the entry before it
#   (duplicate_rel()); an ADR_PREL_PG_HI21[_NC] (275/276) whose r_offset has
#   bits [11:3] all set needs a veneer (2 << ffz(r_offset | 7) > SZ_4K);
#   then DIV_ROUND_UP(ret, 4096 / 12) slack (CONFIG_ARM64_ERRATUM_843419, on
#   in Debian, and elfplt's default);
# - the minimum: distinct (type, symbol, addend) among the slot-needing
#   branches, plus the veneers, plus the slack of that.
# The difference between reserved and minimum per module is split by
# cause: non-zero addends never merged (a repeat of a branch with a non-zero
# addend, sorted or left out by the partition), the partition leftover
# (every relocation of the section needs a slot, the last stays out of the
# sorted range and repeats a sorted entry), and the slack computed on the
# larger count; elfplt's detail.over_allocation must say the same.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

for v in JQ READELF; do
	eval "p=\${$v:-no}"
	[ "$p" != no ] && [ -n "$p" ] || { echo "FAIL: $v not found"; exit 1; }
done
command -v python3 >/dev/null || { echo "FAIL: python3 not found"; exit 1; }

cat >"$T/count.py" <<'EOF'
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
EOF

# tree SERIES: compare every module of SERIES, print its totals.
tree() {
	start=$(date +%s)
	dir=$(modules_dir "$1" xz-d) || exit $?
	find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
	n=$(wc -l <"$T/list")
	[ "$n" -gt 1000 ] || fail "$1: only $n modules in $dir"
	j=$T/plt.json
	"$ELFPLT" plt --json "$dir" >"$j" || fail "$1: elfplt plt exited $?"
	check "$1: every module analysed" "$n" "$(jqr "$j" '.files | length')"
	check "$1: every module has mod_unload (the counter's init rule)" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.mod_unload | not)] | length')"
	check "$1: no module rejected" 0 "$(jqr "$j" '[.files[] | select(.rejects)] | length')"
	check "$1: no module beyond the checked range" 0 \
		"$(jqr "$j" '[.files[] | select(.rules.beyond_checked)] | length')"
	jqp "$j" '.files[] | "\(.path)\t\(plt("core").reserved) \(plt("init").reserved) \(
		plt("core").minimum) \(plt("init").minimum) \(.sort.loader)\t\(
		.detail.over_allocation | "\(.nonzero_addend) \(.partition_leftover) \(
		.erratum_slack)")"' | LC_ALL=C sort >"$T/elfplt"
	# readelf two at a time on batches of 100; one counter per batch.
	readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" "$T/count.py" ||
		fail "$1: readelf or the counter failed"
	cut -f1,2,3 "$T/counter" >"$T/want"
	check "$1: modules the counter read" "$n" "$(wc -l <"$T/want")"
	if cmp -s "$T/elfplt" "$T/want"; then
		echo "ok: $1: all $n modules: core, init, core minimum, init minimum, sorted," \
			"over-allocation by cause agree with the counter"
	else
		diff "$T/elfplt" "$T/want" | grep '^[<>]' >"$T/diff"
		fail "$1: $(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
		head -n 20 "$T/diff"
	fi
	awk -F '\t' -v s="$1" '{
		split($2, c, " "); split($3, w, " ")
		res += c[1] + c[2]; min += c[3] + c[4]; sorted += c[5]; files++
		over = c[1] + c[2] - c[3] - c[4]
		if (over > 0) nover++
		if (over != w[1] + w[2] + w[3]) bad++
		if (w[1]) na++
		if (w[2]) nl++
		if (w[3]) ns++
		xa += w[1]; xl += w[2]; xs += w[3]
	} END {
		printf "totals %s: %d modules, %d slots reserved, minimum %d, %d entries sorted\n",
			s, files, res, min, sorted
		printf "over the minimum %s: %d modules (%d slots): non-zero addends %d modules (%d),",
			s, nover, res - min, na, xa
		printf " partition leftover %d (%d), erratum spare slack %d (%d)\n", nl, xl, ns, xs
		if (bad) printf "FAIL: %s: %d modules whose excess is not the sum of its causes\n", s, bad
	}' "$T/counter" | tee "$T/summary"
	grep -q '^FAIL' "$T/summary" && nfail=$((nfail + 1))
	echo "wall time $1: $(($(date +%s) - start)) s"
}

tree 6.12-trixie
tree 7.2
done_testing
