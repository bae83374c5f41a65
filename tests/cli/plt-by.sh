#!/bin/sh
# elfplt plt --by: attribution of PLT/GOT sites to callee, caller, compile
# unit, source line and cause.  Objects are compiled here from
# tests/fixtures/attr-calls.c with -g (the host's $CC, and
# aarch64-linux-gnu-gcc when installed); the expected lines are the source
# lines carrying a "site:" or "got:" mark (grep), cross-checked against
# eu-addr2line over readelf's relocation offsets, and the callers against
# eu-addr2line -f.  The arm64-module numbers come from the fixture's own
# hand derivation (tests/fixtures/plt-arm64-overcount.yaml).
. "$top_srcdir/tests/lib.sh"
need JQ READELF
command -v eu-addr2line >/dev/null || skip "eu-addr2line not found (elfutils)"
src=$FIXTURES/attr-calls.c
j=$T/out.json

# The marked lines of the source, "N N N" sorted; $1 a grep pattern.
marked() {
	grep -n "$1" "$src" | cut -d: -f1 | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# readelf's r_offset (hex) of the .rela.text relocations whose type matches $2.
offsets() {
	"$READELF" -rW "$1" | sed -n "/'.rela.text'/,/^\$/p" | awk -v t="$2" '$3 ~ t { print "0x" $1 }'
}

# Lines eu-addr2line gives for those offsets, "N N" sorted.
addr2line_lines() {
	# shellcheck disable=SC2046
	eu-addr2line -e "$1" -j .text $(offsets "$1" "$2") | sed 's,^.*/[^/:]*:\([0-9]*\).*,\1,' |
		sort -n | tr '\n' ' ' | sed 's/ $//'
}

# "function count ..." from eu-addr2line -f over those offsets.
addr2line_callers() {
	# shellcheck disable=SC2046
	eu-addr2line -f -e "$1" -j .text $(offsets "$1" "$2") | awk 'NR % 2 == 1' | sort | uniq -c |
		awk '{ print $2 " " $1 }' | sort | tr '\n' ' ' | sed 's/ $//'
}

calls=$(marked '/\* site:')
all=$(marked '/\* site:\|/\* got:')
check "the fixture marks 5 calls" 5 "$(echo "$calls" | wc -w)"

one_object() { # $1 compiler, $2 name, $3 branch types, $4 objcopy
	o=$T/$2.o
	$1 -c -g -O1 -fPIC -fno-inline -fno-optimize-sibling-calls -o "$o" "$src" ||
		{ fail "$1 could not compile attr-calls.c"; return; }
	"$ELFPLT" plt --json --by=callee,caller,cu,line,cause "$o" >"$j" || fail "$2: exit $?"
	check "$2: calls at the marked lines (eu-addr2line)" "$calls" "$(addr2line_lines "$o" "$3")"
	check "$2: sites at the marked lines (elfplt)" "$all" "$(jqr "$j" '[.files[0].attribution.line[] |
		.name | sub(".*:"; "") | tonumber] | sort | map(tostring) | join(" ")')"
	check "$2: every line row names the source" true "$(jqr "$j" '[.files[0].attribution.line[] |
		.name | startswith("'"$src"':")] | all')"
	# The branch sites' lines alone, from the marked calls: 1 site each.
	check "$2: one site a line" "$(echo "$all" | wc -w) 1" "$(jqr "$j" '.files[0].attribution.line |
		"\(length) \(map(.sites) | max)"')"
	# Callees: ext_alpha 3 calls, one slot; ext_beta, ext_gamma one; ext_data a GOT entry.
	check "$2: callees" "ext_alpha 3 1 1 ext_beta 1 1 1 ext_data 1 1 1 ext_gamma 1 1 1" \
		"$(jqr "$j" '.files[0].attribution.callee | sort_by(.name) |
		map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"
	check "$2: callers of the calls (eu-addr2line -f)" "$(addr2line_callers "$o" "$3")" \
		"$(jqr "$j" '.files[0].attribution.caller | sort_by(.name) |
		map("\(.name) \(.sites - (if .name == "first_caller" then 1 else 0 end))") | join(" ")')"
	check "$2: one compile unit" "$src 6" "$(jqr "$j" '.files[0].attribution.cu |
		map("\(.name) \(.sites)") | join(" ")')"
	check "$2: the object model names no cause" "[] 0" "$(jqr "$j" '.files[0] |
		"\(.attribution.cause) \(.slots.reserved - .slots.minimum)"')"
	check "$2: the callees add up to the slots" "$(jqr "$j" '.files[0].slots | "\(.reserved) \(.minimum)"')" \
		"$(jqr "$j" '.files[0].attribution.callee | "\(map(.reserved) | add) \(map(.minimum) | add)"')"

	# Without DWARF: "unknown", said once on stderr; the debug info back
	# from --debug-file and --debug-dir (DIR/<path>.debug).
	$4 --only-keep-debug "$o" "$T/$2.debug" 2>/dev/null &&
		$4 --strip-debug "$o" "$T/$2.stripped.o" 2>/dev/null || {
		echo "note: objcopy cannot handle $2 objects; the separate-debug checks skipped"
		return
	}
	"$ELFPLT" plt --json --by=line "$T/$2.stripped.o" "$T/$2.stripped.o" >"$j" 2>"$T/err" ||
		fail "$2 stripped: exit $?"
	check "$2 stripped: unknown" "unknown 6" "$(jqr "$j" '.files[0].attribution.line |
		map("\(.name) \(.sites)") | join(" ")')"
	check "$2 stripped: debug_info null" null "$(jqr "$j" '.files[0].attribution.debug_info')"
	check "$2 stripped: said once" 1 "$(grep -c 'no DWARF for 2 files' "$T/err")"
	"$ELFPLT" plt --json --by=line --debug-file="$T/$2.debug" "$T/$2.stripped.o" >"$j" ||
		fail "$2 --debug-file: exit $?"
	check "$2 --debug-file: the marked lines" "$all" "$(jqr "$j" '[.files[0].attribution.line[] |
		.name | sub(".*:"; "") | tonumber] | sort | map(tostring) | join(" ")')"
	mkdir -p "$T/dbg/$(dirname "$T/$2.stripped.o")"
	cp "$T/$2.debug" "$T/dbg/$T/$2.stripped.o.debug"
	"$ELFPLT" plt --json --by=line --debug-dir="$T/dbg" "$T/$2.stripped.o" >"$j" ||
		fail "$2 --debug-dir: exit $?"
	check "$2 --debug-dir: from the mirror" "$T/dbg$T/$2.stripped.o.debug 6" \
		"$(jqr "$j" '.files[0].attribution | "\(.debug_info) \(.line | length)"')"
}

