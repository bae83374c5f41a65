#!/bin/sh
# elfplt plt: the riscv module loader (arch/riscv/kernel/module-sections.c,
# module.c) on hand-built modules, at each version boundary of its count,
# with the version read from the module's own vermagic=.  Every expected
# value is derived by hand in tests/fixtures/plt-riscv-module.yaml and
# plt-riscv-nosections.yaml from the kernel sources named there; none is
# taken from elfplt's output.  RISC-V Linux is little-endian only: there is
# no other byte order to test.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

j=$T/out.json

# variant NAME ORIGHEX VERSION [SED]: the fixture NAME with the vermagic
# version ORIGHEX replaced by VERSION (and the sed expression SED applied);
# prints its path.
variant() {
	hex=$(printf '=%s' "$3" | od -An -tx1 | tr -d ' \n')
	sed -e "s/$2/$hex/" -e "${4:-s/^//}" "$top_srcdir/tests/fixtures/$1.yaml" >"$T/$1-$3.yaml"
	"$YAML2OBJ" "$T/$1-$3.yaml" -o "$T/$1-$3.ko" || fail "yaml2obj $1 $3"
	echo "$T/$1-$3.ko"
}

# hex of "=6.12.24", the module fixture's vermagic version.
mod=3d362e31322e3234
# at VERSION: "count plt got min-plt min-got bytes min-bytes sorted" and
# the over-allocation causes, of the module fixture at VERSION.
at() {
	m=$(variant plt-riscv-module "$mod" "$1")
	"$ELFPLT" plt --json "$m" >"$j" || fail "plt $m exited $?"
	jqp "$j" '.files[0] | "\(kernel.count) \(.slots.by_kind[] | select(.kind == "plt") |
		.reserved) \(.slots.by_kind[] | select(.kind == "got") | .reserved) \(
		.slots.minimum) \(.bytes.reserved) \(.bytes.minimum) \(.sort.loader) \(
		.detail.over_allocation | "\(.per_section) \(.across_types) \(.plt32_uncounted)")"'
}

# Per section, no PLT32, up to 6.12.24 and 6.14.3; PLT32 from 6.12.25,
# 6.14.4 and 6.15 (1ee1313f4722); sorted from 6.16 (be17c0df6795).
check "6.12.24" "per-section 4 2 5 124 116 0 2 0 -1" "$(at 6.12.24)"
check "6.12.25" "per-section+plt32 7 2 5 184 116 0 2 2 0" "$(at 6.12.25)"
check "6.14.3" "per-section 4 2 5 124 116 0 2 0 -1" "$(at 6.14.3)"
check "6.14.4" "per-section+plt32 7 2 5 184 116 0 2 2 0" "$(at 6.14.4)"
check "6.15" "per-section+plt32 7 2 5 184 116 0 2 2 0" "$(at 6.15)"
check "6.15.9" "per-section+plt32 7 2 5 184 116 0 2 2 0" "$(at 6.15.9)"
check "6.16" "sorted 6 1 5 156 116 12 0 2 0" "$(at 6.16)"
check "7.2.13" "sorted 6 1 5 156 116 12 0 2 0" "$(at 7.2.13)"
check "7.2.13: sort full, needed" "16 12" "$(jqr "$j" '.files[0].sort | "\(.full) \(.needed)"')"
check "7.2.13: sized sections" ".plt 84 60 .got.plt 56 40 .got 16 16" \
	"$(jqr "$j" '[.files[0].bytes.by_section[] | "\(.name) \(.reserved) \(.minimum)"] | join(" ")')"
check "7.2.13: causes sum to reserved - minimum" true \
	"$(jqr "$j" '.files[0] | (.detail.over_allocation | add) == .slots.reserved - .slots.minimum')"
check "7.2.13: reach" "5 5 1 1 1 1" "$(jqr "$j" '.files[0].detail.reach |
	"\(.call_plt) \(.plt32) \(.call) \(.pcrel_hi20) \(.short_unchecked) \(.branches_on_reach)"')"
check "7.2.13: per section slots (earliest section), minimal" "5 4 2 1" \
	"$(jqr "$j" '[.files[0].sections[] | "\(.slots.reserved) \(.slots.minimum)"] | join(" ")')"
check "7.2.13: not rejected" null "$(jqr "$j" '.files[0].rejects')"
# 6.6: no PLT32 handler before 6.7 (8fd6c5142395): minimum without PLT32.
at 6.6 >/dev/null
check "6.6: unknown type" "Unknown relocation type 59 (R_RISCV_PLT32 in .rela.text), -EINVAL" \
	"$(jqr "$j" '.files[0].rejects')"
check "6.6: minimum without PLT32" "4 124 96" \
	"$(jqr "$j" '.files[0] | "\(.slots.minimum) \(.bytes.reserved) \(.bytes.minimum)"')"
