#!/bin/sh
# Fetch one of Debian 12's arm64 kernel image packages and extract its modules.
#
#   tests/real/fetch-modules.sh [SERIES [FORM]]
#
# prints the directory that holds the modules on stdout.  SERIES picks the
# package, the newest ABI of the plain arm64 flavour:
#   6.1    linux-image-6.1.0-N-arm64-unsigned (the default): ~3,700 plain .ko
#   6.12   linux-image-6.12.N+deb12-arm64-unsigned (bookworm-security/updates):
#          ~4,350 modules shipped as .ko.xz
# FORM picks what the directory holds:
#   (none) the package's own lib/modules/<version>, as extracted
#   xz-d   a copy of every .ko.xz of the tree decompressed by xz -d (the
#          independent tool), same relative paths, ".xz" dropped
#   zstd   300 plain .ko of the tree (every Nth in sorted path order, so the
#          same ones each time) recompressed by the zstd tool, same relative
#          paths plus ".zst"; the odd-numbered ones with --no-content-size, so
#          both zstd frame kinds (recorded size, and none) are in the copy
#
# The package is fetched with apt's own tools, the architecture overridden to
# arm64 and a private package list, so the host's apt state is not touched.
# Everything is cached outside the source tree, in $ELFPLT_CACHE (default
# /var/cache/elfplt when writable, else ~/.cache/elfplt), and reused; a copy
# is made once, in a temporary directory renamed into place when complete.
# Exit status 77 (automake's "skipped") with the reason on stderr when apt
# cannot reach the archive (or xz, zstd are missing for a copy); 1 on any
# other failure; 2 for a SERIES or FORM not listed above.
set -eu

series=${1:-6.1}
form=${2:-}
case $series in
6.1) pattern='^linux-image-6\.1\.0-[0-9]+-arm64-unsigned$' ;;
6.12) pattern='^linux-image-6\.12\.[0-9]+\+deb12-arm64-unsigned$' ;;
*) echo "fetch-modules: unknown series '$series' (6.1, 6.12)" >&2; exit 2 ;;
esac
case $form in
"" | xz-d | zstd) ;;
*) echo "fetch-modules: unknown form '$form' (xz-d, zstd)" >&2; exit 2 ;;
esac

cache=${ELFPLT_CACHE:-}
if [ -z "$cache" ]; then
	if mkdir -p /var/cache/elfplt 2>/dev/null && [ -w /var/cache/elfplt ]; then
		cache=/var/cache/elfplt
	else
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/elfplt
	fi
fi
mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" "$cache/deb" \
	"$cache/modules" "$cache/copies"

# make check runs several tests at once, each calling this script: one at a
# time fetches and extracts, the others then find the cache complete.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/.lock"
	flock 9
fi

skip() {
	echo "fetch-modules: SKIP: $*" >&2
	exit 77
}

for tool in apt-get apt-cache dpkg-deb; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (not a Debian system)"
done

