// Key codec: byte order of encoded keys is DynamoDB's order, parts round-trip, and the partition hash reproduces
// the live Scan order and parallel-scan segments of docs/behaviour.md §6.1-6.2.

#include "engine/storage/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/model/number.h"

namespace dynapage {
namespace {

using namespace std::string_literals;

// RocksDB's bytewise order: memcmp, then length.
int ByteCompare(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

AttributeValue N(const std::string& text) {
  Decimal d;
  Status s = Decimal::Parse(text, &d);
  EXPECT_TRUE(s.ok()) << text << ": " << s.message();
  return AttributeValue::Number(d.ToString());
}

std::string Part(const AttributeValue& v) {
  std::string out;
  AppendKeyPart(v, &out);
  return out;
}

std::string Hex(const std::string& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

// Byte strings in strictly ascending unsigned-byte order (a proper prefix sorts first).
const std::vector<std::string>& AscendingBytes() {
  static const std::vector<std::string> kValues = {
      "\x00"s,     "\x00\x00"s, "\x00\x01"s, "\x00\xff"s, "\x01"s, "0"s,     "A"s,      "Z"s,
      "a"s,        "a\x00"s,    "a\x00\x00"s, "a\x00" "b"s, "a\x01"s, "aa"s,    "ab"s,     "b"s,
      "\x7f"s,     "\x80"s,     "\xc3\xa4"s,  "\xfe"s,     "\xff"s,  "\xff\x00"s, "\xff\xff"s,
  };
  return kValues;
}

TEST(KeyCodecOrder, StringPartsOrderByUnsignedBytes) {
  const auto& values = AscendingBytes();
  for (size_t i = 0; i < values.size(); i++) {
    for (size_t j = 0; j < values.size(); j++) {
      int expected = i < j ? -1 : i > j ? 1 : 0;
      EXPECT_EQ(expected, ByteCompare(Part(AttributeValue::String(values[i])), Part(AttributeValue::String(values[j]))))
          << "S " << Hex(values[i]) << " vs " << Hex(values[j]);
    }
  }
}

TEST(KeyCodecOrder, BinaryPartsOrderByUnsignedBytes) {
  const auto& values = AscendingBytes();
  for (size_t i = 0; i + 1 < values.size(); i++) {
    EXPECT_LT(ByteCompare(Part(AttributeValue::Binary(values[i])), Part(AttributeValue::Binary(values[i + 1]))), 0)
        << "B " << Hex(values[i]) << " vs " << Hex(values[i + 1]);
  }
}

// A partition key part followed by any sort key part must still sort by the partition key first: the part is
// self-delimiting, so "a" + anything < "a\0" + anything < "aa" + anything.
TEST(KeyCodecOrder, StringPartsArePrefixFreeUnderConcatenation) {
  const auto& values = AscendingBytes();
  const std::vector<AttributeValue> suffixes = {AttributeValue::String(""), AttributeValue::String("\xff\xff"),
                                                AttributeValue::String("\x00"s), N("-1e125"), N("1e125")};
  for (size_t i = 0; i + 1 < values.size(); i++) {
    for (const auto& low_suffix : suffixes) {
      for (const auto& high_suffix : suffixes) {
        std::string low = Part(AttributeValue::String(values[i])) + Part(low_suffix);
        std::string high = Part(AttributeValue::String(values[i + 1])) + Part(high_suffix);
        EXPECT_LT(ByteCompare(low, high), 0) << Hex(values[i]) << " vs " << Hex(values[i + 1]);
      }
    }
  }
}

TEST(KeyCodecOrder, NumberPartsOrderNumerically) {
  const std::vector<std::string> ascending = {
      "-9.9999999999999999999999999999999999999e125", "-1e125", "-123456789012345678901234567890", "-1000",
      "-100.5", "-100", "-99.99", "-10", "-2", "-1.5", "-1.01", "-1", "-0.99", "-0.5", "-0.1", "-0.011", "-0.01",
      "-1e-130", "0", "1e-130", "0.01", "0.011", "0.1", "0.5", "0.99", "1", "1.01", "1.5", "2", "9", "10", "11",
      "99.99", "100", "100.5", "1000", "123456789012345678901234567890", "1e125",
      "9.9999999999999999999999999999999999999e125"};
  for (size_t i = 0; i + 1 < ascending.size(); i++) {
    EXPECT_LT(ByteCompare(Part(N(ascending[i])), Part(N(ascending[i + 1]))), 0)
        << ascending[i] << " vs " << ascending[i + 1];
    // Still ordered with a sort key part appended to the smaller one.
    EXPECT_LT(ByteCompare(Part(N(ascending[i])) + Part(AttributeValue::String("\xff\xff\xff")),
                          Part(N(ascending[i + 1])) + Part(AttributeValue::String(""))),
              0)
        << ascending[i] << " vs " << ascending[i + 1];
  }
}

TEST(KeyCodecOrder, EqualNumbersAreOneKey) {
  EXPECT_EQ(Part(N("1000")), Part(N("1e3")));
  EXPECT_EQ(Part(N("1")), Part(N("1.000")));
  EXPECT_EQ(Part(N("0")), Part(N("-0.0")));
  EXPECT_EQ(ItemKey(1, N("10"), nullptr), ItemKey(1, N("1E1"), nullptr));
  EXPECT_NE(Part(N("1")), Part(N("1.0000000000000000000000000000000000001")));
}

TEST(KeyCodecRoundTrip, DecodeKeyPartInvertsAppendKeyPart) {
  std::vector<AttributeValue> values;
  for (const auto& bytes : AscendingBytes()) {
    values.push_back(AttributeValue::String(bytes));
    values.push_back(AttributeValue::Binary(bytes));
  }
  values.push_back(AttributeValue::String(""));
  values.push_back(AttributeValue::String(std::string(2048, '\0')));
  for (const char* n :
       {"0", "1", "-1", "0.5", "-0.011", "1e125", "-1e-130", "123456789012345678901234567890.12345678"}) {
    values.push_back(N(n));
  }
  for (const auto& v : values) {
    std::string key = "prefix" + Part(v) + "tail";
    size_t pos = 6;
    AttributeValue decoded;
    ASSERT_TRUE(DecodeKeyPart(key, &pos, v.type, &decoded)) << Hex(key);
    EXPECT_EQ(v, decoded) << Hex(v.scalar);
    EXPECT_EQ(v.type, decoded.type);
    EXPECT_EQ(key.size() - 4, pos) << "pos must stop right after the part";
  }
}

TEST(KeyCodecRoundTrip, SequentialPartsDecode) {
  AttributeValue pk = AttributeValue::String("a\x00z"s);
  AttributeValue sk = N("-12.5");
  std::string key = ItemKey(7, pk, &sk);
  ASSERT_EQ(KeyspacePrefix(7), key.substr(0, 5));
  EXPECT_EQ(PartitionHash(pk), HashOfKey(key));
  size_t pos = kKeyHeaderSize;
  AttributeValue p, s;
  ASSERT_TRUE(DecodeKeyPart(key, &pos, AttrType::kS, &p));
  ASSERT_TRUE(DecodeKeyPart(key, &pos, AttrType::kN, &s));
  EXPECT_EQ(pk, p);
  EXPECT_EQ("-12.5", s.scalar);
  EXPECT_EQ(key.size(), pos);
  EXPECT_EQ(PartitionPrefix(7, pk), key.substr(0, PartitionPrefix(7, pk).size()));
}

TEST(KeyCodecRoundTrip, CorruptPartsAreRejected) {
  AttributeValue out;
  for (const std::string& bad : {"abc"s, "ab\x00"s, "ab\x00\x02"s, ""s}) {
    size_t pos = 0;
    EXPECT_FALSE(DecodeKeyPart(bad, &pos, AttrType::kS, &out)) << Hex(bad);
    pos = 0;
    EXPECT_FALSE(DecodeKeyPart(bad, &pos, AttrType::kB, &out)) << Hex(bad);
  }
}

TEST(KeyCodecLayout, KeyspacesDoNotInterleave) {
  AttributeValue big = AttributeValue::String(std::string(100, '\xff'));
  std::string end_of_1 = PrefixSuccessor(KeyspacePrefix(1));
  EXPECT_LT(ByteCompare(ItemKey(1, big, &big), end_of_1), 0);
  EXPECT_LE(ByteCompare(end_of_1, ItemKey(2, AttributeValue::String(""), nullptr)), 0);
  EXPECT_EQ(kDataTag, ItemKey(3, big, nullptr)[0]);
}

TEST(KeyCodecLayout, PrefixSuccessor) {
  EXPECT_EQ("b", PrefixSuccessor("a"));
  EXPECT_EQ("b", PrefixSuccessor("a\xff"));
  EXPECT_EQ("a\x01"s, PrefixSuccessor("a\x00"s));
  EXPECT_EQ("", PrefixSuccessor("\xff\xff"));
}

// docs/behaviour.md §6.1: live DynamoDB scans string partitions in this order (DYN-T "items in string hash order").
TEST(PartitionHashOrder, StringKeysReproduceLiveScanOrder) {
  const std::vector<std::string> live = {
      "2", "8", "9", "1", "6", "hello", "0", "5", "4", "\xc3\xa4\xc3\xa1\xc3\xb6\xc3\xbc", "aardman", "7", "3", "zapf"};
  std::vector<std::string> sorted = live;
  std::sort(sorted.begin(), sorted.end());  // start from a different order
  std::stable_sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
    return PartitionHash(AttributeValue::String(a)) < PartitionHash(AttributeValue::String(b));
  });
  EXPECT_EQ(live, sorted);
}

// docs/behaviour.md §6.1: the same for number partition keys (DYN-T "items in number hash order").
TEST(PartitionHashOrder, NumberKeysReproduceLiveScanOrder) {
  const std::vector<std::string> live = {"7", "999.9", "8", "3", "2", "-999.9", "9", "4", "-0.09", "6", "1", "0",
                                         "0.012345", "5"};
  std::vector<std::string> sorted = live;
  std::sort(sorted.begin(), sorted.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
    return PartitionHash(N(a)) < PartitionHash(N(b));
  });
  EXPECT_EQ(live, sorted);
}

TEST(PartitionHashOrder, HashInputs) {
  // MOTO-V 2026 (docs/behaviour.md §6.1): "A" before "B", md5 prefixes 0cb5bb < 2a5fbc.
  EXPECT_EQ(0x0cb5bbu, PartitionHash(AttributeValue::String("A")) >> 40);
  EXPECT_EQ(0x2a5fbcu, PartitionHash(AttributeValue::String("B")) >> 40);
  EXPECT_EQ("hello", PartitionHashInput(AttributeValue::String("hello")));
  EXPECT_EQ("\x01\x02"s, PartitionHashInput(AttributeValue::Binary("\x01\x02"s)));
  EXPECT_EQ("\xc1\x02"s, PartitionHashInput(N("1")));
  EXPECT_EQ(PartitionHash(N("1000")), PartitionHash(N("1e3")));
  // S and B with the same bytes hash alike (DynamoDB hashes the raw bytes).
  EXPECT_EQ(PartitionHash(AttributeValue::String("xyz")), PartitionHash(AttributeValue::Binary("xyz")));
}

// The hash of the last value is remembered per thread; it must answer only for that exact value and type.
TEST(PartitionHashOrder, RepeatedAndAlternatingValues) {
  for (int i = 0; i < 2; i++) {
    EXPECT_EQ(0x0cb5bbu, PartitionHash(AttributeValue::String("A")) >> 40);
    EXPECT_EQ(0x0cb5bbu, PartitionHash(AttributeValue::String("A")) >> 40);
    EXPECT_EQ(0x2a5fbcu, PartitionHash(AttributeValue::String("B")) >> 40);
  }
  // Same scalar text, other type: N "1" hashes its Decimal bytes, S "1" its characters.
  uint64_t s1 = PartitionHash(AttributeValue::String("1"));
  uint64_t n1 = PartitionHash(N("1"));
  EXPECT_NE(s1, n1);
  EXPECT_EQ(s1, PartitionHash(AttributeValue::String("1")));
  EXPECT_EQ(n1, PartitionHash(N("1")));
  EXPECT_EQ(n1, PartitionHash(N("1e0")));
  EXPECT_EQ(s1, PartitionHash(AttributeValue::Binary("1")));
}

// docs/behaviour.md §6.2: live segment assignment with TotalSegments=4096 (DYN-T "items from correct … hash segments").
TEST(ParallelScanSegments, LiveSegmentsWith4096) {
  EXPECT_EQ(0u, SegmentOfHash(PartitionHash(AttributeValue::String("3635")), 4096));
  EXPECT_EQ(0u, SegmentOfHash(PartitionHash(AttributeValue::String("228")), 4096));
  EXPECT_EQ(1u, SegmentOfHash(PartitionHash(AttributeValue::String("1668")), 4096));
  EXPECT_EQ(4u, SegmentOfHash(PartitionHash(AttributeValue::String("3435")), 4096));
  EXPECT_EQ(1u, SegmentOfHash(PartitionHash(N("251")), 4096));
  EXPECT_EQ(4095u, SegmentOfHash(PartitionHash(N("2388")), 4096));
}

TEST(ParallelScanSegments, PowerOfTwoMatchesTwelveBitRule) {
  // floor(H64·T/2^64) == floor(H12·T/4096) for T a power of two up to 4096.
  std::mt19937_64 rng(42);
  for (int i = 0; i < 2000; i++) {
    uint64_t h = rng();
    for (uint32_t t : {1u, 2u, 4u, 16u, 256u, 4096u}) {
      EXPECT_EQ(static_cast<uint32_t>(((h >> 52) * t) / 4096), SegmentOfHash(h, t)) << h << " T=" << t;
    }
  }
  EXPECT_EQ(0u, SegmentOfHash(0, 1000000));
  EXPECT_EQ(999999u, SegmentOfHash(~0ull, 1000000));
}

TEST(ParallelScanSegments, BoundsAreContiguousAndCoverTheKeyspace) {
  for (uint32_t total : {1u, 2u, 3u, 7u, 10u, 4096u, 4097u}) {
    std::string first_lower, previous_upper;
    for (uint32_t s = 0; s < total; s++) {
      std::string lower, upper;
      SegmentBounds(9, s, total, &lower, &upper);
      EXPECT_LT(ByteCompare(lower, upper), 0) << "T=" << total << " s=" << s;
      if (s == 0) first_lower = lower;
      else EXPECT_EQ(previous_upper, lower) << "T=" << total << " s=" << s;
      previous_upper = upper;
    }
    EXPECT_EQ(KeyspacePrefix(9) + std::string(8, '\0'), first_lower) << "T=" << total;
    EXPECT_EQ(PrefixSuccessor(KeyspacePrefix(9)), previous_upper) << "T=" << total;
  }
  std::string lower, upper;
  SegmentBounds(9, 999999, 1000000, &lower, &upper);
  EXPECT_EQ(PrefixSuccessor(KeyspacePrefix(9)), upper);
}

TEST(ParallelScanSegments, EveryKeyLiesInsideItsSegmentBounds) {
  for (uint32_t total : {2u, 3u, 5u, 4096u, 1000000u}) {
    for (int i = 0; i < 300; i++) {
      AttributeValue pk = AttributeValue::String("key-" + std::to_string(i));
      AttributeValue sk = AttributeValue::String(std::string(10, '\xff'));
      std::string key = ItemKey(9, pk, &sk);
      uint32_t segment = SegmentOfHash(PartitionHash(pk), total);
      ASSERT_LT(segment, total);
      std::string lower, upper;
      SegmentBounds(9, segment, total, &lower, &upper);
      EXPECT_LE(ByteCompare(lower, key), 0) << "T=" << total << " key " << i;
      EXPECT_LT(ByteCompare(key, upper), 0) << "T=" << total << " key " << i;
    }
  }
}

// A multi-attribute partition (docs/multi-attribute-keys.md): equal tuples share one prefix whatever the number
// spelling; tuples that differ only in where one value ends and the next begins do not; one value is the
// single-attribute prefix.
TEST(CompositePartitionPrefix, IdentifiesTheTupleExactly) {
  AttributeValue a = AttributeValue::String("a"), bc = AttributeValue::String("bc");
  AttributeValue ab = AttributeValue::String("ab"), c = AttributeValue::String("c");
  AttributeValue two = N("2"), two_point_zero = N("2.0");
  const AttributeValue* a_bc[] = {&a, &bc};
  const AttributeValue* ab_c[] = {&ab, &c};
  const AttributeValue* a_two[] = {&a, &two};
  const AttributeValue* a_two_point_zero[] = {&a, &two_point_zero};
  EXPECT_EQ(CompositePartitionPrefix(3, a_two, 2), CompositePartitionPrefix(3, a_two_point_zero, 2));
  std::string first = CompositePartitionPrefix(3, a_bc, 2), second = CompositePartitionPrefix(3, ab_c, 2);
  EXPECT_NE(first, second);
  EXPECT_NE(first.substr(5, 8), second.substr(5, 8)) << "the hash covers the parts";
  EXPECT_EQ(KeyspacePrefix(3), first.substr(0, 5));
  EXPECT_EQ(Part(a) + Part(bc), first.substr(kKeyHeaderSize));
  EXPECT_EQ(PartitionPrefix(3, a), CompositePartitionPrefix(3, a_bc, 1));
}

}  // namespace
}  // namespace dynapage
