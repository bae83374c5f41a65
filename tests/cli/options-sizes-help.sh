#!/bin/sh
# Options as the manual says them: load --threshold reads a size as
# --max-size does (K, M, G: powers of 1024); every command's --help and
# manual list the global options -j, -q and --max-size; elfplt help --help
# shows the usage instead of calling --help a command.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
obj=$(fixture load-relocs)

# --threshold: expected bytes by hand, K = 1024, M = 1024^2, G = 1024^3.
for case in 50:50 4K:4096 1KiB:1024 2M:2097152 1G:1073741824; do
	arg=${case%%:*}
	rc=0
	"$ELFPLT" load --repeat 1 --json --threshold "$arg" "$obj" >"$T/thr.json" \
		2>"$T/err" || rc=$?
	check "--threshold $arg: exit status" 0 "$rc"
	check "--threshold $arg: threshold_bytes" "${case#*:}" \
		"$(jqr "$T/thr.json" .inputs.hybrid.threshold_bytes)"
done
for arg in 0 4X -1 K ""; do
	rc=0
	"$ELFPLT" load --repeat 1 --threshold "$arg" "$obj" >/dev/null 2>"$T/err" || rc=$?
	check "--threshold '$arg': exit status" 2 "$rc"
	grep -q "^elfplt: --threshold takes a number of bytes" "$T/err" ||
		fail "--threshold '$arg': message: $(cat "$T/err")"
done

# Each command's --help names the global options it accepts.
for cmd in stats plt load; do
	"$ELFPLT" $cmd --help >"$T/help" || fail "$cmd --help: exit status $?"
	for opt in "-j, --jobs N" "-q, --quiet" "--max-size=BYTES" "-o, --output FILE"; do
		grep -q -- "^  $opt " "$T/help" || fail "$cmd --help does not list '$opt'"
	done
	# The manual's SYNOPSIS and OPTIONS, from the scdoc source.
	scd=$top_srcdir/man/elfplt-$cmd.1.scd
	sed -n '/^# SYNOPSIS/,/^# /p' "$scd" | grep -q -- '\*--max-size\*=_BYTES_' ||
		fail "elfplt-$cmd(1) SYNOPSIS lacks --max-size"
	sed -n '/^# OPTIONS/,/^# [A-Z]/p' "$scd" | grep -q -- '\*--max-size\*' ||
		fail "elfplt-$cmd(1) OPTIONS lacks --max-size"
done

# help --help and help -h: the usage, exit 0, nothing on standard error.
for h in --help -h; do
	rc=0
	"$ELFPLT" help $h >"$T/out" 2>"$T/err" || rc=$?
	check "help $h: exit status" 0 "$rc"
	grep -q '^usage: elfplt ' "$T/out" || fail "help $h: no usage: $(cat "$T/out")"
	check "help $h: standard error" "" "$(cat "$T/err")"
done
done_testing
