# bash completion for elfplt(1)                            -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Holds no list of commands or options: elfplt describes itself
# (cmd/describe.c), so what it completes is what the binary at hand parses.
#   elfplt --list-commands, --list-topics (what "elfplt help" takes)
#   elfplt [CMD] --list-options: "SPELLING ARG [VALUE...]" a line, ARG none,
#   required or optional, VALUEs the words the option takes or "<file>".

# _elfplt_option_line LISTING SPELLING: the listing's line of SPELLING, if any.
_elfplt_option_line()
{
	local line
	while read -r line; do
		[[ ${line%% *} == "$2" ]] && { printf '%s\n' "$line"; return 0; }
	done <<<"$1"
	return 1
}

# _elfplt_values LISTING OPTION CUR PREFIX: COMPREPLY from OPTION's values.
_elfplt_values()
{
	local line words w
	line=$(_elfplt_option_line "$1" "$2") || return 0
	read -r _ _ words <<<"$line"
	if [[ $words == "<file>" ]]; then
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "$3"))
		[[ -n $4 ]] && COMPREPLY=("${COMPREPLY[@]/#/$4}")
		return 0
	fi
	COMPREPLY=($(compgen -P "$4" -W "$words" -- "$3"))
}

_elfplt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= prog=${COMP_WORDS[0]}
	local cmd= listing line kind i=1 w
	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	[[ $prog == "~"/* ]] && prog=$HOME/${prog#"~/"}

	# The command: the first word that is neither an option nor a global
	# option's value ("--format" "=" "json" when '=' breaks words).
	listing=$("$prog" --list-options 2>/dev/null) || return 0
	while ((i < COMP_CWORD)); do
		w=${COMP_WORDS[i]}
		if [[ ${COMP_WORDS[i + 1]-} == "=" ]]; then
			((i += 3))
			continue
		fi
		case $w in
		--*=* | -) ;;
		-*)
			line=$(_elfplt_option_line "$listing" "$w") &&
				read -r _ kind _ <<<"$line" &&
				[[ $kind == required ]] && ((i++))
			;;
		*)
			cmd=$w
			break
			;;
		esac
		((i++))
	done
	if [[ -n $cmd && $cmd != help ]]; then
		listing=$("$prog" "$cmd" --list-options 2>/dev/null) || return 0
	fi

	# An option's value: "--opt=V" whole, "--opt" "=" "V" split, "--opt" "V".
	if [[ $cur == "=" && $prev == -* ]]; then
		_elfplt_values "$listing" "$prev" "" ""
		return 0
	fi
	if [[ $prev == "=" && ${COMP_WORDS[COMP_CWORD - 2]-} == -* ]]; then
		_elfplt_values "$listing" "${COMP_WORDS[COMP_CWORD - 2]}" "$cur" ""
		return 0
	fi
	if [[ $cur == --*=* ]]; then
		_elfplt_values "$listing" "${cur%%=*}" "${cur#*=}" "${cur%%=*}="
		return 0
	fi
	if [[ $prev == -* ]] && line=$(_elfplt_option_line "$listing" "$prev"); then
		read -r _ kind _ <<<"$line"
		# An optional value goes attached ("--timing=5"): not completed here.
		if [[ $kind == required ]]; then
			_elfplt_values "$listing" "$prev" "$cur" ""
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		local opts=() spelling
		while read -r spelling kind _; do
			[[ $spelling == --* ]] || continue
			case $kind in
			required) opts+=("$spelling=") ;;
			optional) opts+=("$spelling" "$spelling=") ;;
			*) opts+=("$spelling") ;;
			esac
		done <<<"$listing"
		COMPREPLY=($(compgen -W "${opts[*]}" -- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$("$prog" --list-commands 2>/dev/null)" -- "$cur"))
		return 0
	fi
	if [[ $cmd == help ]]; then
		COMPREPLY=($(compgen -W "$("$prog" --list-topics 2>/dev/null)" -- "$cur"))
		return 0
	fi
	# PATH operands: files and directories.
	compopt -o filenames 2>/dev/null
	local IFS=$'\n'
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _elfplt elfplt
