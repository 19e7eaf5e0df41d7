// DynamoDB's reserved words: names an expression may not use as a bare attribute name (573 words, from
// "ABORT" to "ZONE"). Such an attribute must be written through an ExpressionAttributeNames placeholder.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_RESERVED_WORDS_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_RESERVED_WORDS_H_

#include <cstddef>
#include <string_view>

namespace dynapage {

// Case-insensitive: "abOrT" is reserved.
bool IsReservedWord(std::string_view word);

// The number of words in the list (exposed for tests).
size_t ReservedWordCount();

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_RESERVED_WORDS_H_
