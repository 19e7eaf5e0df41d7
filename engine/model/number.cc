#include "engine/model/number.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "engine/base/messages.h"

namespace dynapage {

namespace {

constexpr int kMaxExponent = 125;
constexpr int kMinExponent = -130;
constexpr size_t kMaxDigits = 38;

const char kOverflow[] = "Number overflow. Attempting to store a number with magnitude larger than supported range";
const char kUnderflow[] = "Number underflow. Attempting to store a number with magnitude smaller than supported range";
const char kTooManyDigits[] = "Attempting to store more than 38 significant digits in a Number";

// Exponents are accumulated saturating at this bound, so "1e999999999999999999999" cannot overflow an
// int64; anything this large is out of range whatever the mantissa adds or subtracts (a mantissa would
// need ~10^15 characters to pull it back).
constexpr int64_t kExponentCap = 1000000000000000LL;

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Compares magnitudes only.
int CompareMagnitude(const Decimal& a, const Decimal& b) {
  if (a.is_zero() || b.is_zero()) return (a.is_zero() ? 0 : 1) - (b.is_zero() ? 0 : 1);
  if (a.exponent() != b.exponent()) return a.exponent() < b.exponent() ? -1 : 1;
  int c = a.digits().compare(b.digits());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// Ordered-key layout (see AppendOrderedKey).
constexpr unsigned char kKeyNegative = 0x01;
constexpr unsigned char kKeyZero = 0x02;
constexpr unsigned char kKeyPositive = 0x03;
constexpr int kKeyExponentBias = 0x8000;

}  // namespace

Status Decimal::Parse(std::string_view text, Decimal* out) {
  if (text.empty()) return Status::Validation(kNotNumeric);
  const size_t n = text.size();
  size_t pos = 0;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = (text[0] == '-');
    pos = 1;
  }

  // Mantissa: digits [. digits], at least one digit overall. Same grammar as big.js plus a leading '+'.
  const size_t mantissa_start = pos;
  while (pos < n && IsDigit(text[pos])) pos++;
  size_t int_len = pos - mantissa_start;
  size_t dot = std::string_view::npos;
  size_t frac_len = 0;
  if (pos < n && text[pos] == '.') {
    dot = pos++;
    const size_t frac_start = pos;
    while (pos < n && IsDigit(text[pos])) pos++;
    frac_len = pos - frac_start;
  }
  const size_t mantissa_end = pos;
  bool ok = (int_len + frac_len) > 0;

  int64_t exp10 = 0;
  if (ok && pos < n && (text[pos] == 'e' || text[pos] == 'E')) {
    pos++;
    bool exp_negative = false;
    if (pos < n && (text[pos] == '+' || text[pos] == '-')) exp_negative = (text[pos++] == '-');
    const size_t exp_start = pos;
    while (pos < n && IsDigit(text[pos])) {
      if (exp10 < kExponentCap) exp10 = exp10 * 10 + (text[pos] - '0');
      pos++;
    }
    if (pos == exp_start) ok = false;
    if (exp_negative) exp10 = -exp10;
  }
  if (!ok || pos != n) {
    std::string msg(kNotNumeric);
    msg.append(": ").append(text.data(), text.size());
    return Status::Validation(std::move(msg));
  }

  // Locate the first and last nonzero mantissa digits.
  size_t first = std::string_view::npos, last = 0;
  for (size_t i = mantissa_start; i < mantissa_end; i++) {
    if (text[i] != '0' && text[i] != '.') {
      if (first == std::string_view::npos) first = i;
      last = i;
    }
  }

  if (first == std::string_view::npos) {
    // Zero. DynamoDB (Java) evidently range-checks the BigDecimal's adjusted exponent, which for a zero is
    // the literal exponent minus the number of fraction digits: "0e126" -> 126 (overflow) while
    // "0.0e126" -> 125 (accepted), matching the live quirk. A zero is never reported as an underflow,
    // since its magnitude is not "smaller than supported".
    if (exp10 - static_cast<int64_t>(frac_len) > kMaxExponent) return Status::Validation(kOverflow);
    out->negative_ = false;
    out->digits_.clear();
    out->exponent_ = 0;
    return Status::OK();
  }

