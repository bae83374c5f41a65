#!/bin/sh
# elfplt plt --by=line on a real Debian module with its real debug file,
# against eu-addr2line.  It downloads Debian 12's smallest kernel debug
# package once into the cache (see README.md), then takes about 20 s a run.
#
# The tree is Debian 12's arm64 cloud flavour (tests/real/fetch-modules.sh
# 6.1-cloud dbg): linux-image-6.1.0-N-cloud-arm64-unsigned (~21 MB) and its
# linux-image-6.1.0-N-cloud-arm64-dbg (~262 MB, over 1.4 GB unpacked), whose
# modules' DWARF lies under usr/lib/debug/lib/modules/<version>/, one file
# per module named as the module.  Only the wanted files are taken out of
# the .deb (dpkg-deb --fsys-tarfile | tar -x NAME), into the test's own
# temporary directory.
#
# The module: ELFPLT_DEBUG_MODULES, paths relative to the tree (several,
# blank-separated), default kernel/drivers/net/mdio/acpi_mdio.ko: 7 KB, one
# C file, the smallest module of 6.1.0-57's tree with more than 5
# slot-needing calls (11 branches to 8 external functions on 7 source
# lines, all in .text; libchacha.ko, 6 KB, has 5), no ADRP veneer.  The
# test fails unless elfplt reserves PLT slots for it and it has 5 sites
# or more.
#
# The sites are counted here, from binutils readelf -SW -sW -rW: in each
# SHT_RELA section whose target section is executable, every
# R_AARCH64_CALL26 and R_AARCH64_JUMP26 whose symbol's section is not that
# target needs a slot (Linux 6.1 arch/arm64/kernel/module-plts.c,
# branch_rela_needs_plt(), CONFIG_RANDOMIZE_BASE as Debian builds).  For
# each, eu-addr2line --relative -j SECTION -e DEBUGFILE OFFSET (libdwfl lays
# out the .ko's sections and applies its relocations to the DWARF) gives the
# file and line; elfplt names a file as the line table does, without
# DW_AT_comp_dir, which is eu-addr2line's --relative form (its default, -A,
# puts the CU's comp_dir, "debian/build/build_arm64_none_cloud-arm64",
# before it).  elfplt's JSON gives no address per site, only rows (file:line,
# sites): so the test compares, line by line, how many sites eu-addr2line
# puts on each file:line with elfplt's rows, which must be the same set.
#
# The debug file is found four ways, each checked the same and each with
# attribution.debug_info naming the file expected:
#   --debug-file=PATH  the extracted file itself;
#   --debug-dir=DIR    DIR the extracted usr/lib/debug, the input given as
#                      lib/modules/<version>/<module> from the modules
#                      package's root: the layout of an installed system;
#   .debug/            a copy of the module with the debug file as
#                      .debug/NAME.debug beside it (libdwfl's standard
#                      lookup, elfplt-plt(1) ATTRIBUTION), accepted by
#                      build ID;
#   build ID           /usr/lib/debug/.build-id/xx/yyyy.debug, a link made
#                      here: Debian 12's kernel -dbg packages install no
#                      .build-id link for a module (only the vDSO's), so it
#                      is made in a directory bind-mounted over
#                      /usr/lib/debug inside a private mount namespace
#                      (unshare -m), never in the host's /usr/lib/debug;
#                      skipped, said so, where unshare -m is not allowed.
# Exit 0 on a match, 1 on a mismatch (both sides printed), 77 when apt
# cannot reach the archive.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/real/real-lib.sh"

require JQ READELF
command -v eu-addr2line >/dev/null || { echo "FAIL: eu-addr2line not found (elfutils)"; exit 1; }
command -v dpkg-deb >/dev/null || skip "dpkg-deb not found (not a Debian system)"

modules=${ELFPLT_DEBUG_MODULES:-kernel/drivers/net/mdio/acpi_mdio.ko}
out=$(modules_dir 6.1-cloud dbg) || exit $?
dir=$(echo "$out" | sed -n 1p)
deb=$(echo "$out" | sed -n 2p)
release=$(basename "$dir")
root=${dir%/lib/modules/"$release"}
echo "modules: $dir"
echo "debug package: $deb ($(wc -c <"$deb") bytes)"
[ -f "$deb" ] || { echo "FAIL: no debug package"; exit 1; }

