# Helpers for the tests on Debian's arm64 modules; sourced after tests/lib.sh.

# require VAR... : each tool variable (JQ, READELF) names a program, or the
# test fails (exit 1): ./bootstrap installs them, so on a real-tree test a
# missing one is a broken setup, not a reason to skip.
require() {
	for v in "$@"; do
		eval "p=\${$v:-no}"
		[ "$p" != no ] && [ -n "$p" ] || { echo "FAIL: $v not found"; exit 1; }
	done
}

# modules_dir SERIES [FORM]: print the directory fetch-modules.sh gives (see
# there); skip the test (77) when it cannot reach the archive, fail on any
# other error.  Use as: dir=$(modules_dir 6.12) || exit $?
modules_dir() {
	_rc=0
	_dir=$(sh "$top_srcdir/tests/real/fetch-modules.sh" "$@") || _rc=$?
	if [ "$_rc" -eq 77 ]; then
		echo "SKIP: no Debian arm64 modules ($*): apt cannot reach the archive (see above)" >&2
		# As tests/lib.sh's skip(): never after a failure, never under CI=true.
		if [ "$nfail" -ne 0 ] || [ "${CI:-}" = true ]; then
			echo "FAIL: a skip under CI=true or after a failed check" >&2
			return 1
		fi
		return 77
	fi
	if [ "$_rc" -ne 0 ]; then
		echo "FAIL: fetch-modules.sh $* exited $_rc" >&2
		return 1
	fi
	echo "$_dir"
}

# elfplt_counts JSON: from an elfplt-stats/2 document, the lines
# PATH<TAB>TYPE<TAB>COUNT for each relocation type of each file and
# PATH<TAB>TOTAL<TAB>N, sorted: the same shape as readelf_counts's.
elfplt_counts() {
	"$JQ" -r '.files[] | .path as $p |
		(.relocations.by_type[] | "\($p)\t\(.name // "unknown-\(.value)")\t\(.count)"),
		"\($p)\tTOTAL\t\(.relocations.total)"' "$1" | LC_ALL=C sort
}

# readelf_counts LIST: the same lines as elfplt_counts's, counted by binutils
# readelf -rW over the files named in LIST (one a line), sorted.  readelf
# runs two at a time on batches of 100 files, each batch into its own file
# so the outputs do not interleave.  readelf prints "File: PATH" before each
# file only when given more than one; a relocation line starts with r_offset
# and r_info in hex, and its third field is the type's name.
readelf_counts() {
	_re=$(mktemp -d "$T/readelf.XXXXXX")
	# shellcheck disable=SC2016
	tr '\n' '\0' <"$1" | xargs -0 -P2 -n 100 sh -c '
		out=$(mktemp "$0/batch.XXXXXX")
		{ [ $# -gt 1 ] || echo "File: $1"; "$READELF" -rW "$@"; } | awk -v OFS="\t" "
			/^File: / { file = substr(\$0, 7); total[file] += 0; next }
			/^Relocation section / { inrel = 1; next }
			/^$/ { inrel = 0; next }
			inrel && \$1 ~ /^[0-9a-f]+\$/ && \$2 ~ /^[0-9a-f]+\$/ {
				n[file OFS \$3]++; total[file]++
			}
			END {
				for (k in n) print k, n[k]
				for (f in total) print f, \"TOTAL\", total[f]
			}" >"$out"
	' "$_re" || { echo "FAIL: readelf -rW failed" >&2; return 1; }
	LC_ALL=C sort "$_re"/batch.*
	rm -rf "$_re"
}

# same_counts WHAT NFILES ELFPLT_TSV READELF_TSV: check that the two agree,
# and show the files that do not ("<" elfplt only, ">" readelf only).
same_counts() {
	check "$1: files readelf read" "$2" "$(grep -c '	TOTAL	' "$4")"
	if cmp -s "$3" "$4"; then
		echo "ok: $1: all $2 files: totals and per-type counts agree with readelf -rW" \
			"($(wc -l <"$3") lines)"
	else
		diff "$3" "$4" | grep '^[<>]' >"$T/diff"
		cut -f1 "$T/diff" | sed 's/^[<>] //' | sort -u >"$T/bad"
		fail "$1: $(wc -l <"$T/bad") of $2 files differ from readelf -rW" \
			"(< elfplt, > readelf):"
		head -n 40 "$T/diff"
	fi
}

# readelf_counter LIST OUT OPTIONS COUNTER [ARG]: readelf OPTIONS (such as
# "-SW -rW -sW") over the files named in LIST (one a line), two at a time on
# batches of 100, each batch's text piped into `python3 COUNTER [ARG]`, an
# independent counter of a real-tree test; every batch's lines, sorted, in
# OUT.  readelf prints "File: PATH" before each file only when given more
# than one, so a batch of one gets that line here.  Returns 1 when readelf or
# a counter failed (OUT still holds what came).
readelf_counter() {
	_rc_dir=$(mktemp -d "$T/counter.XXXXXX")
	_rc_status=0
	# shellcheck disable=SC2016
	tr '\n' '\0' <"$1" | xargs -0 -P2 -n 100 sh -c '
		out=$(mktemp "$0/batch.XXXXXX") opts=$1 counter=$2 arg=$3
		shift 3
		# shellcheck disable=SC2086
		{ [ $# -gt 1 ] || echo "File: $1"; "$READELF" $opts "$@"; } |
			python3 "$counter" ${arg:+"$arg"} >"$out"
	' "$_rc_dir" "$3" "$4" "${5-}" || _rc_status=1
	LC_ALL=C sort "$_rc_dir"/batch.* >"$2"
	return $_rc_status
}
