// The application-id check (see app_id.h): a 256-entry table lookup per byte.
#include "parse/app_id.h"

#include <array>

namespace logagg {
namespace {

constexpr std::array<bool, 256> make_alnum_table() {
  std::array<bool, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  return t;
}
constexpr std::array<bool, 256> kAlnum = make_alnum_table();

}  // namespace

bool is_valid_app_id(std::string_view id) noexcept {
  if (id.empty()) return false;
  for (const char c : id) {
    if (!kAlnum[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

}  // namespace logagg
