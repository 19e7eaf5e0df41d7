// PartiQL lexer: splits a PartiQL statement (ExecuteStatement and friends) into tokens (docs/partiql.md).
//
// Keywords are not told apart here: a bare word comes out as kWord and the parser compares it case-insensitively.
// A double-quoted token is always a name (kQuotedName), never a string; strings use single quotes, a quote inside
// written twice. "--" starts a comment that runs to the end of the line. Every token records its 1-based line and
// column and its length in characters, which DynamoDB quotes in some messages ("at 1:8:5").

#ifndef DYNAPAGE_ENGINE_PARTIQL_PARTIQL_LEXER_H_
#define DYNAPAGE_ENGINE_PARTIQL_PARTIQL_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"

namespace dynapage {

// The prefix of every PartiQL syntax error.
inline constexpr char kPartiqlSyntaxPrefix[] = "Statement wasn't well formed, can't be processed: ";

struct PartiqlToken {
  enum class Kind : uint8_t {
    kWord,        // [A-Za-z_][A-Za-z0-9_$]*: a keyword, function or unquoted name
    kQuotedName,  // "…" (text unescaped)
    kString,      // '…' (text unescaped)
    kNumber,      // digits with an optional fraction and exponent, no sign
    kSymbol,      // one of * , . ( ) [ ] { } : ? ; = <> != < <= > >= << >> + - /
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string text;
  uint32_t line = 1;
  uint32_t column = 1;
  uint32_t length = 0;

  // A kWord spelled like keyword (given in upper case), ignoring case.
  bool IsWord(const char* keyword) const;
  bool IsSymbol(const char* symbol) const { return kind == Kind::kSymbol && text == symbol; }
  // "line:column:length", as DynamoDB places a token in its messages.
  std::string Position() const;
};

// Tokenizes text; the result ends with one kEnd token. Fails on an unterminated string or name, or a character
// that starts no token, with kPartiqlSyntaxPrefix.
Status TokenizePartiql(std::string_view text, std::vector<PartiqlToken>* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_PARTIQL_LEXER_H_
