#!/bin/sh
# Input formats made by the other tools: ar archives from llvm-ar in GNU and
# BSD format (BSD keeps a long name as "#1/N", N bytes at the start of the
# member's data) and from binutils ar; xz files of concatenated streams and
# with stream padding, both of which xz -d accepts; gzip files of two
# members and with zero padding, which gzip -d accepts.  Expected member names
# come from the archiver's own listing (t), relocation counts from readelf
# -rW on the member files, never from elfplt.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF LLVM_AR XZ
command -v zstd >/dev/null || skip "zstd not found (./bootstrap --deps installs it)"

entries() {
	"$READELF" -rW "$1" | awk '/^Relocation section/ { n += $(NF - 1) } END { print n + 0 }'
}

mkdir "$T/d"
cp "$(fixture stats-kmod)" "$T/d/kmod.o"
cp "$(fixture stats-x86-64)" "$T/d/a-member-name-longer-than-15.o"
cp "$(fixture plt-arm64-basic)" "$T/d/has space.o"
want="$(entries "$T/d/kmod.o") $(entries "$T/d/a-member-name-longer-than-15.o") \
$(entries "$T/d/has space.o")"
check "readelf: the members' relocations (fixtures' YAML: 9 12 12)" "9 12 12" "$want"

cd "$T/d" || exit 1
"$LLVM_AR" --format=gnu rcs gnu.a kmod.o a-member-name-longer-than-15.o "has space.o" ||
	fail "llvm-ar gnu"
"$LLVM_AR" --format=bsd rcs bsd.a kmod.o a-member-name-longer-than-15.o "has space.o" ||
	fail "llvm-ar bsd"
ar rcs binutils.a kmod.o a-member-name-longer-than-15.o "has space.o" || fail "ar rcs"
cd / || exit 1
# The BSD archive really holds "#1/N" names (the GNU ones "/N" and "//").
grep -q '#1/' "$T/d/bsd.a" || fail "bsd.a has no #1/N name"
grep -q '^//' "$T/d/gnu.a" || fail "gnu.a has no // table"

for a in gnu bsd binutils; do
	A=$T/d/$a.a
	if [ $a = binutils ]; then
		names=$(ar t "$A" | tr '\n' '|')
	else
		names=$("$LLVM_AR" t "$A" | tr '\n' '|')
	fi
	check "$a: archiver's listing" "kmod.o|a-member-name-longer-than-15.o|has space.o|" "$names"
	rc=0
	"$ELFPLT" stats --json "$A" >"$T/out" 2>"$T/err" || rc=$?
	check "$a: exit status" 0 "$rc"
	check "$a: no message" "" "$(cat "$T/err")"
	check "$a: members" "$A(kmod.o)|$A(a-member-name-longer-than-15.o)|$A(has space.o)" \
		"$(jqr "$T/out" '[.files[].path] | join("|")')"
	check "$a: relocations per member" "$want" \
		"$(jqr "$T/out" '[.files[].relocations.total] | map(tostring) | join(" ")')"
done

# --- xz: two streams, and stream padding (4 zero bytes, xz's own format) ----
f=$T/d/a-member-name-longer-than-15.o
size=$(wc -c <"$f")
head -c 1000 "$f" | "$XZ" -c >"$T/two.xz"
tail -c +1001 "$f" | "$XZ" -c >>"$T/two.xz"
{ "$XZ" -c <"$f"; printf '\0\0\0\0'; } >"$T/padded.xz"
{ head -c 1000 "$f" | "$XZ" -c; printf '\0\0\0\0\0\0\0\0'; tail -c +1001 "$f" | "$XZ" -c
	printf '\0\0\0\0'; } >"$T/both.xz"
# gzip: two members (gzip -d concatenates them) and zero bytes after a
# member (tape or block padding, which gzip -d ignores with a warning).
head -c 1000 "$f" | gzip -c >"$T/two.gz"
tail -c +1001 "$f" | gzip -c >>"$T/two.gz"
{ gzip -c <"$f"; printf '\0\0\0\0\0\0\0\0'; } >"$T/padded.gz"
for x in two.xz padded.xz both.xz two.gz padded.gz; do
	case $x in
	*.xz) dec="$XZ -dc" want=xz ;;
	*) dec="gzip -dcq" want=gzip ;;
	esac
	# gzip -d warns about the padding ("trailing garbage ignored"), exit 2.
	check "$x: $dec gives the file back" "$size ok" \
		"$($dec "$T/$x" 2>/dev/null | wc -c) $($dec "$T/$x" 2>/dev/null | cmp -s - "$f" &&
			echo ok)"
	rc=0
	"$ELFPLT" stats --json "$T/$x" >"$T/out" 2>"$T/err" || rc=$?
	check "$x: exit status" 0 "$rc"
	check "$x: no message" "" "$(cat "$T/err")"
	check "$x: compression, relocations" "$want 12" \
		"$(jqr "$T/out" '.files[0] | "\(.compression) \(.relocations.total)"')"
done

# --- --max-size at its bound: a file of S bytes decodes under --max-size=S
# and is refused under S - 1, by every decoder (zstd with and without the
# frame's content size: the size checked before and while decoding).
zstd -q -c "$f" >"$T/f.zst"
zstd -q -c --no-content-size "$f" >"$T/f-nosize.zst"
gzip -c "$f" >"$T/f.gz"
"$XZ" -c "$f" >"$T/f.xz"
for x in f.zst f-nosize.zst f.gz f.xz; do
	case $x in
	f.zst) want="zstd data decodes to $size bytes, more than $((size - 1)) (--max-size)" ;;
	f-nosize.zst) want="zstd data decodes to more than $((size - 1)) bytes (--max-size)" ;;
	f.gz) want="gzip data decodes to more than $((size - 1)) bytes (--max-size)" ;;
	f.xz) want="xz data decodes to more than $((size - 1)) bytes (--max-size)" ;;
	esac
	rc=0
	"$ELFPLT" stats --max-size=$size "$T/$x" >/dev/null 2>"$T/err" || rc=$?
	check "$x --max-size=$size (its size): status, message" "0 " "$rc $(cat "$T/err")"
	rc=0
	"$ELFPLT" stats --max-size=$((size - 1)) "$T/$x" >/dev/null 2>"$T/err" || rc=$?
	check "$x --max-size=$((size - 1)): status, message" "1 elfplt: $T/$x: $want" \
		"$rc $(cat "$T/err")"
done
done_testing
