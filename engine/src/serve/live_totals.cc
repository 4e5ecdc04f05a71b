// The counters of /metrics, added up round by round (see live_totals.h).
#include "serve/live_totals.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

#include "serve/prometheus_text.h"

namespace logagg {
namespace {

// Label names the exposition gives itself, and those Prometheus gives every
// series it scrapes: a key column of such a name is labelled "key_NAME".
constexpr std::array<std::string_view, 7> kTakenLabels = {"le",     "quantile", "count_if", "reason",
                                                          "filter", "job",      "instance"};

// The names a field's values in `unit` may end in, as a name's last token.
std::vector<std::string_view> unit_suffixes(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kSeconds:
      return {"_s", "_sec", "_secs", "_seconds"};
    case DurationUnit::kMillis:
      return {"_ms", "_millis", "_milliseconds"};
    case DurationUnit::kMicros:
      return {"_us", "_micros", "_microseconds"};
    case DurationUnit::kNanos:
      return {"_ns", "_nanos", "_nanoseconds"};
  }
  return {};
}

// The fraction digits a value in `unit` moves by in seconds.
int digits_to_seconds(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kSeconds:
      return 0;
    case DurationUnit::kMillis:
      return 3;
    case DurationUnit::kMicros:
      return 6;
    case DurationUnit::kNanos:
      return 9;
  }
  return 0;
}

void family(std::string& out, std::string_view name, std::string_view help) {
  out.append("# HELP ").append(name).push_back(' ');
  append_help_text(out, help);
  out.append("\n# TYPE ").append(name).append(" counter\n");
}

void label(std::string& out, bool& first, std::string_view name, std::string_view value) {
  out.append(first ? "{" : ",").append(name).append("=\"");
  append_label_value(out, value);
  out.push_back('"');
  first = false;
}

void value(std::string& out, bool first, std::string_view text) {
  out.append(first ? " " : "} ").append(text).push_back('\n');
}

}  // namespace

LiveTotals::LiveTotals(const Query& query, const std::vector<std::pair<std::string, DurationUnit>>& units)
    : query_(query), units_(units), max_keys_(std::max<size_t>(1, query.question().max_apps)) {
  const MeasureSpec& spec = query_.measures();
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    if (spec.fields[i].summed) summed_.push_back(i);
  }
  for (const std::string& column : query_.key_columns()) {
    std::string name = label_name(column);
    if (std::find(kTakenLabels.begin(), kTakenLabels.end(), name) != kTakenLabels.end()) name = "key_" + name;
    while (std::find(label_names_.begin(), label_names_.end(), name) != label_names_.end()) name += "_";
    label_names_.push_back(std::move(name));
  }
}

std::optional<DurationUnit> LiveTotals::unit_of(const std::string& field) const {
  const auto given = std::find_if(units_.rbegin(), units_.rend(), [&](const auto& u) { return u.first == field; });
  if (given != units_.rend()) return given->second;
  const std::string name = metric_name(field);
  for (const DurationUnit unit :
       {DurationUnit::kSeconds, DurationUnit::kMillis, DurationUnit::kMicros, DurationUnit::kNanos}) {
    for (const std::string_view suffix : unit_suffixes(unit)) {
      if (name.size() > suffix.size() && name.ends_with(suffix)) return unit;
    }
  }
  return std::nullopt;
}

LiveTotals::KeyTotals& LiveTotals::totals_of(const std::string& key) {
  if (const auto it = keys_.find(key); it != keys_.end()) return it->second;
  // Past the cap, the key's lines count as (other), as the batch's do.
  const auto [it, inserted] = keys_.try_emplace(keys_.size() < max_keys_ ? key : std::string(kOtherApp));
  KeyTotals& t = it->second;
  if (inserted) {
    t.matching.resize(query_.measures().count_if.size());
    t.sums.resize(summed_.size());
    t.digits.resize(summed_.size());
  }
  return t;
}

void LiveTotals::add_cell(KeyTotals& t, const MeasureCell& cell) const {
  for (size_t i = 0; i < t.matching.size() && i < cell.matched.size(); ++i) t.matching[i] += cell.matched[i];
  for (size_t s = 0; s < summed_.size(); ++s) {
    if (summed_[s] >= cell.fields.size()) continue;
    const FieldMeasure& f = cell.fields[summed_[s]];
    t.sums[s].add(f.sum);
    t.digits[s] = std::max(t.digits[s], f.digits);
  }
}

