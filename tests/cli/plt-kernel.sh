#!/bin/sh
# elfplt plt --kernel: the arm64 module loader by kernel version.  The
# fixtures differ only in .modinfo's vermagic; every expected number is
# derived by hand in the comments of tests/fixtures/plt-arm64-v612.yaml from
# Linux arch/arm64/kernel/module-plts.c of v6.1 and v6.12 (and asm/ftrace.h
# for NR_FTRACE_PLTS); none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

v612=$(fixture plt-arm64-v612)
v61=$(fixture plt-arm64-v61)
nounload=$(fixture plt-arm64-v612-nounload)
basic=$(fixture plt-arm64-basic)
j=$T/out.json

# sec NAME KEY: one key of the section record named NAME in $j.
sec() {
	jqr "$j" ".files[0].sections[] | select(.name == \"$1\") | .$2"
}
# groups: "core slots, core bytes, init slots, init bytes" of $j.
groups() {
	jqp "$j" '.files[0] | "\(plt("core").reserved) \(sized(".plt").reserved) \(
		plt("init").reserved) \(sized(".init.plt").reserved)"'
}
# tramps: the bytes of the two trampoline sections; null when not sized.
tramps() {
	jqp "$j" '.files[0] | "\(sized(".text.ftrace_trampoline").reserved) \(
		sized(".init.text.ftrace_trampoline").reserved)"'
}

# 6.12 from vermagic: KASLR no longer asked, NR_FTRACE_PLTS 1, both
# trampolines 12 bytes; core 5 slots/72 bytes, init 2/36.
"$ELFPLT" plt --json "$v612" >"$j" || fail "v612 exited $?"
check "6.12: kernel" "6.12.117 vermagic" "$(jqp "$j" '.files[0] | kernel | "\(.version) \(.from)"')"
check "6.12: vermagic string" "6.12.117+deb12-arm64 SMP mod_unload modversions aarch64" \
	"$(jqp "$j" '.files[0] | kernel | .vermagic')"
check "6.12: options.kernel" auto "$(jqr "$j" '.files[0].options.kernel')"
check "6.12: kaslr_applies" false "$(jqp "$j" '.files[0] | kernel | .kaslr_applies')"
check "6.12: .rela.text slots (2 + 1 spare)" 3 "$(sec .rela.text slots.reserved)"
check "6.12: .rela.exit.text group (mod_unload)" core "$(sec .rela.exit.text group)"
check "6.12: groups" "5 72 2 36" "$(groups)"
check "6.12: trampolines 1 x 12 each" "12 12" "$(tramps)"
check "6.12: sorted" "9 5" "$(jqr "$j" '.files[0].sort | "\(.full) \(.loader)"')"
"$ELFPLT" plt "$v612" >"$T/v612.txt" || fail "v612 text exited $?"
grep -q "; kernel 6.12.117 (vermagic), kaslr on (no effect from 6.7)" "$T/v612.txt" ||
	fail "6.12 model line: $(head -1 "$T/v612.txt")"
grep -q "^  .text.ftrace_trampoline: 12 bytes" "$T/v612.txt" || fail "6.12 text trampoline"
grep -q "^  .init.text.ftrace_trampoline: 12 bytes" "$T/v612.txt" || fail "6.12 text init trampoline"

# --kaslr=off changes nothing from v6.7.
"$ELFPLT" plt --json --kaslr=off "$v612" >"$j" || fail "v612 kaslr off exited $?"
check "6.12 kaslr off: option recorded" false "$(jqr "$j" '.files[0].options.kaslr')"
check "6.12 kaslr off: groups unchanged" "5 72 2 36" "$(groups)"
check "6.12 kaslr off: sorted unchanged" "9 5" \
	"$(jqr "$j" '.files[0].sort | "\(.full) \(.loader)"')"

# 6.1 from vermagic: same slots with KASLR on, trampoline 2 x 12 = 24, the
# init trampoline unknown to the loader (null).
"$ELFPLT" plt --json "$v61" >"$j" || fail "v61 exited $?"
check "6.1: kernel" "6.1 vermagic" "$(jqp "$j" '.files[0] | kernel | "\(.version) \(.from)"')"
check "6.1: kaslr_applies" true "$(jqp "$j" '.files[0] | kernel | .kaslr_applies')"
check "6.1: groups" "5 72 2 36" "$(groups)"
check "6.1: trampolines" "24 null" "$(tramps)"
v61_json=$(jqr "$j" '.files[0] | del(.path, .rules.kernel, .options) | tostring')

