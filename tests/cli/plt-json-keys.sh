#!/bin/sh
# The keys elfplt-plt(1) and elfplt-json(7) promise in plt's file objects:
# note always present (null when a model covers the file), slots and bytes
# at the same place for every model, sort.timing only with --timing, as
# {full_ns, partitioned_ns}, for a model whose loader sorts.  Values of
# timing are never asserted, only their presence and type.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ
ko=$(fixture plt-arm64-basic)

"$ELFPLT" plt --json "$ko" >"$T/plain.json" || fail "plt: exit status $?"
check "note present" true "$(jqr "$T/plain.json" '.files[0] | has("note")')"
check "note null (the arm64-module model covers it)" null "$(jqr "$T/plain.json" '.files[0].note')"
check "no timing without --timing" false "$(jqr "$T/plain.json" '.files[0].sort | has("timing")')"

"$ELFPLT" plt --timing=3 --json "$ko" >"$T/timed.json" || fail "plt --timing: exit status $?"
check "--timing: files[].sort.timing keys" '["full_ns","partitioned_ns"]' \
	"$(jqr "$T/timed.json" '.files[0].sort.timing | keys | tojson')"
check "--timing: both numbers" "number number" \
	"$(jqr "$T/timed.json" '.files[0].sort.timing |
		"\(.full_ns | type) \(.partitioned_ns | type)"')"
check "--timing: note still present" true "$(jqr "$T/timed.json" '.files[0] | has("note")')"

# The pages name them.
grep -q '\*note\* (always present' "$top_srcdir/man/elfplt-plt.1.scd" ||
	fail "elfplt-plt(1) does not say note is always present"
grep -q 'with \*--timing\*, \*timing\*' "$top_srcdir/man/elfplt-plt.1.scd" ||
	fail "elfplt-plt(1) does not document files[].sort.timing"

# Every model's files have slots and bytes, each {reserved, minimum}.
x86=$(fixture plt-object-x86)
linked=$(fixture plt-linked)
"$ELFPLT" plt --json "$ko" "$x86" "$linked" >"$T/models.json" || fail "plt models: exit $?"
check "slots and bytes in every model's files" "true true true" \
	"$(jqr "$T/models.json" '[.files[] | (.slots | has("reserved") and has("minimum")) and
		(.bytes | has("reserved") and has("minimum"))] | map(tostring) | join(" ")')"
check "schema" "elfplt-plt/2" "$(jqr "$T/models.json" .schema)"
done_testing
