// The Query of query.h: a Question read and checked once, with the measures,
// the key columns and the line parsers' compiled rules made from it.
#include "logagg/query.h"

#include "parse/line_parser.h"

namespace logagg {

struct Query::State {
  explicit State(const Question& q) : question(q), measures(MeasureSpec::of(q)), rules(LineRules::of(q, measures)) {
    if (q.by_app) key_columns.emplace_back(kAppColumn);
    for (const KeyField& key : q.by) key_columns.push_back(key.column());
  }
  Question question;
  MeasureSpec measures;
  LineRules rules;
  std::vector<std::string> key_columns;
};

Query::Query() {
  static const std::shared_ptr<const State> kDefault = std::make_shared<const State>(Question{});
  state_ = kDefault;
}

Query::Query(const Question& question) : state_(std::make_shared<const State>(question)) {}

const Question& Query::question() const { return state_->question; }
const MeasureSpec& Query::measures() const { return state_->measures; }
const std::vector<std::string>& Query::key_columns() const { return state_->key_columns; }
std::span<const std::string> Query::by_columns() const {
  return std::span(state_->key_columns).subspan(state_->question.by_app ? 1 : 0);
}
bool Query::has_app() const { return state_->question.app_field != kNoAppField; }
bool Query::keyed() const { return state_->question.by_app || by_keys(); }
bool Query::by_keys() const { return !state_->question.by.empty(); }
bool Query::measured() const { return !state_->measures.empty(); }
bool Query::counts_time_forms() const { return state_->question.time_format == "auto"; }
const std::vector<std::string>& Query::fields() const { return state_->rules.keys.names; }
const std::vector<std::string>& Query::fields_named_by() const { return state_->rules.keys.named_by; }
const LineRules& Query::rules() const { return state_->rules; }

}  // namespace logagg
