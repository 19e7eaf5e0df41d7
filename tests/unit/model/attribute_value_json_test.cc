// Wire AttributeValues: shape errors (docs/behaviour.md §8.7), JSON type errors (§8.5 step 6), base64, number errors
// and canonical numbers (§8.6), null members, and the canonical encoding.

#include "engine/model/attribute_value_json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "engine/base/base64.h"

namespace dynapage {
namespace {

const char kEmpty[] = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
const char kMoreThanOne[] =
    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes";
const char kInvalid[] = "One or more parameter values were invalid: ";

struct Outcome {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
  AttributeValue value;
};

Outcome DecodeValue(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_FALSE(doc.HasParseError()) << json;
  Outcome out;
  Status s = DecodeAttributeValue(doc, &out.value);
  out.code = s.code();
  out.message = s.message();
  return out;
}

Outcome DecodeMap(const std::string& json, AttributeMap* map) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_FALSE(doc.HasParseError()) << json;
  Outcome out;
  Status s = DecodeAttributeMap(doc, map);
  out.code = s.code();
  out.message = s.message();
  return out;
}

// "OK" for success, else "<Kind>: <message>".
std::string Error(const std::string& json) {
  Outcome o = DecodeValue(json);
  switch (o.code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kValidation: return "Validation: " + o.message;
    case ErrorCode::kSerialization: return "Serialization: " + o.message;
    default: return "Other: " + o.message;
  }
}

std::string V(const std::string& m) { return "Validation: " + m; }
std::string Ser(const std::string& m) { return "Serialization: " + m; }

// The canonical JSON text the value is stored and returned as.
std::string RoundTrip(const std::string& json) {
  Outcome o = DecodeValue(json);
  EXPECT_EQ(ErrorCode::kOk, o.code) << json << ": " << o.message;
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteAttributeValue(o.value, &writer);
  return buffer.GetString();
}

// §8.7
TEST(AttributeValueShape, EmptyAndMultipleTypes) {
  EXPECT_EQ(V(kEmpty), Error(R"({})"));
  EXPECT_EQ(V(kMoreThanOne), Error(R"({"S":"a","N":"1"})"));
  EXPECT_EQ(V(kMoreThanOne), Error(R"({"BOOL":true,"NULL":true})"));
  EXPECT_EQ(V(kMoreThanOne), Error(R"({"L":[],"M":{}})"));
  // Inside lists and maps too.
  EXPECT_EQ(V(kEmpty), Error(R"({"L":[{"S":"a"},{}]})"));
  EXPECT_EQ(V(kMoreThanOne), Error(R"({"M":{"x":{"S":"a","B":"YQ=="}}})"));
}

TEST(AttributeValueShape, NullMustBeTrue) {
  EXPECT_EQ(V(std::string(kInvalid) + "Null attribute value types must have the value of true"),
            Error(R"({"NULL":false})"));
  EXPECT_EQ("OK", Error(R"({"NULL":true})"));
}

TEST(AttributeValueShape, EmptySets) {
  // Two spaces in "set  may" (sic).
  EXPECT_EQ(V(std::string(kInvalid) + "An string set  may not be empty"), Error(R"({"SS":[]})"));
  EXPECT_EQ(V(std::string(kInvalid) + "An number set  may not be empty"), Error(R"({"NS":[]})"));
  EXPECT_EQ(V(std::string(kInvalid) + "Binary sets should not be empty"), Error(R"({"BS":[]})"));
}

TEST(AttributeValueShape, DuplicateSetElements) {
  // dialects.md §2.2, §2.7: members are quoted; SS joins them with ", ", BS with "," and no space before "of type".
  EXPECT_EQ(V(std::string(kInvalid) + R"(Input collection ["a", "a"] contains duplicates.)"),
            Error(R"({"SS":["a","a"]})"));
  EXPECT_EQ(V(std::string(kInvalid) + R"(Input collection ["Yg==","Yg=="]of type BS contains duplicates.)"),
            Error(R"({"BS":["Yg==","Yg=="]})"));
  // §8.6: NS duplicates.
  EXPECT_EQ(V("Input collection contains duplicates"), Error(R"({"NS":["1","1"]})"));
  EXPECT_EQ("OK", Error(R"({"SS":["a","A"]})"));
}

TEST(AttributeValueShape, NestingDepth) {
  std::string shallow = R"({"S":"x"})";
  for (int i = 0; i < 20; i++) shallow = R"({"L":[)" + shallow + "]}";
  EXPECT_EQ("OK", Error(shallow));
  std::string deep = R"({"S":"x"})";
  for (int i = 0; i < 40; i++) deep = R"({"M":{"a":)" + deep + "}}";
  Outcome o = DecodeValue(deep);
  EXPECT_EQ(ErrorCode::kValidation, o.code) << o.message;  // 32 levels at most (§8.7)
}

// §8.5 step 6: a JSON type error is a SerializationException with Coral's text.
TEST(AttributeValueJsonTypes, ScalarTypeErrors) {
  EXPECT_EQ(Ser("NUMBER_VALUE cannot be converted to String"), Error(R"({"S":1})"));
  EXPECT_EQ(Ser("NUMBER_VALUE cannot be converted to String"), Error(R"({"N":123})"));  // MOTO-C; ALT-T
  EXPECT_EQ(Ser("TRUE_VALUE cannot be converted to String"), Error(R"({"S":true})"));
  EXPECT_EQ(Ser("FALSE_VALUE cannot be converted to String"), Error(R"({"N":false})"));
  EXPECT_EQ(Ser("Unrecognized collection type class java.lang.String"), Error(R"({"S":["a"]})"));
  EXPECT_EQ(Ser("Start of structure or map found where not expected"), Error(R"({"S":{}})"));
  EXPECT_EQ(Ser("NUMBER_VALUE cannot be converted to String"), Error(R"({"SS":[1]})"));
  EXPECT_EQ(Ser("NUMBER_VALUE cannot be converted to String"), Error(R"({"B":5})"));
}

TEST(AttributeValueJsonTypes, CollectionTypeErrors) {
  EXPECT_EQ(Ser("Unexpected field type"), Error(R"({"L":"abc"})"));
  EXPECT_EQ(Ser("Unexpected field type"), Error(R"({"M":5})"));
  EXPECT_EQ(Ser("Unexpected field type"), Error(R"({"SS":"a"})"));
  EXPECT_EQ(Ser("Start of structure or map found where not expected"), Error(R"({"L":{}})"));
  EXPECT_EQ(Ser("Start of list found where not expected"), Error(R"({"M":[]})"));
  // An item that is not an object.
  AttributeMap map;
  EXPECT_EQ(ErrorCode::kSerialization, DecodeMap(R"([])", &map).code);
}

// Type errors are reported before value errors, wherever they are (step 6 before step 7).
TEST(AttributeValueJsonTypes, TypeErrorsWinOverValidation) {
  EXPECT_EQ(Ser("NUMBER_VALUE cannot be converted to String"), Error(R"({"S":"a","N":"1","B":5})"));
  EXPECT_EQ(Ser("TRUE_VALUE cannot be converted to String"), Error(R"({"L":[{"NULL":false},{"S":true}]})"));
  AttributeMap map;
  Outcome o = DecodeMap(R"({"a":{"NULL":false},"b":{"S":5}})", &map);
  EXPECT_EQ(ErrorCode::kSerialization, o.code);
  EXPECT_EQ("NUMBER_VALUE cannot be converted to String", o.message);
}

TEST(AttributeValueBase64, Errors) {
  EXPECT_EQ(Ser("'abcde' can not be converted to an Blob: Base64 encoded length is expected a multiple of 4 bytes "
                "but found: 5"),
            Error(R"({"B":"abcde"})"));
  EXPECT_EQ(Ser("'Yh==' can not be converted to an Blob: Invalid last non-pad Base64 character dectected"),
            Error(R"({"B":"Yh=="})"));
  EXPECT_EQ(Ser("'Y!==' can not be converted to an Blob: Invalid Base64 character: '!'"), Error(R"({"B":"Y!=="})"));
  EXPECT_EQ(Ser("'ab=c' can not be converted to an Blob: Invalid Base64 character: '='"), Error(R"({"B":"ab=c"})"));
  // A character outside ASCII is quoted whole, never cut in two (the answer stays valid UTF-8).
  EXPECT_EQ(Ser("'/w\xc3\xbe' can not be converted to an Blob: Invalid Base64 character: '\xc3\xbe'"),
            Error("{\"B\":\"/w\xc3\xbe\"}"));
  EXPECT_EQ(Ser("'AAAA\xf0\x9f\x98\x80' can not be converted to an Blob: Invalid Base64 character: '\xf0\x9f\x98\x80'"),
            Error("{\"B\":\"AAAA\xf0\x9f\x98\x80\"}"));
  // In binary sets too, and before the empty/duplicate checks.
  EXPECT_EQ(Ser("'YQ' can not be converted to an Blob: Base64 encoded length is expected a multiple of 4 bytes "
                "but found: 2"),
            Error(R"({"BS":["YQ==","YQ"]})"));
}

TEST(AttributeValueBase64, ValidValues) {
  Outcome o = DecodeValue(R"({"B":"AQI="})");
  ASSERT_EQ(ErrorCode::kOk, o.code) << o.message;
  EXPECT_EQ(AttrType::kB, o.value.type);
  EXPECT_EQ(std::string("\x01\x02"), o.value.scalar);
  EXPECT_EQ(R"({"B":""})", RoundTrip(R"({"B":""})"));
  EXPECT_EQ(R"({"B":"AP8="})", RoundTrip(R"({"B":"AP8="})"));
  std::string bytes;
  ASSERT_TRUE(Base64Decode("aGVsbG8gd29ybGQ=", &bytes).ok());
  EXPECT_EQ("hello world", bytes);
  EXPECT_EQ("aGVsbG8gd29ybGQ=", Base64Encode("hello world"));
  EXPECT_EQ("", Base64Encode(""));
}

// §8.6 through the JSON decoder.
TEST(AttributeValueNumbers, ErrorMessages) {
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value"), Error(R"({"N":""})"));
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value: b"), Error(R"({"N":"b"})"));
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value: NaN"), Error(R"({"N":"NaN"})"));
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value: Infinity"), Error(R"({"N":"Infinity"})"));
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value:  1"), Error(R"({"N":" 1"})"));
  EXPECT_EQ(V("Number overflow. Attempting to store a number with magnitude larger than supported range"),
            Error(R"({"N":"1e126"})"));
  EXPECT_EQ(V("Number underflow. Attempting to store a number with magnitude smaller than supported range"),
            Error(R"({"N":"1e-131"})"));
  EXPECT_EQ(V("Attempting to store more than 38 significant digits in a Number"),
            Error(R"({"N":"123456789012345678901234567890123456789"})"));
  EXPECT_EQ(V("The parameter cannot be converted to a numeric value: x"), Error(R"({"NS":["1","x"]})"));
  EXPECT_EQ(V("Number overflow. Attempting to store a number with magnitude larger than supported range"),
            Error(R"({"L":[{"N":"-1e126"}]})"));
}

TEST(AttributeValueNumbers, CanonicalOnDecode) {
  EXPECT_EQ(R"({"N":"1"})", RoundTrip(R"({"N":"1.0"})"));
  EXPECT_EQ(R"({"N":"1000"})", RoundTrip(R"({"N":"1e3"})"));
  EXPECT_EQ(R"({"N":"0"})", RoundTrip(R"({"N":"-0"})"));
  EXPECT_EQ(R"({"N":"0.5"})", RoundTrip(R"({"N":".5"})"));
  EXPECT_EQ(R"({"N":"3"})", RoundTrip(R"({"N":"+3"})"));
  EXPECT_EQ(R"({"N":"0.123"})", RoundTrip(R"({"N":".123"})"));
  EXPECT_EQ(R"({"N":"1.23"})", RoundTrip(R"({"N":"0001.23"})"));
  EXPECT_EQ(R"({"N":"100000"})", RoundTrip(R"({"N":"1e+5"})"));
  EXPECT_EQ(R"({"N":"-0.0012"})", RoundTrip(R"({"N":"-1.2E-3"})"));
  EXPECT_EQ(R"({"NS":["1","2"]})", RoundTrip(R"({"NS":["1.00","2e0"]})"));
  EXPECT_EQ(R"({"L":[{"N":"10"}]})", RoundTrip(R"({"L":[{"N":"1E1"}]})"));
  EXPECT_EQ(R"({"M":{"n":{"N":"0.01"}}})", RoundTrip(R"({"M":{"n":{"N":"1e-2"}}})"));
}

// §8.5: null members count as absent; unknown members are ignored.
TEST(AttributeValueNulls, NullMembersAreAbsent) {
  EXPECT_EQ(R"({"S":"a"})", RoundTrip(R"({"S":"a","N":null})"));
  EXPECT_EQ(R"({"S":"a"})", RoundTrip(R"({"N":null,"S":"a","BOOL":null})"));
  EXPECT_EQ(V(kEmpty), Error(R"({"S":null})"));
  EXPECT_EQ(R"({"S":"a"})", RoundTrip(R"({"S":"a","Unknown":5})"));
  AttributeMap map;
  Outcome o = DecodeMap(R"({"a":{"S":"x"},"b":null})", &map);
  ASSERT_EQ(ErrorCode::kOk, o.code) << o.message;
  ASSERT_EQ(1u, map.size());
  EXPECT_EQ(1u, map.count("a"));
  EXPECT_EQ(R"({"M":{"k":{"S":"v"}}})", RoundTrip(R"({"M":{"k":{"S":"v"},"gone":null}})"));
}

// A name given twice keeps its last value, and nothing of the first (values are built in place).
TEST(AttributeValueNames, RepeatedNameKeepsOnlyTheLastValue) {
  AttributeMap map;
  Outcome o = DecodeMap(R"({"a":{"L":[{"S":"x"}]},"b":{"N":"1"},"a":{"S":"y"}})", &map);
  ASSERT_EQ(ErrorCode::kOk, o.code) << o.message;
  ASSERT_EQ(2u, map.size());
  EXPECT_EQ(AttrType::kS, map["a"].type);
  EXPECT_EQ("y", map["a"].scalar);
  EXPECT_TRUE(map["a"].list.empty());
  o = DecodeMap(R"({"m":{"M":{"k":{"SS":["p"]},"k":{"N":"2"}}}})", &map);
  ASSERT_EQ(ErrorCode::kOk, o.code) << o.message;
  const AttributeValue& k = map["m"].map["k"];
  EXPECT_EQ(AttrType::kN, k.type);
  EXPECT_EQ("2", k.scalar);
  EXPECT_TRUE(k.set.empty());
}

TEST(AttributeValueEncoding, EveryTypeRoundTrips) {
  const std::string item = R"({"b":{"B":"AQI="},"bool":{"BOOL":false},"bs":{"BS":["AQ==","Ag=="]},)"
                           R"("l":{"L":[{"S":"x"},{"N":"-1.5"},{"NULL":true}]},"m":{"M":{"inner":{"SS":["p","q"]}}},)"
                           R"("n":{"N":"12.3456"},"ns":{"NS":["1","2"]},"null":{"NULL":true},"s":{"S":"\u00e4\"\\"}})";
  AttributeMap map;
  Outcome o = DecodeMap(item, &map);
  ASSERT_EQ(ErrorCode::kOk, o.code) << o.message;
  EXPECT_EQ(9u, map.size());
  std::string encoded = EncodeAttributeMap(map);
  AttributeMap stored;
  ASSERT_TRUE(DecodeStoredAttributeMap(std::string_view(encoded), &stored));
  EXPECT_EQ(map, stored);
  EXPECT_EQ(encoded, EncodeAttributeMap(stored));
  EXPECT_EQ("\xc3\xa4\"\\", map["s"].scalar);
  EXPECT_FALSE(DecodeStoredAttributeMap(std::string_view("{\"a\":{\"X\":1}}"), &stored));
  EXPECT_FALSE(DecodeStoredAttributeMap(std::string_view("{"), &stored));
}

