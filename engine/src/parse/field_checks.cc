// The warnings of logagg/field_checks.h: from the summary's field tallies,
// and from the question's compiled rules for what each filter's value can
// meet.
#include "logagg/field_checks.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "logagg/edit_distance.h"
#include "parse/line_parser.h"

namespace logagg {
namespace {

constexpr std::string_view kNoSuchField = "no_such_field";
constexpr std::string_view kNeverMatches = "never_matches";
constexpr std::string_view kNoNumber = "no_number";
// How many of the log's fields a warning names.
constexpr size_t kNamesShown = 6;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A JSON Pointer's dotted spelling ("/service/name" -> "service.name"); a
// plain name as it is.
std::string dotted(std::string_view name) {
  if (name.empty() || name[0] != '/') return std::string(name);
  std::string out(name.substr(1));
  std::replace(out.begin(), out.end(), '/', '.');
  return out;
}

bool says_status(std::string_view name) {
  const std::string l = lower(name);
  return l.find("status") != std::string::npos || l.ends_with("code") || l == "response";
}

// "; the lines have a, b, c" nearest to `name` first, and a field that
// holds statuses for a name that says status.
std::string log_fields_text(std::string_view name, std::span<const LogField> log_fields) {
  if (log_fields.empty()) return {};
  const std::string wanted = lower(dotted(name));
  std::vector<std::pair<size_t, const LogField*>> ranked;
  for (const LogField& f : log_fields) {
    const size_t d = std::min(edit_distance(wanted, lower(f.name)), edit_distance(wanted, lower(dotted(f.name))));
    ranked.emplace_back(d, &f);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out = "; the lines have ";
  for (size_t i = 0; i < ranked.size() && i < kNamesShown; ++i) out += (i > 0 ? ", " : "") + ranked[i].second->name;
  if (ranked.size() > kNamesShown) out += " and " + std::to_string(ranked.size() - kNamesShown) + " more";
  if (says_status(name)) {
    for (const LogField& f : log_fields) {
      if (f.statuses) return out + "; " + f.name + " holds HTTP statuses";
    }
  }
  return out;
}

// What the valid lines that had the field held: "a number on 1000 lines",
// "a string on 3 lines and a number on 2".
std::string held_text(const FieldTally& t) {
  const std::pair<const char*, uint64_t> kinds[] = {
      {"a number", t.numbers}, {"a string", t.strings}, {"an object, array, literal or a repeated key", t.others}};
  std::string out;
  for (const auto& [what, n] : kinds) {
    if (n == 0) continue;
    out += (out.empty() ? "" : " and ") + std::string(what) + " on " + std::to_string(n) +
           (out.empty() ? (n == 1 ? " line" : " lines") : "");
  }
  return out;
}

// What a comparison matches: "strings only", "numbers and strings".
std::string matches_text(const Filter::Meets& m) {
  std::vector<std::string> kinds;
  if (m.numbers) kinds.emplace_back("numbers");
  if (m.strings) kinds.emplace_back(m.numbers ? "strings" : "strings (a quoted value is text)");
  if (m.literals) kinds.emplace_back("true, false or null");
  if (kinds.size() == 1) return kinds[0] + " only";
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i) out += (i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ") + kinds[i];
  return out;
}

// Whether no value a field held can meet `filter`.
bool never_meets(const Filter& filter, const FieldTally& t) {
  const Filter::Meets m = filter.meets();
  return t.present() > 0 && (!m.numbers || t.numbers == 0) && (!m.strings || t.strings == 0) &&
         (!m.literals || t.others == 0);
}

void check_comparisons(const Query& query, const Summary& summary, std::vector<bool>& warned,
                       std::vector<FieldWarning>& out) {
  const KeyRules& rules = query.rules().keys;
  const Question& q = query.question();
  const auto check = [&](const char* option, const std::string& expression, int target, const Filter& filter) {
    if (target < KeyRules::kExtra) return;
    const auto field = static_cast<size_t>(target - KeyRules::kExtra);
    if (warned[field] || !never_meets(filter, summary.fields[field])) return;
    warned[field] = true;
    std::string message = std::string(option) + " " + expression + ": never true: " + rules.names[field] + " is " +
                          held_text(summary.fields[field]) + " (every line that has it), and the comparison matches " +
                          matches_text(filter.meets());
    if (const std::string fixed = filter.unquoted(); !fixed.empty()) {
      message += "; write " + std::string(option) + " '" + fixed + "' to compare numbers";
    }
    out.push_back({std::string(kNeverMatches), rules.names[field], std::move(message)});
  };
  for (size_t i = 0; i < rules.filters.size(); ++i)
    check("--where", q.where[i], rules.filters[i].first, rules.filters[i].second);
  for (size_t i = 0; i < rules.count_if.size(); ++i) {
    check("--count-if", q.count_if[i], rules.count_if[i].first, rules.count_if[i].second);
  }
}

void check_measures(const Query& query, const Summary& summary, std::vector<bool>& warned,
                    std::vector<FieldWarning>& out) {
  const KeyRules& rules = query.rules().keys;
  const MeasureSpec& spec = query.measures();
  if (summary.counted == 0) return;
  for (size_t i = 0; i < spec.fields.size() && i < rules.measures.size() && i < summary.no_measure.size(); ++i) {
    if (rules.measures[i].target < KeyRules::kExtra || summary.no_measure[i] != summary.counted) continue;
    const auto field = static_cast<size_t>(rules.measures[i].target - KeyRules::kExtra);
    if (warned[field]) continue;
    warned[field] = true;
    const std::string option = spec.fields[i].summed ? "--sum" : "--quantiles";
    out.push_back({std::string(kNoNumber), rules.names[field],
                   option + " " + spec.fields[i].name + ": no counted line has a number in " + spec.fields[i].name +
                       " (it is " + held_text(summary.fields[field]) +
                       "), so its sum and quantiles are printed as absent (-)"});
  }
}

}  // namespace

std::vector<FieldWarning> check_fields(const Query& query, const Summary& summary,
                                       std::span<const LogField> log_fields) {
  std::vector<FieldWarning> out;
  const std::vector<std::string>& names = query.fields();
  if (summary.fields.size() != names.size() || names.empty()) return out;
  const FieldTally& first = summary.fields[0];
  if (first.absent + first.present() == 0) return out;  // no valid line
  std::vector<bool> warned(names.size(), false);
  for (size_t i = 0; i < names.size(); ++i) {
    if (summary.fields[i].present() != 0) continue;
    warned[i] = true;
    out.push_back(
        {std::string(kNoSuchField), names[i],
         query.fields_named_by()[i] + ": no line has the field " + names[i] + log_fields_text(names[i], log_fields)});
  }
  check_comparisons(query, summary, warned, out);
  check_measures(query, summary, warned, out);
  return out;
}

bool names_missing_fields(const std::vector<FieldWarning>& warnings) {
  return std::any_of(warnings.begin(), warnings.end(), [](const FieldWarning& w) { return w.code == kNoSuchField; });
}

}  // namespace logagg
