#!/usr/bin/env bash
# The mutation check: tests that fail when the code is wrong.
#
#   tests/mutants.sh [LIST...]      (make check-mutants runs it)
#
# Each LIST (default: lib/mutants.list and cmd/mutants.list of the source
# tree) names targeted source mutations.  The check copies the tree with
# `make distdir` (run from a configured build tree: the current directory),
# configures and builds the copy once, then for each mutant: replaces the
# mutant's anchor (a string found exactly once in its file) by the mutant's
# text, rebuilds incrementally, runs the tests named for it, and restores the
# file.  A mutant survives when those tests all pass.  The check fails when
# a mutant survives, when an anchor is missing or not unique (the list is out
# of date with the code: fix the entry), or when a mutant does not build.
# First the tests the list names run once on the unmutated copy: each must
# pass there (not skip), or its failure would pass for a kill.  A test that
# times out (MUTANT_TIMEOUT) kills its mutant; prefer mutants that fail
# fast.
#
# A list entry is a block of "key value" lines, blocks separated by blank
# lines, "#" lines are comments:
#   mutant  NAME          unique, short
#   why     WHAT THE MUTATION BREAKS, in one line
#   file    lib/x.c       relative to the top of the tree
#   from    ANCHOR        exact text (one line) found once in the file
#   to      REPLACEMENT   the text that replaces it (may be empty)
#   tests   T...          the tests (make check TESTS=) that must fail
#
# Environment: MUTANTS (an extended regex: only mutants whose name
# matches), MUTANT_TIMEOUT (seconds per mutant's tests, default 300),
# KEEP=1 (keep the copy, printed at the end).
set -u
builddir=$(pwd)
srcdir=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
[ -f "$builddir/Makefile" ] || {
	echo "mutants: run from a configured build tree (make check-mutants)" >&2
	exit 2
}
if [ $# -eq 0 ]; then
	for l in lib/mutants.list cmd/mutants.list; do
		[ -f "$srcdir/$l" ] && set -- "$@" "$srcdir/$l"
	done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/elfplt-mutants.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
copy=$work/elfplt
log=$work/log

echo "mutants: building a copy of the tree in $copy"
if ! make -s distdir distdir="$copy" >"$log" 2>&1 ||
	! (cd "$copy" && chmod -R u+w . && ./configure -q &&
		make -s -j"$jobs" && make -s -j"$jobs" check TESTS=) >>"$log" 2>&1; then
	cat "$log"
	echo "mutants: the unmutated copy does not build" >&2
	exit 1
fi

n=0 killed=0 survived=0 errors=0
declare -a report

# one_mutant: apply, rebuild, test, restore the mutant in $name, $file, $from,
# $to, $tests, $why; counts it.
one_mutant() {
	local f=$copy/$file content rest mutated status t failed
	n=$((n + 1))
	if [ -z "$name" ] || [ -z "$file" ] || [ -z "$from" ] || [ -z "$tests" ]; then
		report+=("ERROR     ${name:-?}: an entry needs mutant, file, from and tests")
		errors=$((errors + 1))
		return
	fi
	if [ ! -f "$f" ]; then
		report+=("ERROR     $name: $file is not in the tree (update $list)")
		errors=$((errors + 1))
		return
	fi
	content=$(cat "$f"; echo x)
	content=${content%x}
	rest=${content#*"$from"}
	if [ "$rest" = "$content" ]; then
		report+=("ERROR     $name: anchor not found in $file: $from (update $list)")
		errors=$((errors + 1))
		return
	fi
	if [[ $rest == *"$from"* ]]; then
		report+=("ERROR     $name: anchor occurs more than once in $file: $from")
		errors=$((errors + 1))
		return
	fi
	for t in $tests; do
		if [ ! -f "$copy/$t" ] && [ ! -f "$copy/$t.c" ]; then
			report+=("ERROR     $name: no test $t")
			errors=$((errors + 1))
			return
		fi
	done
	cp -p "$f" "$work/orig"
	mutated=${content/"$from"/"$to"}
	printf '%s' "$mutated" >"$f"
	if ! (cd "$copy" && make -s -j"$jobs" && make -s -j"$jobs" check TESTS=) >"$log" 2>&1; then
		report+=("ERROR     $name: the mutant does not build (see the entry's from/to)")
		errors=$((errors + 1))
		sed 's/^/    /' "$log" | tail -n 20
	else
		(cd "$copy" && env -u CI timeout "${MUTANT_TIMEOUT:-300}" \
			make -j"$jobs" check TESTS="$tests") \
			>"$log" 2>&1
		status=$?
		failed=$(sed -n 's/^\(FAIL\|ERROR\): \([^ ]*\).*/\2/p' "$log" | tr '\n' ' ')
		if [ "$status" -eq 124 ]; then
			failed="(timed out) $failed"
		fi
		if [ "$status" -ne 0 ]; then
			report+=("killed    $name -> ${failed:-make check status $status}")
			killed=$((killed + 1))
		else
			report+=("SURVIVED  $name: $why ($file; tests: $tests)")
			survived=$((survived + 1))
		fi
	fi
	# Restore, newer than the mutant's object, so the next build recompiles it.
	cp "$work/orig" "$f"
	touch "$f"
	echo "${report[${#report[@]} - 1]}"
}

# Every entry of every list, in order: E_name[i], E_why[i], ...
declare -a E_name E_why E_file E_from E_to E_tests E_list
ne=0
for list in "$@"; do
	name= why= file= from= to= tests= inblock=0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'#'*) continue ;;
		'')
			if [ "$inblock" = 1 ] &&
				{ [ -z "${MUTANTS:-}" ] || [[ $name =~ $MUTANTS ]]; }; then
				E_name[ne]=$name E_why[ne]=$why E_file[ne]=$file E_from[ne]=$from
				E_to[ne]=$to E_tests[ne]=$tests E_list[ne]=$list
				ne=$((ne + 1))
			fi
			name= why= file= from= to= tests= inblock=0
			continue
			;;
		esac
		inblock=1
		key=${line%%[[:space:]]*}
		val=${line#"$key"}
		val=${val#"${val%%[![:space:]]*}"}
		case $key in
		mutant) name=$val ;;
		why) why=$val ;;
		file) file=$val ;;
		from) from=$val ;;
		to) to=$val ;;
		tests) tests=$val ;;
		*)
			report+=("ERROR     ${name:-?}: unknown key '$key' in $list")
			errors=$((errors + 1))
			;;
		esac
	done < <(cat "$list"; echo)
