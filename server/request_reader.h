// RequestReader: typed access to the members of a request body, with DynamoDB's checks in DynamoDB's order.
//
// Members set to null count as absent and unknown members are ignored (spec §8.5). Each Get* checks the JSON
// type (SerializationException on mismatch) and yields nothing for an absent member. An operation first reads
// every member it uses (so that any type error wins), then collects constraint violations in a
// ConstraintErrors, whose Status is the "N validation error(s) detected: …" message, then does its own checks.

#ifndef DYNAPAGE_SERVER_REQUEST_READER_H_
#define DYNAPAGE_SERVER_REQUEST_READER_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/attribute_updates.h"
#include "engine/attribute_value.h"
#include "engine/status.h"
#include "engine/write_condition.h"

namespace dynapage {

class RequestReader {
 public:
  explicit RequestReader(const rapidjson::Value& body) : body_(body) {}

  // The member, or nullptr when absent or null.
  const rapidjson::Value* Get(const char* name) const;
  bool Has(const char* name) const { return Get(name) != nullptr; }

  Status GetString(const char* name, std::optional<std::string>* out) const;
  Status GetInteger(const char* name, std::optional<int64_t>* out) const;
  Status GetBoolean(const char* name, std::optional<bool>* out) const;
  Status GetStringList(const char* name, std::optional<std::vector<std::string>>* out) const;
  Status GetStringMap(const char* name, std::optional<std::map<std::string, std::string>>* out) const;
  // A map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey, ExpressionAttributeValues).
  Status GetAttributeMap(const char* name, std::optional<AttributeMap>* out) const;

  // ExpressionAttributeNames and ExpressionAttributeValues.
  Status GetExpressionInputs(ExpressionInputs* out) const;
  // A legacy condition map (Expected, QueryFilter, ScanFilter, KeyConditions).
  Status GetLegacyConditions(const char* name, std::optional<std::vector<LegacyCondition>>* out) const;
  // UpdateItem's AttributeUpdates: {attribute: {Action, Value}}.
  Status GetAttributeUpdates(const char* name, std::optional<std::vector<AttributeUpdate>>* out) const;

  const rapidjson::Value& body() const { return body_; }

 private:
  const rapidjson::Value& body_;
};

// Collects "Value '<v>' at '<path>' failed to satisfy constraint: <rule>" violations.
class ConstraintErrors {
 public:
  void Add(const std::string& value, const std::string& path, const std::string& rule);
  void AddNull(const std::string& path) { AddRaw("Value null at '" + path + "' failed to satisfy constraint: Member must not be null"); }
  void AddRaw(std::string text) { errors_.push_back(std::move(text)); }
  bool empty() const { return errors_.empty(); }
  // OK when empty, else "1 validation error detected: …" / "N validation errors detected: …; …" (10 at most).
  Status ToStatus() const;

  // Common members.
  void CheckTableName(const std::optional<std::string>& name, const std::string& path, bool required = true);
  void CheckEnum(const std::optional<std::string>& value, const std::string& path,
                 const std::vector<std::string>& allowed);
  void CheckMin(const std::optional<int64_t>& value, const std::string& path, int64_t min);
  void CheckMax(const std::optional<int64_t>& value, const std::string& path, int64_t max);

 private:
  std::vector<std::string> errors_;
};

// Operations whose only member is TableName (DescribeTable, DeleteTable, DescribeTimeToLive): reads it with
// its type and constraint checks.
Status ReadTableNameOnly(const RequestReader& r, std::string* table_name);

// The allowed values of ReturnValues, ReturnItemCollectionMetrics and ReturnConsumedCapacity, in DynamoDB's message order.
extern const std::vector<std::string> kReturnConsumedCapacityValues;
extern const std::vector<std::string> kReturnValuesValues;
extern const std::vector<std::string> kReturnItemCollectionMetricsValues;

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_REQUEST_READER_H_
