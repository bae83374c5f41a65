# SPDX-License-Identifier: MIT
# fish completion for elfplt(1).  Holds no list of commands or options: elfplt
# describes itself (see completion/elfplt.bash and cmd/describe.c):
# "elfplt [CMD] --list-options" prints "SPELLING ARG [VALUE...]" a line.

# The command on the line so far, or nothing.
function __elfplt_cmd
    set -l words (commandline -opc)
    set -l prog $words[1]
    set -l listing ($prog --list-options 2>/dev/null)
    set -l skip 0
    for w in $words[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
            case '-*'
                if contains -- "$w required" (string replace -r '^(\S+ \S+).*' '$1' -- $listing)
                    set skip 1
                end
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

# The candidates for the word under the cursor.
function __elfplt_complete
    set -l prog (commandline -opc)[1]
    set -l cur (commandline -ct)
    set -l prev (commandline -opc)[-1]
    set -l cmd (__elfplt_cmd)
    set -l listing
    if test -n "$cmd"; and test "$cmd" != help
        set listing ($prog $cmd --list-options 2>/dev/null)
    else
        set listing ($prog --list-options 2>/dev/null)
    end

    set -l opt
    set -l prefix ""
    if string match -q -- '--*=*' "$cur"
        set opt (string split -m 1 = -- "$cur")[1]
        set prefix "$opt="
    else if string match -q -- '-*' "$prev"
        for line in $listing
            set -l f (string split ' ' -- $line)
            if test "$f[1]" = "$prev"; and test "$f[2]" = required
                set opt $prev
            end
        end
    end
    if test -n "$opt"
        for line in $listing
            set -l f (string split ' ' -- $line)
            test "$f[1]" = "$opt"; or continue
            if test "$f[3]" = '<file>'
                __fish_complete_path (string replace -- "$prefix" "" "$cur") | string replace -r "^" -- "$prefix"
            else
                for v in $f[3..-1]
                    echo "$prefix$v"
                end
            end
        end
        return
    end

    if string match -q -- '-*' "$cur"
        for line in $listing
            set -l f (string split ' ' -- $line)
            string match -q -- '--*' $f[1]; or continue
            switch $f[2]
                case required
                    echo "$f[1]="
                case optional
                    echo $f[1]
                    echo "$f[1]="
                case '*'
                    echo $f[1]
            end
        end
        return
    end
    if test -z "$cmd"
        $prog --list-commands 2>/dev/null
        return
    end
    if test "$cmd" = help
        $prog --list-topics 2>/dev/null
        return
    end
    __fish_complete_path "$cur"
end

complete -c elfplt -f -a '(__elfplt_complete)'
