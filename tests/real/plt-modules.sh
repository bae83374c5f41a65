#!/bin/sh
# elfplt plt on Debian 12's arm64 modules (tests/real/fetch-modules.sh):
# invariants and the independent counter tests/real/plt-arm64-count.py on
# every module (below), and for a handful of modules the loader's
# slots re-derived independently from `readelf -rsW` text by the awk
# program below, which follows Linux 6.1 arch/arm64/kernel/module-plts.c
# (partition, sort of the front, duplicate check against the previous
# entry, ADRP veneers at page offsets 0xff8/0xffc, ceil(slots/341) spare
# per section) and shares no code with elfplt.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"
need JQ READELF

dir=$("$top_srcdir/tests/real/fetch-modules.sh")
rc=$?
[ $rc -eq 77 ] && skip "Debian arm64 modules unavailable (fetch-modules.sh skipped)"
[ $rc -eq 0 ] || { echo "FAIL: fetch-modules.sh exited $rc"; exit 1; }

j=$T/all.json
"$ELFPLT" plt --json "$dir" >"$j" || fail "elfplt plt on $dir exited $?"
n=$(find "$dir" -name '*.ko' | wc -l)
check "every module analysed" "$n" "$(jqr "$j" '.files | length')"
check "every module is an arm64-module" "$n" \
	"$(jqr "$j" '[.files[] | select(.model == "arm64-module")] | length')"
check "no errors" 0 "$(jqr "$j" '[.files[] | select(.error)] | length')"
check "minimum <= loader slots, every section" 0 \
	"$(jqr "$j" '[.files[].sections[] | select(.slots.minimum > .slots.reserved)] | length')"
check "minimum <= loader slots, every group" 0 \
	"$(jqr "$j" '[.files[].slots.by_kind[] | select(.minimum > .reserved)] | length')"
check "partitioned <= full, every section" 0 \
	"$(jqr "$j" '[.files[].sections[] | select(.sort.loader > .sort.full)] | length')"
check "bytes = (slots + 1) x 12" 0 \
	"$(jqp "$j" '[.files[] | (plt("core").reserved + 1) * 12 != sized(".plt").reserved,
		(plt("init").reserved + 1) * 12 != sized(".init.plt").reserved | select(.)] | length')"
check "a leftover only where every relocation needs a slot" 0 \
	"$(jqr "$j" '[.files[].sections[] | select(.detail.partition_leftover and
		.needed != .relocations)] | length')"
echo "totals: $(jqr "$j" "$TOTALS_LINE")"

# Every module against the independent counter of the 6.12 and 7.2 trees
# (tests/real/plt-arm64-count.py): 6.1.176's count_plts(),
# partition_branch_plt_relas(), cmp_rela() and module_frob_arch_sections()
# are 6.12's but for the CONFIG_RANDOMIZE_BASE and CONFIG_ARM64_ERRATUM_843419
# tests, both set in Debian's config and elfplt's defaults, and the
# .init.text.ftrace_trampoline 6.1 ignores, which holds no slot.  Debian
# builds with CONFIG_MODULE_UNLOAD: ".init" targets are the init group.
check "every module has mod_unload (the counter's init rule)" 0 \
	"$(jqr "$j" '[.files[] | select(.rules.mod_unload | not)] | length')"
jqp "$j" '.files[] | "\(.path)\t\(plt("core").reserved) \(plt("init").reserved) \(
	plt("core").minimum) \(plt("init").minimum) \(.sort.loader)\t\(
	.detail.over_allocation | "\(.nonzero_addend) \(.partition_leftover) \(
	.erratum_slack)")"' | LC_ALL=C sort >"$T/elfplt.tsv"
find "$dir" -name '*.ko' | LC_ALL=C sort >"$T/list"
readelf_counter "$T/list" "$T/counter" "-SW -rW -sW" "$top_srcdir/tests/real/plt-arm64-count.py" ||
	fail "readelf or the counter failed"
check "modules the counter read" "$n" "$(wc -l <"$T/counter")"
if cmp -s "$T/elfplt.tsv" "$T/counter"; then
	echo "ok: all $n modules: core, init, minimums, sorted, over-allocation by cause" \
		"agree with the counter"
else
	diff "$T/elfplt.tsv" "$T/counter" | grep '^[<>]' >"$T/diff"
	fail "$(cut -f1 "$T/diff" | sort -u | wc -l) modules differ (< elfplt, > counter):"
	head -n 20 "$T/diff"
fi

# --summary: one row per module, each named apart from the others below the
# directory they share (the walk finds them all under $dir/kernel/).
"$ELFPLT" plt --summary "$dir" >"$T/summary.txt" || fail "plt --summary exited $?"
case $(head -n 1 "$T/summary.txt") in
"paths below $dir/"*) echo "ok: summary names the common directory" ;;
*) fail "summary's first line: $(head -n 1 "$T/summary.txt")" ;;
esac
check "summary: a distinct row per module" "$n" \
	"$(awk 'NR > 3 && /^$/ { exit } NR > 3 { print $1 }' "$T/summary.txt" | sort -u | wc -l)"

"$ELFPLT" plt --json --kaslr=off --erratum-843419=off "$dir" >"$j" || fail "off/off exited $?"
check "KASLR off, erratum off: no PLT slots at all" 0 \
	"$(jqr "$j" '[.totals.slots.by_kind[] | select(.kind == "plt") | .reserved] | add')"
check "KASLR off: nothing sorted" 0 "$(jqr "$j" .totals.sort.loader)"

