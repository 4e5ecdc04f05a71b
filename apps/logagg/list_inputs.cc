// Listing the inputs of a run (see list_inputs.h).
#include "list_inputs.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "logagg/inputs.h"
#include "logagg/json_text.h"
#include "logagg/terminal_text.h"
#include "print_result.h"
#include "size_flag.h"

namespace logagg::cli {
namespace {

__extension__ typedef unsigned __int128 Wide;  // for size * index without overflow

// "path": "..." if `path` is valid UTF-8, else "path_hex": "..." (its bytes).
void append_path(std::string& out, std::string_view path) {
  if (is_utf8(path)) {
    out += "\"path\": ";
    append_json_string(out, path);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\"path_hex\": \"";
  for (const char c : path) {
    out += kHex[static_cast<unsigned char>(c) >> 4];
    out += kHex[static_cast<unsigned char>(c) & 15];
  }
  out += '"';
}

// The fewest equal ranges of at most `piece_size` bytes that tile `size`
// bytes, as [[0, E1], [E1, E2], ..., [S, null]].
void append_ranges(std::string& out, uint64_t size, uint64_t piece_size) {
  const uint64_t n = size / piece_size + (size % piece_size != 0);
  const auto bound = [&](uint64_t i) { return static_cast<uint64_t>(Wide{size} * i / n); };
  out += '[';
  for (uint64_t i = 0; i < n; ++i) {
    out += i == 0 ? "[" : ", [";
    append_number(out, bound(i));
    out += ", ";
    if (i + 1 < n) {
      append_number(out, bound(i + 1));
    } else {
      out += "null";
    }
    out += ']';
  }
  out += ']';
}

// One input's object, on a line of its own (list_inputs.h says what it holds).
void append_input(std::string& out, const std::string& path, uint64_t piece_size) {
  out += "    {";
  append_path(out, path);
  out += ", \"shown\": ";
  append_json_string(out, terminal_text(path));
  const std::optional<FileFacts> facts = regular_file_facts(path);
  out += ", \"bytes\": ";
  if (facts) {
    append_number(out, facts->bytes);
  } else {
    out += "null";
  }
  out += ", \"compression\": ";
  if (facts && facts->compression) {
    append_json_string(out, compression_name(*facts->compression));
  } else {
    out += "null";
  }
  if (piece_size != 0 && facts && facts->bytes > piece_size &&
      facts->compression.value_or(Compression::kNone) == Compression::kNone) {
    out += ", \"ranges\": ";
    append_ranges(out, facts->bytes, piece_size);
  }
  out += '}';
}

std::string json_list(const std::vector<std::string>& inputs, uint64_t piece_size) {
  std::string out = "{\n";
  if (piece_size != 0) {
    out += "  \"piece_size\": ";
    append_number(out, piece_size);
    out += ",\n";
  }
  out += "  \"inputs\": [";
  for (size_t i = 0; i < inputs.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    append_input(out, inputs[i], piece_size);
  }
  out += inputs.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

std::string text_list(const std::vector<std::string>& inputs) {
  std::string out;
  for (const std::string& input : inputs) {
    append_terminal_text(out, input);  // one line each, whatever the name holds
    out += '\n';
  }
  return out;
}

}  // namespace

void add_piece_size_option(CLI::App& app, Config& config) {
  app.add_option_function<std::string>(
         "--piece-size", [&config](const std::string& text) { config.piece_size = parse_size("--piece-size", text); },
         "With --list-inputs --format json: --range pieces of at most SIZE bytes for larger plain files")
      ->type_name("SIZE")
      ->group("");  // on --include's line
}

void check_list_inputs_flags(const CLI::App& app, const Config& config) {
  const bool json = config.report.format == Format::kJson;
  if (config.list_inputs && !json && config.report.format != Format::kTable) {
    throw CLI::ValidationError("--list-inputs prints text, or JSON with --format json: not csv or html");
  }
  if (app.count("--piece-size") > 0 && !(config.list_inputs && json)) {
    throw CLI::ValidationError("--piece-size needs --list-inputs --format json");
  }
}

int list_inputs(const Config& config) {
  std::vector<InputError> errors;
  const std::vector<std::string> inputs =
      expand_paths(config.paths, errors, config.options.include, config.options.exclude);
  const std::string list =
      config.report.format == Format::kJson ? json_list(inputs, config.piece_size) : text_list(inputs);
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
