#!/bin/sh
# Generate the fuzz seed corpus from the test fixtures, for make fuzz.
#
#   tests/fuzz/seeds.sh SRCDIR OUTDIR
#
# OUTDIR/elf:   every document of every tests/fixtures/*.yaml through yaml2obj
#               (load-big.yaml aside: it is built to be big) and of
#               tests/fuzz/seeds.yaml (paths no fixture takes); objects with
#               SHF_COMPRESSED sections (a small C file built with -g by $CC,
#               its debug sections compressed by objcopy with zlib and zstd;
#               relocation and symbol tables compressed by the test generator
#               tests/fixtures/gen-compressed, in each of its layouts);
#               30 small real kernel modules when
#               tests/real/fetch-modules.sh has them cached; and every file of
#               the regression corpus tests/fuzz/regress/.
# OUTDIR/zstd, OUTDIR/xz, OUTDIR/gzip: each ELF seed compressed by the zstd,
#               xz and gzip tools, in a few of their formats' variants
#               (checksums, levels, several frames or members), plus the
#               regression corpus again.
# OUTDIR/ar:    ar archives in each of the format's variants (GNU and BSD
#               names, long names, symbol tables, thin, compressed members).
# A tool that is missing only leaves its seeds out (said on stderr).
set -eu
src=$1
out=$2
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd) # the archives are made from another directory
mkdir -p "$out/elf" "$out/zstd" "$out/xz" "$out/gzip" "$out/ar"
YAML2OBJ=${YAML2OBJ:-yaml2obj}
OBJCOPY=${OBJCOPY:-objcopy}
CC=${CC:-cc}

for y in "$src"/tests/fixtures/*.yaml "$src"/tests/fuzz/seeds.yaml; do
	base=$(basename "$y" .yaml)
	[ "$base" = load-big ] && continue
	d=1
	while "$YAML2OBJ" --docnum=$d "$y" -o "$out/elf/$base-$d.o" 2>/dev/null; do
		d=$((d + 1))
	done
done

# Linked files without section headers (the dynamic target's PT_DYNAMIC
# reader): the stats-dynamic fixtures stripped by llvm-objcopy.
if command -v llvm-objcopy >/dev/null; then
	for f in "$out"/elf/stats-dynamic-*.o; do
		llvm-objcopy --strip-sections "$f" "${f%.o}-nosec.o" 2>/dev/null || true
	done
else
	echo "seeds: no llvm-objcopy: no seeds without section headers" >&2
fi

# SHF_COMPRESSED sections (gABI's Elf64_Chdr, ELFCOMPRESS_ZLIB/ZSTD).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-seeds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/c.c" <<'CEOF'
extern int ext(int);
static int counter;
int seed_fn(int x) { counter += ext(x); return counter * 3; }
CEOF
if "$CC" -g -O1 -c -o "$tmp/c.o" "$tmp/c.c" 2>/dev/null; then
	for alg in zlib zstd; do
		"$OBJCOPY" --compress-debug-sections=$alg "$tmp/c.o" \
			"$out/elf/shf-compressed-$alg.o" 2>/dev/null ||
			echo "seeds: $OBJCOPY cannot compress with $alg" >&2
	done
else
	echo "seeds: $CC cannot build the SHF_COMPRESSED seed" >&2
fi
# A gcc-linked shared object and -no-pie executable, with and without
# section headers (PT_DYNAMIC's DT_RELA, DT_JMPREL, DT_RELR).
if "$CC" -shared -fPIC -Wl,-z,pack-relative-relocs -o "$out/elf/dyn-relr.so" "$tmp/c.c" \
	2>/dev/null && "$CC" -no-pie -o "$tmp/exe" -x c - 2>/dev/null <<'CEOF'
#include <stdio.h>
int main(int c, char **v) { printf("%d\n", c); return puts(v[0]); }
CEOF
then
	cp "$tmp/exe" "$out/elf/dyn-exe"
	for f in dyn-relr.so dyn-exe; do
		llvm-objcopy --strip-sections "$out/elf/$f" "$out/elf/$f-nosec" 2>/dev/null || true
	done
fi

# Compressed relocation and symbol tables, which no tool but the test
# generator makes (tests/fixtures/gen-compressed, built by make fuzz).
gen=${GEN_COMPRESSED:-tests/fixtures/gen-compressed}
if [ -x "$gen" ]; then
	for layout in 64lsb 64msb 32lsb; do
		"$gen" "$out/elf/gen-$layout-mixed.o" $layout zlib zstd zlib zstd
		"$gen" "$out/elf/gen-$layout-zstd.o" $layout zstd none zstd none
		"$gen" "$out/elf/gen-$layout-zlib.o" $layout none zlib none zlib
	done
else
	echo "seeds: no $gen: no compressed-table seeds" >&2
fi

if mods=$(sh "$src/tests/real/fetch-modules.sh" 2>/dev/null) && [ -d "$mods" ]; then
	# The 20 smallest, and 10 of 16-60 KiB: sections with more than 16
	# CALL26/JUMP26 to sort (the arm64 model's quicksort, not only its
	# insertion sort) while under make fuzz's -max_len.
	{
		find "$mods" -name '*.ko' -printf '%s %p\n' | sort -n | head -n 20
		find "$mods" -name '*.ko' -size +16k -size -60k -printf '%s %p\n' | sort -n |
			awk 'NR % 60 == 1' | head -n 10
	} | while read -r _ f; do cp "$f" "$out/elf/"; done
else
	echo "seeds: no real modules (tests/real/fetch-modules.sh)" >&2
fi

if [ -d "$src/tests/fuzz/regress" ]; then
	find "$src/tests/fuzz/regress" -type f ! -name '*.md' | while read -r f; do
		t=$(basename "$(dirname "$f")")
		n=$(basename "$f")
		cp "$f" "$out/elf/regress-$t-$n"
		for c in zstd xz gzip ar; do cp "$f" "$out/$c/regress-$t-$n"; done
	done
fi

for f in "$out"/elf/*; do
	case $f in */regress-*) continue ;; esac
	n=$(basename "$f")
	if command -v zstd >/dev/null; then
		zstd -q -19 -c "$f" > "$out/zstd/$n.19.zst"
		zstd -q -1 --no-check -c "$f" > "$out/zstd/$n.nocheck.zst"
		# Two frames, the second without a content size (from a pipe).
		{ zstd -q -3 -c "$f"; zstd -q -3 -c < "$f"; } > "$out/zstd/$n.2frames.zst"
	fi
	if command -v xz >/dev/null; then
		xz -q -6 -c "$f" > "$out/xz/$n.xz"
		xz -q -0 --check=sha256 -c "$f" > "$out/xz/$n.sha256.xz"
		xz -q -1 --check=none -c "$f" > "$out/xz/$n.none.xz"
		{ xz -q -c "$f"; xz -q -c "$f"; } > "$out/xz/$n.2streams.xz"
	fi
	if command -v gzip >/dev/null; then
		gzip -q -9 -c "$f" > "$out/gzip/$n.9.gz"
		gzip -q -1 -n -c "$f" > "$out/gzip/$n.1.gz"
		{ gzip -q -c "$f"; gzip -q -c "$f"; } > "$out/gzip/$n.2members.gz"
	fi
