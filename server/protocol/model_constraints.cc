#include "server/protocol/model_constraints.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

namespace dynapage {

namespace {

enum class Rule {
  kLength,  // a string's length in characters, or a list's in elements: min..max
  kEnum,    // a string, one of values
};

constexpr int64_t kNone = std::numeric_limits<int64_t>::min();  // no bound on that side

// One constraint of the service model. path is the member's path in the request: '.' between members, "[]" after
// a list of objects (each element: "<member>.<n>.member" in the message, n from 1), "{}" after a map of objects
// (each value: "<member>.<key>.member").
struct ModelRule {
  const char* operation;
  const char* path;
  Rule rule;
  int64_t min;
  int64_t max;
  const char* values;  // kEnum: the allowed values, as DynamoDB's message lists them
};

const char kSseTypes[] = "AES256, KMS";
const char kTableClasses[] = "STANDARD, STANDARD_INFREQUENT_ACCESS";
const char kReplicationModes[] = "ENABLED, DISABLED, ENABLED_WITH_OVERRIDES";

// The constraints the operations' own reading leaves out, from botocore's dynamodb/2012-08-10/service-2.json.
// Enumerations list their values in the model's order (DynamoDB's order is known only for the members that
// request_reader.h checks).
const ModelRule kRules[] = {
    {"CreateTable", "AttributeDefinitions[].AttributeName", Rule::kLength, 1, 255, nullptr},
    {"CreateTable", "SSESpecification.SSEType", Rule::kEnum, kNone, kNone, kSseTypes},
    {"CreateTable", "TableClass", Rule::kEnum, kNone, kNone, kTableClasses},
    {"CreateTable", "GlobalTableSourceArn", Rule::kLength, 1, 1024, nullptr},
    {"CreateTable", "GlobalTableSettingsReplicationMode", Rule::kEnum, kNone, kNone, kReplicationModes},
    {"CreateTable", "LocalSecondaryIndexes[].Projection.NonKeyAttributes", Rule::kLength, kNone, 20, nullptr},
    {"CreateTable", "GlobalSecondaryIndexes[].Projection.NonKeyAttributes", Rule::kLength, kNone, 20, nullptr},
    {"UpdateTable", "AttributeDefinitions[].AttributeName", Rule::kLength, 1, 255, nullptr},
    {"UpdateTable", "GlobalSecondaryIndexUpdates[].Create.Projection.NonKeyAttributes", Rule::kLength, kNone, 20,
     nullptr},
    {"UpdateTable", "SSESpecification.SSEType", Rule::kEnum, kNone, kNone, kSseTypes},
    {"UpdateTable", "TableClass", Rule::kEnum, kNone, kNone, kTableClasses},
    {"UpdateTable", "MultiRegionConsistency", Rule::kEnum, kNone, kNone, "EVENTUAL, STRONG"},
    {"UpdateTable", "GlobalTableSettingsReplicationMode", Rule::kEnum, kNone, kNone, kReplicationModes},
    {"ListTagsOfResource", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"TagResource", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"UntagResource", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"PutResourcePolicy", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"PutResourcePolicy", "ExpectedRevisionId", Rule::kLength, 1, 255, nullptr},
    {"GetResourcePolicy", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"DeleteResourcePolicy", "ResourceArn", Rule::kLength, 1, 1283, nullptr},
    {"DeleteResourcePolicy", "ExpectedRevisionId", Rule::kLength, 1, 255, nullptr},
};

// "SSESpecification" -> "sSESpecification": DynamoDB's message paths lower the first letter of each member only.
void AppendMessageName(std::string_view member, std::string* path) {
  if (!path->empty()) path->push_back('.');
  if (member.empty()) return;
  path->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(member[0]))));
  path->append(member.substr(1));
}

