#!/bin/sh
# The directory walk loses no file to depth.  A tree 100 directories deep is
# walked to the bottom (the walk stopped at 64 and dropped what was below,
# with exit 0).  A directory whose path is longer than PATH_MAX cannot be
# opened by that name: it is reported as failing (exit 1, one message that
# names it and says why), not passed over unseen.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

x86=$(fixture stats-x86-64)

# --- 100 levels: both files found -------------------------------------------
d=$T/deep
mkdir -p "$d"
cp "$x86" "$d/top.o"
i=0
while [ $i -lt 100 ]; do
	d=$d/d
	i=$((i + 1))
done
mkdir -p "$d"
cp "$x86" "$d/bottom.o"
for j in 1 2; do
	rc=0
	"$ELFPLT" stats --json -j $j "$T/deep" >"$T/out.json" 2>"$T/err" || rc=$?
	check "100 deep, -j $j: exit status" 0 "$rc"
	# top.o and bottom.o, the only files of the tree.
	check "100 deep, -j $j: files" 2 "$(jqr "$T/out.json" '.totals.files')"
	check "100 deep, -j $j: the bottom file" "$d/bottom.o" \
		"$(jqr "$T/out.json" '.files[0].path')"
done

# --- past PATH_MAX: the directory that cannot be named is reported ------------
pmax=$(getconf PATH_MAX /) || skip "getconf PATH_MAX"
seg=$(printf '%0200d' 0) # 200 '0's: names of 200 bytes, under NAME_MAX (255)
mkdir -p "$T/long"
cp "$x86" "$T/long/top.o"
# Made one level at a time from inside, as the whole path is too long to name.
(
	cd "$T/long" || exit 1
	p=$T/long
	while [ ${#p} -lt $((pmax + 300)) ]; do
		mkdir "$seg" && cd "$seg" || exit 1
		p=$p/$seg
	done
	cp "$x86" bottom.o
) || fail "could not build the long tree"
rc=0
"$ELFPLT" stats --json "$T/long" >"$T/out.json" 2>"$T/err" || rc=$?
check "past PATH_MAX: exit status" 1 "$rc"
check "past PATH_MAX: files analysed (top.o)" 1 "$(jqr "$T/out.json" '.totals.files')"
check "past PATH_MAX: files failed" 1 "$(jqr "$T/out.json" '.totals.files_failed')"
bad=$(jqr "$T/out.json" '.files[] | select(.error) | .path')
# The first directory too long to name: its path is PATH_MAX bytes or more
# (PATH_MAX counts the NUL), its parent's fewer.
[ ${#bad} -ge "$pmax" ] && [ ${#bad} -lt $((pmax + 201)) ] ||
	fail "past PATH_MAX: reported path has ${#bad} bytes"
code=$(jqr "$T/out.json" '.files[] | select(.error) | .error.code')
check "past PATH_MAX: error code" io "$code"
check "past PATH_MAX: one message line" 1 "$(wc -l <"$T/err")"
grep -q "^elfplt: $T/long/0.*\.\.\..*: File name too long$" "$T/err" ||
	fail "past PATH_MAX: message: $(cut -c1-300 "$T/err")"
done_testing
