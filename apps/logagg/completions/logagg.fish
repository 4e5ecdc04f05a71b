# fish completion for logagg: options of `logagg` and `logagg split`, values of
# --format, and paths. Installed into share/fish/vendor_completions.d;
# tests/docs_test.sh checks that its options are exactly those of --help.
set -l main 'not __fish_seen_subcommand_from split'
set -l split '__fish_seen_subcommand_from split'

complete -c logagg -n "$main; and __fish_is_first_arg" -a split -d 'Cut a log into line-aligned chunk files'
complete -c logagg -n $main -l per-second -d 'Count per UTC second (the default)'
complete -c logagg -n $main -l format -x -a 'table csv json' -d 'Output format'
complete -c logagg -n $main -l threads -x -d 'Worker threads'
complete -c logagg -n $main -l app-field -x -d 'Field holding the application id'
complete -c logagg -n $main -l time-field -x -d 'Field holding the timestamp'
complete -c logagg -n $main -l show-rejects -x -d 'Print the first N rejected lines'
complete -c logagg -n $main -s q -l quiet -d 'No summary on stderr'
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
