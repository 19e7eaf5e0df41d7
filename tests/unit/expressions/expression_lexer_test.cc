#include "engine/expressions/expression_lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dynapage {
namespace {

std::vector<TokenKind> Kinds(std::string_view text) {
  std::vector<TokenKind> kinds;
  for (const Token& t : Tokenize(text)) kinds.push_back(t.kind);
  return kinds;
}

std::vector<std::string> Texts(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& t : Tokenize(text)) out.emplace_back(text.substr(t.begin, t.end - t.begin));
  return out;
}

using K = TokenKind;

TEST(ExpressionLexerTest, EmptyAndBlankTextIsJustEnd) {
  EXPECT_EQ(std::vector<K>({K::kEnd}), Kinds(""));
  auto tokens = Tokenize(" \t\r\n");
  ASSERT_EQ(1u, tokens.size());
  EXPECT_EQ(K::kEnd, tokens[0].kind);
  EXPECT_EQ(4u, tokens[0].begin);
  EXPECT_EQ(4u, tokens[0].end);
}

TEST(ExpressionLexerTest, NamesPlaceholdersAndNumbers) {
  EXPECT_EQ(std::vector<K>({K::kIdentifier, K::kNamePlaceholder, K::kValuePlaceholder, K::kNumber, K::kEnd}),
            Kinds("a_1 #n9 :v_x 42"));
  EXPECT_EQ(std::vector<std::string>({"a_1", "#n9", ":v_x", "42", ""}), Texts("a_1 #n9 :v_x 42"));
  // A digit cannot start a name; a bare sigil is still a placeholder token.
  EXPECT_EQ(std::vector<K>({K::kNumber, K::kIdentifier, K::kNamePlaceholder, K::kValuePlaceholder, K::kEnd}),
            Kinds("1a # :"));
}

TEST(ExpressionLexerTest, Punctuation) {
  EXPECT_EQ(std::vector<K>({K::kLParen, K::kRParen, K::kLBracket, K::kRBracket, K::kComma, K::kDot, K::kPlus,
                            K::kMinus, K::kEnd}),
            Kinds("()[],.+-"));
}

TEST(ExpressionLexerTest, ComparatorsAreGreedy) {
  EXPECT_EQ(std::vector<K>({K::kEq, K::kNe, K::kLt, K::kLe, K::kGt, K::kGe, K::kEnd}), Kinds("= <> < <= > >="));
  EXPECT_EQ(std::vector<K>({K::kIdentifier, K::kLe, K::kValuePlaceholder, K::kEnd}), Kinds("a<=:v"));
  EXPECT_EQ(std::vector<K>({K::kGt, K::kLt, K::kEnd}), Kinds("><"));
}

TEST(ExpressionLexerTest, UnknownCharactersAreSingleTokens) {
  EXPECT_EQ(std::vector<K>({K::kIdentifier, K::kUnknown, K::kIdentifier, K::kEnd}), Kinds("a^b"));
  // A multi-byte UTF-8 character is one token.
  std::string text = "\xC3\xA9x";
  auto texts = Texts(text);
  ASSERT_EQ(3u, texts.size());
  EXPECT_EQ("\xC3\xA9", texts[0]);
  EXPECT_EQ("x", texts[1]);
  // A truncated sequence at the end does not run past the text.
  auto tokens = Tokenize("\xE2\x82");
  ASSERT_EQ(2u, tokens.size());
  EXPECT_EQ(2u, tokens[0].end);
}

TEST(ExpressionLexerTest, OffsetsPointIntoText) {
  std::string text = "  ab  = :v";
  auto tokens = Tokenize(text);
  ASSERT_EQ(4u, tokens.size());
  EXPECT_EQ(2u, tokens[0].begin);
  EXPECT_EQ(4u, tokens[0].end);
  EXPECT_EQ(6u, tokens[1].begin);
  EXPECT_EQ(8u, tokens[2].begin);
  EXPECT_EQ(10u, tokens[3].begin);
}

TEST(ExpressionLexerTest, KeywordsAreCaseInsensitiveIdentifiers) {
  std::string text = "aNd AND andx or";
  auto tokens = Tokenize(text);
  EXPECT_TRUE(IsKeyword(text, tokens[0], "AND"));
  EXPECT_TRUE(IsKeyword(text, tokens[1], "AND"));
  EXPECT_FALSE(IsKeyword(text, tokens[2], "AND"));
  EXPECT_FALSE(IsKeyword(text, tokens[3], "AND"));
  EXPECT_TRUE(IsKeyword(text, tokens[3], "OR"));
  std::string placeholder = "#AND";
  EXPECT_FALSE(IsKeyword(placeholder, Tokenize(placeholder)[0], "AND"));
}

}  // namespace
}  // namespace dynapage