# Our own sources list, not the host's: a minimal Debian 12 (debootstrap,
# a cloud image) lists only "bookworm main", where the 6.12 kernels are not;
# they come through bookworm-security and the point releases' updates.
# ELFPLT_DEBIAN_MIRROR names another mirror of deb.debian.org/debian.
mirror=${ELFPLT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || skip "$keyring not found (apt-get install debian-archive-keyring)"
{
	echo "deb [signed-by=$keyring] $mirror bookworm main"
	echo "deb [signed-by=$keyring] $mirror bookworm-updates main"
	echo "deb [signed-by=$keyring] ${mirror%/debian}/debian-security bookworm-security main"
} >"$cache/apt/sources.list.new"
if ! cmp -s "$cache/apt/sources.list.new" "$cache/apt/sources.list"; then
	mv "$cache/apt/sources.list.new" "$cache/apt/sources.list"
	rm -f "$cache/apt/lists/.updated" # other sources: update the lists now
else
	rm -f "$cache/apt/sources.list.new"
fi
mkdir -p "$cache/apt/sources.list.d"

APT="-oAPT::Architecture=arm64 -oAPT::Architectures=arm64 \
-oDir::Etc::SourceList=$cache/apt/sources.list \
-oDir::Etc::SourceParts=$cache/apt/sources.list.d \
-oDir::State::Lists=$cache/apt/lists -oDir::Cache=$cache/apt/cache \
-oDir::State::Status=/dev/null -oDebug::NoLocking=1 -oAcquire::Retries=2"

# A fresh package list at most a day old; a stale one is still used when the
# archive cannot be reached, so a cached tree keeps working offline.
update_lists() {
	stamp=$cache/apt/lists/.updated
	if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
		# shellcheck disable=SC2086
		# apt-get update can exit 0 having fetched nothing (an unreachable proxy):
		# only lists that hold packages make the stamp.
		if apt-get $APT -qq update >"$cache/apt/update.log" 2>&1 &&
			[ -n "$(find "$cache/apt/lists" -name '*_Packages*' | head -n 1)" ]; then
			touch "$stamp"
		elif [ ! -f "$stamp" ]; then
			skip "apt-get update for arm64 failed: $(tail -n 1 "$cache/apt/update.log")"
		fi
	fi
}

# newest PATTERN: the last by version of the arm64 packages whose name matches.
newest() {
	# shellcheck disable=SC2086
	apt-cache $APT search --names-only "$1" 2>/dev/null | awk '{print $1}' | sort -V |
		tail -n 1
}

# extract PKG DEST: the package's files under DEST, downloaded once.
extract() {
	[ -f "$2/.complete" ] && return 0
	deb=$(ls "$cache/deb/${1}_"*_arm64.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		# shellcheck disable=SC2086
		(cd "$cache/deb" && apt-get $APT -qq download "$1" >"$cache/apt/download.log" 2>&1) ||
			skip "apt-get download $1 failed: $(tail -n 1 "$cache/apt/download.log")"
		deb=$(ls "$cache/deb/${1}_"*_arm64.deb | tail -n 1)
	fi
	rm -rf "$2.tmp"
	mkdir -p "$2.tmp"
	dpkg-deb -x "$deb" "$2.tmp"
	rm -rf "$2"
	mv "$2.tmp" "$2"
	touch "$2/.complete"
}

# copy_xz_d SRC DEST: every SRC/**.ko.xz, decompressed by xz -d, into DEST.
copy_xz_d() {
	(cd "$1" && find . -name '*.ko.xz' -type f -print0) >"$2.tmp/list"
	[ -s "$2.tmp/list" ] || { echo "fetch-modules: no .ko.xz in $1" >&2; exit 1; }
	tar -C "$1" --null -T "$2.tmp/list" -cf - | tar -C "$2.tmp" -xf -
	rm "$2.tmp/list"
	# xz -d replaces each copy with its decompressed self, FILE.ko.xz -> FILE.ko.
	(cd "$2.tmp" && find . -name '*.ko.xz' -type f -print0 | xargs -0 -r -n 100 -P 2 xz -dq)
}

# copy_zstd SRC DEST: 300 of SRC's plain .ko, every Nth of the sorted list
# (N = count / 300), recompressed by the zstd tool.
copy_zstd() {
	(cd "$1" && find . -name '*.ko' -type f) | LC_ALL=C sort |
		awk '{ f[NR] = $0 } END {
			step = int(NR / 300); if (step < 1) step = 1
			for (i = 1; i <= NR && n < 300; i += step) print f[i] (n++ % 2 ? " odd" : "")
		}' >"$2.tmp/list"
	while read -r rel odd; do
		mkdir -p "$2.tmp/$(dirname "$rel")"
		# shellcheck disable=SC2086
		zstd -q ${odd:+--no-content-size} -o "$2.tmp/$rel.zst" "$1/$rel"
	done <"$2.tmp/list"
	rm "$2.tmp/list"
}

update_lists
pkg=$(newest "$pattern")
[ -n "$pkg" ] || skip "no package matching $pattern in the arm64 package list"

release=${pkg#linux-image-}
release=${release%-unsigned}
extract "$pkg" "$cache/modules/$release"
dir=$cache/modules/$release/lib/modules/$release
[ -d "$dir" ] || { echo "fetch-modules: $pkg has no lib/modules/$release" >&2; exit 1; }
[ -n "$form" ] || { echo "$dir"; exit 0; }

copy=$cache/copies/$release-$form
if [ ! -f "$copy/.complete" ]; then
	tool=${form%-d}
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (./bootstrap --deps)"
	rm -rf "$copy.tmp"
	mkdir -p "$copy.tmp"
	"copy_$(echo "$form" | tr - _)" "$dir" "$copy"
	touch "$copy.tmp/.complete"
	rm -rf "$copy"
	mv "$copy.tmp" "$copy"
fi
echo "$copy"
