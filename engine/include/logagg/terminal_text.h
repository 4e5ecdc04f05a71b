// Bytes from the input or the command line (app ids, file names, arguments)
// made safe to print on a terminal. Every text output a person reads prints
// such bytes through terminal_text: the table, --stats, --show-rejects, the
// summary and every error message. Pure and thread-safe.
#pragma once

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

}  // namespace logagg
