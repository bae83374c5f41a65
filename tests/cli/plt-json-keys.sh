#!/bin/sh
# The keys elfplt-plt(1) and elfplt-json(7) promise in plt's file objects:
# note always present (null when a model covers the file), timing only with
# --timing, as {full_ns, partitioned_ns}, for an arm64 module.  Values of
# timing are never asserted, only their presence and type.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
ko=$(fixture plt-arm64-basic)

"$ELFPLT" plt --json "$ko" >"$T/plain.json" || fail "plt: exit status $?"
check "note present" true "$(jqr "$T/plain.json" '.files[0] | has("note")')"
check "note null (the arm64-module model covers it)" null "$(jqr "$T/plain.json" '.files[0].note')"
check "no timing without --timing" false "$(jqr "$T/plain.json" '.files[0] | has("timing")')"

"$ELFPLT" plt --timing=3 --json "$ko" >"$T/timed.json" || fail "plt --timing: exit status $?"
check "--timing: files[].timing keys" '["full_ns","partitioned_ns"]' \
	"$(jqr "$T/timed.json" '.files[0].timing | keys | tojson')"
check "--timing: both numbers" "number number" \
	"$(jqr "$T/timed.json" '.files[0].timing |
		"\(.full_ns | type) \(.partitioned_ns | type)"')"
check "--timing: note still present" true "$(jqr "$T/timed.json" '.files[0] | has("note")')"

# The pages name them.
grep -q '\*note\* (always present' "$top_srcdir/man/elfplt-plt.1.scd" ||
	fail "elfplt-plt(1) does not say note is always present"
grep -q 'with \*--timing\* for an arm64-module file \*timing\*' \
	"$top_srcdir/man/elfplt-plt.1.scd" ||
	fail "elfplt-plt(1) does not document files[].timing"
done_testing
