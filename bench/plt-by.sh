#!/bin/sh
# The cost of attribution: elfplt plt --by=callee and --by=caller against
# plain plt on Debian 12's arm64 6.1 module tree (tests/real/fetch-modules.sh
# 6.1), text and --json, -j 1 (one process does all the work, so the ratio
# is the work's and not the machine's load), warm cache.
#
#   bench/plt-by.sh [ELFPLT]     ELFPLT defaults to ./elfplt; RUNS=5
#
# Prints each mean wall time and user CPU time and their ratios to plain
# plt of the same format (goal: at most 1.5x); on a shared, loaded machine
# the user-time ratio is the steadier one.  --by records the slot-needing relocations (struct
# ep_plt_site), names them from the symbol table and writes a table per
# file; the cu and line forms add libdwfl, which Debian's stripped modules
# do not reach.  Then what jansson alone costs for the JSON documents
# (bench/json-floor.c), and so the best ratio a jansson-made --json --by
# report could have.  Not part of make check: timing is never asserted.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ELFPLT=${1:-${ELFPLT:-./elfplt}}
RUNS=${RUNS:-5}
. "$here/bench/lib.sh"
bench_need

dir=$(sh "$here/tests/real/fetch-modules.sh" 6.1) ||
	{ echo "bench: no 6.1 module tree" >&2; exit 2; }
bench_tmpdir
echo "input: $(find "$dir" -name '*.ko' -type f | wc -l) modules in $dir"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

cat >"$T/cmds" <<EOF2
plt|$ELFPLT plt -j 1 -q -o /dev/null $dir
plt --by=callee|$ELFPLT plt -j 1 -q --by=callee -o /dev/null $dir
plt --by=caller|$ELFPLT plt -j 1 -q --by=caller -o /dev/null $dir
plt --by=callee,caller,cause|$ELFPLT plt -j 1 -q --by=callee,caller,cause -o /dev/null $dir
plt --json|$ELFPLT plt -j 1 -q --json -o /dev/null $dir
plt --json --by=callee|$ELFPLT plt -j 1 -q --json --by=callee -o /dev/null $dir
plt --json --by=caller|$ELFPLT plt -j 1 -q --json --by=caller -o /dev/null $dir
EOF2
bench_warm
bench_time 1
# Wall time, and user CPU time, which a loaded machine distorts less.
awk -F'|' '
	$1 == "plt" { base = $2; ubase = $4 } $1 == "plt --json" { jbase = $2; jubase = $4 }
	{ name[NR] = $1; ms[NR] = $2; sd[NR] = $3; us[NR] = $4 }
	END {
		printf "%-32s %9s      %5s   %-12s %8s\n", "", "wall", "sd", "", "user"
		for (i = 1; i <= NR; i++) {
			b = name[i] ~ /--json/ ? jbase : base
			u = name[i] ~ /--json/ ? jubase : ubase
			printf "%-32s %9.0f ms  +- %5.0f   %.2fx plain  %6.0f ms  %.2fx plain\n",
				name[i], ms[i], sd[i], ms[i] / b, us[i], us[i] / u
		}
	}' "$T/times"
# What jansson alone costs for the JSON rows (bench/json-floor.c: each files[]
# entry built value by value and dumped with elfplt's flags, no ELF work):
# the --by rows' share of it is the least a jansson-made --json --by report
# adds to plain --json, whatever attribution costs.
CC=${CC:-cc}
# shellcheck disable=SC2046
if "$CC" -O2 -o "$T/json-floor" "$here/bench/json-floor.c" $(pkg-config --cflags --libs jansson) \
	2>/dev/null; then
	for by in "" callee caller; do
		"$ELFPLT" plt -j 1 -q --json ${by:+--by=$by} -o "$T/floor-$by.json" "$dir"
		"$T/json-floor" "$T/floor-$by.json" | awk '{ print $(NF - 1) }' >"$T/floor-$by.ms"
	done
	awk -F'|' -v f0="$(cat "$T/floor-.ms")" -v fe="$(cat "$T/floor-callee.ms")" \
		-v fr="$(cat "$T/floor-caller.ms")" '
		$1 == "plt --json" { j = $2; ju = $4 }
		END {
			printf "jansson alone (build + dump, best of 5): plain --json %.0f ms, --by=callee %.0f ms, --by=caller %.0f ms\n", f0, fe, fr
			printf "  so at best, were attribution free: --json --by=callee %.2fx wall %.2fx user, --by=caller %.2fx %.2fx\n",
				(j + fe - f0) / j, (ju + fe - f0) / ju, (j + fr - f0) / j, (ju + fr - f0) / ju
		}' "$T/times"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