// JsonWriter's additions: a raw block is one value in its container, and Reserve changes room, not output.
TEST(JsonWriterTest, ReserveMakesRoomWithoutWriting) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Reserve(16 * 1024);
  EXPECT_GE(buffer.stack_.GetCapacity(), 16u * 1024);
  writer.Key("Items");
  writer.StartArray();
  writer.RawJson(R"({"a":{"S":"x"}})", rapidjson::kObjectType);
  writer.RawJson(R"({"b":{"N":"1"}})", rapidjson::kObjectType);
  writer.EndArray();
  writer.EndObject();
  EXPECT_EQ(R"({"Items":[{"a":{"S":"x"}},{"b":{"N":"1"}}]})", std::string(buffer.GetString()));
}

// An empty string_view may carry no data pointer at all (a default-constructed one): it is written as "" without
// reading from it (found by the http_request fuzzer under UBSan: DescribeEndpoints with no Host).
TEST(JsonWriterTest, EmptyTextWithoutDataIsAnEmptyString) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  std::string_view none;
  writer.StartObject();
  writer.Key(none.data(), 0);
  writer.String(none.data(), 0);
  writer.EndObject();
  EXPECT_EQ(std::string(R"({"":""})"), buffer.GetString());
}

// JsonWriter's String and Key copy text that needs no escaping in one piece and escape the rest as RapidJSON's
// writer does, except that 0x1A..0x1F are always escaped (RapidJSON 1.1.0's 16-byte scan lets them through):
// whatever the text (escapes at any position, near and across 16-byte blocks, every length), the output is
// RapidJSON's own wherever RapidJSON is right, holds no raw control character, and reads back as the text.
TEST(JsonWriterTest, StringsAndKeysAreWrittenAsRapidJsonWritesThemButCorrectly) {
  std::mt19937 rng(7);
  const char specials[] = {'"',  '\\', '\0', '\x01', '\x08', '\x1a', '\x1f',
                           '\n', '\t', ' ',  '/',    '\x7f', '\x80', '\xff'};
  std::vector<std::string> texts = {"", "a", "pk", std::string(16, 'x'), std::string(17, 'x'), "\xc3\xa4/\x7f",
                                    std::string(40, 'x') + "\x1f" + std::string(40, 'y')};
  for (int i = 0; i < 3000; i++) {
    std::string text(rng() % 70, 'p');
    // Mostly plain, with a special byte now and then, so both outcomes of the scan come up at every length.
    for (char& c : text) {
      if (rng() % 40 == 0) c = specials[rng() % sizeof(specials)];
    }
    texts.push_back(text);
  }
  size_t escaped = 0;
  for (const std::string& text : texts) {
    SCOPED_TRACE(::testing::PrintToString(text));
    rapidjson::StringBuffer ours_buffer, theirs_buffer;
    JsonWriter ours(ours_buffer);
    rapidjson::Writer<rapidjson::StringBuffer> theirs(theirs_buffer);
    auto size = static_cast<rapidjson::SizeType>(text.size());
    ours.StartObject();
    ours.Key(text.data(), size);
    ours.String(text.data(), size);
    ours.EndObject();
    theirs.StartObject();
    theirs.Key(text.data(), size);
    theirs.String(text.data(), size);
    theirs.EndObject();
    std::string out(ours_buffer.GetString(), ours_buffer.GetSize());
    bool rapidjson_errs = text.find_first_of("\x1a\x1b\x1c\x1d\x1e\x1f") != std::string::npos;
    if (!rapidjson_errs) {
      EXPECT_EQ(std::string(theirs_buffer.GetString(), theirs_buffer.GetSize()), out);
    }
    for (char c : out) ASSERT_GE(static_cast<unsigned char>(c), 0x20u) << out;
    rapidjson::Document back;
    back.Parse(out.data(), out.size());
    ASSERT_FALSE(back.HasParseError()) << out;
    ASSERT_EQ(1u, back.MemberCount());
    EXPECT_EQ(text, std::string(back.MemberBegin()->name.GetString(), back.MemberBegin()->name.GetStringLength()));
    EXPECT_EQ(text, std::string(back.MemberBegin()->value.GetString(), back.MemberBegin()->value.GetStringLength()));
    bool needs = out != "{\"" + text + "\":\"" + text + "\"}";
    EXPECT_EQ(needs, JsonWriter::NeedsEscape(text));
    escaped += needs;
  }
  EXPECT_GT(escaped, texts.size() / 4);  // both kinds were tried
  EXPECT_LT(escaped, texts.size() * 3 / 4);
  // The other forms of String and Key escape the same way.
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  const std::string text = std::string(20, 'x') + "\x1c" + std::string(20, 'y');
  writer.StartArray();
  writer.String(text);
  writer.String(text.c_str());
  writer.EndArray();
  const std::string quoted = "\"" + std::string(20, 'x') + "\\u001C" + std::string(20, 'y') + "\"";
  EXPECT_EQ("[" + quoted + "," + quoted + "]", std::string(buffer.GetString(), buffer.GetSize()));
}

