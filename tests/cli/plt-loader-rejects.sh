#!/bin/sh
# The module loader's own refusals in plt (issue 18), beyond the arch's PLT
# sizing: a SHN_COMMON symbol (kernel/module/main.c simplify_symbols(),
# "please compile with -fno-common"), a relocation type arm64's
# apply_relocate_add() has no case for (the GOT relocations of a module
# built -fPIC: "unsupported RELA relocation: 311"), in the loader's order
# and both byte orders; and what the loader skips is no refusal (a common
# symbol named __gnu_lto*, a relocation of a section that is not
# SHF_ALLOC).  Each expected text is derived in
# tests/fixtures/plt-arm64-loader-rejects.yaml's header from the kernel
# sources; readelf -rsW confirms the fixtures hold what it says.  The same
# for arm (apply_relocate(), tests/fixtures/plt-arm-loader-rejects.yaml) and
# riscv (apply_relocate_add()'s handler table by version,
# tests/fixtures/plt-riscv-loader-rejects.yaml).
. "$top_srcdir/tests/lib.sh"
need YAML2OBJ JQ READELF
Y=$FIXTURES/plt-arm64-loader-rejects.yaml
for d in 1 2 3 4 5 6; do
	"$YAML2OBJ" --docnum=$d "$Y" -o "$T/m$d.ko" || exit 1
done
check "doc 1: GOT relocations per readelf" "R_AARCH64_ADR_GOT_PAGE R_AARCH64_LD64_GOT_LO12_NC" \
	"$("$READELF" -rW "$T/m1.ko" | sed -n '/.rela.text/,/^$/p' | awk '/GOT/ { print $3 }' |
		tr '\n' ' ' | sed 's/ $//')"
check "doc 3: common symbols per readelf" "__gnu_lto_slim shared_buf" \
	"$("$READELF" -sW "$T/m3.ko" | awk '$7 == "COM" { print $8 }' | tr '\n' ' ' | sed 's/ $//')"

got="unsupported RELA relocation: 311"
common="please compile with -fno-common"
for d in 1 2 3 4 5 6; do
	case $d in
	1 | 2) want=$got ;;
	3 | 4) want=$common ;;
	*) want=null ;;
	esac
	rc=0
	"$ELFPLT" plt --json "$T/m$d.ko" >"$T/out.json" 2>"$T/err" || rc=$?
	check "doc $d: exit" 0 "$rc"
	check "doc $d: stderr" "" "$(cat "$T/err")"
	check "doc $d: model" arm64-module "$(jqr "$T/out.json" '.files[0].model')"
	check "doc $d: rejects" "$want" "$(jqr "$T/out.json" '.files[0].rejects')"
	check "doc $d: totals.rejects" "$([ "$want" = null ] && echo 0 || echo 1)" \
		"$(jqr "$T/out.json" '.totals.rejects')"
	# What the loader would reserve is still reported: 1 CALL26 to printk,
	# 1 core PLT slot and ceil(1/341) = 1 for the erratum 843419 workaround.
	check "doc $d: core PLT slots still counted" 2 \
		"$(jqp "$T/out.json" '.files[0] | plt("core").reserved')"
	"$ELFPLT" plt "$T/m$d.ko" >"$T/out" 2>&1
	if [ "$want" = null ]; then
		check "doc $d: text says nothing of a refusal" 0 "$(grep -c 'rejects this' "$T/out")"
	else
		check "doc $d: text" "  the kernel rejects this module: $want" \
			"$(grep 'rejects this' "$T/out")"
	fi
done


# arm (tests/fixtures/plt-arm-loader-rejects.yaml): apply_relocate()'s
# default case, and the RELA stub of include/linux/moduleloader.h.
A=$FIXTURES/plt-arm-loader-rejects.yaml
for d in 1 2 3 4; do
	"$YAML2OBJ" --docnum=$d "$A" -o "$T/a$d.ko" || exit 1
