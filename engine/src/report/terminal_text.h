// Bytes from the input or the command line (app ids, file names, arguments)
// made safe to print on a terminal, and the columns text takes there. Every
// text output a person reads prints such bytes through terminal_text: the
// table, --stats, --show-rejects, the summary and every error message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace logagg {

// Appends `s` so that a terminal shows every byte and acts on none, and the
// text can be read back unambiguously (GUIDE.md, "Text on the terminal"):
// a backslash as \\; LF, CR and TAB as \n, \r and \t; the other C0 controls
// and DEL as \xHH (\x1b); the C1 controls, the bidi controls (U+061C,
// U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) and the invisible U+200B,
// U+2028, U+2029, U+2060 and U+FEFF as \uHHHH (\u202e); each byte that
// starts no valid UTF-8 sequence as \xHH (\xff). Everything else, printable
// UTF-8, as is: text needing none of this is appended unchanged.
void append_terminal_text(std::string& out, std::string_view s);
std::string terminal_text(std::string_view s);

// The terminal columns of `text`, valid UTF-8 without controls (as
// terminal_text makes it): wcwidth() of each code point in the C.UTF-8
// locale (two for wide CJK and emoji, none for combining marks), one for
// code points it does not know; one per code point if the system has no
// C.UTF-8. ASCII text is its size. Thread-safe (the locale is set for the
// calling thread only, and only while measuring).
size_t display_width(std::string_view text);

}  // namespace logagg
