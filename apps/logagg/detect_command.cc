// `logagg detect` (see detect_command.h): flags with CLI11, the sample, the
// suggestions, printed as shell lines (a comment with the share, then the
// command) or as one JSON document.
#include "detect_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "choices.h"
#include "did_you_mean.h"
#include "logagg/detect.h"
#include "logagg/json_text.h"
#include "logagg/terminal_text.h"
#include "print_result.h"

namespace logagg::cli {
namespace {

struct DetectConfig {
  std::vector<std::string> inputs;
  bool json = false;
};

int parse(int argc, char** argv, DetectConfig& config) {
  CLI::App app{
      "logagg detect: look at a sample of the inputs (their start and windows spread\n"
      "through them, at most 4000 lines) and print the commands that would count them,\n"
      "the best first, each after a comment with the share of the sampled lines it\n"
      "counts, found by running logagg's own parser over them.",
      "logagg detect"};
  app.get_formatter()->column_width(24);
  app.footer("Example: logagg detect access.log");
  app.add_option("INPUT", config.inputs, "files, folders, or - for standard input")->required()->type_name("");
  std::string format = "text";
  app.add_option("--format", format, "text (default) or json")
      ->transform(one_of<std::string>({{"text", "text"}, {"json", "json"}}));
  app.set_help_flag("-h,--help", "Print this help and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_usage_error(with_suggestion(app, e), "detect ");
    return 2;
  }
  config.json = format == "json";
  return -1;
}

// The command line of a suggestion: logagg, the inputs, its flags.
std::string command_line(const std::vector<std::string>& inputs, const Suggestion& s) {
  std::string line = "logagg";
  for (const std::string& input : inputs) line += " " + shell_quoted(input);
  for (const std::string& flag : s.flags) line += " " + shell_quoted(flag);
  return line;
}

std::string percent(size_t part, size_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buf;
}

void print_text(const std::vector<std::string>& inputs, const Detection& d) {
  std::string out;
  if (d.lines == 0) {
    out += "# no lines: the inputs are empty (or hold only blank lines)\n";
  } else if (!d.not_json.empty()) {
    out += "# not JSON lines: " + std::to_string(d.objects) + " of " + std::to_string(d.lines) +
           " sampled lines are JSON objects; the first other line:\n# " + terminal_text(d.not_json) + "\n";
  } else if (d.suggestions.empty()) {
    out += "# no field of the " + std::to_string(d.objects) + " sampled JSON lines holds a time logagg reads\n";
  }
  for (const Suggestion& s : d.suggestions) {
    out += "# " + std::to_string(s.counted) + " of " + std::to_string(d.lines) + " sampled lines (" +
           percent(s.counted, d.lines) + "): " + terminal_text(s.what) + "\n";
    out += terminal_text(command_line(inputs, s)) + "\n";
  }
  std::fputs(out.c_str(), stdout);
}

// Files of different shapes: each group's files, then its commands.
void print_groups(const Sample& sample, const std::vector<ShapeGroup>& groups) {
  std::printf("# %zu shapes of lines in %zu files: the commands of each, for its files\n", groups.size(),
              sample.files.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<std::string> files;
    for (const size_t i : groups[g].files) files.push_back(sample.files[i]);
    std::string heading = "# shape ";
    heading.append(std::to_string(g + 1)).append(" of ").append(std::to_string(groups.size())).append(", ");
    heading.append(std::to_string(files.size())).append(files.size() == 1 ? " file:" : " files:");
    for (const std::string& file : files) heading.append(" ").append(shell_quoted(file));
    std::fputs(("#\n" + terminal_text(heading) + "\n").c_str(), stdout);
    print_text(files, groups[g].detection);
  }
}

// A JSON array of strings.
void append_json_strings(std::string& out, const std::vector<std::string>& strings) {
  out += '[';
  for (size_t i = 0; i < strings.size(); ++i) {
    if (i > 0) out += ',';
    append_json_string(out, strings[i]);
  }
  out += ']';
}

// A detection's fields of the JSON document: its files, what was sampled,
// the measures and the suggestions, whose commands name `inputs`.
void append_detection(std::string& out, const std::vector<std::string>& files, const std::vector<std::string>& inputs,
                      const Detection& d) {
  out += "\"files\":";
  append_json_strings(out, files);
  out += ",\"sampled_lines\":" + std::to_string(d.lines) + ",\"json_objects\":" + std::to_string(d.objects) +
         ",\"not_json\":";
  if (d.not_json.empty()) {
    out += "null";
  } else {
    append_json_string(out, d.not_json);
  }
  // The measures' fields, null where none was found.
  const auto field = [&out](const char* key, const std::string& name) {
    out += out.back() == '{' ? "\"" : ",\"";
    out += key;
    out += "\":";
    if (name.empty()) {
      out += "null";
    } else {
      append_json_string(out, name);
    }
  };
  out += ",\"measures\":{";
  field("status", d.measures.status);
  field("duration", d.measures.duration);
  field("duration_unit", d.measures.duration_unit);
  field("size", d.measures.size);
  out += '}';
  out += ",\"suggestions\":[";
  for (size_t i = 0; i < d.suggestions.size(); ++i) {
    const Suggestion& s = d.suggestions[i];
    out += i > 0 ? ",{\"command\":" : "{\"command\":";
    append_json_string(out, command_line(inputs, s));
    out += ",\"flags\":";
    append_json_strings(out, s.flags);
    out += ",\"counted\":" + std::to_string(s.counted) + ",\"what\":";
    append_json_string(out, s.what);
    out += '}';
  }
  out += ']';
}

// One document: a detection's fields (its commands naming the inputs as
// given); for files of several shapes, all the files and "groups", each
// group's files and detection (its commands naming those files).
void print_json(const std::vector<std::string>& inputs, const Sample& sample, const std::vector<ShapeGroup>& groups) {
  std::string out = "{";
  if (groups.size() == 1) {
    append_detection(out, sample.files, inputs, groups[0].detection);
  } else {
    out += "\"files\":";
    append_json_strings(out, sample.files);
    out += ",\"groups\":[";
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<std::string> files;
      for (const size_t i : groups[g].files) files.push_back(sample.files[i]);
      out += g == 0 ? "{" : ",{";
      append_detection(out, files, files, groups[g].detection);
      out += '}';
    }
    out += ']';
  }
  out += "}\n";
  std::fputs(out.c_str(), stdout);
}

}  // namespace

int run_detect(int argc, char** argv) {
  DetectConfig config;
  if (const int code = parse(argc, argv, config); code >= 0) return code;
  const Sample sample = sample_inputs(config.inputs);
  for (const InputError& e : sample.errors) print_error(e.path, e.message);
  const std::vector<ShapeGroup> groups = detect_groups(sample);
  if (config.json) {
    print_json(config.inputs, sample, groups);
  } else if (groups.size() == 1) {
    print_text(config.inputs, groups[0].detection);  // the inputs as given: a folder stays a folder
  } else {
    print_groups(sample, groups);
  }
  const bool any =
      std::any_of(groups.begin(), groups.end(), [](const ShapeGroup& g) { return !g.detection.suggestions.empty(); });
  return any ? 0 : 1;
}

}  // namespace logagg::cli
