#!/bin/sh
# Text that fits, on two of the largest real modules, xfs.ko and amdgpu.ko
# of Debian 12's arm64 6.1 tree (their tables and header lines ran 123 to
# 273 columns wide): stats, plt and load print no line wider than 100
# columns into a pipe, and --wide every line whole; stats and plt show the
# same figures both ways (load's are timings, different run to run).
# Skips (77) where fetch-modules.sh cannot reach apt.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not found (./bootstrap --deps installs it)"
. "$top_srcdir/tests/real/real-lib.sh"
dir=$(modules_dir 6.1) || exit $?

# widest FILE: the widest line of FILE in characters (UTF-8).
widest() {
	python3 -c 'import sys
print(max([len(l.rstrip("\r\n")) for l in open(sys.argv[1], encoding="utf-8", errors="replace")] + [0]))' "$1"
}

# numbers FILE: the multiset of purely numeric tokens, one a line, sorted.
numbers() {
	tr -s ' \t' '\n\n' <"$1" | grep -E '^[0-9]+(\.[0-9]+)?%?,?$' | sed 's/,$//' | sort
}

set -- "$dir/kernel/fs/xfs/xfs.ko" "$dir/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko"
for cmd in stats plt load; do
	"$ELFPLT" $cmd -q "$@" >"$T/real.txt" 2>/dev/null
	"$ELFPLT" $cmd -q --wide "$@" >"$T/real.wide" 2>/dev/null
	w=$(widest "$T/real.txt")
	ww=$(widest "$T/real.wide")
	if [ "$w" -le 100 ] && [ "$ww" -gt 100 ]; then
		echo "ok: $cmd xfs.ko amdgpu.ko: widest line $w, $ww with --wide"
	else
		fail "$cmd xfs.ko amdgpu.ko: widest line $w, $ww with --wide"
	fi
	[ "$cmd" = load ] && continue
	check "$cmd xfs.ko amdgpu.ko: fitted and --wide have the same figures" \
		"$(numbers "$T/real.wide" | md5sum)" "$(numbers "$T/real.txt" | md5sum)"
done
done_testing
