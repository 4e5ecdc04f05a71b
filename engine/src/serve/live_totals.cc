// The counters of /metrics, added up round by round (see live_totals.h).
#include "serve/live_totals.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <set>
#include <string_view>

#include "serve/prometheus_text.h"

namespace logagg {
namespace {

// Label names the exposition gives itself, and those Prometheus gives every
// series it scrapes: a key column of such a name is labelled "key_NAME".
constexpr std::array<std::string_view, 7> kTakenLabels = {"le",     "quantile", "count_if", "reason",
                                                          "filter", "job",      "instance"};

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).push_back(' ');
  append_help_text(out, help);
  out.append("\n# TYPE ").append(name).push_back(' ');
  out.append(type).push_back('\n');
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

// Whether expressions[i] was given before (its series is written once).
bool repeated(const std::vector<std::string>& expressions, size_t i) {
  return std::find(expressions.begin(), expressions.begin() + static_cast<std::ptrdiff_t>(i), expressions[i]) !=
         expressions.begin() + static_cast<std::ptrdiff_t>(i);
}

void sample(std::string& out, std::string_view name, std::string_view label_name, std::string_view label_value,
            uint64_t n) {
  bool first = true;
  out.append(name);
  if (!label_name.empty()) label(out, first, label_name, label_value);
  value(out, first, std::to_string(n));
}

}  // namespace

LiveTotals::LiveTotals(const Query& query, const std::vector<std::pair<std::string, DurationUnit>>& units,
                       const std::vector<std::pair<std::string, std::vector<std::string>>>& le)
    : query_(query), max_keys_(std::max<size_t>(1, query.question().max_apps)) {
  const MeasureSpec& spec = query_.measures();
  // Every name a family writes is its own: a field's that would be taken
  // (--sum lines: logagg_lines_total; latency_ms and latency_s both in
  // seconds) gets _2, _3, ...
  std::set<std::string> taken = {"logagg_lines_total",          "logagg_lines_read_total",
                                 "logagg_lines_blank_total",    "logagg_lines_outside_range_total",
                                 "logagg_lines_rejected_total", "logagg_lines_filtered_total",
                                 "logagg_lines_matching_total"};
  const auto claim = [&](const std::string& base, std::initializer_list<std::string_view> suffixes) {
    const auto free = [&](const std::string& name) {
      return std::none_of(suffixes.begin(), suffixes.end(),
                          [&](std::string_view suffix) { return taken.count(name + std::string(suffix)) != 0; });
    };
    std::string name = base;
    for (int n = 2; !free(name); ++n) name = base + "_" + std::to_string(n);
    for (const std::string_view suffix : suffixes) taken.insert(name + std::string(suffix));
    return name;
  };
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const MeasureSpec::Field& f = spec.fields[i];
    const std::optional<DurationUnit> unit = field_unit(f.name, units);
    const std::string metric = "logagg_" + field_metric_name(f.name, unit);
    if (f.summed) sums_.push_back({i, claim(metric, {"_total"}), unit, {}});
    if (f.bounds.empty()) continue;
    const auto given = std::find_if(le.begin(), le.end(), [&](const auto& h) { return h.first == f.name; });
    std::vector<std::string> texts = given != le.end() ? given->second : std::vector<std::string>{};
    if (texts.size() != f.bounds.size()) {  // no text given: the bounds as numbers
      texts.clear();
      for (const double b : f.bounds) texts.push_back(std::to_string(b));
    }
    histograms_.push_back({i, claim(metric, {"", "_bucket", "_sum", "_count"}), unit, std::move(texts)});
  }
  for (const std::string& column : query_.key_columns()) {
    std::string name = label_name(column);
    if (std::find(kTakenLabels.begin(), kTakenLabels.end(), name) != kTakenLabels.end()) name = "key_" + name;
    while (std::find(label_names_.begin(), label_names_.end(), name) != label_names_.end()) name += "_";
    label_names_.push_back(std::move(name));
  }
}

LiveTotals::KeyTotals& LiveTotals::totals_of(const std::string& key) {
  if (const auto it = keys_.find(key); it != keys_.end()) return it->second;
  // Past the cap, the key's lines count as (other), as the batch's do.
  const auto [it, inserted] = keys_.try_emplace(keys_.size() < max_keys_ ? key : std::string(kOtherApp));
  KeyTotals& t = it->second;
  if (inserted) {
    t.matching.resize(query_.measures().count_if.size());
    t.fields.resize(sums_.size() + histograms_.size());
    for (size_t h = 0; h < histograms_.size(); ++h)
      t.fields[sums_.size() + h].histogram.resize(histograms_[h].le.size());
  }
  return t;
}