one_object "${CC:-cc}" host 'PLT32$' objcopy
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	one_object aarch64-linux-gnu-gcc aarch64 'CALL26$' aarch64-linux-gnu-objcopy
else
	echo "note: aarch64-linux-gnu-gcc not installed: the AArch64 object is not tested"
fi

# loongarch-module, by hand from plt-loongarch-basic.yaml's comments (7.2):
# printk r0, r1 (a duplicate: not counted), r2 (SOP_PUSH_PLT_PCREL: another
# r_info, counted), u0 (another section, counted): 4 sites, 3 reserved, 1
# in the module-wide minimum; counter r7, r9 (GOT_PCADD_HI20), u2: 3, 3,
# 1; kmalloc+8 r3, r4: 2, 1, 1; local_fn r5 and .text+0x40 r6, one
# target: 1 reserved each, the minimum's one entry with one of them; memcpy
# u1: 1, 1, 1.  Sums 10 and 5: the PLT and GOT slots (7 + 3, 4 + 1), the
# trampolines aside.
la=$(fixture plt-loongarch-basic)
"$ELFPLT" plt --json --kernel=7.2 --by=callee,cause "$la" >"$j" || fail "loongarch: exit $?"
check "loongarch: callees" "counter 3 3 1 kmalloc 2 1 1 memcpy 1 1 1 printk 4 3 1" \
	"$(jqr "$j" '[.files[0].attribution.callee[] | select(.name | IN("local_fn", ".text+64") | not)] |
	sort_by(.name) | map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"
