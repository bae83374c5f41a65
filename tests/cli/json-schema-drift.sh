#!/bin/sh
# schema/ and the manual pages name the same keys: every key of a schema is
# in elfplt-json(7) or its command's page (JSON OUTPUT), and every key those
# pages name is in a schema (tests/json-keys.py).  Then the check is shown
# to fail both ways on a copy: a key only in a schema, a key only in a page.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not found (./bootstrap --deps installs it)"
need JQ

python3 "$top_srcdir/tests/json-keys.py" "$top_srcdir"
check "schemas and pages name the same keys (exit status)" 0 "$?"

mkdir -p "$T/top/man" "$T/top/schema"
cp "$top_srcdir"/man/*.scd "$T/top/man/"
cp "$top_srcdir"/schema/*.schema.json "$T/top/schema/"
s=$T/top/schema/elfplt-stats.schema.json
"$JQ" '."$defs".file.properties.zz_schema_only = {"type": "integer"}' "$s" >"$T/s" && mv "$T/s" "$s"
python3 "$top_srcdir/tests/json-keys.py" "$T/top" >"$T/out"
check "a key only in a schema: exit status" 1 "$?"
check "a key only in a schema: named" 1 "$(grep -c "'zz_schema_only' is in the schema" "$T/out")"

cp "$top_srcdir"/schema/*.schema.json "$T/top/schema/"
printf '\n# EXTRA\n\n*zz_page_only*\n\tA key no schema has.\n' >>"$T/top/man/elfplt-json.7.scd"
python3 "$top_srcdir/tests/json-keys.py" "$T/top" >"$T/out"
check "a key only in elfplt-json(7): exit status" 1 "$?"
check "a key only in elfplt-json(7): named" 1 "$(grep -c "names 'zz_page_only'" "$T/out")"
done_testing
