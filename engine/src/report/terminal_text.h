// The columns text takes on a terminal, beside terminal_text (the public
// logagg/terminal_text.h), which makes the bytes of ids and names safe to
// print there.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "logagg/terminal_text.h"

namespace logagg {

// The terminal columns of `text`, valid UTF-8 without controls (as
// terminal_text makes it): wcwidth() of each code point in the C.UTF-8
// locale (two for wide CJK and emoji, none for combining marks), one for
// code points it does not know; one per code point if the system has no
// C.UTF-8. ASCII text is its size. Thread-safe (the locale is set for the
// calling thread only, and only while measuring).
size_t display_width(std::string_view text);

}  // namespace logagg
