#include "engine/expressions/expression_lexer.h"

#include <cstring>

namespace dynapage {

namespace {

// A name starts with a letter ("_a" is a syntax error in DynamoDB); placeholders and later characters may use '_'.
bool IsIdentStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentPart(char c) { return IsIdentStart(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Length of the UTF-8 sequence starting with lead byte c (1 for a stray continuation or invalid byte).
size_t Utf8Length(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return c < 0xF0 ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  const size_t n = text.size();
  auto push = [&](TokenKind kind, size_t begin, size_t end) {
    tokens.push_back(Token{kind, static_cast<uint32_t>(begin), static_cast<uint32_t>(end)});
  };
  while (i < n) {
    char c = text[i];
    if (IsSpace(c)) {
      i++;
      continue;
    }
    size_t start = i;
    if (IsIdentStart(c)) {
      while (i < n && IsIdentPart(text[i])) i++;
      push(TokenKind::kIdentifier, start, i);
    } else if (c == '#' || c == ':') {
      i++;
      while (i < n && IsIdentPart(text[i])) i++;
      push(c == '#' ? TokenKind::kNamePlaceholder : TokenKind::kValuePlaceholder, start, i);
    } else if (IsDigit(c)) {
      while (i < n && IsDigit(text[i])) i++;
      push(TokenKind::kNumber, start, i);
    } else {
      TokenKind kind = TokenKind::kUnknown;
      size_t len = 1;
      char next = i + 1 < n ? text[i + 1] : '\0';
      switch (c) {
        case '(': kind = TokenKind::kLParen; break;
        case ')': kind = TokenKind::kRParen; break;
        case '[': kind = TokenKind::kLBracket; break;
        case ']': kind = TokenKind::kRBracket; break;
        case ',': kind = TokenKind::kComma; break;
        case '.': kind = TokenKind::kDot; break;
        case '=': kind = TokenKind::kEq; break;
        case '+': kind = TokenKind::kPlus; break;
        case '-': kind = TokenKind::kMinus; break;
        case '<':
          if (next == '>') {
            kind = TokenKind::kNe;
            len = 2;
          } else if (next == '=') {
            kind = TokenKind::kLe;
            len = 2;
          } else {
            kind = TokenKind::kLt;
          }
          break;
        case '>':
          if (next == '=') {
            kind = TokenKind::kGe;
            len = 2;
          } else {
            kind = TokenKind::kGt;
          }
          break;
        default:
          len = Utf8Length(static_cast<unsigned char>(c));
          if (start + len > n) len = n - start;
          break;
      }
      i = start + len;
      push(kind, start, i);
    }
  }
  push(TokenKind::kEnd, n, n);
  return tokens;
}

bool IsKeyword(std::string_view text, const Token& token, const char* keyword) {
  if (token.kind != TokenKind::kIdentifier) return false;
  size_t len = std::strlen(keyword);
  if (token.end - token.begin != len) return false;
  for (size_t i = 0; i < len; i++) {
    char c = text[token.begin + i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != keyword[i]) return false;
  }
  return true;
}

}  // namespace dynapage