done
# ar archives (the archive target): members with short and long names
# (the "//" table), a symbol table, BSD's "#1/N" names, a thin archive,
# compressed members, and a plain and a compressed file (the target opens
# any file the way a PATH is opened).
a=$out/ar
cp "$out/elf/stats-kmod-1.o" "$tmp/m.o"
cp "$out/elf/plt-arm64-basic-1.o" "$tmp/a-member-with-a-long-name.o"
cp "$out/elf/shf-compressed-zlib.o" "$tmp/c.o" 2>/dev/null || cp "$tmp/m.o" "$tmp/c.o"
xz -q -c "$tmp/m.o" > "$tmp/m.o.xz" 2>/dev/null || cp "$tmp/m.o" "$tmp/m.o.xz"
(
	cd "$tmp"
	ar rcs "$a/gnu.a" m.o c.o
	ar rcS "$a/gnu-nosymtab.a" m.o
	ar rcs "$a/gnu-longname.a" m.o a-member-with-a-long-name.o
	ar rcs "$a/compressed-member.a" m.o.xz m.o
	ar rcsT "$a/thin.a" m.o a-member-with-a-long-name.o
	if command -v llvm-ar >/dev/null; then
		llvm-ar --format=bsd rcs "$a/bsd.a" m.o a-member-with-a-long-name.o
		llvm-ar --format=gnu rcs "$a/llvm-gnu.a" c.o a-member-with-a-long-name.o
	fi
	printf '!<arch>\n' > "$a/empty.a"
)
cp "$tmp/m.o" "$a/plain.o"
cp "$tmp/m.o.xz" "$a/plain.o.xz"

# SHT_CREL (the crel target, and the ELF targets): objects assembled by
# clang-19 with CREL: a few of elfplt's own sources (x86-64) and a small
# header-free source for four targets, ELFCLASS32 among them; the crel
# target's seeds are their CREL sections' bytes behind a class byte.
mkdir -p "$out/crel"
if command -v clang-19 >/dev/null && command -v llvm-objcopy-19 >/dev/null; then
	cat > "$tmp/crel-seed.c" <<'EOC'
extern int f(int), g(long), tab[];
static int local(int x) { return x * 3; }
int *ptrs[] = { &tab[0], &tab[100], &tab[7] };
long h(int x) { return f(x) + g(tab[x]) + local(x) + tab[x + 1000] + (long)ptrs[x]; }
EOC
	crel_obj() { # OUT CLANG-ARGS...
		o=$1
		shift
		clang-19 -c -O2 -Wa,--crel,--allow-experimental-crel "$@" -o "$out/elf/$o" \
			2>/dev/null || return 0
		cls=$(od -An -tu1 -j4 -N1 "$out/elf/$o" | tr -d ' ')
		for s in $(llvm-readelf-19 -SW "$out/elf/$o" |
			sed -n 's/.*] \(\.crel[^ ]*\) *CREL .*/\1/p'); do
			llvm-objcopy-19 --dump-section "$s=$tmp/sec" "$out/elf/$o" "$tmp/junk" \
				2>/dev/null || continue
			{ [ "$cls" = 2 ] && printf '\001' || printf '\000'; cat "$tmp/sec"; } \
				> "$out/crel/$o$s"
		done
	}
	for f in crel reloc stats; do
		crel_obj "crel-$f.o" -I. -I"$src" "$src/lib/$f.c"
	done
	for t in x86_64 i686 aarch64 riscv64 arm; do
		crel_obj "crel-seed-$t.o" --target=$t-linux-gnu -ffreestanding "$tmp/crel-seed.c"
	done
fi

for d in elf zstd xz gzip ar crel; do
	echo "seeds: $d: $(find "$out/$d" -type f | wc -l) files" >&2
done
