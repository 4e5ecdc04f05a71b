// report/terminal_text.h, report/csv_field.h and logagg/json_text.h's JSON
// strings: what each writer makes of hostile bytes (app ids, file names,
// arguments), pinned on tables; and the terminal width of wide, combining
// and escaped text.
#include "report/terminal_text.h"

#include <gtest/gtest.h>

#include <string>

#include "report/csv_field.h"
#include "report/report_text.h"

namespace logagg {
namespace {

using namespace std::string_literals;

TEST(TerminalText, EscapesWhatATerminalWouldActOn) {
  const std::pair<std::string, std::string> cases[] = {
      {"web01", "web01"},
      {"", ""},
      {"a\\b", "a\\\\b"},
      {"a\nb\rc\td", "a\\nb\\rc\\td"},
      {"\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"},
      {"\x1b[2J", "\\x1b[2J"},
      {"nul\0here"s, "nul\\x00here"},
      {"\x01\x1f\x7f", "\\x01\\x1f\\x7f"},
      {"\xc2\x85\xc2\x9b", "\\u0085\\u009b"},                                             // C1: NEL, CSI
      {"a\u202eb\u202a\u202c\u202d", "a\\u202eb\\u202a\\u202c\\u202d"},                   // bidi embeddings
      {"\u2066\u2067\u2068\u2069\u200e\u200f\u061c", "\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c"},
      {"\u200b\u2028\u2029\u2060\ufeff", "\\u200b\\u2028\\u2029\\u2060\\ufeff"},        // invisible
      {"\xff", "\\xff"},
      {"a\xc3", "a\\xc3"},                       // cut short at the end
      {"\xc3(", "\\xc3("},                       // a lead byte without its tail
      {"\xc0\xaf", "\\xc0\\xaf"},                // overlong '/'
      {"\xed\xa0\x80", "\\xed\\xa0\\x80"},       // a surrogate
      {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},  // past U+10FFFF
      {"日本語 e\u0301 👍 \u200d é ©", "日本語 e\u0301 👍 \u200d é ©"},  // printable UTF-8 as is
      {"</script><img src=x onerror=alert(1)>", "</script><img src=x onerror=alert(1)>"},
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(terminal_text(in), want) << in;
}

TEST(TerminalText, EveryByteComesOutPrintableAndValid) {
  for (int b = 0; b < 256; ++b) {
    const std::string shown = terminal_text(std::string(1, static_cast<char>(b)));
    for (const char c : shown) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u < 0x7f) << "byte " << b << " shows as " << shown;
    }
    EXPECT_EQ(shown.size() == 1, b >= 0x20 && b < 0x7f && b != '\\') << b;
  }
}

TEST(TerminalText, DisplayWidthCountsColumns) {
  EXPECT_EQ(display_width(""), 0u);
  EXPECT_EQ(display_width("app_id"), 6u);
  EXPECT_EQ(display_width("日本語"), 6u) << "CJK is two columns each";
  EXPECT_EQ(display_width("e\u0301"), 1u) << "a combining accent takes none";
  EXPECT_EQ(display_width("👍"), 2u);
  EXPECT_EQ(display_width("é"), 1u);
  EXPECT_EQ(display_width(terminal_text("\x1b\u202e")), 10u) << "escapes are ASCII";
}

TEST(TerminalText, PaddingGoesByColumns) {
  std::string out;
  append_padded(out, "日本", 6, false);
  append_padded(out, "x", 3, true);
  EXPECT_EQ(out, "日本    x");
}

std::string csv_field(std::string_view field, bool neutralise_formulas) {
  std::string out;
  append_csv_field(out, field, neutralise_formulas);
  return out;
}

TEST(CsvField, QuotesPerRfc4180AndNeutralisesFormulasWhenAsked) {
  struct Case {
    std::string in, plain, safe;  // the field, then as written without and with --csv-safe
  };
  const Case cases[] = {
      {"web01", "web01", "web01"},
      {"", "", ""},
      {"a,b", "\"a,b\"", "\"a,b\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\""},
      {"\"", "\"\"\"\"", "\"\"\"\""},
      {"two\nlines", "\"two\nlines\"", "\"two\nlines\""},
      {"cr\r", "\"cr\r\"", "\"cr\r\""},
      {"tab\there", "tab\there", "tab\there"},
      {"\x1b[2J\xff", "\x1b[2J\xff", "\x1b[2J\xff"},  // csv is data: as decoded
      {"=cmd|' /C calc'!A0", "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
      {"+1", "+1", "'+1"},
      {"-2", "-2", "'-2"},
      {"@SUM(A1)", "@SUM(A1)", "'@SUM(A1)"},
      {"\tx", "\tx", "'\tx"},
      {"\rx", "\"\rx\"", "\"'\rx\""},
      {"=a,b", "\"=a,b\"", "\"'=a,b\""},
      {"a=b", "a=b", "a=b"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(csv_field(c.in, false), c.plain) << c.in;
    EXPECT_EQ(csv_field(c.in, true), c.safe) << c.in;
  }
}

TEST(JsonString, EscapesPerRfc8259AndStaysValidUtf8) {
  const std::pair<std::string, std::string> cases[] = {
      {"web01", "\"web01\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\""},
      {"\n\r\t\x1b"s + '\0', "\"\\u000a\\u000d\\u0009\\u001b\\u0000\""},
      {"\x7f\u202e日本", "\"\x7f\u202e日本\""},
      {"bad\xff\xc3", "\"bad\\ufffd\\ufffd\""},
      {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},
  };
  for (const auto& [in, want] : cases) {
    std::string out;
    append_json_string(out, in);
    EXPECT_EQ(out, want) << in;
  }
}

}  // namespace
}  // namespace logagg
