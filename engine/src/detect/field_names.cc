// The words of field names and what they say (detect/field_names.h).
#include "detect/field_names.h"

#include <algorithm>
#include <initializer_list>

#include "text/ascii.h"

namespace logagg {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

using Words = std::initializer_list<std::string_view>;

bool is_one_of(std::string_view word, Words any) { return std::find(any.begin(), any.end(), word) != any.end(); }

bool has_word(const std::vector<std::string>& words, Words any) {
  return std::any_of(words.begin(), words.end(), [any](const std::string& w) { return is_one_of(w, any); });
}

bool last_word_is(const std::vector<std::string>& words, Words any) {
  return !words.empty() && is_one_of(words.back(), any);
}

}  // namespace

std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  const auto cut = [&] {
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!is_upper(c) && !is_lower(c) && !is_digit(c)) {
      cut();
      continue;
    }
    // A new word at "aB" and at the last capital of "HTTPExpires".
    const bool after_lower = i > 0 && (is_lower(name[i - 1]) || is_digit(name[i - 1]));
    const bool acronym_end = i > 0 && is_upper(name[i - 1]) && i + 1 < name.size() && is_lower(name[i + 1]);
    if (is_upper(c) && (after_lower || acronym_end)) cut();
    word.push_back(is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c);
  }
  cut();
  return words;
}

int time_rank(std::string_view name) {
  const std::vector<std::string> words = name_words(name);
  if (has_word(words, {"end", "ended", "stage", "write", "written", "finish", "finished", "completed", "completion",
                       "stop", "expires", "expiry", "modified", "updated", "last"})) {
    return 0;
  }
  return has_word(words, {"start", "started", "received", "begin", "arrival"}) ? 2 : 1;
}

int who_rank(std::string_view name) {
  // Its last word says what the field is ("user_ip" is an address, not a
  // user), after a "name" or "id" that only says how (service.name, app_id).
  std::vector<std::string> words = name_words(name);
  if (words.size() > 1 && (words.back() == "name" || words.back() == "id")) words.pop_back();
  // The client's own host or address is who asked, not who was asked
  // (Traefik's ClientHost; Cloudflare's ClientRequestHost is the host asked).
  if (words.size() > 1 && is_one_of(words[words.size() - 2], {"client", "remote", "peer", "src", "source"})) return 0;
  if (last_word_is(words, {"host", "hostname", "authority", "servername", "vhost", "domain", "site"})) return 3;
  if (last_word_is(words, {"service", "app", "application", "cluster", "router", "route", "backend", "frontend",
                           "tenant", "controller", "handler", "endpoint"})) {
    return 2;
  }
  return last_word_is(words, {"logger", "user", "username", "server"}) ? 1 : 0;
}

KeyName key_name(std::string_view name) {
  const std::vector<std::string> words = name_words(name);
  if (has_word(words, {"level", "lvl",  "severity",    "msg",     "message",  "caller", "stack",   "stacktrace", "uri",
                       "url",   "path", "query",       "referer", "referrer", "agent",  "expires", "modified",   "date",
                       "trace", "span", "fingerprint", "cookie",  "token",    "error",  "err",     "version"})) {
    return KeyName::kNever;
  }
  const bool who = who_rank(name) > 0;
  if (!who && last_word_is(words, {"id", "uid", "uuid", "guid", "ids"})) return KeyName::kNever;
  return who ? KeyName::kNamesWho : KeyName::kNeutral;
}

int status_rank(std::string_view name) {
  const std::vector<std::string> words = name_words(name);
  if (has_word(words, {"edge", "downstream", "client"})) return 2;
  return has_word(words, {"origin", "upstream", "backend", "proxy", "cache"}) ? 0 : 1;
}

std::string duration_unit_of_name(std::string_view name) {
  const std::vector<std::string> words = name_words(name);
  if (last_word_is(words, {"s", "sec", "secs", "seconds"})) return "seconds";
  if (last_word_is(words, {"ms", "msec", "msecs", "millis", "milliseconds"})) return "milliseconds";
  if (last_word_is(words, {"us", "usec", "usecs", "micros", "microseconds"})) return "microseconds";
  if (last_word_is(words, {"ns", "nsec", "nsecs", "nanos", "nanoseconds"})) return "nanoseconds";
  return "";
}

bool limit_name(std::string_view name) {
  return has_word(name_words(name), {"target", "limit", "timeout", "max", "min", "threshold", "budget"});
}

bool sub_part_name(std::string_view name) {
  return has_word(name_words(name), {"redis", "db", "sql", "gitaly", "elasticsearch", "cache", "cpu", "mem", "memory",
                                     "heap", "alloc", "allocated", "rss", "gc", "queue", "view", "rack"});
}

}  // namespace logagg