# The loader's count from readelf text: prints "CORE INIT CORE_MIN INIT_MIN".
derive() {
	# Symbols first: the relocations need each symbol's st_shndx.
	{ "$READELF" -sW "$1"; "$READELF" -SrW "$1"; } | awk '
	function hex(s,   i, c, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	function less(a, b) {
		if (T[a] != T[b]) return T[a] < T[b]
		if (S[a] != S[b]) return S[a] < S[b]
		return A[a] < A[b]
	}
	function same(a, b) { return T[a] == T[b] && S[a] == S[b] && A[a] == A[b] }
	function needs(k) { return (T[k] == 282 || T[k] == 283) && ndx[S[k]] != dst }
	function swap(a, b,   t) {
		t = T[a]; T[a] = T[b]; T[b] = t; t = S[a]; S[a] = S[b]; S[b] = t
		t = A[a]; A[a] = A[b]; A[b] = t; t = O[a]; O[a] = O[b]; O[b] = t
	}
	function flush(   i, j, nents, ret, dis, ven, found, g) {
		if (cur == "" || n == 0) { n = 0; return }
		i = 0; j = n - 1
		while (i < j) {
			if (needs(i)) i++
			else if (needs(j)) swap(i, j)
			else j--
		}
		nents = i
		for (i = 1; i < nents; i++)		# insertion sort of the front
			for (j = i; j > 0 && less(j, j - 1); j--) swap(j, j - 1)
		ret = 0; dis = 0; ven = 0
		for (i = 0; i < n; i++) {
			if (T[i] == 282 || T[i] == 283) {
				if (!needs(i)) continue
				if (A[i] != 0 || i == 0 || !same(i, i - 1)) ret++
				if (i < nents) { if (i == 0 || !same(i, i - 1)) dis++ }
				else {
					found = 0
					for (j = 0; j < nents; j++) if (same(i, j)) found = 1
					if (!found) dis++
				}
			} else if ((T[i] == 275 || T[i] == 276) && int(O[i] / 8) % 512 == 511) {
				ven++; ret++
			}
		}
		dis += ven
		g = (tname ~ /^\.init/) ? "init" : "core"
		slots[g] += ret + int((ret + 340) / 341)
		mins[g] += dis + int((dis + 340) / 341)
		n = 0
	}
	/^Section Headers:/ { insyms = 0; next }
	/^ *\[ *[0-9]+\]/ {
		line = $0; sub(/^ *\[ */, "", line); sub(/\]/, "", line)
		split(line, f, " ")
		nf = 0; for (k in f) nf++
		idx = f[1]; name[idx] = f[2]; sidx[f[2]] = idx; type[idx] = f[3]
		flags[idx] = (nf == 11) ? f[8] : ""
		info[idx] = (nf == 11) ? f[10] : f[9]
		next
	}
	/^Relocation section / {
		flush()
		rs = $3; gsub(/\047/, "", rs); ri = sidx[rs]
		cur = ""
		if (type[ri] == "RELA" && flags[info[ri]] ~ /X/) {
			cur = rs; dst = info[ri]; tname = name[dst]
		}
		next
	}
	/^Symbol table / { flush(); cur = ""; insyms = 1; next }
	insyms && $1 ~ /^[0-9]+:$/ {
		s = $1; sub(/:/, "", s)
		ndx[s] = ($7 == "UND") ? 0 : ($7 ~ /^[0-9]+$/ ? $7 : -1)
		next
	}
	cur != "" && $1 ~ /^[0-9a-f]+$/ && NF >= 3 {
		infohex = $2
		T[n] = hex(substr(infohex, length(infohex) - 7))
		S[n] = hex(substr(infohex, 1, length(infohex) - 8))
		O[n] = hex($1)
		if ($(NF - 1) == "+") A[n] = hex($NF)
		else if ($(NF - 1) == "-") A[n] = -hex($NF)
		else A[n] = (NF == 4) ? hex($NF) : 0
		n++
	}
	END { flush(); printf "%d %d %d %d\n", slots["core"], slots["init"], mins["core"], mins["init"] }'
}

# cifs_md4.ko by hand from `readelf -rW`: .rela.text is 6 R_AARCH64_CALL26,
# all to undefined symbols, in file order memset (38) x4, memcpy (37) x2.
# Every entry needs a slot, so the partition returns 5: sorted front
# memcpy, memset x4 -> 2 slots; the last memcpy, left behind, is compared
# with memset only and counts again: 3 (minimum 2).  Slack ceil(3/341) = 1:
# core 4 slots, minimal 2 + 1 = 3; no init relocations: init 0.
f=$(find "$dir" -path '*/fs/smb/common/cifs_md4.ko' | head -n 1)
if [ -n "$f" ]; then
	check "cifs_md4.ko by hand: core slots, minimal, init" "4 3 0" \
		"$("$ELFPLT" plt --json "$f" | "$JQ" -r "$PLT2_JQ"' .files[0] |
			"\(plt("core").reserved) \(plt("core").minimum) \(plt("init").reserved)"')"
fi

for m in fs/smb/common/cifs_md4.ko drivers/usb/serial/xr_serial.ko fs/fat/fat.ko net/ipv4/ip_tunnel.ko drivers/net/dummy.ko crypto/sha512_generic.ko \
	 fs/nfs/nfs.ko; do
	f=$(find "$dir" -path "*/$m" | head -n 1)
	[ -n "$f" ] || { echo "note: $m not in this kernel"; continue; }
	want=$(derive "$f")
	got=$("$ELFPLT" plt --json "$f" | "$JQ" -r "$PLT2_JQ"' .files[0] |
		"\(plt("core").reserved) \(plt("init").reserved) \(plt("core").minimum) \(
		plt("init").minimum)"')
	check "$m core init core_min init_min (awk over readelf -srSW)" "$want" "$got"
done
done_testing
