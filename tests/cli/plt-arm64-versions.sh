#!/bin/sh
# elfplt plt: the arm64 module loader at each version boundary of its rules,
# with the version read from the module's own vermagic= (the fixture's
# .modinfo, rewritten per version).  Every expected value is derived by hand
# in tests/fixtures/plt-arm64-noinittramp.yaml from the kernel source of the
# versions named there; none is taken from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

j=$T/out.json
# hex of "=6.1.50", the fixture's vermagic version, to replace.
orig=3d362e312e3530

# module VERMAGIC_VERSION: the fixture with vermagic "VERSION SMP preempt
# aarch64"; prints its path.
module() {
	hex=$(printf '=%s' "$1" | od -An -tx1 | tr -d ' \n')
	sed "s/$orig/$hex/" "$top_srcdir/tests/fixtures/plt-arm64-noinittramp.yaml" >"$T/$1.yaml"
	"$YAML2OBJ" "$T/$1.yaml" -o "$T/$1.ko" || fail "yaml2obj $1"
	echo "$T/$1.ko"
}

# at VERSION [OPTION]: "version from core init trampoline-bytes rejected" of
# the fixture with vermagic VERSION.
at() {
	m=$(module "$1")
	shift
	"$ELFPLT" plt --json "$@" "$m" >"$j" || fail "plt $m exited $?"
	jqp "$j" '.files[0] | "\(kernel.version) \(kernel.from) \(plt("core").reserved) \(
		plt("init").reserved) \(sized(".text.ftrace_trampoline").reserved) \(.rejects != null)"'
}

# .exit split (f928f8b1a249 in 6.1.51): core 5 init 2 before, 3 and 4 from.
check "6.1.50" "6.1.50 vermagic 5 2 24 false" "$(at 6.1.50)"
check "6.1.51" "6.1.51 vermagic 3 4 24 false" "$(at 6.1.51)"
# .init.text.ftrace_trampoline required (a7ed7b9d0ebb): the fixture has
# none, so from 6.6.105, 6.12.46, 6.16.6, 6.17 on it is rejected.
check "6.6.104" "6.6.104 vermagic 3 4 12 false" "$(at 6.6.104)"
check "6.6.105" "6.6.105 vermagic 3 4 12 true" "$(at 6.6.105)"
check "6.12.45" "6.12.45 vermagic 3 4 12 false" "$(at 6.12.45)"
check "6.12.46" "6.12.46 vermagic 3 4 12 true" "$(at 6.12.46)"
check "6.16.5" "6.16.5 vermagic 3 4 12 false" "$(at 6.16.5)"
check "6.16.6" "6.16.6 vermagic 3 4 12 true" "$(at 6.16.6)"
check "6.17" "6.17 vermagic 3 4 12 true" "$(at 6.17)"
check "7.2.13" "7.2.13 vermagic 3 4 12 true" "$(at 7.2.13)"
at 6.12.46 >/dev/null
check "6.12.46: rejects, in module_init_ftrace_plt()'s terms" \
	"module_init_ftrace_plt(): -ENOEXEC, no .init.text.ftrace_trampoline (CONFIG_DYNAMIC_FTRACE)" \
	"$(jqr "$j" '.files[0].rejects')"
check "6.12.46: init_ftrace_trampoline rule" true \
	"$(jqp "$j" '.files[0] | kernel.init_ftrace_trampoline')"
check "6.12.46: sublevel_known" true "$(jqp "$j" '.files[0] | kernel.sublevel_known')"

# Every version: with CONFIG_DYNAMIC_FTRACE no .text.ftrace_trampoline is
# -ENOEXEC too (f1a54ae9af0d, v5.5).  plt-arm64-adrp.yaml has none.
"$ELFPLT" plt --json "$(fixture plt-arm64-adrp)" >"$j" || fail "adrp exited $?"
check "no .text.ftrace_trampoline: rejects" \
	"module_init_ftrace_plt(): -ENOEXEC, no .text.ftrace_trampoline (CONFIG_DYNAMIC_FTRACE)" \
	"$(jqr "$j" '.files[0].rejects')"

# Debian's ABI name hides the sublevel: "6.1.0-57-arm64" reads as 6.1.0,
# before 6.1.51: .exit.text core (5 2); the header line and the JSON say so.
check "6.1.0-57-arm64" "6.1 vermagic 5 2 24 false" "$(at 6.1.0-57-arm64)"
check "6.1.0-57-arm64: sublevel_known" false "$(jqp "$j" '.files[0] | kernel.sublevel_known')"
# --wide: the header line in one line, as a long $TMPDIR would fold it.
"$ELFPLT" plt --wide "$T/6.1.0-57-arm64.ko" >"$T/deb.txt" || fail "text exited $?"
grep -q "; kernel 6.1 (vermagic 6.1.0-57: sublevel unknown, read as 6.1.0), no mod_unload," \
	"$T/deb.txt" || fail "Debian 6.1 header line: $(head -n 1 "$T/deb.txt")"
# --kernel=6.1.51 chooses the other reading: 3 4, and the sublevel is known.
check "6.1.0-57-arm64 --kernel=6.1.51" "6.1.51 option 3 4 24 false" \
	"$(at 6.1.0-57-arm64 --kernel=6.1.51)"
check "--kernel=6.1.51: sublevel_known" true "$(jqp "$j" '.files[0] | kernel.sublevel_known')"
# A version without a sublevel at all is not known either.
at 6.12 >/dev/null
check "6.12 (no sublevel): sublevel_known" false "$(jqp "$j" '.files[0] | kernel.sublevel_known')"

# Past 7.2, the newest series checked: the 7.2 rules (3 4 12, rejected), and
# the report says so in the header line and the JSON.
check "7.3.1" "7.3.1 vermagic 3 4 12 true" "$(at 7.3.1)"
check "7.3.1: checked_through, beyond_checked" "7.2 true" \
	"$(jqr "$j" '.files[0].rules | "\(.checked_through) \(.beyond_checked)"')"
"$ELFPLT" plt --wide "$T/7.3.1.ko" >"$T/beyond.txt" || fail "7.3.1 text exited $?"
grep -q "; kernel 7.3.1 (vermagic) modelled with the rules of 7.2, the newest the model was checked against" \
	"$T/beyond.txt" || fail "7.3.1 header line: $(head -n 1 "$T/beyond.txt")"
"$ELFPLT" plt --json "$T/7.3.1.ko" "$T/7.2.13.ko" >"$j" || fail "two exited $?"
check "totals: beyond_checked 1 of 2" 1 "$(jqr "$j" '.totals.kernels.beyond_checked')"
# 7.2.13 itself is within the checked series.
"$ELFPLT" plt --json "$T/7.2.13.ko" >"$j" || fail "7.2.13 exited $?"
check "7.2.13: beyond_checked" false "$(jqr "$j" '.files[0].rules.beyond_checked')"
done_testing
