#!/bin/sh
# Fetch one of Debian's kernel module packages (arm64 unless told) and
# extract its modules.
#
#   tests/real/fetch-modules.sh [SERIES [FORM [ARCH]]]
#
# prints the directory that holds the modules on stdout.  SERIES picks the
# Debian release and the package, the newest ABI of ARCH's plain flavour:
#   6.1          Debian 12 (bookworm): linux-image-6.1.0-N-arm64-unsigned (the
#                default): ~3,700 plain .ko
#   6.12         Debian 12's backport (bookworm-security/updates):
#                linux-image-6.12.N+deb12-arm64-unsigned: ~4,350 .ko.xz
#   6.12-trixie  Debian 13 (trixie, trixie-updates, trixie-security):
#                linux-image-6.12.N+deb13-arm64-unsigned: .ko.xz
#   7.2          Debian unstable (sid), whose modules ship apart from the
#                image: linux-modules-7.2.N+deb14-arm64: .ko.xz, each with the
#                module signature appended
#   6.1-cloud    Debian 12's cloud flavour (arm64 and amd64 only):
#                linux-image-6.1.0-N-cloud-arm64-unsigned, ~1,000 plain .ko;
#                its -dbg package is the smallest of Debian 12 (FORM dbg)
# FORM picks what the directory holds:
#   (none) the package's own lib/modules/<version> (usr/lib/modules/<version>
#          from Debian 13 on), as extracted
#   xz-d   a copy of every .ko.xz of the tree decompressed by xz -d (the
#          independent tool), same relative paths, ".xz" dropped
#   zstd   300 plain .ko of the tree (every Nth in sorted path order, so the
#          same ones each time) recompressed by the zstd tool, same relative
#          paths plus ".zst"; the odd-numbered ones with --no-content-size, so
#          both zstd frame kinds (recorded size, and none) are in the copy
#   list   nothing is downloaded: prints the packages and versions SERIES
#          would take, one "PACKAGE VERSION" a line, the one used first
#   dbg    the tree as with no FORM, and the path of the matching debug
#          package, linux-image-<version>-dbg of the same version (its
#          modules' DWARF under usr/lib/debug/lib/modules/<version>), as a
#          second line; the .deb is kept as downloaded, not extracted (it
#          unpacks to over 1 GB: take what you need with dpkg-deb
#          --fsys-tarfile).  Debian 12 (6.1, 6.1-cloud) and 13 only.
# ARCH is a Debian architecture; its flavour is the one in the package name:
#   arm64 (the default) arm64, amd64 amd64 (both "-unsigned" in 12 and 13),
#   armhf armmp, ppc64el powerpc64le, s390x s390x, riscv64 riscv64 (13 and
#   unstable), loong64 loong64 (unstable only).  Give FORM as "" to name ARCH
#   alone:  tests/real/fetch-modules.sh 6.12-trixie "" s390x
#
# The package is fetched with apt's own tools, the architecture overridden to
# ARCH and a private sources list and package list per release and ARCH (for
# 12 on arm64 in $cache/apt, else in $cache/apt-RELEASE-ARCH), so the host's
# apt state is not touched.  When the archive answers 404 for the newest
# package (a pool file not there yet, or gone), the next older version of the
# same series is taken, and so on for up to 10 tries (Debian 13's s390x
# image answered 404 for its three newest 6.12 versions once).
# Everything is cached outside the source tree, in $ELFPLT_CACHE (default
# /var/cache/elfplt when writable, else ~/.cache/elfplt), and reused; a copy
# is made once, in a temporary directory renamed into place when complete.
# Exit status 77 (automake's "skipped") with the reason on stderr when apt
# cannot reach the archive (or xz, zstd are missing for a copy); 1 on any
# other failure; 2 for a SERIES, FORM or ARCH not listed above, or a SERIES
# the release does not build for ARCH.
set -eu

