# bash completion for logagg: options of `logagg`, `logagg split`, `logagg merge` and `logagg detect`, values of
# --format, --bucket and --tz (zone names of the system's tzdata), and paths. Installed as share/bash-completion/completions/logagg;
# tests/e2e/docs_test.sh checks that its options are exactly those of --help.
_logagg() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local command=main
  [[ ${COMP_WORDS[1]} == @(split|merge|detect) && $COMP_CWORD -gt 1 ]] && command=${COMP_WORDS[1]}

  case $prev in
    --format)
      if [[ $command == detect ]]; then
        COMPREPLY=($(compgen -W "text json" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "table csv json html" -- "$cur"))
      fi
      return;;
    --bucket)
      COMPREPLY=($(compgen -W "1s 5s 10s 15s 30s 1m 5m 10m 15m 30m 1h 2h 3h 6h 12h 1d" -- "$cur"))
      return;;
    --tz | --input-tz)
      # Area/City names (and links) of the tz database, from its one-file
      # summary when there is one, else from the zone files' paths.
      local zones
      if [[ -r /usr/share/zoneinfo/tzdata.zi ]]; then
        zones=$(awk '$1 == "Z" { print $2 } $1 == "L" { print $3 }' /usr/share/zoneinfo/tzdata.zi)
      else
        zones=$(cd /usr/share/zoneinfo 2>/dev/null && find . -type f -path './*/*' | cut -c3-)
      fi
      zones=$(grep '/' <<< "$zones" | grep -v '^posix/\|^right/')
      COMPREPLY=($(compgen -W "UTC local $zones" -- "$cur"))
      return;;
    --time-format)
      COMPREPLY=($(compgen -W "rfc3339 unix unix-ms unix-us unix-ns clf auto" -- "$cur"))
      return;;
    --threads | --show-rejects | --app-field | --time-field | --app-pattern | --max-size | --piece-size | \
    --lines | --pattern | --since | --until | --include | --exclude | --range | --top | --max-apps | --late | \
    --serve | --serve-history | --serve-buckets | \
    --by | --by-status-class | --by-path-prefix | --where | --sum | --quantiles | --percentiles | --count-if | --unit)
      COMPREPLY=()  # a value the user types
      return;;
  esac

  if [[ $cur == -* ]]; then
    local options
    if [[ $command == split ]]; then
      options="--max-size --lines --allow-long-lines --pattern --force --threads -q --quiet -h --help"
    elif [[ $command == detect ]]; then
      options="--format -h --help"
    elif [[ $command == merge ]]; then
      options="--format --csv-safe --fill-gaps --stats --plot --top --unit --overall --strict -h --help"
    else
      options="--format --csv-safe --per-second --per-minute --per-hour --per-day --bucket --overall --tz --fill-gaps --stats --plot
               --by-app --top --max-apps --by --by-status-class --by-path-prefix --where --sum --quantiles
               --percentiles --count-if --unit --since
               --until --include --exclude --list-inputs --piece-size --state --delta --delta-dir --follow --late --serve --serve-history --serve-buckets --range --threads --app-field --time-field --app-pattern --time-format --input-tz --show-rejects
               -q --quiet --strict -h --help --version"
    fi
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
    return
  fi

  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
  if [[ $command == main && $COMP_CWORD -eq 1 ]]; then
    COMPREPLY+=($(compgen -W "split merge detect" -- "$cur"))
  fi
}
complete -F _logagg logagg
