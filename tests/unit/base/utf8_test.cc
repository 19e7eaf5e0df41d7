#include "engine/base/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace dynapage {
namespace {

TEST(Utf8, ValidText) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("plain ASCII text that is longer than sixteen bytes"));
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9"));              // é
  EXPECT_TRUE(IsValidUtf8("\xe2\x82\xac"));          // €
  EXPECT_TRUE(IsValidUtf8("\xed\x9f\xbf"));          // U+D7FF, just below the surrogates
  EXPECT_TRUE(IsValidUtf8("\xee\x80\x80"));          // U+E000, just above them
  EXPECT_TRUE(IsValidUtf8("\xf0\x9f\x98\x80"));      // 😀
  EXPECT_TRUE(IsValidUtf8("\xf4\x8f\xbf\xbf"));      // U+10FFFF
  EXPECT_TRUE(IsValidUtf8(std::string(40, 'a') + "\xc3\xa9" + std::string(40, 'b')));
  EXPECT_TRUE(IsValidUtf8(std::string("a\0b", 3)));  // NUL is UTF-8
}

TEST(Utf8, InvalidText) {
  for (const char* bad : {"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xc3", "\xc3\x28", "\xe0\x80\x80",
                          "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xe2\x82", "\xf0\x80\x80\x80",
                          "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xfe"}) {
    EXPECT_FALSE(IsValidUtf8(bad)) << bad;
    // Also where the 16-byte blocks meet, and at the end of a long text.
    EXPECT_FALSE(IsValidUtf8(std::string(15, 'a') + bad + std::string(20, 'b'))) << bad;
    EXPECT_FALSE(IsValidUtf8(std::string(33, 'a') + bad)) << bad;
  }
}

TEST(Utf8, LoneSurrogateEscapes) {
  EXPECT_FALSE(HasLoneSurrogateEscape(R"({"a":"\ud83d\ude00"})"));
  EXPECT_FALSE(HasLoneSurrogateEscape(R"({"a":"\u00e9\n\\udc00"})"));  // an escaped backslash, then text
  EXPECT_FALSE(HasLoneSurrogateEscape(R"({"a":"\\\ud800\udc00"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"({"a":"\udc00"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"({"a":"\uDFFF"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"({"a":"\ud800"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"({"a":"\ud800\u0041"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"({"a":"\\\udc00"})"));
  EXPECT_TRUE(HasLoneSurrogateEscape(R"(\ud800)"));
}

TEST(Utf8, ToValidUtf8ReplacesEachBadByte) {
  EXPECT_EQ("abc \xc3\xa9", ToValidUtf8("abc \xc3\xa9"));
  EXPECT_EQ("a??b", ToValidUtf8("a\xff\xfe" "b"));
  EXPECT_EQ("?(", ToValidUtf8("\xc3("));
  EXPECT_EQ("???", ToValidUtf8("\xed\xa0\x80"));
}

}  // namespace
}  // namespace dynapage