void LiveTotals::add(const Result& round) {
  summary_.add(round.summary);
  const bool keyed = !round.app_counts.empty() || !round.apps.empty();
  const size_t rows = keyed ? round.app_counts.size() : round.counts.size();
  MeasureCell cell;
  for (size_t i = 0; i < rows; ++i) {
    KeyTotals& t = totals_of(keyed ? round.apps[round.app_counts[i].app] : std::string());
    t.lines += keyed ? round.app_counts[i].count : round.counts[i].count;
    if (i < round.cells.size()) {
      round.cells.get(i, cell);
      add_cell(t, cell);
    }
  }
}

void LiveTotals::append_key_labels(std::string& out, bool& first, const std::string& key) const {
  if (label_names_.empty()) return;
  const std::vector<std::string_view> parts = key_parts(key, label_names_.size());
  for (size_t c = 0; c < label_names_.size(); ++c) {
    const std::string_view part = parts[c];
    label(out, first, label_names_[c], part == kOtherApp ? kOtherAppName : part == kNoKey ? kNoKeyName : part);
  }
}

std::string LiveTotals::exposition() const {
  std::string out;
  const Question& question = query_.question();
  const auto keyed_samples = [&](std::string_view name, std::string_view own, std::string_view own_value,
                                 auto&& value_of) {
    for (const auto& [key, t] : keys_) {
      const std::string text = value_of(t);
      if (text.empty()) continue;  // a sum past what --sum adds exactly: no sample
      out.append(name);
      bool first = true;
      if (!own.empty()) label(out, first, own, own_value);
      append_key_labels(out, first, key);
      value(out, first, text);
    }
  };
  family(out, "logagg_lines_total", "Lines counted since logagg started, per key.");
  keyed_samples("logagg_lines_total", "", "", [](const KeyTotals& t) { return std::to_string(t.lines); });
  if (keys_.empty() && label_names_.empty()) out.append("logagg_lines_total 0\n");

  family(out, "logagg_lines_read_total",
         "Lines read since logagg started: counted, blank, rejected, filtered or "
         "outside --since/--until.");
  out.append("logagg_lines_read_total ").append(std::to_string(summary_.lines)).push_back('\n');
  family(out, "logagg_lines_blank_total", "Blank lines read.");
  out.append("logagg_lines_blank_total ").append(std::to_string(summary_.blank)).push_back('\n');
  if (question.since || question.until) {
    family(out, "logagg_lines_outside_range_total", "Valid lines outside --since/--until, not counted.");
    out.append("logagg_lines_outside_range_total ").append(std::to_string(summary_.outside_range)).push_back('\n');
  }
  family(out, "logagg_lines_rejected_total", "Lines rejected, per reason.");
  for (size_t r = 0; r < kReasonCount; ++r) {
    bool first = true;
    out.append("logagg_lines_rejected_total");
    label(out, first, "reason", reason_key(static_cast<Reason>(r)));
    value(out, false, std::to_string(summary_.rejected[r]));
  }
  if (!question.where.empty()) {
    family(out, "logagg_lines_filtered_total", "Valid lines filtered out, per --where filter (the first that failed).");
    for (size_t i = 0; i < question.where.size(); ++i) {
      bool first = true;
      out.append("logagg_lines_filtered_total");
      label(out, first, "filter", question.where[i]);
      value(out, false, std::to_string(i < summary_.filtered_by.size() ? summary_.filtered_by[i] : 0));
    }
  }
  const MeasureSpec& spec = query_.measures();
  if (!spec.count_if.empty()) {
    family(out, "logagg_lines_matching_total", "Lines counted for which a --count-if expression holds, per key.");
    for (size_t i = 0; i < spec.count_if.size(); ++i) {
      keyed_samples("logagg_lines_matching_total", "count_if", spec.count_if[i],
                    [i](const KeyTotals& t) { return std::to_string(t.matching[i]); });
    }
  }
  for (size_t s = 0; s < summed_.size(); ++s) {
    const std::string& field = spec.fields[summed_[s]].name;
    const std::optional<DurationUnit> unit = unit_of(field);
    std::string name = metric_name(field);
    int shift = 0;
    if (unit) {
      for (const std::string_view suffix : unit_suffixes(*unit)) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) name.erase(name.size() - suffix.size());
      }
      name += "_seconds";
      shift = digits_to_seconds(*unit);
    }
    name = "logagg_" + name + "_total";
    family(out, name,
           "The sum of field " + field + (unit ? " in seconds" : "") + " over the lines counted, per key (--sum).");
    keyed_samples(name, "", "", [&](const KeyTotals& t) {
      if (t.sums[s].overflowed()) return std::string();
      std::string text;
      t.sums[s].append(text, t.digits[s]);
      return shift == 0 ? text : shift_decimal(text, shift);
    });
  }
  return out;
}

}  // namespace logagg
