// The key codec (engine/storage/key_codec.h). Input: a type byte ('S', 'N' or 'B' by its value modulo 3), then two
// values separated by '|' (N: number text; S and B: bytes). Properties: a key part decodes back to its value and
// ends where it ends; two values' key parts (and full item keys within one partition) compare as DynamoDB orders
// the values; decoding arbitrary bytes never crashes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/model/number.h"
#include "engine/model/value_compare.h"
#include "engine/storage/key_codec.h"
#include "fuzz/fuzz_check.h"

namespace dynapage {
namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

bool MakeValue(AttrType type, std::string_view text, AttributeValue* out) {
  if (type != AttrType::kN) {
    *out = type == AttrType::kS ? AttributeValue::String(std::string(text)) : AttributeValue::Binary(std::string(text));
    return true;
  }
  std::string canonical;
  if (!Decimal::Canonicalize(text, &canonical).ok()) return false;
  *out = AttributeValue::Number(canonical);
  return true;
}

std::string RoundTrip(const AttributeValue& value) {
  std::string part = "prefix";
  AppendKeyPart(value, &part);
  part += "suffix";
  size_t pos = 6;
  AttributeValue decoded;
  FUZZ_CHECK(DecodeKeyPart(part, &pos, value.type, &decoded));
  FUZZ_CHECK(part.compare(pos, std::string::npos, "suffix") == 0);
  FUZZ_CHECK(decoded == value);
  return part.substr(6, pos - 6);
}

}  // namespace
}  // namespace dynapage

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dynapage;
  if (size == 0) return 0;
  static const AttrType kTypes[] = {AttrType::kS, AttrType::kN, AttrType::kB};
  AttrType type = kTypes[data[0] % 3];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  for (AttrType t : kTypes) {
    size_t pos = 0;
    AttributeValue any;
    (void)DecodeKeyPart(input, &pos, t, &any);
    FUZZ_CHECK(pos <= input.size());
  }
  size_t bar = input.find('|');
  AttributeValue a, b;
  if (!MakeValue(type, input.substr(0, bar), &a)) return 0;
  std::string key_a = RoundTrip(a);
  if (bar == std::string_view::npos || !MakeValue(type, input.substr(bar + 1), &b)) return 0;
  std::string key_b = RoundTrip(b);
  FUZZ_CHECK(Sign(CompareOrdered(a, b)) == Sign(key_a.compare(key_b)));
  // Two items of one partition: their keys order as their sort keys.
  AttributeValue partition = AttributeValue::String("p");
  std::string item_a = ItemKey(7, partition, &a);
  std::string item_b = ItemKey(7, partition, &b);
  FUZZ_CHECK(Sign(CompareOrdered(a, b)) == Sign(item_a.compare(item_b)));
  FUZZ_CHECK(item_a.compare(0, PartitionPrefix(7, partition).size(), PartitionPrefix(7, partition)) == 0);
  return 0;
}
