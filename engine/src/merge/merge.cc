// Adding up results read back from `--format json` documents (see merge.h;
// the documents are written and read in report/, document_writer.cc and
// result_document.cc).
#include "logagg/merge.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#include "count/count.h"
#include "logagg/rfc3339.h"

namespace logagg {
namespace {

[[noreturn]] void fail(const std::string& why) { throw std::runtime_error(why); }

std::string describe(const std::optional<int64_t>& second) {
  if (!second) return "none";
  char buf[kUtcSecondMaxChars];
  return std::string(buf, static_cast<size_t>(format_utc_second(*second, buf)));
}

// Keys or filters as a merge's message names them: "a, b", or "none".
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out.append(out.empty() ? "" : ", ").append(item);
  return out.empty() ? "none" : out;
}

// The sum of two lists of rows, each ascending and without repeats: one
// linear pass, rows of the same second (and app) added.
template <typename Row>
std::vector<Row> add_rows(const std::vector<Row>& a, const std::vector<Row>& b) {
  std::vector<Row> sum;
  sum.reserve(a.size() + b.size());
  auto x = a.begin(), y = b.begin();
  while (x != a.end() || y != b.end()) {
    if (y == b.end() || (x != a.end() && row_before(*x, *y))) {
      sum.push_back(*x++);
    } else if (x == a.end() || row_before(*y, *x)) {
      sum.push_back(*y++);
    } else {
      Row both = *x++;
      both.count += y++->count;
      sum.push_back(both);
    }
  }
  return sum;
}

// Adds the --by-app counts of `other` into `into`, the apps of both numbered anew.
void merge_app_counts(Result& into, const Result& other) {
  std::vector<std::string> names = into.apps;
  names.insert(names.end(), other.apps.begin(), other.apps.end());
  std::sort(names.begin(), names.end(), app_before);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // Both lists of apps are in the order of `names`, so renumbering keeps each
  // result's rows sorted and one linear pass adds them up.
  const auto renumbered = [&](const Result& r) {
    std::vector<uint32_t> to(r.apps.size());
    for (size_t i = 0; i < to.size(); ++i) {
      to[i] =
          static_cast<uint32_t>(std::lower_bound(names.begin(), names.end(), r.apps[i], app_before) - names.begin());
    }
    std::vector<AppCount> rows = r.app_counts;
    for (AppCount& c : rows) c.app = to[c.app];
    return rows;
  };
  into.app_counts = add_rows(renumbered(into), renumbered(other));
  into.apps = std::move(names);
  into.counts = add_rows(into.counts, other.counts);
  into.apps_capped = into.apps_capped || other.apps_capped;
}

// Whether a result's field tallies are known: kept, or none to keep (no line).
bool has_field_tallies(const Result& r) {
  return r.summary.fields.size() == r.query.fields().size() || r.summary.lines == 0;
}

}  // namespace

void merge_into(Partial& into, const Partial& other) {
  const Query& query = into.result.query;
  const Question& a = query.question();
  const Question& b = other.result.query.question();
  const auto differ = [](const std::string& what, const std::string& x, const std::string& y) {
    fail("made with a different " + what + " (" + y + ", not " + x + "): results cannot be added");
  };
  const auto zone = [](const Bucketing& x) { return x.zone() ? time_zone_name(*x.zone()) : std::string("none"); };
  const Bucketing& ab = into.report.bucketing;
  const Bucketing& bb = other.report.bucketing;
  if (zone(ab) != zone(bb)) differ("--tz", zone(ab), zone(bb));
  if (ab.width_seconds() != bb.width_seconds()) differ("bucket", ab.name(), bb.name());
  if (a.app_field != b.app_field) differ("app field", a.app_field, b.app_field);
  if (a.time_field != b.time_field) differ("time field", a.time_field, b.time_field);
  if (a.time_format != b.time_format) differ("--time-format", a.time_format, b.time_format);
  if (a.input_tz != b.input_tz) differ("--input-tz", a.input_tz, b.input_tz);
  if (a.app_pattern != b.app_pattern) differ("--app-pattern", a.app_pattern, b.app_pattern);
  if (a.since != b.since) differ("--since", describe(a.since), describe(b.since));
  if (a.until != b.until) differ("--until", describe(a.until), describe(b.until));
  if (a.by_app != b.by_app) {
    fail(std::string("made ") + (b.by_app ? "with" : "without") +
         " --by-app, unlike the results before it: " + "results cannot be added");
  }
  if (a.by != b.by) differ("--by", listed(query.key_columns()), listed(other.result.query.key_columns()));
  if (a.where != b.where) differ("--where", listed(a.where), listed(b.where));
  if (a.sum != b.sum) differ("--sum", listed(a.sum), listed(b.sum));
  if (a.quantiles != b.quantiles) differ("--quantiles", listed(a.quantiles), listed(b.quantiles));
  if (a.percentiles != b.percentiles) differ("--percentiles", listed(a.percentiles), listed(b.percentiles));
  if (a.count_if != b.count_if) differ("--count-if", listed(a.count_if), listed(b.count_if));

  // The cap to name is that of the results that hit theirs.
  if (other.result.apps_capped && query.keyed()) {
    const size_t cap = into.result.apps_capped ? std::max(a.max_apps, b.max_apps) : b.max_apps;
    if (cap != a.max_apps) {
      Question capped = a;
      capped.max_apps = cap;
      into.result.query = Query(capped);
    }
  }
  const bool keyed = into.result.query.keyed();
  if (into.result.query.measured()) {  // rows with their cells, added up (apps numbered anew when keyed)
    std::vector<MeasuredRow> rows = measured_rows(into.result, keyed);
    std::vector<MeasuredRow> more = measured_rows(other.result, keyed);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    set_measured_rows(std::move(rows), into.result.query.measures(), keyed, into.result);
    into.result.apps_capped = into.result.apps_capped || other.result.apps_capped;
  } else if (keyed) {
    merge_app_counts(into.result, other.result);
  } else {
    into.result.counts = add_rows(into.result.counts, other.result.counts);
  }
  const double elapsed = into.result.summary.elapsed_seconds;
  // Field tallies only if both have them (none, if one was written before they were kept).
  const bool tallied = has_field_tallies(into.result) && has_field_tallies(other.result);
  into.result.summary.add(other.result.summary);
  if (!tallied) into.result.summary.fields.clear();
  into.result.summary.elapsed_seconds = elapsed;
}

}  // namespace logagg
