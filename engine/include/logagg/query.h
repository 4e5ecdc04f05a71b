// The question a run answers, read and checked once: the keys (fields,
// derived keys, their columns), the filters, the measures, whether rows are
// per app id or per key tuple, and the compiled rules the line parsers share.
// Built from a Question by its one constructor, which refuses anything the
// engine could not answer; then immutable. The engine counts with it, a
// Result carries it (result.h), and every report, merge, state file and
// follow takes the question from there: none reads the Question's strings
// again.
//
// A handle on shared, immutable state: cheap to copy, safe to share between
// threads.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "logagg/measures.h"
#include "logagg/options.h"

namespace logagg {

struct LineRules;  // the compiled rules (engine-internal)

class Query {
 public:
  // The default question (Question{}): every line with an app id of letters
  // and digits and an RFC 3339 timestamp, counted per second.
  Query();
  // Throws std::invalid_argument, with a one-line message naming the option,
  // for anything in `question` it cannot answer: a field that is not a
  // valid path or whose path overlaps another's, an app pattern that does
  // not compile, a time format or input zone it cannot use, too many keys,
  // fields, filters or predicates, a --by-path-prefix of 0 segments, --by-app
  // without an app field, a filter or predicate it cannot read, a percentile
  // out of range or none with --quantiles.
  explicit Query(const Question& question);

  // The question as asked: the text result documents record and messages name.
  const Question& question() const;
  // The measures: --sum's and --quantiles' fields, the percentiles, --count-if.
  const MeasureSpec& measures() const;
  // The key columns' names, in order: "app_id" with by_app, then each --by key's.
  const std::vector<std::string>& key_columns() const;
  // The --by keys' columns alone (key_columns() without "app_id").
  std::span<const std::string> by_columns() const;
  // Whether lines need an app id (the app field is not kNoAppField).
  bool has_app() const;
  // Whether lines are counted per key tuple (by_app or --by), and whether
  // those tuples hold --by keys (not the app id alone).
  bool keyed() const;
  bool by_keys() const;
  // Whether rows carry measures (--sum, --quantiles, --count-if).
  bool measured() const;
  // Whether the summary counts the lines per form of their time (auto).
  bool counts_time_forms() const;
  // The fields of --by, --where, --sum, --quantiles and --count-if besides
  // the app and time fields, each once, as first named (Summary::fields
  // tallies how the lines held them), and the option that first named each
  // ("--where status>=500").
  const std::vector<std::string>& fields() const;
  const std::vector<std::string>& fields_named_by() const;
  // The rules the line parsers are built from (engine-internal).
  const LineRules& rules() const;

 private:
  struct State;
  std::shared_ptr<const State> state_;
};

// The JSON parser that validates the lines, for --version and bug reports: simdjson's version
// and the kernel chosen for this CPU, e.g. "simdjson 3.0.1, haswell".
std::string json_parser_description();

}  // namespace logagg