series=${1:-6.1}
form=${2:-}
arch=${3:-arm64}
unsigned=
case $arch in
arm64 | amd64) flavour=$arch unsigned=-unsigned ;;
armhf) flavour=armmp ;;
ppc64el) flavour=powerpc64le ;;
s390x | riscv64 | loong64) flavour=$arch ;;
*) echo "fetch-modules: unknown arch '$arch' (arm64, amd64, armhf, ppc64el, s390x, riscv64, loong64)" >&2; exit 2 ;;
esac
# sid has no -unsigned images: linux-modules-* holds the modules of every arch.
case $series in
6.1) suite=bookworm pattern="^linux-image-6\.1\.0-[0-9]+-$flavour$unsigned\$" ;;
6.12) suite=bookworm pattern="^linux-image-6\.12\.[0-9]+\+deb12-$flavour$unsigned\$" ;;
6.12-trixie) suite=trixie pattern="^linux-image-6\.12\.[0-9]+\+deb13-$flavour$unsigned\$" ;;
7.2) suite=sid pattern="^linux-modules-7\.2\.[0-9]+\+deb14-$flavour\$" ;;
6.1-cloud)
	case $arch in
	arm64 | amd64) ;;
	*) echo "fetch-modules: Debian 12 has no cloud flavour for $arch (series $series)" >&2; exit 2 ;;
	esac
	suite=bookworm pattern="^linux-image-6\.1\.0-[0-9]+-cloud-$flavour$unsigned\$" ;;
*) echo "fetch-modules: unknown series '$series' (6.1, 6.12, 6.12-trixie, 7.2, 6.1-cloud)" >&2; exit 2 ;;
esac
case $suite-$arch in
bookworm-riscv64 | bookworm-loong64 | trixie-loong64)
	echo "fetch-modules: Debian's $suite has no $arch (series $series)" >&2; exit 2 ;;
esac
case $form in
"" | xz-d | zstd | list) ;;
dbg)
	# unstable's linux-modules-* has no -dbg of its own name.
	[ "$suite" != sid ] ||
		{ echo "fetch-modules: form dbg is for Debian 12 and 13 (series $series)" >&2; exit 2; } ;;
*) echo "fetch-modules: unknown form '$form' (xz-d, zstd, list, dbg)" >&2; exit 2 ;;
esac

cache=${ELFPLT_CACHE:-}
if [ -z "$cache" ]; then
	if mkdir -p /var/cache/elfplt 2>/dev/null && [ -w /var/cache/elfplt ]; then
		cache=/var/cache/elfplt
	else
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/elfplt
	fi
