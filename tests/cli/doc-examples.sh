#!/bin/sh
# Every usage example of README.md and of each manual page's EXAMPLES
# section (man/*.scd, whichever pages there are) runs, so a broken example
# fails make check.  The convention the documents follow:
#   - README.md: the lines of ```sh blocks; a page: the tab-indented lines
#     of its EXAMPLES section;
#   - an example is a line whose first word is "elfplt" (or "./elfplt", the
#     built binary), "jq" (reading what an example before it wrote) or
#     "sync;" (then an elfplt command); other lines (./bootstrap, make,
#     MODDIR=..., comments) are instructions, not run;
#   - "$MODDIR" is a module tree: the one tests/real/fetch-modules.sh fetches
#     (the README's Quick start), or with ELFPLT_DOC_FIXTURES=1, or when it
#     cannot fetch, or in the sanitized build (whose other tests cover the
#     real trees; this one covers the documents), a tree of fixtures of the same shape (kernel/fs/xfs/xfs.ko
#     and two more modules under kernel/fs);
#   - a document's examples run in order, in one scratch directory of their
#     own, under bash -o pipefail, with elfplt the binary under test, man
#     pages shown with MANPAGER=cat, and must exit 0.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
command -v bash >/dev/null || skip "bash not found"

# --- $MODDIR ------------------------------------------------------------------
moddir=
if [ "${ELFPLT_DOC_FIXTURES:-0}" != 1 ] && [ "${ELFPLT_SANITIZED:-}" != yes ]; then
	moddir=$("$top_srcdir/tests/real/fetch-modules.sh" 2>"$T/fetch.err") || moddir=
	[ -n "$moddir" ] && [ -f "$moddir/kernel/fs/xfs/xfs.ko" ] || {
		echo "fetch-modules.sh gave no tree ($(tail -n 1 "$T/fetch.err")): fixtures instead"
		moddir=
	}
fi
if [ -z "$moddir" ]; then
	moddir=$T/modules
	mkdir -p "$moddir/kernel/fs/xfs" "$moddir/kernel/fs/ext4" "$moddir/kernel/fs/nls"
	cp "$(fixture plt-arm64-v612)" "$moddir/kernel/fs/xfs/xfs.ko"
	cp "$(fixture plt-arm64-basic)" "$moddir/kernel/fs/ext4/ext4.ko"
	cp "$(fixture stats-kmod)" "$moddir/kernel/fs/nls/nls.ko"
fi
echo "MODDIR=$moddir"

# elfplt on PATH: the binary under test.
mkdir "$T/bin"
ln -s "$ELFPLT" "$T/bin/elfplt"
[ "$JQ" != jq ] && ln -s "$JQ" "$T/bin/jq"

# --- extraction -----------------------------------------------------------------
# examples FILE: FILE's example lines, one a line.
examples() {
	case $1 in
	*.md) awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on' "$1" ;;
	# scdoc's escapes (\\ for a backslash, \* \_) undone: the line the page shows.
	*.scd) awk '/^# / { on = ($0 == "# EXAMPLES"); next } on && /^\t/ { sub(/^\t/, ""); print }' "$1" |
		sed 's/\\\(.\)/\1/g' ;;
	esac | sed 's/^\.\/elfplt /elfplt /' | grep -E '^(elfplt|jq|sync;) '
}

total=0
for doc in "$top_srcdir/README.md" "$top_srcdir"/man/*.scd; do
	name=${doc#"$top_srcdir"/}
	examples "$doc" >"$T/examples" || : >"$T/examples"
	n=$(wc -l <"$T/examples")
	if grep -q '^# EXAMPLES' "$doc" || [ "$name" = README.md ]; then
		[ "$n" -gt 0 ] || fail "$name: an EXAMPLES section with no example found"
	fi
	[ "$n" -gt 0 ] || continue
	echo "$name: $n examples"
	dir=$T/run/$(basename "$doc")
	mkdir -p "$dir"
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		rc=0
		(cd "$dir" && PATH=$T/bin:$PATH MODDIR=$moddir MANPAGER=cat PAGER=cat MANWIDTH=80 \
			bash -o pipefail -c "$line") >"$T/out" 2>"$T/err" </dev/null || rc=$?
		if [ "$rc" -eq 0 ]; then
			echo "ok: $name #$i: $line ($(wc -l <"$T/out") lines)"
		else
			fail "$name #$i: exit status $rc: $line"
			head -n 5 "$T/err"
		fi
		total=$((total + 1))
	done <"$T/examples"
done
# The README's usage examples are all there: at least the ten of its Usage.
[ "$total" -ge 10 ] || fail "only $total examples found in all"

[ "$nfail" -eq 0 ]
