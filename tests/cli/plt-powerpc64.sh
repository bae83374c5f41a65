#!/bin/sh
# elfplt plt, powerpc64-module model, on yaml2obj fixtures.  Every expected
# number is derived by hand in the fixtures' comments from Linux
# arch/powerpc/kernel/module_64.c (6.1.176, 6.12.117, 7.2.13); none is taken
# from elfplt's output.
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ

# abi FILE LEVEL OFFSET: write the ELF ABI level into e_flags (at 48; its
# low byte is at 48 little-endian, 51 big-endian).  yaml2obj names no
# EM_PPC64 flags.
abi() {
	printf "\\$(printf '%03o' "$2")" | dd of="$1" bs=1 seek="$3" conv=notrunc status=none
}

basic=$(fixture plt-ppc64-basic)
abi "$basic" 2 48
sed 's/ELFDATA2LSB/ELFDATA2MSB/' "$FIXTURES/plt-ppc64-basic.yaml" >"$T/be.yaml"
"$YAML2OBJ" "$T/be.yaml" -o "$T/basic-be" || fail "yaml2obj: big-endian basic"
abi "$T/basic-be" 2 51

# sec JSON NAME FILTER: FILTER over the section record named NAME.
sec() {
	jqr "$1" ".files[0].sections[] | select(.name == \"$2\") | $3"
}
# kind JSON KIND: "reserved minimum" of slots of KIND (group module).
kind() {
	jqr "$1" ".files[0].slots.by_kind[] | select(.kind == \"$2\") |
		\"\(.reserved) \(.minimum)\""
}
over() {
	jqr "$1" '.files[0].detail.over_allocation |
		"\(.sentinel) \(.addend) \(.local) \(.per_section)"'
}

for f in "$basic" "$T/basic-be"; do
	j=$T/basic.json
	"$ELFPLT" plt --json "$f" >"$j" || fail "plt $f exited $?"
	b=$(basename "$f")
	check "$b: model" powerpc64-module "$(jqr "$j" '.files[0].model')"
	check "$b: kernel" "6.12.113 vermagic" "$(jqr "$j" '.files[0].rules.kernel |
		"\(.version) \(.from)"')"
	check "$b: rejects" null "$(jqr "$j" '.files[0].rejects')"
	check "$b: sections (every RELA)" 4 "$(jqr "$j" '.files[0].sections | length')"
	check "$b: .rela.text relocs rel24 needed" "8 7 6" "$(sec "$j" .rela.text \
		'"\(.relocations) \(.detail.rel24_relocations) \(.needed)"')"
	check "$b: .rela.text stubs counted (negative addend twice), distinct needed" "6 4" \
		"$(sec "$j" .rela.text '"\(.slots.reserved) \(.slots.minimum)"')"
	check "$b: .rela.init.text stubs" "3 2" \
		"$(sec "$j" .rela.init.text '"\(.slots.reserved) \(.slots.minimum)"')"
	check "$b: .rela.data stubs" "0 0" \
		"$(sec "$j" .rela.data '"\(.slots.reserved) \(.slots.minimum)"')"
	check "$b: .rela.debug_info (never applied) stubs" "1 0" \
		"$(sec "$j" .rela.debug_info '"\(.slots.reserved) \(.slots.minimum)"')"
	check "$b: branch stubs (1 sentinel + 10), minimum module-wide" "11 4" "$(kind "$j" stub)"
	check "$b: ftrace stubs" "2 2" "$(kind "$j" trampoline)"
	check "$b: .stubs bytes" "520 240" "$(jqp "$j" '.files[0] | sized(".stubs") |
		"\(.reserved) \(.minimum)"')"
	check "$b: sort" "14 14 8 4" "$(jqr "$j" '.files[0].sort |
		"\(.full) \(.loader) \(.needed) \(.sections)"')"
	check "$b: over-allocation sentinel addend local per-section" "1 1 3 2" "$(over "$j")"
done

# Versions: the out-of-line ftrace stubs (v6.13), the sentinel (to v6.17).
j=$T/v.json
for kv in "6.1 11 2 520" "6.12 11 2 520" "6.13 11 4 600" "6.17 11 4 600" "6.18 10 4 560" \
	"7.2 10 4 560"; do
	set -- $kv
	"$ELFPLT" plt --json --kernel "$1" "$basic" >"$j" || fail "--kernel $1 exited $?"
	check "--kernel $1: stubs, ftrace stubs, bytes" "$2 $3 $4" "$(jqr "$j" '.files[0] |
		"\(.slots.by_kind[] | select(.kind == "stub") | .reserved) \(
		.slots.by_kind[] | select(.kind == "trampoline") | .reserved) \(.bytes.reserved)"')"
done
"$ELFPLT" plt --json --kernel 7.2 "$basic" >"$j" || fail "--kernel 7.2 exited $?"
check "7.2: minimum bytes (4 + 2 + 2) x 40" 320 "$(jqr "$j" '.files[0].bytes.minimum')"
check "7.2: out-of-line entries and stubs" "3 2" "$(jqr "$j" '.files[0].detail |
	"\(.ool_entries) \(.ool_stubs)"')"
check "7.2: no sentinel" "0 1 3 2" "$(over "$j")"

# Rejections, in the loader's words.
rej=$(fixture plt-ppc64-reject)
cp "$rej" "$T/reject0"
abi "$rej" 2 48
"$ELFPLT" plt --json "$rej" >"$j" || fail "reject exited $?"
check "unknown type" "Unknown ADD relocation: 116 (section 2 .rela.text)" \
	"$(jqr "$j" '.files[0].rejects')"
check "unknown type: stubs still counted" "2 1" "$(kind "$j" stub)"
"$ELFPLT" plt --json "$T/reject0" >"$j" || fail "reject0 exited $?"
check "ELFv1 flags, 6.12" \
	"Invalid module architecture in ELF header: 21 (e_flags ABI level 0, not 2: ELFv2)" \
	"$(jqr "$j" '.files[0].rejects')"
"$ELFPLT" plt --json --kernel 6.1 "$T/reject0" >"$j" || fail "reject0 6.1 exited $?"
check "ELFv1 flags, 6.1 (no check before 6.2)" \
	"Unknown ADD relocation: 116 (section 2 .rela.text)" "$(jqr "$j" '.files[0].rejects')"
nos=$(fixture plt-ppc64-nostubs)
abi "$nos" 2 48
"$ELFPLT" plt --json "$nos" >"$j" || fail "nostubs exited $?"
check "no .stubs" "doesn't contain .stubs." "$(jqr "$j" '.files[0].rejects')"
check "no .stubs: counts, bytes" "3 2 200" "$(jqr "$j" '.files[0] |
	"\(.slots.by_kind[] | select(.kind == "stub") | "\(.reserved) \(.minimum)") \(
	.bytes.reserved)"')"
"$ELFPLT" plt "$nos" >"$T/text" || fail "nostubs text exited $?"
grep -q "the kernel rejects this module: doesn't contain .stubs." "$T/text" ||
	fail "text output names the rejection"

# --timing fills both medians; the text names over-allocation in one line.
"$ELFPLT" plt --json --timing=3 "$basic" >"$j" || fail "--timing exited $?"
check "timing measured" true \
	"$(jqr "$j" '.files[0].sort.timing | .full_ns > 0 and .partitioned_ns > 0')"
"$ELFPLT" plt "$basic" >"$T/text" || fail "text exited $?"
check "text over-allocation line" 1 \
	"$(grep -c '^  over-allocation: sentinel 1, per-section 2, local 3, addend 1$' "$T/text")"
done_testing
