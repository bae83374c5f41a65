#!/bin/sh
# The accessor's modes on a real tree: Debian 12's arm64 modules (6.1,
# ~3,700 .ko), stats --json and plt --json byte for byte the same under
# --access=read, --access=hybrid and ELFPLT_MMAP_THRESHOLD=1 as under
# --access=mmap (the whole file mapped), at the default -j.  The counts
# themselves are checked against readelf by tests/real/stats-modules.sh.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"
dir=$(modules_dir 6.1) || exit $?

for cmd in stats plt; do
	"$ELFPLT" --access=mmap "$cmd" --json "$dir" >"$T/mmap.json" 2>"$T/mmap.err" ||
		fail "$cmd --access=mmap: exit status $?"
	check "$cmd: files" "$(find "$dir" -name '*.ko' | wc -l)" \
		"$(jqr "$T/mmap.json" '.files | length')"
	for m in read hybrid mapall; do
		case $m in
		mapall) set -- env ELFPLT_MMAP_THRESHOLD=1 "$ELFPLT" ;;
		*) set -- "$ELFPLT" --access=$m ;;
		esac
		"$@" "$cmd" --json "$dir" >"$T/$m.json" 2>"$T/$m.err" ||
			fail "$cmd ($m): exit status $?"
		cmp -s "$T/mmap.json" "$T/$m.json" || fail "$cmd --json: $m differs from mmap"
		cmp -s "$T/mmap.err" "$T/$m.err" || fail "$cmd --json: $m: stderr differs"
	done
	echo "ok: $cmd --json: read, hybrid, hybrid mapping all: byte-identical to mmap"
done

done_testing