check "loongarch: local_fn and .text+0x40 share one minimum entry" "2 2 1" \
	"$(jqr "$j" '[.files[0].attribution.callee[] | select(.name | IN("local_fn", ".text+64"))] |
	"\(map(.sites) | add) \(map(.reserved) | add) \(map(.minimum) | add)"')"
check "loongarch: causes" "type_split 2 alias 1 across_sections 2" \
	"$(jqr "$j" '.files[0].attribution.cause | map("\(.name) \(.slots)") | join(" ")')"

# arm-module, by hand from plt-arm-basic.yaml's comments: printk .text's
# THM_CALL (+4), CALL x2 (the second a duplicate_rel()), JUMP24, then CALL
# in .text.unlikely and in .init.text: 6 sites, 5 reserved, minimum 3
# (core printk+4 and printk+0, init printk); kmalloc PC24, THM_CALL x2,
# THM_JUMP24 and init's CALL: 5, 4, 2; __gnu_mcount_nc 1, 1 and 0 (its
# target is a fixed slot, no relocation's); helper 1, 1, 1.  Sums 11 and
# 6: the slots (15 and 10) less the 2 fixed ones of each group.
arm=$(fixture plt-arm-basic)
"$ELFPLT" plt --json --by=callee "$arm" >"$j" || fail "arm: exit $?"
check "arm: callees" "printk 6 5 3 kmalloc 5 4 2 __gnu_mcount_nc 1 1 0 helper 1 1 1" \
	"$(jqr "$j" '.files[0].attribution.callee | map("\(.name) \(.sites) \(.reserved) \(.minimum)") |
	join(" ")')"

# s390-module, by hand from plt-s390-basic.yaml's comments: an entry per
# symbol and class, the first relocation of each reserving it; the minimum
# one per target among the applied.  printk 4 PLT-class and 1 GOT-class
# relocations: 5 sites, 2 reserved, 2 minimum; kfree 2, 2, 2; memcpy
# (GOT12, GOTPLTENT) 2, 1, 1; other_fn 1, 1, 1; dbg_only, only in
# .debug_info (never applied): 2, 2, 0.  local_fn, local_alias and .text
# share the target (.text, 0): 3 sites, 3 reserved, 1 minimum; so do
# _GLOBAL_OFFSET_TABLE_ and abs_sym (SHN_ABS 0): 2, 2, 1.
s390=$(fixture plt-s390-basic)
"$ELFPLT" plt --json --by=callee "$s390" >"$j" || fail "s390: exit $?"
check "s390: callees" "dbg_only 2 2 0 kfree 2 2 2 memcpy 2 1 1 other_fn 1 1 1 printk 5 2 2" \
	"$(jqr "$j" '[.files[0].attribution.callee[] | select(.name |
	IN("printk", "kfree", "memcpy", "other_fn", "dbg_only"))] | sort_by(.name) |
	map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"
check "s390: aliases" "3 3 1 2 2 1" "$(jqr "$j" '[.files[0].attribution.callee[]] as $c |
	[["local_fn", "local_alias", ".text+0"], ["_GLOBAL_OFFSET_TABLE_", "abs_sym"]] |
	map(. as $n | [$c[] | select(.name | IN($n[]))] |
	"\(map(.sites) | add) \(map(.reserved) | add) \(map(.minimum) | add)") | join(" ")')"

# powerpc64-module, by hand from plt-ppc64-basic.yaml's comments: every
# REL24 is a site, reserved when count_relocs() counts it, minimum when it
# is the module's first needed (symbol, addend).  kfree +0, +8 in .text,
# +0 in .init.text: 3, 3, 2; memcpy -4 twice (both counted: the 32-bit
# addend quirk) and +16 in .debug_info (counted, never applied): 3, 3, 1;
# printk twice in .text (one counted) and once in .init.text: 3, 2, 1;
# init_fn and local_fn (defined: no stub needed) 1, 1, 0.  Sums 10 and 4:
# the stubs (11 and 4) less the sentinel.
ppc=$(fixture plt-ppc64-basic)
"$ELFPLT" plt --json --by=callee "$ppc" >"$j" || fail "powerpc64: exit $?"
check "powerpc64: callees" "init_fn 1 1 0 kfree 3 3 2 local_fn 1 1 0 memcpy 3 3 1 printk 3 2 1" \
	"$(jqr "$j" '.files[0].attribution.callee | sort_by(.name) |
	map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"