// Characters (code points) of UTF-8 text.
int64_t CharacterCount(const rapidjson::Value& text) {
  int64_t count = 0;
  const char* s = text.GetString();
  for (rapidjson::SizeType i = 0; i < text.GetStringLength(); i++) {
    count += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  }
  return count;
}

// The value as DynamoDB echoes it: a string as it is, a list as Java prints one ("[a, b]").
std::string Echo(const rapidjson::Value& value) {
  if (value.IsString()) return std::string(value.GetString(), value.GetStringLength());
  std::string list = "[";
  for (const auto& e : value.GetArray()) {
    if (list.size() > 1) list += ", ";
    if (e.IsString()) list.append(e.GetString(), e.GetStringLength());
  }
  return list + "]";
}

void CheckLeaf(const ModelRule& rule, const rapidjson::Value* value, const std::string& path,
               ConstraintErrors* errors) {
  if (!value) return;
  switch (rule.rule) {
    case Rule::kLength: {
      int64_t length;
      if (value->IsString()) {
        length = CharacterCount(*value);
      } else if (value->IsArray()) {
        length = value->Size();
      } else {
        return;  // the operation's typed reading reports it
      }
      if (rule.min != kNone && length < rule.min) {
        errors->Add(Echo(*value), path, "Member must have length greater than or equal to " + std::to_string(rule.min));
      }
      if (rule.max != kNone && length > rule.max) {
        errors->Add(Echo(*value), path, "Member must have length less than or equal to " + std::to_string(rule.max));
      }
      return;
    }
    case Rule::kEnum: {
      if (!value->IsString()) return;
      std::string_view v(value->GetString(), value->GetStringLength());
      std::string_view values(rule.values);
      for (size_t begin = 0; begin <= values.size();) {
        size_t end = values.find(", ", begin);
        if (end == std::string_view::npos) end = values.size();
        if (values.substr(begin, end - begin) == v) return;
        begin = end + 2;
      }
      errors->Add(v, path, std::string("Member must satisfy enum value set: [") + rule.values + "]");
      return;
    }
  }
}

// Follows rule.path from object (rest is what remains of the path; message_path is the message's path so far).
// The depth is that of the path, a constant of the table, never the request's.
void Check(const ModelRule& rule, const rapidjson::Value& object, std::string_view rest, std::string message_path,
           ConstraintErrors* errors) {
  if (!object.IsObject()) return;
  size_t dot = rest.find('.');
  std::string_view segment = rest.substr(0, dot);
  std::string_view next = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
  const bool list = segment.size() > 2 && segment.substr(segment.size() - 2) == "[]";
  const bool map = segment.size() > 2 && segment.substr(segment.size() - 2) == "{}";
  std::string_view member = list || map ? segment.substr(0, segment.size() - 2) : segment;
  std::string name(member);
  auto it = object.FindMember(name.c_str());
  const rapidjson::Value* value = it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
  AppendMessageName(member, &message_path);
  if (!list && !map) {
    if (next.empty()) {
      CheckLeaf(rule, value, message_path, errors);
    } else if (value) {
      Check(rule, *value, next, message_path, errors);
    }
    return;
  }
  if (!value) return;
  if (list && value->IsArray()) {
    for (rapidjson::SizeType i = 0; i < value->Size(); i++) {
      Check(rule, (*value)[i], next, message_path + "." + std::to_string(i + 1) + ".member", errors);
    }
  } else if (map && value->IsObject()) {
    for (auto m = value->MemberBegin(); m != value->MemberEnd(); ++m) {
      Check(rule, m->value, next,
            message_path + "." + std::string(m->name.GetString(), m->name.GetStringLength()) + ".member", errors);
    }
  }
}

}  // namespace

void CheckModelConstraints(std::string_view operation, const rapidjson::Value& body, ConstraintErrors* errors) {
  for (const ModelRule& rule : kRules) {
    if (operation == rule.operation) Check(rule, body, rule.path, std::string(), errors);
  }
}

}  // namespace dynapage
