#!/bin/sh
# Run the libFuzzer harness: build it first with
#   ./configure --enable-fuzz CC=clang && make tests/fuzz/fuzz_image
# then, from the build tree:  tests/fuzz/run.sh [SECONDS] [MODULE_DIR]
# Seeds: every YAML fixture (each document) and, when MODULE_DIR is given,
# its 20 smallest .ko files.  The corpus grows in tests/fuzz/corpus (not
# committed); crashes land in tests/fuzz/artifacts.  One job: the machines
# this project runs on have 2 cores shared with others.
set -eu
secs=${1:-600}
mods=${2:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
seeds=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
for y in "$src"/tests/fixtures/*.yaml; do
	base=$(basename "$y" .yaml)
	[ "$base" = load-big ] && continue
	d=1
	while yaml2obj --docnum=$d "$y" -o "$seeds/$base-$d.o" 2>/dev/null; do
		d=$((d + 1))
	done
done
if [ -n "$mods" ]; then
	find "$mods" -name '*.ko' -printf '%s %p\n' | sort -n | head -n 20 |
		while read -r _ f; do cp "$f" "$seeds/"; done
fi
mkdir -p tests/fuzz/corpus tests/fuzz/artifacts
exec tests/fuzz/fuzz_image -max_total_time="$secs" -timeout=10 -rss_limit_mb=3000 \
	-max_len=65536 -artifact_prefix=tests/fuzz/artifacts/ tests/fuzz/corpus "$seeds"
