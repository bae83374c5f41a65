#!/bin/sh
# The bounded mutation test (tests/unit/mutate_test.c): every fixture under
# tests/fixtures (each YAML document) cut short at every length and damaged
# 5000 ways with a fixed seed, through every library entry point the
# commands use.  Passes when nothing crashes and every error names the file
# in one clean line.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ

files=
for y in "$FIXTURES"/*.yaml; do
	base=$(basename "$y" .yaml)
	# load-big is a 64 MiB section: its prefixes alone would take minutes.
	[ "$base" = load-big ] && continue
	d=1
	while "$YAML2OBJ" --docnum=$d "$y" -o "$T/$base-$d.o" 2>/dev/null; do
		files="$files $T/$base-$d.o"
		d=$((d + 1))
	done
done
[ -n "$files" ] || { echo "FAIL: no fixture built"; exit 1; }

# shellcheck disable=SC2086
"$top_builddir/tests/unit/mutate_test" 1 5000 $files || {
	echo "FAIL: mutate_test exited $? (replay: tests/unit/mutate_test 1 5000 FILE)"
	exit 1
}
echo "ok: $(echo $files | wc -w) fixtures"
