// UTF-8 checks of request text: only valid UTF-8 is accepted (docs/behaviour.md §8.5), so that nothing stored
// can come back as bytes a client's JSON decoder refuses.
//
// Valid UTF-8 is RFC 3629's: no overlong forms, no surrogates (U+D800..U+DFFF), nothing above U+10FFFF. ASCII is
// skipped 16 bytes at a time where SSE2 is there, so a request that is all ASCII (most are) costs one quick pass.

#ifndef DYNAPAGE_ENGINE_BASE_UTF8_H_
#define DYNAPAGE_ENGINE_BASE_UTF8_H_

#include <string>
#include <string_view>

namespace dynapage {

// True if text is valid UTF-8.
bool IsValidUtf8(std::string_view text);

// True if JSON text holds a \u escape that decodes to a lone surrogate: a \uDC00..\uDFFF not preceded by a
// \uD800..\uDBFF escape, or a \uD800..\uDBFF not followed by a \uDC00..\uDFFF escape. Its bytes are ASCII and
// so valid UTF-8, but what they decode to is not. REQUIRES: json is to be parsed as JSON (a backslash outside
// a string makes it invalid JSON anyway, so escapes are found without tracking strings).
bool HasLoneSurrogateEscape(std::string_view json);

// The whole UTF-8 character starting at text[i], for quoting it in a message without cutting it in two.
// REQUIRES: i < text.size() and text is valid UTF-8 (requests are checked); at the end of a text cut short,
// what is left of the character.
std::string_view Utf8CharacterAt(std::string_view text, size_t i);

// The text with each byte that is not part of a valid UTF-8 sequence replaced by '?': for echoing text that
// was not checked (a header) into a response, which is always valid UTF-8.
std::string ToValidUtf8(std::string_view text);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_UTF8_H_
