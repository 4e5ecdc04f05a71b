# fish completion for logagg: options of `logagg`, `logagg split`, `logagg merge` and `logagg detect`, values of
# --format, --bucket and --tz (zone names of the system's tzdata), and paths. Installed into share/fish/vendor_completions.d;
# tests/e2e/docs_test.sh checks that its options are exactly those of --help.
set -l main 'not __fish_seen_subcommand_from split merge detect'
set -l split '__fish_seen_subcommand_from split'
set -l merge '__fish_seen_subcommand_from merge'
set -l detect '__fish_seen_subcommand_from detect'

# Zone names for --tz: UTC, local, and the Area/City names of the tz database.
function __logagg_zones
    printf '%s\n' UTC local
    if test -r /usr/share/zoneinfo/tzdata.zi
        awk '$1 == "Z" { print $2 } $1 == "L" { print $3 }' /usr/share/zoneinfo/tzdata.zi
    else
        find /usr/share/zoneinfo -type f | string replace /usr/share/zoneinfo/ ''
    end | string match -e / | string match -v -r '^(posix|right)/'
end

complete -c logagg -n "$main; and __fish_is_first_arg" -a split -d 'Cut a log into line-aligned chunk files'
complete -c logagg -n "$main; and __fish_is_first_arg" -a merge -d 'Add up --format json results'
complete -c logagg -n "$main; and __fish_is_first_arg" -a detect -d 'Print the commands that would count a log'
complete -c logagg -n $main -l per-second -d 'Rows per second (the default)'
complete -c logagg -n $main -l per-minute -d 'Rows per minute'
complete -c logagg -n $main -l per-hour -d 'Rows per hour'
complete -c logagg -n $main -l per-day -d 'Rows per day'
complete -c logagg -n $main -l bucket -x -a '1s 5s 10s 15s 30s 1m 5m 10m 15m 30m 1h 2h 3h 6h 12h 1d' -d 'Rows per duration dividing a day'
complete -c logagg -n $main -l tz -x -a '(__logagg_zones)' -d 'Buckets in local time of this zone'
complete -c logagg -n $main -l by-app -d 'Rows per bucket and app id'
complete -c logagg -n $main -l max-apps -x -d 'App ids (or key tuples) told apart at most'
complete -c logagg -n $main -l by -x -d 'Rows per bucket and the value of this field (up to 4 keys)'
complete -c logagg -n $main -l by-status-class -x -d 'Rows per HTTP status class (2xx..5xx, other) of this field'
complete -c logagg -n $main -l by-path-prefix -x -d 'Rows per first N segments of a URL path: N FIELD'
complete -c logagg -n $main -l where -x -d 'Count only lines where FIELD OP VALUE holds (repeatable)'
complete -c logagg -n $main -l sum -x -d 'The exact sum of this numeric field per row'
complete -c logagg -n $main -l quantiles -x -d 'Quantiles, min and max of this numeric field per row'
complete -c logagg -n $main -l percentiles -x -d 'The quantiles --quantiles shows, comma-separated'
complete -c logagg -n $main -l count-if -x -d 'Also count the lines where EXPR holds, and their ratio'
complete -c logagg -n $main -l since -x -d 'Count lines from this RFC 3339 time on'
complete -c logagg -n $main -l until -x -d 'Count lines before this RFC 3339 time'
complete -c logagg -n $main -l include -x -d 'Only folder files matching the glob'
complete -c logagg -n $main -l exclude -x -d 'Skip folder files matching the glob'
complete -c logagg -n $main -l list-inputs -d 'Print the files a run would read, in its order, and exit'
complete -c logagg -n $main -l piece-size -x -d 'With --list-inputs --format json: --range pieces of at most SIZE'
complete -c logagg -n $main -l state -r -F -d 'Count only what is new since the last run with this state file'
complete -c logagg -n $main -l delta -d 'With --state: print what this run added, not the running total'
complete -c logagg -n $main -l delta-dir -r -a '(__fish_complete_directories)' -d 'With --state: each delta as a file of this folder, saved with the state'
complete -c logagg -n $main -l follow -d 'Keep reading what is appended, rows as buckets complete'
complete -c logagg -n $main -l late -x -d 'With --follow: a bucket is complete this long past its end'
complete -c logagg -n $main -l serve -x -d 'With --follow: /metrics (Prometheus) and /events over HTTP on [HOST:]PORT'
complete -c logagg -n $main -l serve-history -x -d 'With --serve: the buckets /events keeps'
complete -c logagg -n $main -l serve-buckets -x -d "With --serve: a --quantiles field's histogram bounds, FIELD=B1,B2,..."
complete -c logagg -n $main -l range -x -d 'Only the lines starting in START:END of the one file'
complete -c logagg -n $main -l threads -x -d 'Worker threads'
complete -c logagg -n $main -l app-field -x -d 'Field holding the application id'
complete -c logagg -n $main -l time-field -x -d 'Field holding the timestamp'
complete -c logagg -n $main -l app-pattern -x -d 'RE2 regex the app ids must match'
complete -c logagg -n $main -l time-format -x -a 'rfc3339 unix unix-ms unix-us unix-ns clf auto' -d 'How the time field is written'
complete -c logagg -n $main -l input-tz -x -d 'The zone of a time pattern without %z'
complete -c logagg -n $main -l show-rejects -x -d 'Print the first N rejected lines'
complete -c logagg -n $main -s q -l quiet -d 'No summary on stderr'
complete -c logagg -n $main -l strict -d 'Exit 4 when a warning says the log cannot answer the question'
complete -c logagg -n $main -s h -l help -d 'Print help and exit'
complete -c logagg -n $main -l version -d 'Print the version and exit'

complete -c logagg -n $split -l max-size -x -d 'Bytes per chunk at most (K, M, G suffixes)'
complete -c logagg -n $split -l lines -x -d 'Lines per chunk at most'
complete -c logagg -n $split -l allow-long-lines -d 'Put a longer line alone in its own chunk'
complete -c logagg -n $split -l pattern -x -d 'Chunk file name pattern'
complete -c logagg -n $split -l force -d 'Replace existing chunk files'
complete -c logagg -n $split -l threads -x -d 'Chunks written at once'
complete -c logagg -n $split -s q -l quiet -d 'No summary on stderr'
complete -c logagg -n $split -s h -l help -d 'Print help and exit'

complete -c logagg -n $merge -l strict -d 'Exit 4 when a warning says the results cannot answer the question'
complete -c logagg -n $merge -s h -l help -d 'Print help and exit'

complete -c logagg -n $detect -l format -x -a 'text json' -d 'Output format'
complete -c logagg -n $detect -s h -l help -d 'Print help and exit'

# The report flags, alike for logagg and logagg merge (apps/logagg/report_flags.h).
for cond in $main $merge
    complete -c logagg -n $cond -l format -x -a 'table csv json html' -d 'Output format'
    complete -c logagg -n $cond -l fill-gaps -d 'Rows of 0 for empty buckets between the first and the last'
    complete -c logagg -n $cond -l csv-safe -d "csv: a ' before ids that start like a formula"
    complete -c logagg -n $cond -l stats -d 'Total, peak, mean, median, p95, p99 per bucket on stderr'
    complete -c logagg -n $cond -l plot -d 'A chart of the counts instead of rows'
    complete -c logagg -n $cond -l top -x -d 'Of counts per app: only the N busiest apps, the rest as (other)'
    complete -c logagg -n $cond -l unit -x -d "The table prints FIELD's durations (s, ms, us, ns) as 12.3 ms"
    complete -c logagg -n $cond -l overall -d 'One row per key for the whole input, busiest first'
end
