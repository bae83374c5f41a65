#!/bin/sh
# Bad files rather than bad ELF, through stats, plt and load: a FIFO (must
# not block), a path that does not exist, a path that is not UTF-8 or holds
# a newline, and a directory tree holding a FIFO, a symbolic-link loop, a
# dangling link, an empty file and a text file.  (-o naming an input:
# tests/cli/output-safety.sh.)
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
command -v timeout >/dev/null || skip "timeout(1) not found"

"$YAML2OBJ" --docnum=1 "$FIXTURES/bad-input-crafted.yaml" -o "$T/good.o" || exit 1
mkfifo "$T/fifo" || skip "cannot make a FIFO here"

# run CMD FILE...: elfplt CMD --json -o $T/out FILE... within 60 s (a FIFO
# that blocked would hang for ever); sets rc, $T/out and $T/err.
run() {
	rc=0
	cmd=$1
	shift
	if [ "$cmd" = load ]; then
		set -- --repeat 1 --sections=relocs "$@"
	fi
	timeout 60 "$ELFPLT" "$cmd" --json -o "$T/out" "$@" 2>"$T/err" </dev/null || rc=$?
}

# A path with a byte that is not UTF-8 (0xe9, Latin-1 e-acute) and one with
# a newline, both reported under their ep_text_clean()ed names: each bad
# byte is '?'.
latin=$(printf '%s/lat\351.o' "$T")
cp "$T/good.o" "$latin"
nl=$(printf '%s/bad\nline.o_' "$T")
nl=${nl%_}
printf 'not ELF\n' >"$nl"

for cmd in stats plt load; do
	run "$cmd" "$T/good.o" "$T/fifo" "$T/no-such.o" "$T/good.o"
	check "$cmd fifo+missing: exit status" 1 "$rc"
	check "$cmd fifo+missing: stderr" \
		"elfplt: $T/fifo: not a regular file
elfplt: $T/no-such.o: No such file or directory" "$(cat "$T/err")"
	check "$cmd fifo+missing: files reported" 4 "$(jqr "$T/out" '.files | length')"
	check "$cmd fifo+missing: errors" "null io io null" \
		"$(jqr "$T/out" '[.files[] | .error.code] | map(tostring) | join(" ")')"

	run "$cmd" "$T/good.o" "$latin" "$nl"
	check "$cmd odd names: exit status" 1 "$rc"
	check "$cmd odd names: one stderr line" 1 "$(wc -l <"$T/err")"
	check "$cmd odd names: message" "elfplt: $T/bad?line.o: not an ELF file" "$(cat "$T/err")"
	check "$cmd odd names: paths" "$T/good.o $T/lat?.o $T/bad?line.o" \
		"$(jqr "$T/out" '[.files[].path] | join(" ")')"
	check "$cmd odd names: only the text file failed" "null null not_elf" \
		"$(jqr "$T/out" '[.files[] | .error.code] | map(tostring) | join(" ")')"
done

# A tree: the walk takes good.o and passes quietly over the rest (not
# regular files, links it does not follow, files without ELF magic).
mkdir "$T/tree" "$T/tree/sub"
cp "$T/good.o" "$T/tree/sub/good.o"
mkfifo "$T/tree/fifo"
ln -s loop "$T/tree/loop"
ln -s . "$T/tree/sub/self"
ln -s nowhere "$T/tree/dangling"
: >"$T/tree/empty.o"
printf 'text\n' >"$T/tree/text.o"
for cmd in stats plt load; do
	run "$cmd" "$T/tree"
	check "$cmd tree: exit status" 0 "$rc"
	check "$cmd tree: stderr" "" "$(cat "$T/err")"
	check "$cmd tree: files" "$T/tree/sub/good.o" \
		"$(jqr "$T/out" '[.files[].path] | join(" ")')"
done

# A file the walk may not read is reported, not dropped unseen.  As root
# permissions do not bite, so then the run is made as nobody (setpriv).
mkdir "$T/locked"
cp "$T/good.o" "$T/locked/a.o"
cp "$T/good.o" "$T/locked/secret.o"
chmod 755 "$T" "$T/locked"
chmod 644 "$T/locked/a.o"
chmod 000 "$T/locked/secret.o"
as=
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null && as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" != 0 ] || [ -n "$as" ]; then
	rc=0
	$as "$ELFPLT" stats --json "$T/locked" >"$T/out" 2>"$T/err" || rc=$?
	check "unreadable file: exit status" 1 "$rc"
	check "unreadable file: message" "elfplt: $T/locked/secret.o: Permission denied" \
		"$(cat "$T/err")"
	check "unreadable file: files" "$T/locked/a.o:null $T/locked/secret.o:io" \
		"$(jqr "$T/out" '[.files[] | "\(.path):\(.error.code)"] | join(" ")')"
else
	echo "skipped: unreadable file (root without setpriv)"
fi

# A FIFO or a device is refused without being opened: open(2) alone would
# release a writer blocked on the FIFO, rewind a tape (/dev/st0) or arm a
# watchdog.  Named, and as members of a thin archive a walk finds (built by
# hand: ar(1) takes no FIFO; "//" holds the names, each ending "/\n", and
# each member header "/N" points at offset N in it, ar_size 1; padded to
# an even offset).  strace
# counts the openat(2) calls on them: none.
mkdir "$T/devtree"
names="$T/fifo/
/dev/zero/
"
hdr() { printf '%-16s%-12s%-6s%-6s%-8s%-10s`\n' "$1" 0 0 0 644 "$2"; }
{
	printf '!<thin>\n'
	hdr // ${#names}
	printf '%s' "$names"
	[ $((${#names} % 2)) = 1 ] && printf '\n' # members start on even offsets
	hdr /0 1
	hdr /$((${#T} + 7)) 1
} >"$T/devtree/lib.a"
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	for cmd in stats plt load; do
		[ $cmd = load ] && set -- --repeat 1 || set --
		rc=0
		# LeakSanitizer cannot run under ptrace: a sanitized build checks leaks elsewhere.
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 60 strace -f -e trace=openat -o "$T/trace" "$ELFPLT" $cmd "$@" \
			"$T/fifo" "$T/devtree" >/dev/null 2>"$T/err" </dev/null || rc=$?
		check "$cmd fifo, thin archive naming devices: exit status" 1 "$rc"
		check "$cmd fifo, thin archive naming devices: stderr" \
			"elfplt: $T/fifo: not a regular file
elfplt: $T/devtree/lib.a($T/fifo): $T/fifo: not a regular file
elfplt: $T/devtree/lib.a(/dev/zero): /dev/zero: not a regular file" "$(cat "$T/err")"
		check "$cmd: the FIFO and /dev/zero never opened" "" \
			"$(grep -E "openat\(.*\"($T/fifo|/dev/zero)\"" "$T/trace")"
	done
else
	skip_part "strace not usable here: opens of a FIFO and a device not checked"
fi

done_testing
