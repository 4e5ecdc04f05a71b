# The warning flags of every target logagg builds, in one place:
#   logagg_warnings(TARGET) adds them to TARGET's own sources.
function(logagg_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
endfunction()
