#!/bin/sh
# Issue 16's benchmark: how near elfplt stays to the least work that answers
# (bench/floor.c, a pread-only counter of relocation types) and how it does
# against the tools a user would pick instead, all on the same input in one
# run.  Not part of make check: it prints figures, it asserts nothing.
#
#   bench/speed.sh            (in a built tree; RUNS=5 by default)
#   PARTS="so gen" bench/speed.sh   only some parts (default "61 612 so gen")
#
# Each command runs RUNS times, the commands interleaved round by round (so
# a burst of load from other users of the machine hits all of them alike);
# each figure is the median wall time, with peak RSS (GNU time's %M, the
# largest process) where it matters.  Inputs:
#   - Debian 12's arm64 modules (tests/real/fetch-modules.sh 6.1): floor,
#     cat, readelf -rW, eu-readelf -r, llvm-readelf -r (once: ~30 s), elfplt
#     stats (text, --json) and plt --json at the default -j and -j 1, and
#     stats --json -j 1 under each --access mode;
#   - Debian 12's 6.12 backport (.ko.xz, fetch-modules.sh 6.12): xz -dc of
#     the files against elfplt stats --json;
#   - the largest shared library under /usr/lib: floor, readelf -rW, elfplt
#     stats --json with peak RSS;
#   - generated x86-64 objects with 1k, 100k, 1M and 10M relocations in one
#     .rela.text (bench/gen-relocs.c): ns per relocation of stats --json -j 1,
#     net of a run on the 1k file (process start and the per-file work).
# A tool that is not installed is skipped with a line saying so.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${ELFPLT:-$here/elfplt}
RUNS=${RUNS:-5}
PARTS=${PARTS:-61 612 so gen}
part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
CC=${CC:-cc}
[ -x "$ELFPLT" ] || { echo "bench: $ELFPLT is not built (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time not found: apt-get install time" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-speed.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$CC" -O2 -o "$T/floor" "$here/bench/floor.c" || exit 1
# shellcheck disable=SC2046
"$CC" -O2 -o "$T/json-floor" "$here/bench/json-floor.c" $(pkg-config --cflags --libs jansson) || exit 1
# shellcheck disable=SC2046
"$CC" -O2 -o "$T/gen" "$here/bench/gen-relocs.c" $(pkg-config --cflags --libs libelf) || exit 1

echo "elfplt speed bench: $(nproc) CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of $RUNS interleaved runs (wall ms); the machine may be shared: figures are noisy"

# cmd NAME COMMAND: add a command to the current set.
cmd() {
	printf '%s|%s\n' "$1" "$2" >>"$T/cmds"
}
# have TOOL NAME: true if TOOL is on PATH, else prints that NAME is skipped.
have() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "  (skipped: $2, $1 not installed)"
	return 1
}
# run_set [ROUNDS]: time the set; $T/res gets "name|median ms|peak RSS KiB".
run_set() {
	_rounds=${1:-$RUNS}
	: >"$T/samples"
	# a warm-up round, untimed: page cache, and a check that each works
	while IFS='|' read -r name c; do
		sh -c "$c" >/dev/null 2>&1 || echo "  (warning: '$name' failed)"
	done <"$T/cmds"
	r=0
	while [ $r -lt "$_rounds" ]; do
		while IFS='|' read -r name c; do
			s=$(date +%s%N)
			/usr/bin/time -f '%M' -o "$T/rss" sh -c "$c" >/dev/null 2>&1
			e=$(date +%s%N)
			echo "$name|$(((e - s) / 1000))|$(tail -n 1 "$T/rss")" >>"$T/samples"
		done <"$T/cmds"
		r=$((r + 1))
	done
	: >"$T/res"
	while IFS='|' read -r name c; do
		awk -F'|' -v n="$name" '$1 == n { print $2, $3 }' "$T/samples" | sort -n |
			awk -v n="$name" '{ t[NR] = $1; if ($2 > m) m = $2 }
				END { printf "%s|%.1f|%d\n", n, t[int((NR + 1) / 2)] / 1000, m }' \
				>>"$T/res"
	done <"$T/cmds"
	: >"$T/cmds"
}
# ms NAME: the median of NAME in $T/res; rss NAME: its peak RSS in KiB.
ms() { awk -F'|' -v n="$1" '$1 == n { print $2 }' "$T/res"; }
rss() { awk -F'|' -v n="$1" '$1 == n { print $3 }' "$T/res"; }
# show NAME [BASE...]: a line with NAME's median and its ratio to each BASE.
show() {
	_n=$1
	shift
	_line=$(printf '  %-34s %9s ms' "$_n" "$(ms "$_n")")
	for _b in "$@"; do
		[ -n "$(ms "$_b")" ] || continue
		_line="$_line$(awk -v a="$(ms "$_n")" -v b="$(ms "$_b")" -v n="$_b" \
			'BEGIN { printf "  %5.2fx %s", a / b, n }')"
	done
	echo "$_line"
}

