// Listing the inputs of a run (see list_inputs.h).
#include "list_inputs.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "input/input.h"  // expand_paths: the inputs and their order, as aggregate() reads them
#include "logagg/terminal_text.h"
#include "print_result.h"

namespace logagg::cli {

int list_inputs(const std::vector<std::string>& paths, const Options& options) {
  std::vector<InputError> errors;
  std::string list;
  for (const std::string& input : expand_paths(paths, errors, options.include, options.exclude)) {
    append_terminal_text(list, input);  // one line each, whatever the name holds
    list += '\n';
  }
  const bool written = std::fwrite(list.data(), 1, list.size(), stdout) == list.size() && std::fflush(stdout) == 0;
  const int write_error = written ? 0 : errno;
  print_input_errors(errors);
  if (write_error != 0 && write_error != EPIPE) {
    std::fprintf(stderr, "logagg: cannot write the list of inputs: %s\n", std::strerror(write_error));
    return 1;
  }
  return errors.empty() ? 0 : 1;
}

}  // namespace logagg::cli
