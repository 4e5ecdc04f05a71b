# bash completion for logagg: options of `logagg` and `logagg split`, values of
# --format, and paths. Installed as share/bash-completion/completions/logagg;
# tests/docs_test.sh checks that its options are exactly those of --help.
_logagg() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local command=main
  [[ ${COMP_WORDS[1]} == split && $COMP_CWORD -gt 1 ]] && command=split

  case $prev in
    --format)
      COMPREPLY=($(compgen -W "table csv json" -- "$cur"))
      return;;
    --threads | --show-rejects | --app-field | --time-field | --max-size | --lines | --pattern)
      COMPREPLY=()  # a value the user types
      return;;
  esac

  if [[ $cur == -* ]]; then
    local options
    if [[ $command == split ]]; then
      options="--max-size --lines --allow-long-lines --pattern --force --threads -q --quiet -h --help"
    else
      options="--per-second --format --threads --app-field --time-field --show-rejects -q --quiet -h --help --version"
    fi
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return
  fi

  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
  if [[ $command == main && $COMP_CWORD -eq 1 ]]; then
    COMPREPLY+=($(compgen -W "split" -- "$cur"))
  fi
}
complete -F _logagg logagg
