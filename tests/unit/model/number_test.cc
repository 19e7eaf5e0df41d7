#include "engine/model/number.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace dynapage {
namespace {

const char kNotNumeric[] = "The parameter cannot be converted to a numeric value";
const char kOverflow[] = "Number overflow. Attempting to store a number with magnitude larger than supported range";
const char kUnderflow[] = "Number underflow. Attempting to store a number with magnitude smaller than supported range";
const char kTooManyDigits[] = "Attempting to store more than 38 significant digits in a Number";

Decimal D(const std::string& text) {
  Decimal d;
  Status s = Decimal::Parse(text, &d);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return d;
}

std::string Canon(const std::string& text) { return D(text).ToString(); }

std::string ParseError(const std::string& text) {
  Decimal d;
  Status s = Decimal::Parse(text, &d);
  if (s.ok()) return "OK";
  EXPECT_EQ(ErrorCode::kValidation, s.code()) << text;
  return s.message();
}

std::string Hex(const std::string& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out.push_back(' ');
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

std::string Key(const Decimal& d) {
  std::string k;
  d.AppendOrderedKey(&k);
  return k;
}

std::string Ones(int n) { return std::string(static_cast<size_t>(n), '1'); }

// 9.99…9E+125 with 38 nines: the largest magnitude DynamoDB accepts.
const std::string kMax = "9." + std::string(37, '9') + "E+125";

TEST(NumberParse, AcceptsDynamoSpellings) {
  EXPECT_EQ("3", Canon("+3"));
  EXPECT_EQ("0.123", Canon(".123"));
  EXPECT_EQ("1.23", Canon("0001.23"));
  EXPECT_EQ("100000", Canon("1e+5"));
  EXPECT_EQ("100000", Canon("1E5"));
  EXPECT_EQ("0.00001", Canon("1e-5"));
  EXPECT_EQ("0", Canon("-0"));
  EXPECT_EQ("0", Canon("+0.000"));
  EXPECT_EQ("5", Canon("5."));
  EXPECT_EQ("-0.5", Canon("-.5"));
  EXPECT_EQ("1", Canon("1.000000000000000000000000000000000000000000"));
  EXPECT_EQ("12.3456", Canon("12.3456"));
  EXPECT_EQ("-120", Canon("-1.2e2"));
  EXPECT_EQ("1.2", Canon("120e-2"));
  EXPECT_EQ("0.012", Canon("0.0012e1"));
  EXPECT_EQ("1000", Canon("1e0003"));
  EXPECT_EQ("10.05", Canon("0010.0500"));
}

TEST(NumberParse, Fields) {
  Decimal d = D("-001230.0");
  EXPECT_TRUE(d.negative());
  EXPECT_EQ("123", d.digits());
  EXPECT_EQ(3, d.exponent());
  d = D("0.00450");
  EXPECT_FALSE(d.negative());
  EXPECT_EQ("45", d.digits());
  EXPECT_EQ(-3, d.exponent());
  d = D("-0.0");
  EXPECT_TRUE(d.is_zero());
  EXPECT_FALSE(d.negative());
  EXPECT_EQ(0, d.exponent());
}

TEST(NumberParse, RejectsNonNumbers) {
  EXPECT_EQ(kNotNumeric, ParseError(""));
  for (const char* bad : {"NaN", "nan", "Infinity", "-Infinity", "inf", " 1", "1 ", " ", "1e", "e5", "--1", "+-1",
                          "1.2.3", "0x10", "1e+", "1e-", ".", "-", "+", "-.", ".e1", "1e1.5", "1,5", "1_000", "abc",
                          "1f", "1e5e5", "1d", "١"}) {
    EXPECT_EQ(std::string(kNotNumeric) + ": " + bad, ParseError(bad)) << bad;
  }
}

TEST(NumberParse, RangeLimits) {
  EXPECT_EQ("OK", ParseError("1e-130"));
  EXPECT_EQ("OK", ParseError("-1e-130"));
  EXPECT_EQ("OK", ParseError(kMax));
  EXPECT_EQ("OK", ParseError("-" + kMax));
  EXPECT_EQ("OK", ParseError("1e125"));
  EXPECT_EQ("OK", ParseError("0.1e-129"));
  EXPECT_EQ("OK", ParseError("10e124"));
  EXPECT_EQ("OK", ParseError("1.5e-130"));  // last digit below 1e-130 is fine; the magnitude is what counts
  EXPECT_EQ(kOverflow, ParseError("1e126"));
  EXPECT_EQ(kOverflow, ParseError("-1e126"));
  EXPECT_EQ(kOverflow, ParseError("10e125"));
  EXPECT_EQ(kOverflow, ParseError("1" + std::string(126, '0')));
  EXPECT_EQ(kUnderflow, ParseError("1e-131"));
  EXPECT_EQ(kUnderflow, ParseError("-0.1e-130"));
  EXPECT_EQ(kUnderflow, ParseError("0." + std::string(130, '0') + "1"));
}

TEST(NumberParse, HugeExponentsDoNotWrap) {
  EXPECT_EQ(kOverflow, ParseError("1e999999999999"));
  EXPECT_EQ(kOverflow, ParseError("1e99999999999999999999999999999999"));
  EXPECT_EQ(kOverflow, ParseError("1e4294967296"));  // would be 0 if truncated to 32 bits
  EXPECT_EQ(kOverflow, ParseError("1e2147483648"));
  EXPECT_EQ(kUnderflow, ParseError("1e-999999999999"));
  EXPECT_EQ(kUnderflow, ParseError("1e-4294967296"));
  EXPECT_EQ(kUnderflow, ParseError("1e-99999999999999999999999999999999"));
  EXPECT_EQ(kOverflow, ParseError("0e99999999999999999999"));
  EXPECT_EQ("OK", ParseError("0e-99999999999999999999"));
}

TEST(NumberParse, ZeroExponentQuirk) {
  // Live DynamoDB: 0e126 is an overflow, 0.0e126 is fine (BigDecimal adjusted exponent = exp - fraction digits).
  EXPECT_EQ(kOverflow, ParseError("0e126"));
  EXPECT_EQ(kOverflow, ParseError("-0e126"));
  EXPECT_EQ(kOverflow, ParseError("000e126"));
  EXPECT_EQ("OK", ParseError("0.0e126"));
  EXPECT_EQ("OK", ParseError(".0e126"));
  EXPECT_EQ("OK", ParseError("0e125"));
  EXPECT_EQ(kOverflow, ParseError("0.0e127"));
  EXPECT_EQ("OK", ParseError("0.00e127"));
  EXPECT_EQ("OK", ParseError("0e-200"));  // a zero never underflows
  EXPECT_EQ("0", Canon("0.0e126"));
}

TEST(NumberParse, SignificantDigits) {
  EXPECT_EQ("OK", ParseError(Ones(38)));
  EXPECT_EQ(kTooManyDigits, ParseError(Ones(39)));
  EXPECT_EQ(kTooManyDigits, ParseError("1." + std::string(37, '0') + "1"));
  EXPECT_EQ("OK", ParseError("1." + std::string(36, '0') + "1"));
  EXPECT_EQ("OK", ParseError("0.000" + Ones(38) + "000"));
  EXPECT_EQ("OK", ParseError(Ones(38) + std::string(50, '0')));
  EXPECT_EQ(kTooManyDigits, ParseError("-" + Ones(20) + "." + Ones(19)));
  EXPECT_EQ("OK", ParseError(Ones(19) + "." + Ones(19)));
  // Range is checked before precision.
  EXPECT_EQ(kOverflow, ParseError(Ones(39) + "e100"));
  EXPECT_EQ(kUnderflow, ParseError("0." + Ones(39) + "e-130"));
  EXPECT_EQ(kTooManyDigits, ParseError("9." + std::string(38, '9') + "e125"));
}

TEST(NumberToString, Canonical) {
  EXPECT_EQ("1" + std::string(125, '0'), Canon("1e125"));
  EXPECT_EQ("0." + std::string(129, '0') + "1", Canon("1e-130"));
  EXPECT_EQ("-0." + std::string(129, '0') + "1", Canon("-1e-130"));
  EXPECT_EQ("0", Canon("-0"));
  EXPECT_EQ("0.5", Canon("0.5"));
  EXPECT_EQ("1", Canon("1.0"));
  EXPECT_EQ("100", Canon("100"));
  EXPECT_EQ("-100", Canon("-1e2"));
  EXPECT_EQ("123.45", Canon("12345e-2"));
  EXPECT_EQ("0.012345", Canon("12345e-6"));
  EXPECT_EQ("12345", Canon("12345"));
  EXPECT_EQ("1234.5", Canon("12345e-1"));
  EXPECT_EQ("9" + std::string(37, '9') + std::string(88, '0'), Canon(kMax));
}

TEST(NumberToString, RoundTrips) {
  for (const char* text : {"0", "1", "-1", "0.5", "123.456", "-0.000123", "1e125", "1e-130", "99.99"}) {
    Decimal a = D(text);
    Decimal b = D(a.ToString());
    EXPECT_EQ(a.ToString(), b.ToString());
    EXPECT_EQ(a.digits(), b.digits());
    EXPECT_EQ(a.exponent(), b.exponent());
    EXPECT_EQ(a.negative(), b.negative());
  }
}

// Canonicalize is Parse then ToString, its shortcut for plain integers included: same text, same errors.
TEST(NumberCanonicalize, AgreesWithParseAndToString) {
  const std::string inputs[] = {"0", "7", "10", "1000", "12345", Ones(38), Ones(38) + "0", Ones(39), "00", "01",
                                "007", "-0", "-1", "+1", "1.0", "1.5", "1e3", "1E3", "0.0", ".5", "5.", "",
                                " 1", "1 ", "1a", "a", "-", "+", "1e126", "0e126", Ones(37) + "00",
                                std::string(38, '9'), "1" + std::string(125, '0'), "1" + std::string(126, '0')};
  for (const std::string& input : inputs) {
    Decimal d;
    Status parsed = Decimal::Parse(input, &d);
    std::string canonical = "unchanged";
    Status s = Decimal::Canonicalize(input, &canonical);
    EXPECT_EQ(parsed.ok(), s.ok()) << input;
    EXPECT_EQ(parsed.message(), s.message()) << input;
    if (parsed.ok()) {
      EXPECT_EQ(d.ToString(), canonical) << input;
    }
  }
}

// Values in strictly ascending numeric order.
const std::vector<std::string>& Ascending() {
  static const std::vector<std::string> v = {
      "-" + kMax, "-1e125", "-9.9e124", "-1e100", "-123456", "-100", "-99.9", "-12", "-11.1", "-10.01", "-10",
      "-9", "-1.5", "-1.23", "-1.2", "-1.0001", "-1", "-0.99", "-0.5", "-0.12", "-0.1", "-0.011", "-0.01",
      "-1e-129", "-1.5e-130", "-1e-130", "0", "1e-130", "1.5e-130", "1e-129", "0.01", "0.011", "0.1", "0.12",
      "0.5", "0.99", "1", "1.0001", "1.2", "1.23", "1.5", "9", "10", "10.01", "11.1", "12", "99.9", "100",
      "123456", "1e100", "9.9e124", "1e125", kMax};
  return v;
}

TEST(NumberCompare, Order) {
  const auto& v = Ascending();
  for (size_t i = 0; i < v.size(); i++) {
    for (size_t j = 0; j < v.size(); j++) {
      int expected = (i < j) ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(expected, D(v[i]).Compare(D(v[j]))) << v[i] << " vs " << v[j];
    }
  }
  EXPECT_TRUE(D("1e3") == D("1000"));
  EXPECT_TRUE(D("-0") == D("0"));
  EXPECT_TRUE(D("0.10") == D(".1"));
  EXPECT_TRUE(D("-2") < D("-1"));
  EXPECT_FALSE(D("1") < D("1"));
}

TEST(NumberArithmetic, Exact) {
  auto add = [](const std::string& a, const std::string& b) {
    Decimal r;
    Status s = Decimal::Add(D(a), D(b), &r);
    return s.ok() ? r.ToString() : s.message();
  };
  auto sub = [](const std::string& a, const std::string& b) {
    Decimal r;
    Status s = Decimal::Subtract(D(a), D(b), &r);
    return s.ok() ? r.ToString() : s.message();
  };
  EXPECT_EQ("3", add("1", "2"));
  EXPECT_EQ("10", add("9", "1"));
  EXPECT_EQ("1000", add("999", "1"));
  EXPECT_EQ("0.3", add("0.1", "0.2"));
  EXPECT_EQ("0", add("5", "-5"));
  EXPECT_EQ("-1", add("-0.5", "-0.5"));
  EXPECT_EQ("-4.5", add("0.5", "-5"));
  EXPECT_EQ("4.5", add("-0.5", "5"));
  EXPECT_EQ("1.5", add("0", "1.5"));
  EXPECT_EQ("-1.5", add("-1.5", "0"));
  EXPECT_EQ("0.001", sub("1", "0.999"));
  EXPECT_EQ("-0.001", sub("0.999", "1"));
  EXPECT_EQ("2", sub("1", "-1"));
  EXPECT_EQ("-7", sub("0", "7"));
  EXPECT_EQ("7", sub("0", "-7"));
  EXPECT_EQ("0", sub("1e-130", "1e-130"));
  EXPECT_EQ("0", sub("-0", "0"));
  EXPECT_EQ("0." + std::string(129, '0') + "2", add("1e-130", "1e-130"));
  EXPECT_EQ("1" + std::string(37, '0'), add(Ones(37), std::string(36, '8') + "9"));
  EXPECT_EQ("2" + std::string(125, '0'), add("1e125", "1e125"));
  EXPECT_EQ(Ones(38), add(Ones(37) + "0", "1"));
  EXPECT_EQ(kOverflow, add(Ones(38), "1e38"));  // needs 39 digits
  EXPECT_EQ(kOverflow, add("1e50", "1"));
  EXPECT_EQ(kOverflow, sub("1e50", "1"));
  EXPECT_EQ(kOverflow, add("1e125", "1e-130"));
  EXPECT_EQ(kOverflow, add(kMax, "1e125"));
  EXPECT_EQ(kOverflow, sub("-" + kMax, "1e125"));
  EXPECT_EQ(kOverflow, add(kMax, "1e88"));
  EXPECT_EQ(kUnderflow, sub("1.5e-130", "1.4e-130"));
  EXPECT_EQ("0." + std::string(129, '0') + "1", sub("2.5e-130", "1.5e-130"));
  EXPECT_EQ("1" + std::string(125, '0'), sub(kMax, "8." + std::string(37, '9') + "E+125"));
}

TEST(NumberArithmetic, OutputMayAliasInput) {
  Decimal a = D("1.5"), b = D("2.25");
  ASSERT_TRUE(Decimal::Add(a, b, &a).ok());
  EXPECT_EQ("3.75", a.ToString());
  ASSERT_TRUE(Decimal::Subtract(a, b, &b).ok());
  EXPECT_EQ("1.5", b.ToString());
  ASSERT_TRUE(Decimal::Add(b, b, &b).ok());
  EXPECT_EQ("3", b.ToString());
  // A failed operation leaves the output untouched.
  Decimal c = D("7");
  EXPECT_FALSE(Decimal::Add(D("1e50"), D("1"), &c).ok());
  EXPECT_EQ("7", c.ToString());
}

TEST(NumberByteSize, SpecExamples) {
  EXPECT_EQ(1u, D("0").ByteSize());
  EXPECT_EQ(2u, D("1e125").ByteSize());
  EXPECT_EQ(2u, D("11e124").ByteSize());
  EXPECT_EQ(4u, D("11111e121").ByteSize());
  EXPECT_EQ(4u, D("111111e120").ByteSize());
  EXPECT_EQ(5u, D("1111111e119").ByteSize());
  EXPECT_EQ(20u, D(Ones(38) + "e88").ByteSize());
  EXPECT_EQ(4u, D("12.3456").ByteSize());
  EXPECT_EQ(3u, D("-1").ByteSize());
  EXPECT_EQ(2u, D("1").ByteSize());
  EXPECT_EQ(2u, D("12").ByteSize());    // one aligned pair
  EXPECT_EQ(3u, D("1.2").ByteSize());   // pairs 01|20
  EXPECT_EQ(4u, D("-1.2").ByteSize());
}

TEST(NumberByteSize, FromCanonicalTextAgreesWithParsedNumber) {
  const std::string inputs[] = {"0",
                                "1",
                                "-1",
                                "12",
                                "1.2",
                                "-1.2",
                                "12.3456",
                                "100",
                                "1000",
                                "-1000",
                                "10",
                                "0.5",
                                "0.01",
                                "-0.001",
                                "0.0012",
                                "123.45",
                                "999",
                                "1e125",
                                "11e124",
                                "1111111e119",
                                Ones(38) + "e88",
                                "1e-130",
                                "-1.5e-129",
                                "123456789012345678901234567890",
                                "0.000000000000000000000000000000000000011",
                                "98765.4321",
                                "-0.1",
                                "5e3"};
  for (const std::string& input : inputs) {
    Decimal d = D(input);
    EXPECT_EQ(d.ByteSize(), Decimal::CanonicalTextByteSize(d.ToString())) << input << " -> " << d.ToString();
  }
}

TEST(NumberHashBytes, Examples) {
  EXPECT_EQ("80", Hex(D("0").HashBytes()));
  EXPECT_EQ("80", Hex(D("-0.00").HashBytes()));
  EXPECT_EQ("c1 02", Hex(D("1").HashBytes()));
  EXPECT_EQ("3e 64 66", Hex(D("-1").HashBytes()));
  EXPECT_EQ("c2 02", Hex(D("100").HashBytes()));
  EXPECT_EQ("c0 33", Hex(D("0.5").HashBytes()));
  EXPECT_EQ("c1 0b", Hex(D("10").HashBytes()));
  EXPECT_EQ("c0 02", Hex(D("0.01").HashBytes()));
  EXPECT_EQ("3d 64 66", Hex(D("-100").HashBytes()));
  EXPECT_EQ("c2 02 18 2e", Hex(D("123.45").HashBytes()));
  EXPECT_EQ("bf 0b", Hex(D("0.001").HashBytes()));
  EXPECT_EQ("c1 0d", Hex(D("12").HashBytes()));
  EXPECT_EQ("3e 59 66", Hex(D("-12").HashBytes()));
  EXPECT_EQ("c2 0a 64", Hex(D("999").HashBytes()));  // 09|99 -> 10, 100
  EXPECT_EQ("3d 5c 02 66", Hex(D("-999").HashBytes()));
}

TEST(NumberHashBytes, LengthMatchesByteSize) {
  // numToBuffer is the encoding whose length §1.2 counts, except that a negative with 20 digit pairs has no
  // terminator (the only case where they differ).
  for (const std::string& text : {std::string("1"), std::string("12.3456"), std::string("-0.5"),
                                  std::string("11111e121"), std::string("-111111e120"), Ones(38) + "e88",
                                  "-" + Ones(37) + "e88", std::string("1e-130"), std::string("-7e125")}) {
    Decimal d = D(text);
    EXPECT_EQ(d.ByteSize(), d.HashBytes().size()) << text;
  }
  Decimal full = D("-" + Ones(38) + "e87");  // exponent 124 is even: pad + 38 digits = 20 pairs
  EXPECT_EQ(21u, full.HashBytes().size());
  EXPECT_EQ(22u, full.ByteSize());
  EXPECT_NE(0x66, static_cast<unsigned char>(full.HashBytes().back()));
}

TEST(NumberOrderedKey, OrderMatchesCompare) {
  const auto& v = Ascending();
  for (size_t i = 0; i < v.size(); i++) {
    for (size_t j = 0; j < v.size(); j++) {
      Decimal a = D(v[i]), b = D(v[j]);
      int c = Key(a).compare(Key(b));
      c = c < 0 ? -1 : (c > 0 ? 1 : 0);
      EXPECT_EQ(a.Compare(b), c) << v[i] << " vs " << v[j];
    }
  }
}

TEST(NumberOrderedKey, SameValueSameKey) {
  EXPECT_EQ(Key(D("1e3")), Key(D("1000")));
  EXPECT_EQ(Key(D("-0")), Key(D("0.000")));
  EXPECT_EQ(Key(D("0.10")), Key(D(".1")));
  EXPECT_NE(Key(D("1")), Key(D("10")));
}

TEST(NumberOrderedKey, PrefixSafeWithSuffix) {
  const auto& v = Ascending();
  const std::vector<std::string> suffixes = {std::string(), std::string(1, '\0'), std::string(1, '\xff'),
                                             std::string("\x00\x00", 2), "zzz", std::string("\xff\xff\xff", 3),
                                             std::string(1, '\x01'), "5"};
  for (size_t i = 0; i < v.size(); i++) {
    for (size_t j = 0; j < v.size(); j++) {
      for (const auto& si : suffixes) {
        for (const auto& sj : suffixes) {
          std::string ka = Key(D(v[i])) + si, kb = Key(D(v[j])) + sj;
          int c = ka.compare(kb);
          c = c < 0 ? -1 : (c > 0 ? 1 : 0);
          int expected = (i < j) ? -1 : (i > j ? 1 : (si < sj ? -1 : (si > sj ? 1 : 0)));
          ASSERT_EQ(expected, c) << v[i] << "+" << Hex(si) << " vs " << v[j] << "+" << Hex(sj);
        }
      }
    }
  }
}

// The encoding from canonical text is AppendOrderedKey's, for the plain integers it encodes without parsing
// and for everything else.
TEST(NumberOrderedKey, FromCanonicalTextAgreesWithAppendOrderedKey) {
  std::vector<std::string> texts = Ascending();
  for (const char* t : {"0", "1", "7", "10", "100", "120", "1000000", "99999999999999999999999999999999999999",
                        "10000000000000000000000000000000000000", "1e38", "12345678901234567890123456789012345678"}) {
    texts.push_back(t);
  }
  for (const auto& t : texts) {
    std::string canonical = D(t).ToString();
    std::string expected = "p", actual = "p";
    D(t).AppendOrderedKey(&expected);
    Decimal::AppendCanonicalOrderedKey(canonical, &actual);
    EXPECT_EQ(Hex(expected), Hex(actual)) << canonical;
  }
}

TEST(NumberOrderedKey, RoundTrip) {
  std::string buf = "prefix";
  const auto& v = Ascending();
  for (const auto& t : v) D(t).AppendOrderedKey(&buf);
  buf += "tail";
  size_t pos = 6;
  for (const auto& t : v) {
    Decimal d;
    ASSERT_TRUE(Decimal::DecodeOrderedKey(buf, &pos, &d)) << t;
    EXPECT_EQ(D(t).ToString(), d.ToString());
    EXPECT_EQ(D(t).negative(), d.negative());
    EXPECT_EQ(D(t).exponent(), d.exponent());
    EXPECT_EQ(D(t).digits(), d.digits());
  }
  EXPECT_EQ("tail", buf.substr(pos));
}

TEST(NumberOrderedKey, RejectsBadInput) {
  auto decode = [](const std::string& bytes) {
    size_t pos = 0;
    Decimal d;
    return Decimal::DecodeOrderedKey(bytes, &pos, &d);
  };
  std::string good = Key(D("12.5"));
  ASSERT_TRUE(decode(good));
  EXPECT_FALSE(decode(""));
  EXPECT_FALSE(decode(std::string(1, '\x04')));
  EXPECT_FALSE(decode(std::string(1, '\0')));
  for (size_t n = 1; n < good.size(); n++) EXPECT_FALSE(decode(good.substr(0, n))) << n;  // truncated
  std::string bad_digit = good;
  bad_digit[3] = 'x';
  EXPECT_FALSE(decode(bad_digit));
  std::string leading_zero = good;
  leading_zero[3] = '0';
  EXPECT_FALSE(decode(leading_zero));
  std::string out_of_range = good;
  out_of_range[1] = '\x90';
  EXPECT_FALSE(decode(out_of_range));
  std::string neg = Key(D("-12.5"));
  ASSERT_TRUE(decode(neg));
  for (size_t n = 1; n < neg.size(); n++) EXPECT_FALSE(decode(neg.substr(0, n))) << n;
  // Failure leaves the position alone.
  size_t pos = 0;
  Decimal d;
  EXPECT_FALSE(Decimal::DecodeOrderedKey(good.substr(0, 4), &pos, &d));
  EXPECT_EQ(0u, pos);
}

}  // namespace
}  // namespace dynapage