# --- Debian 12 arm64 modules (6.1) --------------------------------------------
if part 61; then
d61=$(sh "$here/tests/real/fetch-modules.sh" 6.1) || { echo "bench: no 6.1 tree" >&2; exit 1; }
find "$d61" -name '*.ko' | LC_ALL=C sort >"$T/list61"
echo
echo "6.1 arm64 tree: $(wc -l <"$T/list61") .ko, $(du -sh "$d61" | cut -f1); $("$T/floor" <"$T/list61")"
cmd floor "'$T/floor' <'$T/list61'"
cmd cat "xargs -d '\n' cat <'$T/list61'"
cmd "readelf -rW" "xargs -d '\n' readelf -rW <'$T/list61'"
have eu-readelf "eu-readelf -r" && cmd "eu-readelf -r" "xargs -d '\n' eu-readelf -r <'$T/list61'"
for j in "" "-j1"; do
	cmd "stats${j:+ $j}" "'$ELFPLT' stats $j '$d61'"
	cmd "stats --json${j:+ $j}" "'$ELFPLT' stats --json $j '$d61'"
	cmd "plt${j:+ $j}" "'$ELFPLT' plt $j '$d61'"
	cmd "plt --json${j:+ $j}" "'$ELFPLT' plt --json $j '$d61'"
done
for a in mmap read hybrid; do
	cmd "stats --json -j1 --access=$a" "'$ELFPLT' --access=$a stats --json -j1 '$d61'"
done
run_set
for n in floor cat "readelf -rW" "eu-readelf -r"; do
	[ -n "$(ms "$n")" ] && show "$n" floor
done
for n in "stats" "stats -j1" "stats --json" "stats --json -j1" "plt" "plt -j1" "plt --json" \
	"plt --json -j1"; do
	show "$n" floor "readelf -rW"
done
show "stats --json" "stats"
show "stats --json -j1" "stats -j1"
show "plt --json" "plt"
show "plt --json -j1" "plt -j1"
show "stats --json" "stats --json -j1"
show "plt --json" "plt --json -j1"
# What jansson alone costs for the same documents (bench/json-floor.c):
# the least a jansson-made report can take beyond the text one's work.
"$ELFPLT" stats --json -j1 -o "$T/s61.json" "$d61" 2>/dev/null
"$ELFPLT" plt --json -j1 -o "$T/p61.json" "$d61" 2>/dev/null
for k in stats plt; do
	f=$T/s61.json
	[ $k = plt ] && f=$T/p61.json
	"$T/json-floor" "$f" | awk -v k=$k -v t="$(ms "$k -j1")" -v j="$(ms "$k --json -j1")" '{
		gsub(/[,:]/, ""); print "  jansson alone, " k " document: " $0
		printf "    dump alone %.2fx %s -j1 text; text + dump %.2fx, text + build + dump %.2fx (goal <= 1.2x; %s --json -j1 is %.2fx)\n",
			$9 / t, k, (t + $9) / t, (t + $12) / t, k, j / t }'
done
echo "  accessor alone (stats --json -j1):"
for a in mmap read hybrid; do
	show "stats --json -j1 --access=$a" "stats --json -j1 --access=mmap" floor
done
if have llvm-readelf "llvm-readelf -r"; then
	cmd "llvm-readelf -r" "xargs -d '\n' llvm-readelf -r <'$T/list61'"
	cmd floor "'$T/floor' <'$T/list61'"
	cmd "stats --json" "'$ELFPLT' stats --json '$d61'"
	run_set 1
	show "llvm-readelf -r" floor "stats --json"
	echo "  (llvm-readelf once: one sample, not a median)"