fi
# One apt state (sources list, package lists, apt's cache, logs) per release
# and architecture: apt-get update drops the lists its sources do not name.
# Debian 12 on arm64 keeps the directory it always had.
state=$cache/apt
[ "$suite-$arch" = bookworm-arm64 ] || state=$cache/apt-$suite-$arch
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/sources.list.d" \
	"$cache/deb" "$cache/modules" "$cache/copies"

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
# Debian 13 the same way; unstable has one suite.  Debian 12's keyring
# (2023.3+deb12u2) holds the 12/bookworm and 13/trixie archive keys, which
# sign all three releases' InRelease.
# ELFPLT_DEBIAN_MIRROR names another mirror of deb.debian.org/debian.
mirror=${ELFPLT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || skip "$keyring not found (apt-get install debian-archive-keyring)"
{
	echo "deb [signed-by=$keyring] $mirror $suite main"
	[ "$suite" = sid ] || {
		echo "deb [signed-by=$keyring] $mirror $suite-updates main"
		echo "deb [signed-by=$keyring] ${mirror%/debian}/debian-security $suite-security main"
	}
} >"$state/sources.list.new"
if ! cmp -s "$state/sources.list.new" "$state/sources.list"; then
	mv "$state/sources.list.new" "$state/sources.list"
	rm -f "$state/lists/.updated" # other sources: update the lists now
else
	rm -f "$state/sources.list.new"
fi

# Acquire::Check-Valid-Until=false: a mirror or a registry that serves a
# snapshot of the archive can hand out an InRelease past its Valid-Until
# (sid's are valid a week); its signature is still checked, and what is
# fetched is test input, not software to install.  Without it a fresh
# Debian 12 root skipped every unstable tree ("Release file ... is expired").
APT="-oAPT::Architecture=$arch -oAPT::Architectures=$arch \
-oDir::Etc::SourceList=$state/sources.list \
-oDir::Etc::SourceParts=$state/sources.list.d \
-oDir::State::Lists=$state/lists -oDir::Cache=$state/cache \
-oDir::State::Status=/dev/null -oDebug::NoLocking=1 -oAcquire::Retries=2 \
-oAcquire::Check-Valid-Until=false"

# A fresh package list at most a day old; a stale one is still used when the
# archive cannot be reached, so a cached tree keeps working offline.
update_lists() {
	stamp=$state/lists/.updated
	if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
		# shellcheck disable=SC2086
		# apt-get update can exit 0 having fetched nothing (an unreachable proxy):
		# only lists that hold packages make the stamp.
		if apt-get $APT -qq update >"$state/update.log" 2>&1 &&
			[ -n "$(find "$state/lists" -name '*_Packages*' | head -n 1)" ]; then
			touch "$stamp"
			rm -f "$state/404" # new lists: every version may be there now
		elif [ ! -f "$stamp" ]; then
			skip "apt-get update for $suite $arch failed: $(tail -n 1 "$state/update.log")"
		fi
	fi
}

# candidates: "PACKAGE VERSION" for each version of each package whose name
# matches $pattern, newest package first, each package's versions as apt
# orders them (newest first).
candidates() {
	# shellcheck disable=SC2086
	apt-cache $APT search --names-only "$pattern" 2>/dev/null | awk '{print $1}' |
		grep -E "$pattern" | sort -V -r | while read -r p; do
		apt-cache $APT madison "$p" | awk -F'|' -v p="$p" '{gsub(/ /, "", $2); print p, $2}'
	done | awk '!seen[$0]++'
}

# fetch PKG VERSION: PKG's .deb into $cache/deb.  Returns 1 when the archive
# answers 404 (try an older one); skips on any other failure.
fetch() {
	# shellcheck disable=SC2086
	(cd "$cache/deb" && apt-get $APT -qq download "$1=$2" >"$state/download.log" 2>&1 </dev/null) &&
		return 0
	grep -q ' 404 ' "$state/download.log" && return 1
	skip "apt-get download $1=$2 failed: $(tail -n 1 "$state/download.log")"
}

# cached_deb PKG: the newest .deb of PKG already in $cache/deb, if any.
cached_deb() {
	# shellcheck disable=SC2012
	ls "$cache/deb/${1}_"*"_$arch.deb" 2>/dev/null | tail -n 1 || true
}

# extract DEB DEST: the package's files under DEST.
extract() {
	rm -rf "$2.tmp"
	mkdir -p "$2.tmp"
	dpkg-deb -x "$1" "$2.tmp"
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
candidates >"$state/candidates"
[ -s "$state/candidates" ] || skip "no package matching $pattern in the $suite $arch package list"
[ "$form" != list ] || { cat "$state/candidates"; exit 0; }

# The newest package already extracted or downloaded, else the first that
# downloads; a 404 moves on to the next older version, 10 tries at most.
tries=0 release=
while read -r pkg version; do
	release=${pkg#linux-image-}
	release=${release#linux-modules-}
	release=${release%-unsigned}
	[ -f "$cache/modules/$release/.complete" ] && break
	# A version that answered 404 since the lists were fetched is not asked
	# for again: a mirror short of the newest pool files would otherwise
	# cost every run the same failed downloads, and its tries.
	if grep -qxF "$pkg $version" "$state/404" 2>/dev/null; then
		release=
		continue
	fi
	deb=$(cached_deb "$pkg")
	if [ -z "$deb" ]; then
		tries=$((tries + 1))
		if [ "$tries" -gt 10 ]; then
			release=
			break
		fi
		if ! fetch "$pkg" "$version"; then
			echo "$pkg $version" >>"$state/404"
			echo "fetch-modules: $pkg $version: 404 from the archive, trying an older one" >&2
			release=
			continue
		fi
		deb=$(cached_deb "$pkg")
	fi
	extract "$deb" "$cache/modules/$release"
	break
done <"$state/candidates"
[ -n "$release" ] ||
	skip "no $series package for $arch could be downloaded: $(tail -n 1 "$state/download.log")"

# Debian 12 ships lib/modules; 13 and unstable, with /usr merged, usr/lib/modules.
dir=$cache/modules/$release/lib/modules/$release
[ -d "$dir" ] || dir=$cache/modules/$release/usr/lib/modules/$release
[ -d "$dir" ] || { echo "fetch-modules: $pkg has no lib/modules/$release" >&2; exit 1; }
[ -n "$form" ] || { echo "$dir"; exit 0; }

# The debug package of the very build the modules came from: the same
# version (the build IDs match only then).  Not extracted here.
if [ "$form" = dbg ]; then
	dbg=linux-image-$release-dbg
	deb=$(ls "$cache/deb/${dbg}_${version#*:}_$arch.deb" 2>/dev/null || true)
	if [ -z "$deb" ]; then
		fetch "$dbg" "$version" ||
			skip "apt-get download $dbg=$version: 404 from the archive"
		deb=$(ls "$cache/deb/${dbg}_${version#*:}_$arch.deb" 2>/dev/null || true)
	fi
	[ -n "$deb" ] || { echo "fetch-modules: $dbg $version: no .deb after apt-get download" >&2; exit 1; }
	echo "$dir"
	echo "$deb"
	exit 0
fi

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
