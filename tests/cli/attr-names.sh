#!/bin/sh
# Names in the --by tables are bytes from the file: in text, a control
# character (newline, ESC) becomes '?' as in a walked path, so no line or
# terminal escape is injected; JSON keeps the symbol's exact name.
# tests/fixtures/attr-ctrl.yaml: one CALL26 from "call\nfake" to "ext\e[2J".
. "$top_srcdir/tests/lib.sh"
need JQ
o=$(fixture attr-ctrl)
esc=$(printf '\033')

"$ELFPLT" plt --by=callee,caller "$o" >"$T/text" || fail "plt: exit $?"
check "plt --by text: no ESC byte" 0 "$(grep -c "$esc" "$T/text")"
check "plt --by=callee: ESC as '?'" 1 "$(grep -c '^    ext?\[2J  ' "$T/text")"
check "plt --by=caller: newline as '?'" 1 "$(grep -c '^    call?fake  ' "$T/text")"
check "plt --by text: no line from the name" 0 "$(grep -c '^fake' "$T/text")"
"$ELFPLT" stats --by=symbol,section "$o" >"$T/text" || fail "stats: exit $?"
check "stats --by text: no ESC byte" 0 "$(grep -c "$esc" "$T/text")"
check "stats --by=symbol: ESC as '?'" 1 "$(grep -c '^    ext?\[2J  ' "$T/text")"
check "stats --by=section: newline and ESC as '?'" 1 "$(grep -c '^    \.text??\[31m  ' "$T/text")"
"$ELFPLT" plt --json --by=callee,caller "$o" >"$T/out.json" || fail "plt json: exit $?"
check "JSON: the callee's exact name" "$(printf 'ext\033[2J')" \
	"$(jqr "$T/out.json" '.files[0].attribution.callee[0].name')"
check "JSON: the caller's exact name" "call
fake" "$(jqr "$T/out.json" '.files[0].attribution.caller[0].name')"
done_testing