# --kernel=6.1 on the 6.12 module gives the 6.1 figures, named as the option.
"$ELFPLT" plt --json --kernel=6.1 "$v612" >"$j" || fail "v612 --kernel=6.1 exited $?"
check "--kernel=6.1: kernel" "6.1 option" "$(jqp "$j" '.files[0] | kernel | "\(.version) \(.from)"')"
check "--kernel=6.1: options.kernel" 6.1 "$(jqr "$j" '.files[0].options.kernel')"
check "--kernel=6.1: groups" "5 72 2 36" "$(groups)"
check "--kernel=6.1: trampolines" "24 null" "$(tramps)"
check "--kernel=6.1: the whole record as the 6.1 module's" "$v61_json" \
	"$(jqr "$j" '.files[0] | del(.path, .rules.kernel, .options) | tostring')"
"$ELFPLT" plt --kernel=6.1 "$v612" >"$T/k61.txt" || fail "--kernel=6.1 text exited $?"
grep -q "; kernel 6.1 (--kernel), kaslr on, erratum-843419 on" "$T/k61.txt" ||
	fail "--kernel=6.1 model line: $(head -1 "$T/k61.txt")"

# On 6.1 --kaslr=off still matters: no branch slots, no sort.
"$ELFPLT" plt --json --kernel=6.1 --kaslr=off "$v612" >"$j" || fail "6.1 kaslr off exited $?"
check "--kernel=6.1 kaslr off: groups" "0 12 0 12" "$(groups)"
check "--kernel=6.1 kaslr off: sorted" "9 0" \
	"$(jqr "$j" '.files[0].sort | "\(.full) \(.loader)"')"
"$ELFPLT" plt --json --kaslr=off "$v61" >"$j" || fail "v61 kaslr off exited $?"
check "6.1 vermagic kaslr off: groups" "0 12 0 12" "$(groups)"

# No mod_unload: from v6.6 .exit.text fills the init PLT; 6.1 keeps it core.
"$ELFPLT" plt --json "$nounload" >"$j" || fail "nounload exited $?"
check "no mod_unload: flags" "false true" \
	"$(jqp "$j" '.files[0] | kernel | "\(.mod_unload) \(.exit_in_init)"')"
check "no mod_unload: .rela.exit.text group" init "$(sec .rela.exit.text group)"
check "no mod_unload: groups" "3 48 4 60" "$(groups)"
"$ELFPLT" plt --json --kernel=6.1 "$nounload" >"$j" || fail "nounload 6.1 exited $?"
check "no mod_unload, 6.1: groups" "5 72 2 36" "$(groups)"

# A module without vermagic: v6.1 by default, and the report says so.
"$ELFPLT" plt --json "$basic" >"$j" || fail "basic exited $?"
check "no vermagic: kernel" "6.1 default null" \
	"$(jqp "$j" '.files[0] | kernel | "\(.version) \(.from) \(.vermagic)"')"
"$ELFPLT" plt "$basic" >"$T/basic.txt" || fail "basic text exited $?"
grep -q "; kernel 6.1 (default: no vermagic), kaslr on," "$T/basic.txt" ||
	fail "default model line: $(head -1 "$T/basic.txt")"

# Usage errors: below the floor, not a version.
for bad in 5.4 6 six 6.x 300.1 6.1foo 6.1.2.3 6.1. v 6.1.65536; do
	"$ELFPLT" plt --kernel="$bad" "$v612" >/dev/null 2>"$T/err"
	check "--kernel=$bad exit" 2 "$?"
done
grep -q "from 5.8" "$T/err" || fail "usage message: $(cat "$T/err")"
"$ELFPLT" plt --json --kernel=v6.12.3 "$v61" >"$j" || fail "--kernel=v6.12.3 exited $?"
check "--kernel=v6.12.3" "6.12.3 option 12" \
	"$(jqp "$j" '.files[0] | "\(kernel.version) \(kernel.from) \(
		sized(".text.ftrace_trampoline").reserved)"')"

# Totals over the 6.12 and 6.1 modules: trampolines 12 + 12 (6.12) + 24
# (6.1) = 48 bytes; both versions from vermagic; KASLR ignored by one.
"$ELFPLT" plt --json "$v612" "$v61" >"$j" || fail "two modules exited $?"
check "totals: trampoline bytes" 48 \
	"$(jqr "$j" '[.totals.bytes.by_kind[] | select(.kind == "trampoline") | .reserved] | add')"