done
dups=$(printf '%s\n' "${E_name[@]}" | sort | uniq -d | tr '\n' ' ')
if [ -n "$dups" ]; then
	report+=("ERROR     mutant names listed twice: $dups")
	errors=$((errors + 1))
fi

# The tests pass on the unmutated copy, or a failure would pass for a kill.
# CI is unset in every run here: a test that skips must not count as
# failing (a mutant it "kills" would hide that it is never tested).
baseline=$(printf '%s\n' "${E_tests[@]}" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
echo "mutants: ${ne} mutants; the unmutated copy against $(echo $baseline | wc -w) tests"
if ! (cd "$copy" && env -u CI make -j"$jobs" check TESTS="$baseline") >"$log" 2>&1; then
	grep -E '^(FAIL|ERROR|SKIP):' "$log"
	echo "mutants: the tests fail on the unmutated copy" >&2
	exit 1
fi
if grep -q '^SKIP:' "$log"; then
	grep '^SKIP:' "$log"
	echo "mutants: tests skip on the unmutated copy: they can kill no mutant" >&2
	exit 1
fi

for ((i = 0; i < ne; i++)); do
	name=${E_name[i]} why=${E_why[i]} file=${E_file[i]} from=${E_from[i]}
	to=${E_to[i]} tests=${E_tests[i]} list=${E_list[i]}
	one_mutant
done

echo
echo "mutants: $n listed, $killed killed, $survived survived, $errors errors"
for r in "${report[@]}"; do
	case $r in killed*) ;; *) echo "$r" ;; esac
done
[ "${KEEP:-0}" = 1 ] && echo "mutants: the copy is kept in $copy"
[ "$n" -gt 0 ] && [ "$survived" -eq 0 ] && [ "$errors" -eq 0 ]