# riscv-module 7.2 (the sorted count), by hand from plt-riscv-module.yaml's
# comments: reserved the module's first of each (type, symbol, addend),
# minimum the first of each (PLT or GOT, symbol, addend).  printk r0, r1,
# i0 (CALL_PLT) and r3, r4 (PLT32): 5 sites, 2 reserved, 1 minimum;
# kmalloc r2 (+0), r7 (+4), i2 (PLT32 +0): 3, 3, 2; jiffies r5, r6, i1:
# 3, 1, 1; vfree i3: 1, 1, 1.  Sums 7 and 5, the slots.
rv=$(fixture plt-riscv-module)
"$ELFPLT" plt --json --kernel=7.2 --by=callee "$rv" >"$j" || fail "riscv: exit $?"
check "riscv: callees" "jiffies 3 1 1 kmalloc 3 3 2 printk 5 2 1 vfree 1 1 1" \
	"$(jqr "$j" '.files[0].attribution.callee | sort_by(.name) |
	map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"

# The same report for any -j: attribution is rendered in the workers.
set -- "$T"/*.o "$(fixture plt-arm64-overcount)"
"$ELFPLT" plt -j 1 --by=callee,caller,line,cause "$@" >"$T/j1" 2>&1
"$ELFPLT" plt -j 2 --by=callee,caller,line,cause "$@" >"$T/j2" 2>&1
cmp -s "$T/j1" "$T/j2" && echo "ok: -j 1 and -j 2 print the same" || fail "-j 1 and -j 2 differ"

# --debug-file names one input.
"$ELFPLT" plt --by=line --debug-file=/dev/null "$src" "$src" >/dev/null 2>&1
check "--debug-file with two inputs" 2 $?
"$ELFPLT" plt --by=calee "$src" >/dev/null 2>&1
check "--by=calee is a usage error" 2 $?

# arm64-module, by hand (plt-arm64-overcount.yaml's comments): printk 4
# calls (.text 2, .text.unlikely 1, .text.other 1) reserving 2 + 1 + 1 =
# 4 (the .text leftover counted again), minimum 3; kmalloc 3 calls
# reserving 1 + 1 (the unlikely leftover equals the largest: not counted),
# minimum 2.  Reserved 9 - minimal 8 = 1: the partition leftover; no
# erratum slack (3 -> 1 and 2 -> 1 spare, 2 -> 1 and 2 -> 1, 1 -> 1).
over=$(fixture plt-arm64-overcount)
"$ELFPLT" plt --json --kernel=6.1 --by=callee,cause "$over" >"$j" || fail "overcount: exit $?"
check "overcount: callees" "printk 4 4 3 kmalloc 3 2 2" "$(jqr "$j" '.files[0].attribution.callee |
	map("\(.name) \(.sites) \(.reserved) \(.minimum)") | join(" ")')"
check "overcount: causes" "nonzero_addend 0 partition_leftover 1 erratum_slack 0" \
	"$(jqr "$j" '.files[0].attribution.cause | map("\(.name) \(.slots)") | join(" ")')"
check "overcount: causes sum to reserved - minimum" true "$(jqr "$j" '.files[0] |
	(.attribution.cause | map(.slots) | add) == .slots.reserved - .slots.minimum')"
"$ELFPLT" plt --kernel=6.1 --by=callee "$over" >"$T/text" || fail "overcount text: exit $?"
check "text: printk first" "printk 4 4 3" "$(sed -n '/by callee/{n;n;p}' "$T/text" | awk '{ print $1, $2, $3, $4 }')"
done_testing
