// SelectStoredMembers: what it cuts out of a stored item must decode to exactly the attributes the whole item's
// parse gives for the same names, whatever the item holds (nested maps and lists, strings full of quotes,
// backslashes and brackets), and it must give up, never guess, where the text is not the writer's.
// DecodeStoredScalarMembers: the same attributes, decoded without a parser, into a map reused from item to item;
// or false.

#include "engine/model/stored_members.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/model/attribute_value_json.h"

namespace dynapage {
namespace {

std::string Stored(const AttributeMap& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteAttributeMap(item, &writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// DecodeStoredAttributes over the whole parse of json.
AttributeMap Decoded(const std::string& json, const std::vector<std::string>& names) {
  rapidjson::Document doc;
  std::string scratch;
  AttributeMap out;
  EXPECT_TRUE(ParseStoredJson(json, &scratch, &doc)) << json;
  EXPECT_TRUE(DecodeStoredAttributes(doc, names, &out)) << json;
  return out;
}

std::string RandomText(std::mt19937* rng) {
  static const char kBytes[] = {'"', '\\', '{', '}', '[', ']', ',', ':', '\x01', '\n', 'a', 'b', '\xc3', '\xa4', ' '};
  std::string text((*rng)() % 40, 'x');
  for (char& c : text) {
    if ((*rng)() % 3 == 0) c = kBytes[(*rng)() % sizeof(kBytes)];
  }
  return text;
}

// A value of any type, nested at most depth deep (an explicit bound: the test's own recursion).
AttributeValue RandomValue(std::mt19937* rng, int depth) {
  switch ((*rng)() % (depth > 0 ? 9 : 7)) {
    case 0: return AttributeValue::String(RandomText(rng));
    case 1: return AttributeValue::Number(std::to_string((*rng)() % 1000));
    case 2: return AttributeValue::Binary(RandomText(rng));
    case 3: return AttributeValue::Bool((*rng)() % 2 == 0);
    case 4: return AttributeValue::Null();
    case 5: return AttributeValue::Set(AttrType::kSS, {"a" + RandomText(rng), "b]"});
    case 6: return AttributeValue::Set(AttrType::kNS, {"1", "2"});
    case 7: {
      std::vector<AttributeValue> elements;
      for (unsigned i = (*rng)() % 4; i > 0; i--) elements.push_back(RandomValue(rng, depth - 1));
      return AttributeValue::List(std::move(elements));
    }
    default: {
      AttributeMap members;
      for (unsigned i = (*rng)() % 4; i > 0; i--) members[RandomText(rng)] = RandomValue(rng, depth - 1);
      return AttributeValue::Map(std::move(members));
    }
  }
}

TEST(SelectStoredMembers, GivesWhatTheWholeParseGivesForRandomItems) {
  std::mt19937 rng(11);
  const std::vector<std::string> plain = {"bucket", "pk", "sk", "payload", "a", "z", "absent"};
  int selected = 0, refused = 0;
  for (int i = 0; i < 3000; i++) {
    AttributeMap item;
    bool escaped_name = false;
    for (unsigned n = rng() % 6; n > 0; n--) {
      std::string name = rng() % 4 == 0 ? RandomText(&rng) : plain[rng() % plain.size()];
      if (name.empty()) name = "e";
      escaped_name |= name.find_first_of("\"\\\x01\n") != std::string::npos;
      item[name] = RandomValue(&rng, 3);
    }
    std::string json = Stored(item);
    std::vector<std::string> names;
    for (const std::string& name : plain) {
      if (rng() % 3 == 0) names.push_back(name);
    }
    if (rng() % 4 == 0 && !item.empty()) names.push_back(item.begin()->first);  // maybe an odd name
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (names.empty()) names.push_back("pk");
    SCOPED_TRACE(json);
    std::string out;
    if (!SelectStoredMembers(json, names, &out)) {
      // Only a name written with an escape may stop it.
      EXPECT_TRUE(escaped_name);
      refused++;
      continue;
    }
    selected++;
    EXPECT_EQ(Decoded(json, names), Decoded(out, names)) << out;
  }
  EXPECT_GT(selected, 1500);
  EXPECT_GT(refused, 10);
}

TEST(DecodeStoredScalarMembers, GivesWhatTheWholeParseGivesForRandomItemsOrRefuses) {
  std::mt19937 rng(12);
  const std::vector<std::string> plain = {"bucket", "pk", "sk", "payload", "a", "z", "absent"};
  int decoded = 0, refused = 0;
  AttributeMap reused;  // as a page reuses it: the last item's members, values of any type among them
  for (int i = 0; i < 3000; i++) {
    AttributeMap item;
    for (unsigned n = rng() % 6; n > 0; n--) {
      const std::string& name = plain[rng() % plain.size()];
      item[name] = rng() % 2 == 0 ? RandomValue(&rng, 2) : AttributeValue::String(RandomText(&rng));
    }
    std::string json = Stored(item);
    std::vector<std::string> names;
    for (const std::string& name : plain) {
      if (rng() % 3 == 0) names.push_back(name);
    }
    if (names.empty()) names.push_back("pk");
    for (auto at = reused.begin(); at != reused.end();) {  // REQUIRES: no name outside names
      at = std::find(names.begin(), names.end(), at->first) == names.end() ? reused.erase(at) : std::next(at);
    }
    SCOPED_TRACE(json);
    if (!DecodeStoredScalarMembers(json, names, &reused)) {
      refused++;
      reused.clear();
      continue;
    }
    decoded++;
    EXPECT_EQ(Decoded(json, names), reused);
  }
  EXPECT_GT(decoded, 1000);
  EXPECT_GT(refused, 500);
}

TEST(DecodeStoredScalarMembers, ReadsStringsNumbersBooleansAndNullsAndNothingElse) {
  AttributeMap out;
  out["gone"] = AttributeValue::List({AttributeValue::Null()});
  out["s"] = AttributeValue::Map({{"x", AttributeValue::Null()}});
  std::string json = R"({"b":{"BOOL":false},"n":{"N":"-1.5"},"nul":{"NULL":true},"s":{"S":"ä x"},"t":{"BOOL":true}})";
  ASSERT_TRUE(DecodeStoredScalarMembers(json, {"b", "gone", "n", "nul", "s", "t"}, &out));
  AttributeMap want = {{"b", AttributeValue::Bool(false)},        {"n", AttributeValue::Number("-1.5")},
                       {"nul", AttributeValue::Null()},           {"s", AttributeValue::String("ä x")},
                       {"t", AttributeValue::Bool(true)}};
  EXPECT_EQ(want, out);
  EXPECT_TRUE(out["s"].map.empty());
  for (std::string refused : {R"({"a":{"S":"x"y"}})", R"({"a":{"S":"x\y"}})", R"({"a":{"B":"AA=="}})",
                              R"({"a":{"M":{}}})", R"({"a":{"L":[]}})", R"({"a":{"SS":["x"]}})",
                              R"({"a":{"NS":["1"]}})", R"({"a":{"S":"x"}})", R"({"a":{"S":"x","N":"1"}})"}) {
    AttributeMap ignored;
    bool expected = refused == R"({"a":{"S":"x"}})";
    EXPECT_EQ(expected, DecodeStoredScalarMembers(refused, {"a"}, &ignored)) << refused;
  }
  EXPECT_FALSE(DecodeStoredScalarMembers(R"({"a":{"N":"1"})", {"b"}, &out));  // cut short
}

TEST(SelectStoredMembers, CutsOnlyTheNamedMembersAndStopsAtTheLast) {
  std::string json = R"({"a":{"S":"x\"},{"},"bucket":{"N":"5"},"m":{"M":{"bucket":{"S":"inner"}}},"z":{"L":[]}})";
  std::string out;
  ASSERT_TRUE(SelectStoredMembers(json, {"bucket"}, &out));
  EXPECT_EQ(R"({"bucket":{"N":"5"}})", out);
  ASSERT_TRUE(SelectStoredMembers(json, {"a", "z"}, &out));
  EXPECT_EQ(R"({"a":{"S":"x\"},{"},"z":{"L":[]}})", out);
  ASSERT_TRUE(SelectStoredMembers(json, {"none"}, &out));
  EXPECT_EQ("{}", out);
  ASSERT_TRUE(SelectStoredMembers("{}", {"a"}, &out));
  EXPECT_EQ("{}", out);
  // A value that opens as an S but holds more: crossed whole, brackets counted, not taken for the S alone.
  ASSERT_TRUE(SelectStoredMembers(R"({"a":{"S":"x","N":"1"},"b":{"N":"2"}})", {"b"}, &out));
  EXPECT_EQ(R"({"b":{"N":"2"}})", out);
  ASSERT_TRUE(SelectStoredMembers(R"({"a":{"S":"}"},"b":{"N":"2"}})", {"b"}, &out));
  EXPECT_EQ(R"({"b":{"N":"2"}})", out);
  // Past the last member needed, nothing is read: even a broken tail.
  ASSERT_TRUE(SelectStoredMembers(R"({"a":{"N":"1"},"b":{"S":)", {"a"}, &out));
  EXPECT_EQ(R"({"a":{"N":"1"}})", out);
}

TEST(SelectStoredMembers, GivesUpOnTextItCannotVouchFor) {
  std::string out;
  EXPECT_FALSE(SelectStoredMembers("", {"a"}, &out));
  EXPECT_FALSE(SelectStoredMembers("[]", {"a"}, &out));
  EXPECT_FALSE(SelectStoredMembers(R"({"a\"b":{"N":"1"}})", {"a\"b"}, &out));  // an escaped name
  EXPECT_FALSE(SelectStoredMembers(R"({"a":{"N":"1"})", {"b"}, &out));        // cut short
  EXPECT_FALSE(SelectStoredMembers(R"({"a":{"S":"x)", {"b"}, &out));
  EXPECT_FALSE(SelectStoredMembers(R"({"a" :{"N":"1"}})", {"a"}, &out));      // not the writer's spacing
  EXPECT_FALSE(SelectStoredMembers(R"({"a":,"b":{"N":"1"}})", {"b"}, &out));  // an empty value
  EXPECT_FALSE(SelectStoredMembers(R"({"a":{"N":"1"}}x)", {"b"}, &out));      // text after the object
}

}  // namespace
}  // namespace dynapage
