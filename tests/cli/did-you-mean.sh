#!/bin/sh
# An unknown command or long option is answered with the nearest known ones,
# by git's weighted edit distance (swap 0, add 1, substitute 2, delete 3),
# when one is close enough (at most 1 + half the typed length, or the typed
# word starts it); exit status stays 2.  Distances worked by hand:
#   stat  -> stats: add 's'              = 1  (limit 3)
#   laod  -> load:  swap 'a','o'         = 0
#   pt    -> plt:   add 'l'              = 1  (limit 2)
#   plts  -> plt:   delete 's'           = 3  (limit 3)
#   foo   -> load:  subst f,o + add d    = 5  (limit 2): no suggestion
#   jsn   -> json:  add 'o'              = 1
#   --fromat -> format: swap             = 0
#   --sumary -> summary: add 'm'         = 1
#   --t (plt): starts both --timing and --top: both named
#   --kernle -> kernel: swap             = 0 (--kaslr: 2 substitutions + ... > 4)
. "$top_srcdir/tests/lib.sh"


expect_usage_error "stat" "stat" "elfplt: 'stat' is not a command; did you mean 'stats'?"
expect_usage_error "laod" "laod" "elfplt: 'laod' is not a command; did you mean 'load'?"
expect_usage_error "pt" "pt" "elfplt: 'pt' is not a command; did you mean 'plt'?"
expect_usage_error "plts" "plts" "elfplt: 'plts' is not a command; did you mean 'plt'?"
expect_usage_error "foo" "foo" "elfplt: 'foo' is not a command"
expect_usage_error "halp" "halp" "elfplt: 'halp' is not a command; did you mean 'help'?"
# The hidden child entry point is never suggested.
expect_usage_error "__load-chil" "__load-chil" "elfplt: '__load-chil' is not a command"
expect_usage_error "help stat" "help stat" \
	"elfplt: 'stat' is not a command or help topic; did you mean 'stats'?"
expect_usage_error "help jsn" "help jsn" \
	"elfplt: 'jsn' is not a command or help topic; did you mean 'json'?"

# Long options: of the command's own table and the global ones.
expect_usage_error "stats --jsn" "stats --jsn x.o" "elfplt: unknown option '--jsn'; did you mean '--json'?"
expect_usage_error "--jsn before the command" "--jsn stats" \
	"elfplt: unknown option '--jsn'; did you mean '--json'?"
expect_usage_error "plt --fromat=json" "plt --fromat=json x.o" \
	"elfplt: unknown option '--fromat=json'; did you mean '--format'?"
expect_usage_error "plt --sumary" "plt --sumary x.o" \
	"elfplt: unknown option '--sumary'; did you mean '--summary'?"
expect_usage_error "plt --t" "plt --t x.o" \
	"elfplt: unknown option '--t'; did you mean '--timing' or '--top'?"
expect_usage_error "plt --kernle=6.1" "plt --kernle=6.1 x.o" \
	"elfplt: unknown option '--kernle=6.1'; did you mean '--kernel'?"
expect_usage_error "load --repaet" "load --repaet 3 x.o" \
	"elfplt: unknown option '--repaet'; did you mean '--repeat'?"
expect_usage_error "stats --frobnicate" "stats --frobnicate x.o" "elfplt: unknown option '--frobnicate'"
# The second line still says where to look.
"$ELFPLT" stats --jsn x.o 2>"$T/err" >/dev/null
check "hint line" "Try 'elfplt stats --help' or 'elfplt help stats'." "$(sed -n 2p "$T/err")"

[ "$nfail" -eq 0 ]
