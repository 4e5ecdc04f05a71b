// The bounds of /metrics' histograms (plan_histograms, logagg/serve.h): the
// --serve-buckets given or the defaults, as `le` texts and as the field's
// values, the one moved into the other exactly as decimals.
#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "logagg/serve.h"
#include "serve/prometheus_text.h"

namespace logagg {
namespace {

bool is_plain_decimal(std::string_view text) {
  size_t i = 0, digits = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++digits;
  }
  return i == text.size() && digits > 0;
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  for (size_t at = 0;;) {
    const size_t comma = text.find(',', at);
    out.emplace_back(text.substr(at, comma - at));
    if (comma == std::string_view::npos) return out;
    at = comma + 1;
  }
}

}  // namespace

std::vector<std::string> default_histogram_bounds(bool duration) {
  if (duration) return {"0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10"};
  return {"1", "10", "100", "1000", "10000", "100000", "1000000", "10000000", "100000000", "1000000000"};
}

void plan_histograms(Question& question, const std::vector<std::pair<std::string, DurationUnit>>& units,
                     const std::vector<std::string>& given, ServeOptions& serve) {
  std::vector<std::pair<std::string, std::vector<std::string>>> texts;
  for (const std::string& spec : given) {
    const size_t eq = spec.find('=');
    const std::string field = spec.substr(0, eq);
    if (eq == std::string::npos || field.empty()) {
      throw std::invalid_argument("--serve-buckets: write FIELD=B1,B2,... (not " + spec + ")");
    }
    if (std::find(question.quantiles.begin(), question.quantiles.end(), field) == question.quantiles.end()) {
      throw std::invalid_argument("--serve-buckets: " + field + " is no --quantiles field");
    }
    texts.emplace_back(field, split_commas(std::string_view(spec).substr(eq + 1)));
  }
  question.histograms.clear();
  serve.histograms.clear();
  for (const std::string& field : question.quantiles) {
    if (std::any_of(serve.histograms.begin(), serve.histograms.end(),
                    [&](const auto& h) { return h.first == field; })) {
      continue;  // named twice in --quantiles
    }
    const std::optional<DurationUnit> unit = field_unit(field, units);
    const auto it = std::find_if(texts.rbegin(), texts.rend(), [&](const auto& t) { return t.first == field; });
    std::vector<std::string> le = it != texts.rend() ? it->second : default_histogram_bounds(unit.has_value());
    std::vector<double> bounds;
    for (const std::string& text : le) {
      if (!is_plain_decimal(text)) {
        throw std::invalid_argument("--serve-buckets: " + field + "'s bound '" + text +
                                    "' is not a plain decimal (0.25, 10)");
      }
      // A bound in seconds, moved into the field's unit as a decimal, then read.
      const std::string in_field = unit ? shift_decimal(text, -digits_to_seconds(*unit)) : text;
      double b = 0;
      std::from_chars(in_field.data(), in_field.data() + in_field.size(), b);
      if (!bounds.empty() && b <= bounds.back()) {
        throw std::invalid_argument("--serve-buckets: " + field + "'s bounds must ascend, each once");
      }
      bounds.push_back(b);
    }
    question.histograms.emplace_back(field, std::move(bounds));
    serve.histograms.emplace_back(field, std::move(le));
  }
}

}  // namespace logagg