void LiveTotals::add(const Result& round) {
  summary_.add(round.summary);
  const bool keyed = !round.apps.empty();
  const size_t rows = keyed ? round.app_counts.size() : round.counts.size();
  MeasureCell cell;
  for (size_t i = 0; i < rows; ++i) {
    KeyTotals& t = totals_of(keyed ? round.apps[round.app_counts[i].app] : std::string());
    t.lines += keyed ? round.app_counts[i].count : round.counts[i].count;
    if (i >= round.cells.size()) continue;
    round.cells.get(i, cell);
    for (size_t c = 0; c < t.matching.size() && c < cell.matched.size(); ++c) t.matching[c] += cell.matched[c];
    size_t at = 0;
    for (const std::vector<Measured>* group : {&sums_, &histograms_}) {
      for (const Measured& m : *group) {
        FieldTotals& f = t.fields[at++];
        const FieldMeasure& v = cell.fields[m.field];
        f.n += v.n;
        f.sum.add(v.sum);
        f.digits = std::max(f.digits, v.digits);
        for (size_t b = 0; b < f.histogram.size() && b < v.histogram.size(); ++b) f.histogram[b] += v.histogram[b];
      }
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

// A sample a key, each `NAME{OWN="OWN_VALUE",KEYS} VALUE` (no sample for a
// key whose value is empty).
template <class Value>
void LiveTotals::samples(std::string& out, std::string_view name, std::string_view own, std::string_view own_value,
                         const Value& value_of) const {
  for (const auto& [key, t] : keys_) {
    const std::string text = value_of(t);
    if (text.empty()) continue;
    out.append(name);
    bool first = true;
    if (!own.empty()) label(out, first, own, own_value);
    append_key_labels(out, first, key);
    value(out, first, text);
  }
}

// A sum in seconds (or as summed), exact; empty past what --sum adds exactly.
std::string LiveTotals::seconds_text(const FieldTotals& t, const Measured& m) const {
  if (t.sum.overflowed()) return {};
  std::string text;
  t.sum.append(text, t.digits);
  return m.unit ? shift_decimal(text, digits_to_seconds(*m.unit)) : text;
}

void LiveTotals::append_histogram(std::string& out, size_t h) const {
  const Measured& m = histograms_[h];
  const std::string& field = query_.measures().fields[m.field].name;
  family(out, m.metric, "histogram",
         "The values of field " + field + (m.unit ? " in seconds" : "") +
             " over the lines counted, per key (--quantiles): exact counts at each bound.");
  const size_t at = sums_.size() + h;
  for (const auto& [key, t] : keys_) {
    const FieldTotals& f = t.fields[at];
    uint64_t cumulative = 0;
    for (size_t b = 0; b <= m.le.size(); ++b) {
      cumulative += b < m.le.size() ? f.histogram[b] : 0;
      out.append(m.metric).append("_bucket");
      bool first = true;
      append_key_labels(out, first, key);
      label(out, first, "le", b < m.le.size() ? m.le[b] : "+Inf");
      value(out, first, std::to_string(b < m.le.size() ? cumulative : f.n));
    }
    const std::string sum = seconds_text(f, m);
    for (const auto& [suffix, text] : {std::pair<std::string_view, std::string>{"_sum", sum.empty() ? "NaN" : sum},
                                       {"_count", std::to_string(f.n)}}) {
      out.append(m.metric).append(suffix);
      bool first = true;
      append_key_labels(out, first, key);
      value(out, first, text);
    }
  }
}

std::string LiveTotals::exposition() const {
  std::string out;
  const Question& question = query_.question();
  family(out, "logagg_lines_total", "counter", "Lines counted since logagg started, per key.");
  samples(out, "logagg_lines_total", "", "", [](const KeyTotals& t) { return std::to_string(t.lines); });
  if (keys_.empty() && label_names_.empty()) out.append("logagg_lines_total 0\n");
  family(out, "logagg_lines_read_total", "counter",
         "Lines read since logagg started: counted, blank, rejected, filtered or outside --since/--until.");
  sample(out, "logagg_lines_read_total", "", "", summary_.lines);
  family(out, "logagg_lines_blank_total", "counter", "Blank lines read.");
  sample(out, "logagg_lines_blank_total", "", "", summary_.blank);
  if (question.since || question.until) {
    family(out, "logagg_lines_outside_range_total", "counter", "Valid lines outside --since/--until, not counted.");
    sample(out, "logagg_lines_outside_range_total", "", "", summary_.outside_range);
  }
  family(out, "logagg_lines_rejected_total", "counter", "Lines rejected, per reason.");
  for (size_t r = 0; r < kReasonCount; ++r) {
    sample(out, "logagg_lines_rejected_total", "reason", reason_key(static_cast<Reason>(r)), summary_.rejected[r]);
  }
  if (!question.where.empty()) {
    family(out, "logagg_lines_filtered_total", "counter",
           "Valid lines filtered out, per --where filter (the first that failed).");
    for (size_t i = 0; i < question.where.size(); ++i) {
      if (repeated(question.where, i)) continue;  // the first of the same filters fails first
      sample(out, "logagg_lines_filtered_total", "filter", question.where[i],
             i < summary_.filtered_by.size() ? summary_.filtered_by[i] : 0);
    }
  }
  const MeasureSpec& spec = query_.measures();
  if (!spec.count_if.empty()) {
    family(out, "logagg_lines_matching_total", "counter",
           "Lines counted for which a --count-if expression holds, per key.");
    for (size_t i = 0; i < spec.count_if.size(); ++i) {
      if (repeated(spec.count_if, i)) continue;  // the same series again
      samples(out, "logagg_lines_matching_total", "count_if", spec.count_if[i],
              [i](const KeyTotals& t) { return std::to_string(t.matching[i]); });
    }
  }
  for (size_t s = 0; s < sums_.size(); ++s) {
    const Measured& m = sums_[s];
    const std::string name = m.metric + "_total";
    family(out, name, "counter",
           "The sum of field " + spec.fields[m.field].name + (m.unit ? " in seconds" : "") +
               " over the lines counted, per key (--sum).");
    samples(out, name, "", "", [&](const KeyTotals& t) { return seconds_text(t.fields[s], m); });
  }
  for (size_t h = 0; h < histograms_.size(); ++h) append_histogram(out, h);
  return out;
}

}  // namespace logagg
