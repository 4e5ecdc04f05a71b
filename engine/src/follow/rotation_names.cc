// The names of a followed file's rotations (see rotation_names.h).
#include "follow/rotation_names.h"

namespace logagg {
namespace {

bool is_separator(char c) { return c == '.' || c == '-' || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A separator, then digits in groups split by single separators.
bool is_stamp(std::string_view s) {
  if (s.size() < 2 || !is_separator(s[0]) || !is_digit(s[1]) || !is_digit(s.back())) return false;
  for (size_t i = 2; i < s.size(); ++i) {
    if (!is_digit(s[i]) && !(is_separator(s[i]) && is_digit(s[i - 1]))) return false;
  }
  return true;
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (s.size() <= suffix.size() || !s.ends_with(suffix)) return false;
  s.remove_suffix(suffix.size());
  return true;
}

}  // namespace

bool is_rotation_name(std::string_view name, std::string_view followed) {
  if (followed.empty()) return false;
  std::string_view rest = name;
  const bool compressed = strip_suffix(rest, ".gz") || strip_suffix(rest, ".zst");
  if (rest == followed) return compressed;
  if (rest.starts_with(followed) && is_stamp(rest.substr(followed.size()))) return true;
  const size_t dot = followed.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  const std::string_view stem = followed.substr(0, dot), extension = followed.substr(dot);
  return rest.size() > followed.size() && rest.starts_with(stem) && rest.ends_with(extension) &&
         is_stamp(rest.substr(stem.size(), rest.size() - stem.size() - extension.size()));
}

}  // namespace logagg
