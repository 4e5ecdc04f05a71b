// The application-id check: non-empty and ASCII [A-Za-z0-9] only.
// Written as a byte loop over a lookup table, not a regex: it runs once per line.
#pragma once

#include <string_view>

namespace logagg {

// True when `id` (already JSON-unescaped) is non-empty and every byte is an
// ASCII letter or digit. Thread-safe, allocation-free.
bool is_valid_app_id(std::string_view id) noexcept;

}  // namespace logagg
