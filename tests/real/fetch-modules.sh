#!/bin/sh
# Fetch Debian 12's arm64 kernel image package and extract its modules.
#
#   tests/real/fetch-modules.sh      print the directory that holds the modules
#                                    (…/lib/modules/<version>) on stdout
#
# The package is fetched with apt's own tools, the architecture overridden to
# arm64 and a private package list, so the host's apt state is not touched.
# Everything is cached outside the source tree, in $ELFPLT_CACHE (default
# /var/cache/elfplt when writable, else ~/.cache/elfplt), and reused.
# Exit status 77 (automake's "skipped") with the reason on stderr when apt
# cannot reach the archive; 1 on any other failure.
set -eu

cache=${ELFPLT_CACHE:-}
if [ -z "$cache" ]; then
	if mkdir -p /var/cache/elfplt 2>/dev/null && [ -w /var/cache/elfplt ]; then
		cache=/var/cache/elfplt
	else
		cache=${XDG_CACHE_HOME:-$HOME/.cache}/elfplt
	fi
fi
mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" "$cache/deb" \
	"$cache/modules"

skip() {
	echo "fetch-modules: SKIP: $*" >&2
	exit 77
}

for tool in apt-get apt-cache dpkg-deb; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (not a Debian system)"
done

APT="-oAPT::Architecture=arm64 -oAPT::Architectures=arm64 \
-oDir::State::Lists=$cache/apt/lists -oDir::Cache=$cache/apt/cache \
-oDir::State::Status=/dev/null -oDebug::NoLocking=1 -oAcquire::Retries=2"

# A fresh package list at most a day old; a stale one is still used when the
# archive cannot be reached, so a cached tree keeps working offline.
stamp=$cache/apt/lists/.updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
	# shellcheck disable=SC2086
	if apt-get $APT -qq update >"$cache/apt/update.log" 2>&1; then
		touch "$stamp"
	elif [ ! -f "$stamp" ]; then
		skip "apt-get update for arm64 failed: $(tail -n 1 "$cache/apt/update.log")"
	fi
fi

# The newest ABI of the plain arm64 flavour: linux-image-6.1.0-N-arm64-unsigned.
# shellcheck disable=SC2086
pkg=$(apt-cache $APT search --names-only '^linux-image-6\.1\.0-[0-9]+-arm64-unsigned$' 2>/dev/null |
	awk '{print $1}' | sort -V | tail -n 1)
[ -n "$pkg" ] || skip "no linux-image-6.1.0-*-arm64-unsigned in the arm64 package list"

release=${pkg#linux-image-}
release=${release%-unsigned}
dest=$cache/modules/$release
if [ ! -f "$dest/.complete" ]; then
	deb=$(ls "$cache/deb/${pkg}_"*_arm64.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		# shellcheck disable=SC2086
		(cd "$cache/deb" && apt-get $APT -qq download "$pkg" >"$cache/apt/download.log" 2>&1) ||
			skip "apt-get download $pkg failed: $(tail -n 1 "$cache/apt/download.log")"
		deb=$(ls "$cache/deb/${pkg}_"*_arm64.deb | tail -n 1)
	fi
	rm -rf "$dest.tmp"
	mkdir -p "$dest.tmp"
	dpkg-deb -x "$deb" "$dest.tmp"
	rm -rf "$dest"
	mv "$dest.tmp" "$dest"
	touch "$dest/.complete"
fi

dir=$dest/lib/modules/$release
[ -d "$dir" ] || { echo "fetch-modules: $pkg has no lib/modules/$release" >&2; exit 1; }
echo "$dir"
