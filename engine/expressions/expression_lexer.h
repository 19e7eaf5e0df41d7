// Expression lexer: splits the text of a DynamoDB expression into tokens.
//
// The token set is shared by every expression kind (condition, key condition, projection, update); the parsers
// decide what is allowed where. Keywords (AND, OR, NOT, BETWEEN, IN, SET, REMOVE, ADD, DELETE) come out as
// identifiers and are recognized case-insensitively by the parser, because whether a word is a keyword depends
// on where it stands. Lexing never fails: a character that starts no token becomes a kUnknown token, so the
// parser reports it as a syntax error with DynamoDB's token/near text.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_LEXER_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_LEXER_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace dynapage {

enum class TokenKind : uint8_t {
  kIdentifier,        // [A-Za-z_][A-Za-z0-9_]*
  kNamePlaceholder,   // '#' [A-Za-z0-9_]*
  kValuePlaceholder,  // ':' [A-Za-z0-9_]*
  kNumber,            // [0-9]+ (only a list index may be one)
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kComma,
  kDot,
  kEq,  // =
  kNe,  // <>
  kLt,  // <
  kLe,  // <=
  kGt,  // >
  kGe,  // >=
  kPlus,
  kMinus,
  kUnknown,  // one character (a whole UTF-8 sequence) that starts no token
  kEnd,      // end of text; begin == end == text.size()
};

struct Token {
  TokenKind kind;
  uint32_t begin;  // byte offsets into the text
  uint32_t end;
};

// REQUIRES: text.size() < 2^32 (callers reject expressions over 4 KB before lexing).
// The result always ends with exactly one kEnd token. Whitespace is space, tab, CR and LF.
std::vector<Token> Tokenize(std::string_view text);

// True if the token is an identifier spelled like keyword (given in upper case), ignoring case.
bool IsKeyword(std::string_view text, const Token& token, const char* keyword);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_LEXER_H_
