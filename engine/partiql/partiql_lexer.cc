#include "engine/partiql/partiql_lexer.h"

#include <cctype>

#include "engine/base/utf8.h"

namespace dynapage {

bool PartiqlToken::IsWord(const char* keyword) const {
  if (kind != Kind::kWord) return false;
  size_t i = 0;
  for (; keyword[i] != '\0'; i++) {
    if (i >= text.size() || std::toupper(static_cast<unsigned char>(text[i])) != keyword[i]) return false;
  }
  return i == text.size();
}

std::string PartiqlToken::Position() const {
  return std::to_string(line) + ":" + std::to_string(column) + ":" + std::to_string(length);
}

namespace {
bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// A UTF-8 continuation byte does not start a character: columns count characters.
bool StartsCharacter(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }
}  // namespace

Status TokenizePartiql(std::string_view text, std::vector<PartiqlToken>* out) {
  out->clear();
  size_t i = 0;
  uint32_t line = 1, column = 1;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < text.size(); k++, i++) {
      if (text[i] == '\n') {
        line++;
        column = 1;
      } else if (StartsCharacter(text[i])) {
        column++;
      }
    }
  };
  auto fail = [&](const std::string& what) {
    return Status::Validation(std::string(kPartiqlSyntaxPrefix) + what + " at " + std::to_string(line) + ":" +
                              std::to_string(column));
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      advance(1);
      continue;
    }
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    PartiqlToken t;
    t.line = line;
    t.column = column;
    uint32_t start_column = column;
    size_t start = i;
    if (IsWordStart(c)) {
      while (i < text.size() && IsWordChar(text[i])) advance(1);
      t.kind = PartiqlToken::Kind::kWord;
      t.text = std::string(text.substr(start, i - start));
    } else if (c == '"' || c == '\'') {
      advance(1);
      std::string value;
      bool closed = false;
      while (i < text.size()) {
        if (text[i] == c) {
          if (i + 1 < text.size() && text[i + 1] == c) {
            value.push_back(c);
            advance(2);
            continue;
          }
          advance(1);
          closed = true;
          break;
        }
        value.push_back(text[i]);
        advance(1);
      }
      if (!closed) return fail(c == '"' ? "Unterminated quoted name" : "Unterminated string");
      t.kind = c == '"' ? PartiqlToken::Kind::kQuotedName : PartiqlToken::Kind::kString;
      t.text = std::move(value);
    } else if (IsDigit(c) || (c == '.' && i + 1 < text.size() && IsDigit(text[i + 1]))) {
      while (i < text.size() && IsDigit(text[i])) advance(1);
      if (i < text.size() && text[i] == '.') {
        advance(1);
        while (i < text.size() && IsDigit(text[i])) advance(1);
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t e = i + 1;
        if (e < text.size() && (text[e] == '+' || text[e] == '-')) e++;
        if (e < text.size() && IsDigit(text[e])) {
          advance(e - i);
          while (i < text.size() && IsDigit(text[i])) advance(1);
        }
      }
      t.kind = PartiqlToken::Kind::kNumber;
      t.text = std::string(text.substr(start, i - start));
    } else {
      static const char* const kSymbols[] = {"<>", "!=", "<=", ">=", "<<", ">>", "*", ",", ".", "(", ")", "[",
                                             "]",  "{",  "}",  ":",  "?",  ";",  "=", "<", ">", "+", "-", "/"};
      const char* found = nullptr;
      for (const char* s : kSymbols) {
        std::string_view sv(s);
        if (text.substr(i, sv.size()) == sv) {
          found = s;
          break;
        }
      }
      if (!found) return fail("Unexpected character '" + std::string(Utf8CharacterAt(text, i)) + "'");
      t.kind = PartiqlToken::Kind::kSymbol;
      t.text = found;
      advance(t.text.size());
    }
    t.length = column > start_column && t.line == line ? column - start_column : static_cast<uint32_t>(i - start);
    out->push_back(std::move(t));
  }
  PartiqlToken end;
  end.line = line;
  end.column = column;
  out->push_back(std::move(end));
  return Status::OK();
}

}  // namespace dynapage