done
check "arm doc 1: types per readelf" "R_ARM_CALL R_ARM_GOT_BREL R_ARM_THM_MOVW_ABS_NC" \
	"$("$READELF" -rW "$T/a1.ko" | sed -n '/.rel.text/,/^$/p' | awk '/R_ARM/ { print $3 }' |
		tr '\n' ' ' | sed 's/ $//')"
check "arm doc 4: a RELA section per readelf" 1 \
	"$("$READELF" -SW "$T/a4.ko" | grep -c ' RELA ')"
for d in 1 2 3 4; do
	case $d in
	1 | 2) want="unknown relocation: 26" ;;
	3) want=null ;;
	4) want="REL relocation unsupported (apply_relocate_add() for an SHT_RELA section)" ;;
	esac
	rc=0
	"$ELFPLT" plt --json "$T/a$d.ko" >"$T/out.json" 2>"$T/err" || rc=$?
	check "arm doc $d: exit" 0 "$rc"
	check "arm doc $d: stderr" "" "$(cat "$T/err")"
	check "arm doc $d: model" arm-module "$(jqr "$T/out.json" '.files[0].model')"
	check "arm doc $d: rejects" "$want" "$(jqr "$T/out.json" '.files[0].rejects')"
	check "arm doc $d: totals.rejects" "$([ "$want" = null ] && echo 0 || echo 1)" \
		"$(jqr "$T/out.json" '.totals.rejects')"
	# CALL printk with the zero addend: 2 fixed slots + 1.
	check "arm doc $d: core PLT slots still counted" 3 \
		"$(jqp "$T/out.json" '.files[0] | plt("core").reserved')"
done

# riscv (tests/fixtures/plt-riscv-loader-rejects.yaml): the handler table of
# apply_relocate_add(), which grew in v6.7.
R=$FIXTURES/plt-riscv-loader-rejects.yaml
for d in 1 2 3 4; do
	"$YAML2OBJ" --docnum=$d "$R" -o "$T/r$d.ko" || exit 1
done
# r_info per readelf: types 0x13 (CALL_PLT), 0x36 (SET8), 0x3d (61,
# SUB_ULEB128, which binutils 2.40 does not name), 0x39 (32_PCREL).
check "riscv doc 3: r_info per readelf" \
	"0000000200000013 0000000300000036 000000030000003d 0000000300000039" \
	"$("$READELF" -rW "$T/r3.ko" | sed -n "/'.rela.text'/,/^\$/p" | awk '/^0/ { print $2 }' |
		tr '\n' ' ' | sed 's/ $//')"
tls="Thread local storage not supported in kernel modules PC = .text+0x8 (R_RISCV_TLS_GD_HI20), -EINVAL"
dyn="Dynamic linking not supported in kernel modules PC = .data+0x10 (R_RISCV_RELATIVE), -EINVAL"
set8="Unknown relocation type 54 (R_RISCV_SET8 in .rela.text), -EINVAL"
for d in 1 2 3 4; do
	for k in 6.1 6.12 7.2; do
		case $d.$k in
		1.6.1 | 3.6.1) want=$set8 ;;
		1.*) want=$tls ;;
		2.6.1) want="Unknown relocation type 3 (R_RISCV_RELATIVE in .rela.data), -EINVAL" ;;
		2.*) want=$dyn ;;
		*) want=null ;;
		esac
		rc=0
		"$ELFPLT" plt --json --kernel="$k" "$T/r$d.ko" >"$T/out.json" 2>"$T/err" || rc=$?
		check "riscv doc $d at $k: exit" 0 "$rc"
		check "riscv doc $d at $k: stderr" "" "$(cat "$T/err")"
		check "riscv doc $d at $k: rejects" "$want" "$(jqr "$T/out.json" '.files[0].rejects')"
		check "riscv doc $d at $k: totals.rejects" \
			"$([ "$want" = null ] && echo 0 || echo 1)" "$(jqr "$T/out.json" '.totals.rejects')"
	done
done

done_testing
