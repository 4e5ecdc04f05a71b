// The summary's hint (see hint.h).
#include "hint.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "logagg/detect.h"
#include "logagg/terminal_text.h"

namespace logagg::cli {
namespace {

// How many field names the hint shows.
constexpr size_t kShownFields = 6;

}  // namespace

std::string hint_line(const Summary& summary, const Question& question, const std::vector<std::string>& paths) {
  const auto rejected = [&summary](Reason r) { return summary.rejected[static_cast<size_t>(r)]; };
  uint64_t unfit = 0;
  for (const Reason r : {Reason::kMissingApp, Reason::kAppNotString, Reason::kBadApp, Reason::kMissingTime,
                         Reason::kTimeNotString, Reason::kBadTime}) {
    unfit += rejected(r);
  }
  if (unfit * 2 <= summary.lines - summary.blank) return {};
  std::vector<std::string> files;
  // Files and folders only: standard input and a FIFO were read to their end
  // (and opening a FIFO again would wait for a writer).
  std::copy_if(paths.begin(), paths.end(), std::back_inserter(files), [](const std::string& p) {
    std::error_code error;
    return p != "-" && (std::filesystem::is_regular_file(p, error) || std::filesystem::is_directory(p, error));
  });
  const std::string some = std::to_string(unfit) + " of " + std::to_string(summary.lines - summary.blank);
  std::string line;
  const bool time_unread = (rejected(Reason::kBadTime) + rejected(Reason::kTimeNotString)) * 2 > unfit;
  if (time_unread) {  // the time field is there, written in another form than the time format reads
    line = "hint: " + some + " lines have their time field " + question.time_field + " in a form --time-format " +
           question.time_format + " does not read; --time-format auto reads each value in its own form";
  } else {
    line = "hint: " + some + " lines have no app or time field these options read";
  }
  if (!files.empty() && !time_unread) {
    SampleShape shape = read_shape(sample_inputs(files).lines);
    std::erase_if(shape.fields, [](const FieldValues& f) { return f.name.starts_with('/'); });  // top level only
    std::stable_sort(shape.fields.begin(), shape.fields.end(),
                     [](const FieldValues& a, const FieldValues& b) { return a.lines > b.lines; });
    for (size_t i = 0; i < shape.fields.size() && i < kShownFields; ++i) {
      line += (i == 0 ? "; they have " : ", ") + shape.fields[i].name;
    }
    if (shape.fields.size() > kShownFields) line += ", ...";
  }
  line += "; `logagg detect";
  for (const std::string& file : files) line.append(" ").append(shell_quoted(file));
  if (files.empty()) line += " FILE";
  return terminal_text(line + "` prints the options that count them") + "\n";
}

}  // namespace logagg::cli
