#!/bin/sh
# schema/: every schema is a valid draft 2020-12 schema; elfplt's documents
# of every kind, on fixtures, validate (and are counted, so the validation
# tests/lib.sh runs after every test cannot silently see nothing); and the
# validator rejects what the schemas forbid: a bare-string enumeration, an
# unknown key, a missing key, an unknown document kind.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not found (./bootstrap --deps installs it)"
python3 -c 'import jsonschema' 2>/dev/null ||
	{ fail "python3-jsonschema is missing (./bootstrap --deps installs it)"; done_testing; }
need JQ
V="python3 $top_srcdir/tests/validate-json.py $top_srcdir/schema"

# One schema per kind, each named by its $id; the kinds the validator knows.
for s in "$top_srcdir"/schema/*.schema.json; do
	kind=$(basename "$s" .schema.json)
	check "$kind: \$id" "https://elfplt.invalid/schema/$kind.schema.json" "$(jqr "$s" '."$id"')"
	check "$kind: draft 2020-12" "https://json-schema.org/draft/2020-12/schema" \
		"$(jqr "$s" '."$schema"')"
done

x86=$(fixture stats-x86-64)
relr=$(fixture stats-relr)
a64=$(fixture plt-arm64-basic)
obj=$(fixture plt-object-x86)
linked=$(fixture plt-linked)
printf 'not elf\n' >"$T/bad.o"
zstd -q -c "$x86" >"$T/x86.o.zst" 2>/dev/null || cp "$x86" "$T/x86.o.zst"

# Each command, stdout and -o, good, bad and compressed inputs: all kept by
# tests/elfplt-json-copy.sh and validated here and again by done_testing.
n=0
for cmd in stats plt load; do
	"$ELFPLT" $cmd -q --json "$x86" "$relr" "$a64" "$obj" "$linked" "$T/x86.o.zst" \
		>"$T/$cmd.json" 2>/dev/null
	"$ELFPLT" $cmd -q --format=json -o "$T/$cmd-o.json" "$a64" "$T/bad.o" 2>/dev/null
	"$ELFPLT" $cmd -q --format json "$x86" 2>/dev/null | cat >"$T/$cmd-pipe.json"
	n=$((n + 3))
	check "$cmd: document kind" "elfplt-$cmd" "$(jqr "$T/$cmd.json" '.schema | sub("/.*"; "")')"
	check "$cmd: a failed file has path and error only" '["error","path"]' \
		"$(jqr "$T/$cmd-o.json" '.files[1] | keys | tojson')"
done
$V "$ELFPLT_JSON_DIR" >"$T/v.out"
check "validator exit status" 0 "$?"
cat "$T/v.out"
check "documents kept and validated" "$n" \
	"$(sed -n 's/^ok: \([0-9]*\) documents valid.*/\1/p' "$T/v.out")"

# What the schemas forbid.  Each mutation of a valid document must fail.
mutant() {
	"$JQ" "$2" "$T/stats.json" >"$T/mutant.json"
	if $V "$T/mutant.json" >"$T/m.out"; then
		fail "validator accepted $1"
	else
		echo "ok: rejected: $1: $(grep FAIL "$T/m.out" | head -n 1 | sed 's/.*: at /at /')"
	fi
}
mutant "a bare-string kind (elfplt-stats/1's)" \
	'.files[0].relocations.sections[0].kind = "RELA"'
mutant "a bare-string section compression" \
	'.files[0].relocations.sections[0].compression = "none"'
mutant "an enumeration without value" 'del(.files[0].elf.machine.value)'
mutant "an unknown key in a file object" '.files[0].no_such_key = 1'
mutant "a missing key" 'del(.files[0].relocations.total)'
mutant "a count as a string" '.totals.files = "1"'
mutant "a file compression not in the list" '.files[0].compression = "bzip2"'
mutant "an error code not in the list" '.files[0] = {"path": "x", "error": {"code": "oops", "message": "x"}}'
mutant "an old schema version" '.schema = "elfplt-stats/1"'
mutant "an unknown document kind" '.schema = "elfplt-nosuch/1"'
done_testing