at 6.7 >/dev/null
check "6.7: not rejected" null "$(jqr "$j" '.files[0].rejects')"
"$ELFPLT" plt --json --timing=3 "$(variant plt-riscv-module "$mod" 6.12.24)" >"$j" ||
	fail "timing exited $?"
check "6.12.24: quadratic comparisons (CALL_PLT, GOT)" 22 \
	"$(jqr "$j" '.files[0].detail.quadratic_comparisons')"
check "timing: both counts measured" true \
	"$(jqr "$j" '.files[0].sort.timing | .full_ns > 0 and .partitioned_ns > 0')"
at 7.2 >/dev/null
check "7.2: quadratic comparisons (with PLT32)" 34 \
	"$(jqr "$j" '.files[0].detail.quadratic_comparisons')"

# A section missing: module_frob_arch_sections()'s order and words.
m=$(variant plt-riscv-module "$mod" 7.2.1 's/Name: \.got\.plt$/Name: .got.plx/')
"$ELFPLT" plt --json "$m" >"$j" || fail "no .got.plt exited $?"
check "no .got.plt" "module GOT.PLT section(s) missing, -ENOEXEC" "$(jqr "$j" '.files[0].rejects')"
m=$(variant plt-riscv-module "$mod" 7.2.2 's/Name: \.got$/Name: .gox/')
"$ELFPLT" plt --json "$m" >"$j" || fail "no .got exited $?"
check "no .got" "module GOT section(s) missing, -ENOEXEC" "$(jqr "$j" '.files[0].rejects')"

# ELFCLASS32: 4-byte GOT entries (struct got_entry is an unsigned long).
m=$(variant plt-riscv-module "$mod" 7.2.3 's/ELFCLASS64/ELFCLASS32/')
"$ELFPLT" plt --json "$m" >"$j" || fail "rv32 exited $?"
check "rv32: bytes" "120 6 1" "$(jqr "$j" '.files[0] | "\(.bytes.reserved) \(
	.detail.count_plt) \(.detail.count_got)"')"

# Debian's case: no sections, 6.10 on -> nothing reserved, reach, refusal.
ns=3d362e31322e3131382b6465623133
n=$(variant plt-riscv-nosections "$ns" 6.12.118+deb13)
"$ELFPLT" plt --json "$n" >"$j" || fail "nosections exited $?"
check "no sections: nothing reserved" "false 0 0 0 null" "$(jqr "$j" '.files[0] |
	"\(.rules.module_sections) \(.slots.reserved) \(.bytes.reserved) \(.detail.count_plt) \(.sort)"')"
check "no sections: reach" "2 1 1 1 4" "$(jqr "$j" '.files[0].detail.reach |
	"\(.call_plt) \(.plt32) \(.call) \(.pcrel_hi20) \(.branches_on_reach)"')"
check "no sections: GOT_HI20 refused" \
	"can not generate the GOT entry for symbol = jiffies from PC = .text+0x28 (R_RISCV_GOT_HI20 without CONFIG_MODULE_SECTIONS), -EINVAL" \
	"$(jqr "$j" '.files[0].rejects')"
# Its loader sorts nothing (sort null), so it adds nothing to what the
# totals say is sorted, over all files and in its model's entry.
check "no sections: totals sort nothing" "0 0 0 0 0 0" "$(jqr "$j" '.totals |
	"\(.sort.full) \(.sort.loader) \(.sort.needed) \(.by_model[] |
	select(.model == "riscv-module") | .sort | "\(.full) \(.loader) \(.needed)")"')"
"$ELFPLT" plt "$n" >"$T/text" || fail "nosections text exited $?"
check "no sections: says so" 1 "$(grep -c '^  nothing reserved: CONFIG_MODULE_SECTIONS off' "$T/text")"
n=$(variant plt-riscv-nosections "$ns" 6.10)
"$ELFPLT" plt --json "$n" >"$j" || fail "6.10 exited $?"
check "6.10: off" false "$(jqr "$j" '.files[0].rules.module_sections')"
n=$(variant plt-riscv-nosections "$ns" 6.9.12)
"$ELFPLT" plt --json "$n" >"$j" || fail "6.9 exited $?"
check "6.9: every kernel has the sections, the module has none" \
	"true module PLT section(s) missing, -ENOEXEC 1" "$(jqr "$j" '.files[0] |
	"\(.rules.module_sections) \(.rejects) \(.detail.reach.branches_on_reach)"')"

# Not a module (tests/fixtures/plt-riscv.yaml): no model unless forced.
"$ELFPLT" plt --json "$(fixture plt-riscv)" >"$j" || fail "plt-riscv exited $?"
check "relocatable object: no model" null "$(jqr "$j" '.files[0].model')"
done_testing
