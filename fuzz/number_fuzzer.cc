// The number parser (engine/model/number.h). Input: number text, optionally a second one after a '|'.
// Properties: Parse never crashes; a parsed number's canonical text parses to the same number and is its own
// canonical form; Canonicalize agrees with Parse + ToString; ByteSize agrees with CanonicalTextByteSize; the
// ordered key decodes back to the number, and two numbers' ordered keys compare as the numbers do.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/model/number.h"
#include "fuzz/fuzz_check.h"

namespace dynapage {
namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

// Checks one number's properties; returns whether it parsed.
bool CheckOne(std::string_view text, Decimal* out, std::string* key) {
  std::string canonical;
  Status canonicalized = Decimal::Canonicalize(text, &canonical);
  if (!Decimal::Parse(text, out).ok()) {
    FUZZ_CHECK(!canonicalized.ok());
    return false;
  }
  FUZZ_CHECK(canonicalized.ok());
  std::string s = out->ToString();
  FUZZ_CHECK(s == canonical);
  Decimal again;
  FUZZ_CHECK(Decimal::Parse(s, &again).ok());
  FUZZ_CHECK(again == *out);
  FUZZ_CHECK(again.ToString() == s);
  FUZZ_CHECK(out->ByteSize() == Decimal::CanonicalTextByteSize(s));
  key->clear();
  out->AppendOrderedKey(key);
  std::string from_text;
  Decimal::AppendCanonicalOrderedKey(s, &from_text);
  FUZZ_CHECK(from_text == *key);
  size_t pos = 0;
  Decimal decoded;
  FUZZ_CHECK(Decimal::DecodeOrderedKey(*key, &pos, &decoded));
  FUZZ_CHECK(pos == key->size());
  FUZZ_CHECK(decoded == *out);
  return true;
}

}  // namespace
}  // namespace dynapage

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dynapage;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t bar = input.find('|');
  std::string_view first = input.substr(0, bar);
  Decimal a, b;
  std::string key_a, key_b;
  bool a_ok = CheckOne(first, &a, &key_a);
  // Decoding arbitrary bytes as an ordered key must fail cleanly or succeed, never crash.
  size_t pos = 0;
  Decimal any;
  (void)Decimal::DecodeOrderedKey(input, &pos, &any);
  if (bar == std::string_view::npos) return 0;
  bool b_ok = CheckOne(input.substr(bar + 1), &b, &key_b);
  if (!a_ok || !b_ok) return 0;
  FUZZ_CHECK(Sign(a.Compare(b)) == Sign(key_a.compare(key_b)));
  Decimal sum, difference;
  if (Decimal::Add(a, b, &sum).ok()) {
    Decimal back;
    if (Decimal::Subtract(sum, b, &back).ok()) (void)back.ToString();
  }
  (void)Decimal::Subtract(a, b, &difference);
  return 0;
}
