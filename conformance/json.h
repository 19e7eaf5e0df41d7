// JSON helpers for the suite: a request builder and readers for DynamoDB-JSON responses.
//
// Contract: Json starts from a JSON object text and lets a case set members by name; str() is the request
// body. The readers never crash on an unexpected shape (a missing member reads as absent or empty) so that
// a wrong response fails an assertion instead of the process.

#ifndef DYNAPAGE_CONFORMANCE_JSON_H_
#define DYNAPAGE_CONFORMANCE_JSON_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <vector>

namespace conformance {

class Json {
 public:
  // REQUIRES: `object_text` is a JSON object (aborts otherwise: it is a bug in a case, not in the endpoint).
  explicit Json(const std::string& object_text = "{}");
  Json(const Json& other);
  Json& operator=(const Json& other);

  Json& Set(const char* name, const std::string& value);
  Json& Set(const char* name, const char* value) { return Set(name, std::string(value)); }
  Json& Set(const char* name, int64_t value);
  Json& Set(const char* name, int value) { return Set(name, static_cast<int64_t>(value)); }
  Json& SetBool(const char* name, bool value);
  Json& SetRaw(const char* name, const std::string& json_text);     // any JSON value
  Json& SetValue(const char* name, const rapidjson::Value& value);  // deep copy
  Json& Remove(const char* name);

  std::string str() const;
  const rapidjson::Document& doc() const { return doc_; }

 private:
  rapidjson::Document doc_;
};

std::string ToJson(const rapidjson::Value& value);

// A JSON string literal for `s`, quotes included.
std::string Quote(const std::string& s);

// DynamoDB-JSON attribute values: {"S":"..."} and {"N":"..."}.
std::string AttrS(const std::string& s);
std::string AttrN(const std::string& n);
inline std::string AttrN(long long n) { return AttrN(std::to_string(n)); }

// Member of an object, or null when `v` is not an object or lacks it.
const rapidjson::Value* Member(const rapidjson::Value& v, const char* name);

// The scalar inside an attribute value of `item` as text: the S or N string, base64 for B, "true"/"false"
// for BOOL. Empty when the attribute is absent or not scalar.
std::string AttrText(const rapidjson::Value& item, const char* name);

// The type letter of attribute `name` in `item` ("S", "N", ...), empty when absent.
std::string AttrType(const rapidjson::Value& item, const char* name);

// Sorted attribute names of an object (e.g. a LastEvaluatedKey), for shape checks.
std::vector<std::string> MemberNames(const rapidjson::Value& object);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_JSON_H_