  // Index of the first nonzero digit among the mantissa digits (the '.' does not count).
  const int64_t first_index =
      static_cast<int64_t>(first - mantissa_start) - (dot != std::string_view::npos && first > dot ? 1 : 0);
  const int64_t exponent = static_cast<int64_t>(int_len) - 1 - first_index + exp10;
  if (exponent > kMaxExponent) return Status::Validation(kOverflow);
  if (exponent < kMinExponent) return Status::Validation(kUnderflow);

  const size_t span = last - first + 1;
  const size_t digit_count = span - (dot != std::string_view::npos && first < dot && dot < last ? 1 : 0);
  if (digit_count > kMaxDigits) return Status::Validation(kTooManyDigits);

  out->negative_ = negative;
  out->exponent_ = static_cast<int>(exponent);
  out->digits_.clear();
  out->digits_.reserve(digit_count);
  for (size_t i = first; i <= last; i++) {
    if (text[i] != '.') out->digits_.push_back(text[i]);
  }
  return Status::OK();
}

bool Decimal::IsPlainInteger(std::string_view text) {
  if (text.empty() || text.size() > kMaxDigits || (text[0] == '0' && text.size() > 1)) return false;
  for (char c : text) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

Status Decimal::Canonicalize(std::string_view text, std::string* out) {
  if (IsPlainInteger(text)) {
    out->assign(text.data(), text.size());
    return Status::OK();
  }
  Decimal d;
  DP_RETURN_IF_ERROR(Parse(text, &d));
  *out = d.ToString();
  return Status::OK();
}

std::string Decimal::ToString() const {
  if (is_zero()) return std::string("0");
  const int d = static_cast<int>(digits_.size());
  std::string s;
  if (exponent_ >= 0) {
    const int int_digits = exponent_ + 1;
    s.reserve((negative_ ? 1 : 0) + (d > int_digits ? d + 1 : int_digits));
    if (negative_) s.push_back('-');
    if (d <= int_digits) {
      s.append(digits_);
      s.append(static_cast<size_t>(int_digits - d), '0');
    } else {
      s.append(digits_, 0, static_cast<size_t>(int_digits));
      s.push_back('.');
      s.append(digits_, static_cast<size_t>(int_digits), std::string::npos);
    }
  } else {
    const int leading_zeros = -exponent_ - 1;
    s.reserve((negative_ ? 1 : 0) + 2 + leading_zeros + d);
    if (negative_) s.push_back('-');
    s.append("0.");
    s.append(static_cast<size_t>(leading_zeros), '0');
    s.append(digits_);
  }
  return s;
}

int Decimal::Compare(const Decimal& other) const {
  // Zero is never negative_, so the sign ranks are -1, 0, 1.
  const int sa = is_zero() ? 0 : (negative_ ? -1 : 1);
  const int sb = other.is_zero() ? 0 : (other.negative_ ? -1 : 1);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  const int m = CompareMagnitude(*this, other);
  return sa > 0 ? m : -m;
}

namespace {

// Digit positions cover every power of ten a sum of two in-domain values can touch: from the last digit
// of a 38-digit number starting at 10^-130 up to a carry above 10^125.
constexpr int kLowestPower = kMinExponent - static_cast<int>(kMaxDigits) + 1;  // -167
constexpr int kHighestPower = kMaxExponent + 1;
constexpr int kPositions = kHighestPower - kLowestPower + 1;

inline int LowPower(const Decimal& v) { return v.exponent() - static_cast<int>(v.digits().size()) + 1; }

}  // namespace

// Exact sum in a fixed digit array, then the domain checks. At ~300 positions this is cheap and needs no
// bignum machinery.
Status Decimal::Add(const Decimal& a, const Decimal& b, Decimal* out) {
  if (b.is_zero()) {
    *out = a;
    return Status::OK();
  }
  if (a.is_zero()) {
    *out = b;
    return Status::OK();
  }

  int8_t buf[kPositions];
  const int lo = std::min(LowPower(a), LowPower(b));
  const int hi = std::max(a.exponent_, b.exponent_) + 1;
  std::memset(buf + (lo - kLowestPower), 0, static_cast<size_t>(hi - lo + 1));

  auto place = [&](const Decimal& v, int sign) {
    int p = v.exponent_;
    for (char c : v.digits_) buf[(p--) - kLowestPower] += static_cast<int8_t>(sign * (c - '0'));
  };

  bool negative;
  if (a.negative_ == b.negative_) {
    negative = a.negative_;
    place(a, 1);
    place(b, 1);
    for (int p = lo; p < hi; p++) {
      int8_t& d = buf[p - kLowestPower];
      if (d >= 10) {
        d -= 10;
        buf[p + 1 - kLowestPower] += 1;
      }
    }
  } else {
    const int m = CompareMagnitude(a, b);
    if (m == 0) {
      *out = Decimal();
      return Status::OK();
    }
    const Decimal& big = m > 0 ? a : b;
    const Decimal& small = m > 0 ? b : a;
    negative = big.negative_;
    place(big, 1);
    place(small, -1);
    for (int p = lo; p < hi; p++) {
      int8_t& d = buf[p - kLowestPower];
      if (d < 0) {
        d += 10;
        buf[p + 1 - kLowestPower] -= 1;
      }
    }
  }

  // The result is nonzero here, so both scans stop inside [lo, hi].
  int top = hi;
  while (buf[top - kLowestPower] == 0) top--;
  int bottom = lo;
  while (buf[bottom - kLowestPower] == 0) bottom++;

  if (top > kMaxExponent) return Status::Validation(kOverflow);
  if (top < kMinExponent) return Status::Validation(kUnderflow);
  // DynamoDB never rounds: a result needing more precision than a Number holds is reported as overflow.
  if (top - bottom + 1 > static_cast<int>(kMaxDigits)) return Status::Validation(kOverflow);

  // a or b may alias *out, so nothing is written before this point.
  out->negative_ = negative;
  out->exponent_ = top;
  out->digits_.clear();
  for (int p = top; p >= bottom; p--) out->digits_.push_back(static_cast<char>('0' + buf[p - kLowestPower]));
  return Status::OK();
}

Status Decimal::Subtract(const Decimal& a, const Decimal& b, Decimal* out) {
  Decimal negated = b;
  if (!negated.is_zero()) negated.negative_ = !negated.negative_;
  return Add(a, negated, out);
}

namespace {
size_t NumberByteSize(size_t digits, int exponent, bool negative) {
  if (digits == 0) return 1;
  return 1 + (digits + 1) / 2 + ((digits % 2 == 0 && exponent % 2 == 0) ? 1 : 0) + (negative ? 1 : 0);
}
}  // namespace

size_t Decimal::ByteSize() const { return NumberByteSize(digits_.size(), exponent_, negative_); }

size_t Decimal::CanonicalTextByteSize(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  if (text == "0") return 1;
  const size_t point = text.find('.');
  const std::string_view integer = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  size_t digits;
  int exponent;
  if (integer == "0") {  // 0.00ddd: the fraction has no trailing zeros
    const size_t zeros = fraction.find_first_not_of('0');
    digits = fraction.size() - zeros;
    exponent = -static_cast<int>(zeros) - 1;
  } else {  // the integer part has no leading zeros; without a fraction it may end in zeros ("1000")
    exponent = static_cast<int>(integer.size()) - 1;
    digits = fraction.empty() ? integer.find_last_not_of('0') + 1 : integer.size() + fraction.size();
  }
  return NumberByteSize(digits, exponent, negative);
}

std::string Decimal::HashBytes() const {
  // Oracle NUMBER layout, as dynalite's numToBuffer: an exponent byte in base 100, then base-100 digit
  // pairs aligned on the decimal point (a leading 0 pads the first pair when the integer-digit count,
  // exponent_ + 1, is odd), negatives complemented and terminated by 102 unless at the 20-pair maximum.
  if (is_zero()) return std::string(1, static_cast<char>(0x80));
  const int pad = (exponent_ % 2 == 0) ? 1 : 0;
  const int d = static_cast<int>(digits_.size());
  const int pairs = (d + pad + 1) / 2;
  std::string out;
  out.reserve(static_cast<size_t>(pairs) + 2);
  unsigned char head = static_cast<unsigned char>((exponent_ + 1 + pad) / 2 - 64);
  if (negative_) head = static_cast<unsigned char>(~head);
  out.push_back(static_cast<char>(head));
  for (int j = 0; j < pairs; j++) {
    const int i_hi = 2 * j - pad;  // index into digits_ of the pair's tens digit (-1 is the pad)
    const int tens = (i_hi >= 0) ? digits_[i_hi] - '0' : 0;
    const int ones = (i_hi + 1 < d) ? digits_[i_hi + 1] - '0' : 0;
    const int pair = tens * 10 + ones;
    out.push_back(static_cast<char>(negative_ ? 101 - pair : pair + 1));
  }
  if (negative_ && pairs < 20) out.push_back(static_cast<char>(102));
  return out;
}

void Decimal::AppendOrderedKey(std::string* out) const {
  // Layout: sign marker (negative < zero < positive); for nonzero, a 2-byte big-endian biased exponent and
  // the ASCII digits, then a terminator that sorts below every digit byte, so a shorter mantissa that is a
  // prefix of a longer one sorts first and anything appended after the key cannot disturb numeric order.
  // Negatives store every byte after the marker complemented, which reverses their order.
  if (is_zero()) {
    out->push_back(static_cast<char>(kKeyZero));
    return;
  }
  const unsigned char flip = negative_ ? 0xFF : 0x00;
  const unsigned biased = static_cast<unsigned>(exponent_ + kKeyExponentBias);
  out->push_back(static_cast<char>(negative_ ? kKeyNegative : kKeyPositive));
  out->push_back(static_cast<char>(static_cast<unsigned char>(biased >> 8) ^ flip));
  out->push_back(static_cast<char>(static_cast<unsigned char>(biased & 0xFF) ^ flip));
  for (char c : digits_) out->push_back(static_cast<char>(static_cast<unsigned char>(c) ^ flip));
  out->push_back(static_cast<char>(flip));
}

void Decimal::AppendCanonicalOrderedKey(std::string_view text, std::string* out) {
  // Canonical text of digits only is zero ("0") or a positive integer without leading zeros: its digits are
  // the significant digits (less trailing zeros) and its exponent is its length minus one.
  if (!IsPlainInteger(text)) {
    Decimal d;
    Parse(text, &d);
    d.AppendOrderedKey(out);
    return;
  }
  if (text == "0") {
    out->push_back(static_cast<char>(kKeyZero));
    return;
  }
  size_t significant = text.find_last_not_of('0') + 1;
  const unsigned biased = static_cast<unsigned>(static_cast<int>(text.size()) - 1 + kKeyExponentBias);
  char head[3] = {static_cast<char>(kKeyPositive), static_cast<char>(biased >> 8), static_cast<char>(biased & 0xFF)};
  out->append(head, sizeof head);
  out->append(text.data(), significant);
  out->push_back('\0');
}

bool Decimal::DecodeOrderedKey(std::string_view in, size_t* pos, Decimal* out) {
  size_t p = *pos;
  if (p >= in.size()) return false;
  const unsigned char marker = static_cast<unsigned char>(in[p++]);
  if (marker == kKeyZero) {
    *out = Decimal();
    *pos = p;
    return true;
  }
  if (marker != kKeyNegative && marker != kKeyPositive) return false;
  const bool negative = (marker == kKeyNegative);
  const unsigned char flip = negative ? 0xFF : 0x00;
  if (in.size() - p < 2) return false;
  const unsigned biased = (static_cast<unsigned>(static_cast<unsigned char>(in[p]) ^ flip) << 8) |
                          (static_cast<unsigned char>(in[p + 1]) ^ flip);
  p += 2;
  const int exponent = static_cast<int>(biased) - kKeyExponentBias;
  if (exponent < kMinExponent || exponent > kMaxExponent) return false;
  const size_t digits_start = p;
  while (p < in.size() && static_cast<unsigned char>(in[p]) != flip) {
    const char c = static_cast<char>(static_cast<unsigned char>(in[p]) ^ flip);
    if (!IsDigit(c)) return false;
    p++;
  }
  if (p >= in.size()) return false;  // no terminator
  const size_t n = p - digits_start;
  if (n == 0 || n > kMaxDigits) return false;
  std::string digits(in.substr(digits_start, n));
  for (char& c : digits) c = static_cast<char>(static_cast<unsigned char>(c) ^ flip);
  if (digits.front() == '0' || digits.back() == '0') return false;  // not canonical
  out->negative_ = negative;
  out->exponent_ = exponent;
  out->digits_ = std::move(digits);
  *pos = p + 1;
  return true;
}

}  // namespace dynapage
