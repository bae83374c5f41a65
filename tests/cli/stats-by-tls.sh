#!/bin/sh
# stats --by=section on a linked file with thread-local storage: .tbss has
# the TLS template's sh_addr and no address space of its own, so it overlaps
# .init_array and what follows; the relocations that patch those were
# counted under .tbss (libasan.so.8: 7 of them).  The library is compiled
# here; the expected table is readelf's: each dynamic relocation's r_offset
# (readelf -rW) in the SHF_ALLOC section that holds it (readelf -SW), .tbss
# left out as readelf's section-to-segment map leaves it out.
. "$top_srcdir/tests/lib.sh"
need JQ READELF
cc=${CC:-cc}

cat >"$T/tb.c" <<'EOF2'
static __thread int counter;
static __thread char big[64];
static void ctor(void) __attribute__((constructor));
static void ctor(void) { counter = 1; }
static void dtor(void) __attribute__((destructor));
static void dtor(void) { big[0] = 0; }
static int a, b, c;
int *const table[] = { &a, &b, &c };
int get(int i) { return *table[i] + counter + big[i]; }
EOF2
$cc -shared -fPIC -O1 -o "$T/libtb.so" "$T/tb.c" || fail "$cc -shared"
"$READELF" -SW "$T/libtb.so" | grep -q ' \.tbss ' || skip "$cc put no .tbss in the library"

"$READELF" -SW -rW "$T/libtb.so" | awk '
function hex(s,   i, n) {
	n = 0; s = tolower(s)
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
/^  \[ *[0-9]+\]/ {
	sub(/^ *\[ */, ""); sub(/\]/, "")
	if ($2 != "" && $8 ~ /A/ && !($3 == "NOBITS" && $8 ~ /T/)) {
		n++; name[n] = $2; lo[n] = hex($4); size[n] = hex($6)
	}
	next
}
/^Relocation section / { inrel = 1; next }
inrel && $1 ~ /^[0-9a-f]+$/ && $3 ~ /^R_/ {
	off = hex($1)
	for (i = 1; i <= n; i++)
		if (off >= lo[i] && off < lo[i] + size[i]) { count[name[i]]++; break }
}
END { for (s in count) print s, count[s] }' | LC_ALL=C sort >"$T/want"

"$ELFPLT" stats --json --by=section "$T/libtb.so" >"$T/out.json" || fail "stats: exit $?"
jqr "$T/out.json" '.files[0].attribution.section[] | "\(.name) \(.relocations)"' |
	LC_ALL=C sort >"$T/got"
check "by section: readelf's table" "$(cat "$T/want")" "$(cat "$T/got")"
check "by section: no row for .tbss" 0 "$(grep -c '^\.tbss ' "$T/got")"
check "by section: .init_array's relocations its own" 1 "$(grep -c '^\.init_array ' "$T/got")"
done_testing
