// Decimal: DynamoDB's Number type as an exact decimal, never passed through a double.
//
// Domain: zero, or up to 38 significant digits with magnitude in [1E-130, 9.99…E+125]. Parse() accepts what
// DynamoDB accepts ("+3", ".123", "0001.23", "1e+5") and rejects the rest with DynamoDB's exact messages.
// ToString() is the canonical form DynamoDB stores and returns: plain decimal notation, no exponent, no
// leading or trailing zeros ("1e3" -> "1000", "1.0" -> "1", "-0" -> "0", ".5" -> "0.5").

#ifndef DYNAPAGE_ENGINE_MODEL_NUMBER_H_
#define DYNAPAGE_ENGINE_MODEL_NUMBER_H_

#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace dynapage {

class Decimal {
 public:
  Decimal() = default;  // zero

  // Parses DynamoDB number text. On failure returns a Validation status whose message is one of:
  //   "The parameter cannot be converted to a numeric value"            (empty text)
  //   "The parameter cannot be converted to a numeric value: <text>"    (not a number, NaN, spaces, …)
  //   "Number overflow. Attempting to store a number with magnitude larger than supported range"
  //   "Number underflow. Attempting to store a number with magnitude smaller than supported range"
  //   "Attempting to store more than 38 significant digits in a Number"
  // Overflow and underflow are checked before the digit count, as DynamoDB does. "0e126" is rejected as an
  // overflow but "0.0e126" is accepted (a live DynamoDB quirk).
  static Status Parse(std::string_view text, Decimal* out);

  // Canonical text (see above).
  std::string ToString() const;

  // Parse(text) then ToString() into *out, with Parse's errors. A number in plain integer form, the common
  // case, is its own canonical text and is copied without being parsed.
  static Status Canonicalize(std::string_view text, std::string* out);
  // Whether text is up to 38 digits without a leading zero, or "0": text that always parses and is its own
  // canonical form (its significant digits and exponent are the text's, with no sign, point or exponent to drop).
  static bool IsPlainInteger(std::string_view text);

  bool is_zero() const { return digits_.empty(); }
  bool negative() const { return negative_; }
  // Significant digits without leading or trailing zeros; empty for zero.
  const std::string& digits() const { return digits_; }
  // Decimal exponent of the first significant digit: value = d1.d2d3… × 10^exponent(). 0 for zero.
  int exponent() const { return exponent_; }

  // Numeric comparison: <0, 0, >0.
  int Compare(const Decimal& other) const;
  bool operator==(const Decimal& o) const { return Compare(o) == 0; }
  bool operator<(const Decimal& o) const { return Compare(o) < 0; }

  // Exact arithmetic. A result outside the domain, or needing more than 38 significant digits, gives the
  // overflow/underflow messages above ("1e50 + 1" reports the overflow message, as DynamoDB does).
  static Status Add(const Decimal& a, const Decimal& b, Decimal* out);
  static Status Subtract(const Decimal& a, const Decimal& b, Decimal* out);

  // Size in bytes by DynamoDB's item-size rules (docs/behaviour.md §1.2):
  //   zero -> 1; else 1 + ceil(d/2) + (d even && exponent even ? 1 : 0) + (negative ? 1 : 0).
  size_t ByteSize() const;
  // ByteSize() of the number whose canonical text this is, without parsing it (item sizes are computed on
  // every write). REQUIRES: text is canonical, as ToString() makes it.
  static size_t CanonicalTextByteSize(std::string_view text);

  // The bytes DynamoDB hashes for a Number partition key (dynalite's numToBuffer, docs/behaviour.md §6.1):
  // zero -> 0x80; "1" -> c1 02; "-1" -> 3e 64 66; "100" -> c2 02; "0.5" -> c0 33.
  std::string HashBytes() const;

  // Appends a self-delimiting encoding whose unsigned byte order is numeric order.
  void AppendOrderedKey(std::string* out) const;
  // AppendOrderedKey of the number whose canonical text this is. A plain integer, the common sort key, is
  // encoded from its text without being parsed. REQUIRES: text is canonical, as ToString() makes it.
  static void AppendCanonicalOrderedKey(std::string_view text, std::string* out);
  // Decodes what AppendOrderedKey wrote, starting at *pos; advances *pos past it. Returns false on bad input.
  static bool DecodeOrderedKey(std::string_view in, size_t* pos, Decimal* out);

 private:
  bool negative_ = false;
  std::string digits_;
  int exponent_ = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_NUMBER_H_
