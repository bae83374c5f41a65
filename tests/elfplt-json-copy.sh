#!/bin/sh
# The elfplt the shell tests run (tests/lib.sh sets ELFPLT to this script and
# ELFPLT_BIN to the binary): it runs the binary with the same arguments,
# standard streams and exit status, and when the run writes JSON
# (--json, --format=json or --format json) it keeps a copy of the document in
# $ELFPLT_JSON_DIR, which done_testing validates against schema/
# (tests/validate-json.py).  A run without JSON, or with standard output on a
# terminal, is the binary itself (exec).
#
# Where the document goes: -o FILE / --output=FILE (copied after the run),
# else standard output: a pipe is read through a temporary file and passed
# on; a regular file is copied from the offset it had before the run (the
# file stays the binary's own standard output, so the output-is-an-input
# guard still sees it).
real=${ELFPLT_BIN:?tests/lib.sh sets ELFPLT_BIN}
dir=${ELFPLT_JSON_DIR:-}

json=no out= prev= cmd=
for a in "$@"; do
	case $prev in
	-o | --output) out=$a ;;
	--format) if [ "$a" = json ]; then json=yes; else json=no; fi ;;
	esac
	case $a in
	--json | --format=json) json=yes ;;
	--format=*) json=no ;;
	--output=*) out=${a#--output=} ;;
	-o?*) out=${a#-o} ;;
	-*) ;;
	*) case $prev in -o | --output | --format | -j | --max-size) ;; *) [ -n "$cmd" ] || cmd=$a ;; esac ;;
	esac
	prev=$a
done
# Internal entry points (__load-child) write no elfplt document.
case $cmd in __*) json=no ;; esac
if [ "$json" = no ] || [ -z "$dir" ] || { [ -z "$out" ] && [ -t 1 ]; }; then
	exec "$real" "$@"
fi
[ "$out" != - ] || out=
# World-writable, as /tmp is, for a test that runs elfplt as another user;
# where no copy can be kept, the run is still the binary's own.
[ -d "$dir" ] || mkdir -m 1777 "$dir" 2>/dev/null
base=$(mktemp "$dir/doc.XXXXXX" 2>/dev/null) || exec "$real" "$@"
copy=$base.json
echo "$*" >"$base.args"

rc=0
if [ -n "$out" ]; then
	"$real" "$@" || rc=$?
	[ -f "$out" ] && cp "$out" "$copy"
elif [ -f /proc/$$/fd/1 ] && [ ! -p /proc/$$/fd/1 ]; then
	# fd 9 names the file: the shell may redirect its own fd 1 for a command.
	exec 9>&1
	before=$(stat -L -c %s /proc/$$/fd/9)
	"$real" "$@" 9>&- || rc=$?
	tail -c +$((before + 1)) /proc/$$/fd/9 >"$copy"
	exec 9>&-
else
	"$real" "$@" >"$copy.tmp" 9>&- || rc=$?
	cat "$copy.tmp"
	mv "$copy.tmp" "$copy"
fi
echo "$rc" >"$base.rc"
exit "$rc"
