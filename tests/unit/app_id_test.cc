// Tests for parse/app_id.h: an app id is valid when it is non-empty and every
// byte is an ASCII letter or digit. Every one of the 256 byte values is tried
// alone and at the start, middle and end of an otherwise valid id; bytes of
// 0x80 and above are refused whatever letter they may encode in some charset.
#include "parse/app_id.h"

#include <gtest/gtest.h>

#include <string>

namespace logagg {
namespace {

// Written out, not computed from <cctype>: isalnum depends on the locale.
bool ascii_alnum(int c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

TEST(AppId, EveryByteValueAloneAndInsideAnId) {
  int valid = 0;
  for (int c = 0; c < 256; ++c) {
    const std::string b(1, static_cast<char>(c));
    const bool want = ascii_alnum(c);
    valid += want;
    EXPECT_EQ(is_valid_app_id(b), want) << "byte " << c;
    EXPECT_EQ(is_valid_app_id(b + "web1"), want) << "byte " << c << " first";
    EXPECT_EQ(is_valid_app_id("web" + b + "1"), want) << "byte " << c << " inside";
    EXPECT_EQ(is_valid_app_id("web1" + b), want) << "byte " << c << " last";
  }
  EXPECT_EQ(valid, 62);
}

TEST(AppId, EmptyIsRefused) {
  EXPECT_FALSE(is_valid_app_id(""));
  EXPECT_FALSE(is_valid_app_id(std::string_view()));
}

TEST(AppId, TheWholeViewIsCheckedAndNothingPastIt) {
  EXPECT_FALSE(is_valid_app_id(std::string_view("ab\0cd", 5))) << "an embedded NUL";
  EXPECT_TRUE(is_valid_app_id(std::string_view("ab-cd", 2))) << "bytes past the view do not count";
  EXPECT_FALSE(is_valid_app_id(std::string(1000, 'a') + "_"));
  EXPECT_TRUE(is_valid_app_id(std::string(100000, 'Z')));
  EXPECT_TRUE(is_valid_app_id("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"));
}

TEST(AppId, UnicodeLettersAreNotAscii) {
  EXPECT_FALSE(is_valid_app_id("caf\xc3\xa9"));   // "café" in UTF-8
  EXPECT_FALSE(is_valid_app_id("caf\xe9"));       // "café" in Latin-1
  EXPECT_FALSE(is_valid_app_id("\xef\xbc\xa1"));  // fullwidth 'A'
}

}  // namespace
}  // namespace logagg