fi
echo "  goals: stats --json <= 2.0x floor, readelf -rW >= 8x stats --json; plt --json <= 2.5x floor"
fi

# --- Debian 12 6.12 backport, .ko.xz ------------------------------------------
if part 612 && d612=$(sh "$here/tests/real/fetch-modules.sh" 6.12) && have xz "xz -dc"; then
	find "$d612" -name '*.ko.xz' | LC_ALL=C sort >"$T/list612"
	echo
	echo "6.12 arm64 tree: $(wc -l <"$T/list612") .ko.xz, $(du -sh "$d612" | cut -f1)"
	cmd "xz -dc" "xargs -d '\n' xz -dc <'$T/list612'"
	cmd "stats --json (xz)" "'$ELFPLT' stats --json '$d612'"
	cmd "stats --json -j1 (xz)" "'$ELFPLT' stats --json -j1 '$d612'"
	cmd "plt --json (xz)" "'$ELFPLT' plt --json '$d612'"
	run_set
	show "xz -dc" "xz -dc"
	show "stats --json (xz)" "xz -dc" "stats --json -j1 (xz)"
	show "stats --json -j1 (xz)" "xz -dc"
	show "plt --json (xz)" "xz -dc"
	echo "  goal: stats --json (default -j) <= 0.6x xz -dc"
fi

# --- the largest shared library -----------------------------------------------
so=$(find /usr/lib /usr/local/lib -xdev -type f -name '*.so*' -printf '%s %p\n' 2>/dev/null |
	sort -n | tail -n 1 | cut -d' ' -f2-)
if part so && [ -n "$so" ] && readelf -h "$so" >/dev/null 2>&1; then
	echo
	echo "largest shared library: $so, $(du -h "$so" | cut -f1); $(echo "$so" | "$T/floor")"
	echo "$so" >"$T/listso"
	cmd "floor (so)" "'$T/floor' <'$T/listso'"
	cmd "readelf -rW (so)" "readelf -rW '$so'"
	for a in hybrid read mmap; do
		cmd "stats --json --access=$a (so)" "'$ELFPLT' --access=$a stats --json '$so'"
	done
	cmd "plt --json (so)" "'$ELFPLT' plt --json '$so'"
	run_set
	for n in "floor (so)" "readelf -rW (so)" "stats --json --access=hybrid (so)" \
		"stats --json --access=read (so)" "stats --json --access=mmap (so)" "plt --json (so)"; do
		echo "$(show "$n" "floor (so)")  peak RSS $(rss "$n") KiB"
	done
	echo "  goal: peak RSS <= 20 MiB (20480 KiB)"
fi

# --- one file, 1k to 10M relocations ------------------------------------------
part gen || exit 0
echo
echo "one file, N relocations (stats --json -j1; ns/reloc net of the 1k file's run)"
for n in 1000 100000 1000000 10000000; do
	"$T/gen" $n "$T/g$n.o" || exit 1
	cmd "g$n" "'$ELFPLT' stats --json -j1 '$T/g$n.o'"
	cmd "floor g$n" "echo '$T/g$n.o' | '$T/floor'"
done
run_set
base=$(ms g1000)
for n in 1000 100000 1000000 10000000; do
	awk -v n=$n -v t="$(ms g$n)" -v b="$base" -v f="$(ms "floor g$n")" -v r="$(rss g$n)" \
		'BEGIN { printf "  %9d relocations: %9.1f ms, %7.1f ns/reloc (net %7.1f), floor %7.1f ms, peak RSS %d KiB\n",
			n, t, t * 1e6 / n, (n > 1000 ? (t - b) * 1e6 / (n - 1000) : 0), f, r }'
done
awk -v a="$(ms g10000000)" -v b="$(ms g100000)" -v z="$base" 'BEGIN {
	printf "  10M vs 100k, ns/reloc net: %.2fx (goal <= 1.3x)\n",
		((a - z) / (10000000 - 1000)) / ((b - z) / (100000 - 1000)) }'