// SingleStringMemberObject writes what StartObject, Key, String and EndObject write, for any text and in any
// position: the root, an array element, an object member after others.
TEST(JsonWriterTest, SingleStringMemberObjectWritesWhatTheFourCallsWrite) {
  const std::string texts[] = {"",
                               "x",
                               std::string("nul\0byte", 9),
                               "quote\"back\\slash",
                               "\n\r\t\b\f\x01\x1f",
                               "\xc3\xa4\xe4\xb8\xad\xf0\x9f\x98\x80",
                               std::string(300, 'p') + "\"" + std::string(17, 'q')};
  for (const std::string& text : texts) {
    SCOPED_TRACE(text);
    auto write = [&](bool fast) {
      rapidjson::StringBuffer buffer;
      JsonWriter writer(buffer);
      auto value = [&] {
        if (fast) {
          writer.SingleStringMemberObject("S", text);
        } else {
          writer.StartObject();
          writer.Key("S");
          writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
          writer.EndObject();
        }
      };
      value();
      buffer.Put('|');
      writer.Reset(buffer);
      writer.StartArray();
      value();
      value();
      writer.EndArray();
      buffer.Put('|');
      writer.Reset(buffer);
      writer.StartObject();
      writer.Key("a");
      value();
      writer.Key("b");
      value();
      writer.EndObject();
      EXPECT_TRUE(writer.IsComplete());
      return std::string(buffer.GetString(), buffer.GetSize());
    };
    EXPECT_EQ(write(false), write(true));
  }
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartArray();
  WriteScalarAttributeValue(AttrType::kN, "-1.5", true, &writer);
  WriteScalarAttributeValue(AttrType::kBool, "", false, &writer);
  WriteScalarAttributeValue(AttrType::kBool, "", true, &writer);
  WriteScalarAttributeValue(AttrType::kNull, "", true, &writer);
  writer.EndArray();
  EXPECT_EQ(R"([{"N":"-1.5"},{"BOOL":false},{"BOOL":true},{"NULL":true}])", std::string(buffer.GetString()));
}

}  // namespace
}  // namespace dynapage