# Only the wanted debug files out of the 262 MB .deb.
x=$T/dbg
mkdir -p "$x"
# Another module's debug file, for the first module: refused, not a crash
# (libdwfl asserted the sections' flags agree and aborted the run).
other=kernel/fs/xfs/xfs.ko
members=./usr/lib/debug/lib/modules/$release/$other
for m in $modules; do
	[ -f "$dir/$m" ] || { echo "FAIL: no $m in $dir"; exit 1; }
	members="$members ./usr/lib/debug/lib/modules/$release/$m"
done
# shellcheck disable=SC2086
dpkg-deb --fsys-tarfile "$deb" | tar -C "$x" -xf - $members ||
	{ echo "FAIL: $members not all in $deb"; exit 1; }

# sites MODULE: "SECTION OFFSET CALLEE" for each slot-needing branch, from
# readelf's text alone (see the header).
sites() {
	"$READELF" -SW -sW -rW "$1" | awk '
	function hex(s,   i, n) {
		n = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	/^  \[ *[0-9]+\]/ {
		sub(/^ *\[ */, ""); sub(/\]/, "")
		name[$1] = $2; inf[$2] = $(NF - 1)
		flags[$1] = NF == 11 ? $8 : ""
		next
	}
	/^Relocation section / { sec = $3; gsub(/\047/, "", sec); tgt = inf[sec]; next }
	/^Symbol table / { sec = ""; next }
	sec == "" && $1 ~ /^[0-9]+:$/ { n = $1; sub(/:/, "", n); ndx[n] = $7; next }
	sec != "" && ($3 == "R_AARCH64_CALL26" || $3 == "R_AARCH64_JUMP26") {
		r[++nr] = tgt " " $1 " " hex(substr($2, 1, 8)) " " $5
	}
	END {
		for (i = 1; i <= nr; i++) {
			split(r[i], f, " ")
			if (flags[f[1]] ~ /X/ && ndx[f[3]] != f[1])
				print name[f[1]], "0x" f[2], f[4]
		}
	}'
}

# run WAY EXPECTED_DEBUG_INFO [elfplt arguments]: elfplt plt --by=line as
# given; checks its rows against $want and debug_info against the file.
run() {
	way=$1 expect=$2
	shift 2
	j=$T/$way.json
	"$@" >"$j" || { fail "$way: elfplt plt exited $?"; return; }
	got=$(jqr "$j" '.files[0].attribution.debug_info // "null"')
	check "$way: debug_info" "$expect" "$got"
	jqr "$j" '.files[0].attribution.line[] | "\(.name) \(.sites)"' | LC_ALL=C sort >"$T/$way.rows"
	if cmp -s "$T/want" "$T/$way.rows"; then
		echo "ok: $way: $(wc -l <"$T/want") rows (file:line sites) as eu-addr2line says"
	else
		fail "$way: elfplt's rows differ from eu-addr2line's (< eu-addr2line, > elfplt):"
		diff "$T/want" "$T/$way.rows" | sed -n 's/^[<>]/  &/p'
	fi
}

for m in $modules; do
	ko=$dir/$m
	dbg=$x/usr/lib/debug/lib/modules/$release/$m
	base=$(basename "$m")
	echo "== $m ($(wc -c <"$ko") bytes; debug file $(wc -c <"$dbg") bytes)"
	id=$("$READELF" -n "$ko" | awk '/Build ID:/ { print $3 }')
	check "$m: the debug file's build ID is the module's" "$id" \
		"$("$READELF" -n "$dbg" | awk '/Build ID:/ { print $3 }')"

	sites "$ko" >"$T/sites"
	n=$(wc -l <"$T/sites")
	echo "slot-needing branches (readelf): $n"
	[ "$n" -ge 5 ] || fail "$m: fewer than 5 slot-needing call sites ($n)"
	# One eu-addr2line per section, its answers in the order asked.
	: >"$T/lines"
	for sec in $(awk '{ print $1 }' "$T/sites" | LC_ALL=C sort -u); do
		awk -v s="$sec" '$1 == s' "$T/sites" >"$T/sec"
		# shellcheck disable=SC2046
		eu-addr2line --relative -j "$sec" -e "$dbg" $(awk '{ print $2 }' "$T/sec") |
			sed 's/^\(.*:[0-9]*\):[0-9]*$/\1/' >"$T/sec.lines"
		[ "$(wc -l <"$T/sec.lines")" -eq "$(wc -l <"$T/sec")" ] ||
			fail "$m: eu-addr2line -j $sec gave $(wc -l <"$T/sec.lines") lines for $(wc -l <"$T/sec") addresses"
		paste -d ' ' "$T/sec" "$T/sec.lines" | awk '{ printf "  %-14s %-18s %-32s %s\n", $1, $2, $3, $4 }'
		cat "$T/sec.lines" >>"$T/lines"
	done
	grep -q '^??' "$T/lines" && fail "$m: eu-addr2line knows no line for a site"
	LC_ALL=C sort "$T/lines" | uniq -c | awk '{ print $2, $1 }' | LC_ALL=C sort >"$T/want"
	echo "eu-addr2line, per file:line (sites):"
	sed 's/^/  /' "$T/want"

	"$ELFPLT" plt --json "$ko" >"$T/plain.json" || fail "$m: elfplt plt exited $?"
	r=$(jqr "$T/plain.json" '.files[0].slots.reserved')
	echo "elfplt plt: $r slots reserved"
	[ "$r" -gt 0 ] || fail "$m: elfplt reserves no slot for it"

	# None given, none found: Debian's modules have no DWARF, no
	# .gnu_debuglink, and their debug files are not where libdwfl looks.
	"$ELFPLT" plt --json --by=line "$ko" >"$T/none.json" 2>"$T/none.err" ||
		fail "$m: elfplt plt --by=line exited $?"
	check "no debug file: debug_info" null "$(jqr "$T/none.json" '.files[0].attribution.debug_info')"
	check "no debug file: rows" "unknown $n" \
		"$(jqr "$T/none.json" '.files[0].attribution.line[] | "\(.name) \(.sites)"')"

	run debug-file "$dbg" "$ELFPLT" plt --json --by=line --debug-file="$dbg" "$ko"
	# shellcheck disable=SC2016
	run debug-dir "$x/usr/lib/debug/lib/modules/$release/$m" \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$root" \
		"$ELFPLT" plt --json --by=line --debug-dir="$x/usr/lib/debug" "lib/modules/$release/$m"
	mkdir -p "$T/local/.debug"
	cp "$ko" "$T/local/$base"
	ln -s "$dbg" "$T/local/.debug/$base.debug"
	run debug-subdir "$T/local/.debug/$base.debug" \
		"$ELFPLT" plt --json --by=line "$T/local/$base"
	rm -rf "$T/local"

	# A copy, not a link: libdwfl names the file it opened by its real path.
	b=$T/build-id
	mkdir -p "$b/.build-id/$(echo "$id" | cut -c1-2)"
	cp "$dbg" "$b/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
	# shellcheck disable=SC2016
	if [ -d /usr/lib/debug ] && command -v unshare >/dev/null &&
		unshare -m sh -c 'mount --bind "$1" /usr/lib/debug' sh "$b" 2>/dev/null; then
		run build-id "/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug" \
			unshare -m sh -c 'mount --bind "$1" /usr/lib/debug && shift && exec "$@"' sh "$b" \
			"$ELFPLT" plt --json --by=line "$ko"
	else
		skip_part "$m: build ID lookup: no private mount namespace here (unshare -m, mount --bind)"
	fi
	rm -rf "$b"

	if [ -z "${wrong_done:-}" ]; then
		wrong_done=1
		wrong=$x/usr/lib/debug/lib/modules/$release/$other
		"$ELFPLT" plt --json --by=line --debug-file="$wrong" "$ko" >"$T/wrong.json" 2>"$T/wrong.err"
		check "another module's debug file: exit 0" 0 $?
		check "another module's debug file: not used" null \
			"$(jqr "$T/wrong.json" '.files[0].attribution.debug_info')"
		check "another module's debug file: rows" "unknown $n" \
			"$(jqr "$T/wrong.json" '.files[0].attribution.line[] | "\(.name) \(.sites)"')"
		check "another module's debug file: one warning naming it and why" 1 \
			"$(grep -c -- "warning: --debug-file $wrong has another build ID than the input: not used" "$T/wrong.err")"
	fi
done
done_testing