check "totals: trampoline slots 1 + 1 + 2" 4 \
	"$(jqr "$j" '[.totals.slots.by_kind[] | select(.kind == "trampoline") | .reserved] | add')"
check "totals: kernels" "6.1 6.12.117 2 0 0 1" \
	"$(jqr "$j" '.totals | "\(.kernels.oldest) \(.kernels.newest) \(.kernels.from.vermagic) \(
		.kernels.from.option) \(.kernels.from.default) \(.by_model[0].detail.kaslr_ignored)"')"
"$ELFPLT" plt "$v612" "$v61" "$basic" >"$T/three.txt" || fail "three modules exited $?"
grep -q "^  kernels: 6.1 to 6.12.117 (2 from vermagic, 1 from the default (no vermagic));" \
	"$T/three.txt" || fail "totals kernels line: $(grep kernels "$T/three.txt")"

# The version table's edges (man page KERNEL VERSIONS, from the commits):
# KASLR checks until 6.5.12 and 6.6.2, gone in 6.5.13, 6.6.3 and 6.7
# (d35686444fc8); NR_FTRACE_PLTS 2 x 12 = 24 bytes to 6.1, 1 x 12 from 6.2;
# .init.text.ftrace_trampoline sized from v6.17 and stable 6.16.6, 6.12.46,
# 6.6.105 (a7ed7b9d0ebb, never 6.1.y); .exit in init (no mod_unload) from
# v6.6 and stable 6.5.1, 6.4.14, 6.1.51, 5.15.130, 5.10.194 (f928f8b1a249).
# Printed: kaslr_applies, trampoline, init trampoline, .rela.exit.text group
# of the no-mod_unload fixture.
#
# Changed by the corrected rules (issue 11): the init trampoline was
# modelled from 6.5, but a7ed7b9d0ebb is in none of 6.5.y, 6.6.0..6.6.104 or
# 6.7, so 6.5, 6.5.12, 6.5.13, 6.6, 6.6.2, 6.6.3 and 6.7 now give null for
# it; and the .exit split was modelled from 6.6 only, but 6.1.51+ and
# 6.5.1+ have it (stable backports of f928f8b1a249), so 6.1.160, 6.5.12 and
# 6.5.13 now put .rela.exit.text in init.  6.5 (6.5.0) predates 6.5.1 and
# keeps it core.
edge() {
	"$ELFPLT" plt --json --kernel="$1" "$nounload" >"$j" || fail "--kernel=$1 exited $?"
	jqp "$j" '.files[0] | "\(kernel.kaslr_applies) \(sized(".text.ftrace_trampoline").reserved) \(
		sized(".init.text.ftrace_trampoline").reserved) \(.sections[] |
		select(.name == ".rela.exit.text") | .group)"'
}
check "5.8" "true 24 null core" "$(edge 5.8)"
check "6.1.160" "true 24 null init" "$(edge 6.1.160)"
check "6.2" "true 12 null core" "$(edge 6.2)"
check "6.5" "true 12 null core" "$(edge 6.5)"
check "6.5.12" "true 12 null init" "$(edge 6.5.12)"
check "6.5.13" "false 12 null init" "$(edge 6.5.13)"
check "6.6" "true 12 null init" "$(edge 6.6)"
check "6.6.2" "true 12 null init" "$(edge 6.6.2)"
check "6.6.3" "false 12 null init" "$(edge 6.6.3)"
check "6.7" "false 12 null init" "$(edge 6.7)"
# The new edges of the backports.
check "5.10.193" "true 24 null core" "$(edge 5.10.193)"
check "5.10.194" "true 24 null init" "$(edge 5.10.194)"
check "5.15.129" "true 24 null core" "$(edge 5.15.129)"
check "5.15.130" "true 24 null init" "$(edge 5.15.130)"
check "6.4.13" "true 12 null core" "$(edge 6.4.13)"
check "6.4.14" "true 12 null init" "$(edge 6.4.14)"
check "6.5.1" "true 12 null init" "$(edge 6.5.1)"
check "6.6.104" "false 12 null init" "$(edge 6.6.104)"
check "6.6.105" "false 12 12 init" "$(edge 6.6.105)"
check "6.12.45" "false 12 null init" "$(edge 6.12.45)"
check "6.12.46" "false 12 12 init" "$(edge 6.12.46)"
check "6.16.5" "false 12 null init" "$(edge 6.16.5)"
check "6.16.6" "false 12 12 init" "$(edge 6.16.6)"
check "6.17" "false 12 12 init" "$(edge 6.17)"
check "7.2" "false 12 12 init" "$(edge 7.2)"

