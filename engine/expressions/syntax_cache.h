// SyntaxCache: the syntax trees of the condition expressions a thread parsed most recently.
//
// A client paging through a Query or Scan sends the same expression texts with every page, and the syntax of
// a text (its tokens and tree, before names and values are bound: those differ per request) depends on nothing
// else; tokenizing and parsing it again was most of the cost of an expression. The cache keeps the trees of
// the last `capacity` distinct texts that parsed, the least recently used going first, so its memory is
// bounded whatever texts arrive (callers reject texts over kMaxExpressionBytes before asking). A text with a
// syntax error is parsed afresh every time and never kept, so its message is exactly the parser's.
//
// Not thread-safe: ForThisThread() gives each thread its own.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_SYNTAX_CACHE_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_SYNTAX_CACHE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expressions/expression_syntax.h"

namespace dynapage {

// A parsed condition with the copy of the text its tree's views point into (so it is neither copied nor moved).
struct ConditionSyntax {
  explicit ConditionSyntax(std::string_view t) : text(t) {}
  ConditionSyntax(const ConditionSyntax&) = delete;
  ConditionSyntax& operator=(const ConditionSyntax&) = delete;

  const std::string text;
  SyntaxCondition tree;
  bool redundant_parentheses = false;  // SyntaxParser::redundant_parentheses()
};

class SyntaxCache {
 public:
  // Per thread: a handful covers a client's key condition, filter and condition expressions.
  static constexpr size_t kThreadCapacity = 8;

  // REQUIRES: capacity >= 1.
  explicit SyntaxCache(size_t capacity);

  SyntaxCache(const SyntaxCache&) = delete;
  SyntaxCache& operator=(const SyntaxCache&) = delete;

  // The syntax of condition text, kept from an earlier call or parsed now. On a syntax error: nullptr, and
  // *error is SyntaxParser::SyntaxError(). The result stays valid after the cache drops it.
  std::shared_ptr<const ConditionSyntax> Condition(std::string_view text, std::string* error);

  size_t size() const { return entries_.size(); }

  // The calling thread's cache (kThreadCapacity entries).
  static SyntaxCache& ForThisThread();

 private:
  size_t capacity_;
  std::vector<std::shared_ptr<const ConditionSyntax>> entries_;  // most recently used first
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_SYNTAX_CACHE_H_
