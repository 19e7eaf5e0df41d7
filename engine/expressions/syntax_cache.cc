#include "engine/expressions/syntax_cache.h"

#include <algorithm>

#include "engine/base/check.h"

namespace dynapage {

SyntaxCache::SyntaxCache(size_t capacity) : capacity_(capacity) {
  DP_DCHECK(capacity >= 1);
  entries_.reserve(capacity);
}

std::shared_ptr<const ConditionSyntax> SyntaxCache::Condition(std::string_view text, std::string* error) {
  for (size_t i = 0; i < entries_.size(); i++) {
    if (entries_[i]->text == text) {
      std::rotate(entries_.begin(), entries_.begin() + i, entries_.begin() + i + 1);
      return entries_[0];
    }
  }
  auto syntax = std::make_shared<ConditionSyntax>(text);
  SyntaxParser parser(syntax->text);
  if (!parser.ParseCondition(&syntax->tree)) {
    *error = parser.SyntaxError();
    return nullptr;
  }
  syntax->redundant_parentheses = parser.redundant_parentheses();
  if (entries_.size() == capacity_) entries_.pop_back();
  entries_.insert(entries_.begin(), syntax);
  return syntax;
}

SyntaxCache& SyntaxCache::ForThisThread() {
  thread_local SyntaxCache cache(kThreadCapacity);
  return cache;
}

}  // namespace dynapage