# A vermagic that is not UTF-8 (the space before "SMP", 0x20, made 0xff):
# the kernel object is still in the JSON, with the byte shown as "?" as in
# every other string (lib/error.h ep_text_clean()), and still read: 6.12.
sed 's/2d61726d363420534d50/2d61726d3634ff534d50/' \
	"$top_srcdir/tests/fixtures/plt-arm64-v612.yaml" >"$T/ff.yaml"
"$YAML2OBJ" "$T/ff.yaml" -o "$T/ff.ko" || fail "yaml2obj ff.yaml"
rc=0
"$ELFPLT" plt --json "$T/ff.ko" >"$T/ff.json" 2>"$T/ff.err" || rc=$?
check "non-UTF-8 vermagic: exit status" 0 "$rc"
check "non-UTF-8 vermagic: kernel.vermagic" \
	"6.12.117+deb12-arm64?SMP mod_unload modversions aarch64" \
	"$(jqp "$T/ff.json" '.files[0] | kernel.vermagic')"
check "non-UTF-8 vermagic: kernel.version" 6.12.117 "$(jqp "$T/ff.json" '.files[0] | kernel.version')"

# Stable sublevels pass 255 (4.9.337, 5.4.290): shown and compared as given,
# up to 65535.  --kernel=6.1.256 is 6.1.256, past the 6.1.51 backport of
# module_init_layout_section(), so the no-mod_unload fixture's .exit.text
# fills the init PLT as at 6.1.51.
"$ELFPLT" plt --json --kernel=6.1.256 "$nounload" >"$j" || fail "--kernel=6.1.256 exited $?"
check "--kernel=6.1.256: options and kernel" "6.1.256 6.1.256" \
	"$(jqp "$j" '.files[0] | "\(.options.kernel) \(kernel.version)"')"
check "--kernel=6.1.256: .exit.text in init" init "$(sec .rela.exit.text group)"
# A vermagic "7.2.9999+deb12-arm64 ..." (the v612 fixture's "6.12.117"
# rewritten): the 7.2 series, checked, read with its sublevel.
sed 's/362e31322e313137/372e322e39393939/' \
	"$top_srcdir/tests/fixtures/plt-arm64-v612.yaml" >"$T/big.yaml"
"$YAML2OBJ" "$T/big.yaml" -o "$T/big.ko" || fail "yaml2obj big.yaml"
"$ELFPLT" plt --json "$T/big.ko" >"$j" || fail "7.2.9999 exited $?"
check "vermagic 7.2.9999: version, beyond_checked" "7.2.9999 false" \
	"$(jqp "$j" '.files[0] | "\(kernel.version) \(kernel.beyond_checked)"')"

# A vermagic longer than the 255 bytes shown, with "mod_unload" past them:
# the no-mod_unload fixture's vermagic with 300 spaces and " mod_unload"
# added.  The loader has CONFIG_MODULE_UNLOAD, so .exit.text stays core and
# the groups are the 6.12 fixture's, 5 72 2 36, not the nounload 3 48 4 60.
pad=$(printf '%0600d' 0 | sed 's/00/20/g')
sed "s/6161726368363400\$/61617263683634${pad}206d6f645f756e6c6f616400/" \
	"$top_srcdir/tests/fixtures/plt-arm64-v612-nounload.yaml" >"$T/long.yaml"
"$YAML2OBJ" "$T/long.yaml" -o "$T/long.ko" || fail "yaml2obj long.yaml"
"$ELFPLT" plt --json "$T/long.ko" >"$j" || fail "long vermagic exited $?"
check "long vermagic: mod_unload found past 255 bytes" true "$(jqp "$j" '.files[0] | kernel.mod_unload')"
check "long vermagic: groups" "5 72 2 36" "$(groups)"
check "long vermagic: shown cut to 255 bytes" 255 "$(jqp "$j" '.files[0] | kernel.vermagic | length')"
done_testing
