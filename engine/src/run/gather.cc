// Gathering a run's result (see gather.h).
#include "run/gather.h"

#include <string>
#include <utility>

#include "count/count.h"

namespace logagg {
namespace {

// Turns per-segment reject positions into the first N absolute line numbers
// (and those of every line too long past them, where the logs kept those).
std::vector<RejectSample> collect_rejects(const std::vector<std::unique_ptr<Source>>& sources, size_t limit) {
  std::vector<RejectSample> out;
  for (const auto& src : sources) {
    uint64_t base = src->first_line;
    for (const ScanLog& log : src->logs) {
      for (const LocalReject& r : log.rejects) {
        if (out.size() < limit || (log.too_long && r.reason == Reason::kLineTooLong)) {
          out.push_back({src->name, base + r.line + 1, r.reason});
        }
      }
      base += log.lines;
    }
  }
  return out;
}

// The summary of how the sources were read, their errors after `errors`,
// and with `reads` how each was read.
void account_sources(const std::vector<std::unique_ptr<Source>>& sources, std::vector<InputError>& errors,
                     Summary& summary, std::vector<SpanRead>* reads) {
  for (const auto& src : sources) {
    if (!src->error.empty()) errors.push_back({src->name, src->error});
    if (src->changed) {
      errors.push_back({src->name,
                        "file changed while being read (truncated?); "
                        "only the lines read before the change are counted"});
    }
    summary.unreadable += src->unreadable;
    summary.files += !src->unreadable && src->counts_as_file;
    summary.bytes += src->bytes;
    if (reads != nullptr) {
      SpanRead& read = reads->emplace_back();
      for (const ScanLog& log : src->logs) read.lines += log.lines;
      read.complete = src->error.empty() && !src->changed;
    }
  }
}

}  // namespace

Result gather(const std::vector<std::unique_ptr<Source>>& sources, RunTallies& tallies, const Query& query,
              size_t max_reject_samples, std::vector<InputError> errors, std::vector<SpanRead>* reads) {
  Result result;
  result.query = query;
  account_sources(sources, errors, result.summary, reads);
  tallies.add_tallies(result.summary);
  result.summary.filtered_by.resize(query.question().where.size());
  result.summary.no_value.resize(query.question().by.size());
  result.summary.no_measure.resize(query.measures().fields.size());
  if (query.counts_time_forms()) result.summary.time_forms.resize(kTimeFormCount);
  result.summary.fields.resize(query.fields().size());
  tallies.take_rows(result);
  result.rejects = collect_rejects(sources, max_reject_samples);
  result.errors = std::move(errors);
  return result;
}

}  // namespace logagg
