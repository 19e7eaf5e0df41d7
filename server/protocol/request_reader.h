// RequestReader: typed access to the members of a request body, with DynamoDB's checks in DynamoDB's order.
//
// Members set to null count as absent and unknown members are ignored (docs/behaviour.md §8.5). Each Get* checks the
// JSON type (SerializationException on mismatch) and yields nothing for an absent member. An operation first reads
// every member it uses (so that any type error wins), then collects constraint violations in a
// ConstraintErrors, whose Status is the "N validation error(s) detected: …" message, then does its own checks.

#ifndef DYNAPAGE_SERVER_PROTOCOL_REQUEST_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_REQUEST_READER_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/attribute_updates.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

class RequestReader {
 public:
  explicit RequestReader(const rapidjson::Value& body) : body_(body) {}

  // The member, or nullptr when absent or null.
  const rapidjson::Value* Get(std::string_view name) const;
  bool Has(std::string_view name) const { return Get(name) != nullptr; }

  Status GetString(std::string_view name, std::optional<std::string>* out) const;
  Status GetInteger(std::string_view name, std::optional<int64_t>* out) const;
  Status GetBoolean(std::string_view name, std::optional<bool>* out) const;
  Status GetStringList(std::string_view name, std::optional<std::vector<std::string>>* out) const;
  Status GetStringMap(std::string_view name, std::optional<std::map<std::string, std::string>>* out) const;
  // A map of attribute name -> AttributeValue (Item, Key, ExclusiveStartKey, ExpressionAttributeValues).
  Status GetAttributeMap(std::string_view name, std::optional<AttributeMap>* out) const;

  // ExpressionAttributeNames and ExpressionAttributeValues.
  Status GetExpressionInputs(ExpressionInputs* out) const;
  // A legacy condition map (Expected, QueryFilter, ScanFilter, KeyConditions).
  Status GetLegacyConditions(std::string_view name, std::optional<std::vector<LegacyCondition>>* out) const;
  // UpdateItem's AttributeUpdates: {attribute: {Action, Value}}.
  Status GetAttributeUpdates(std::string_view name, std::optional<std::vector<AttributeUpdate>>* out) const;

  const rapidjson::Value& body() const { return body_; }

 private:
  const rapidjson::Value& body_;
};

// The values an enumerated member may take, in the order DynamoDB's message lists them.
using EnumValues = std::initializer_list<std::string_view>;

// Collects "Value '<v>' at '<path>' failed to satisfy constraint: <rule>" violations.
class ConstraintErrors {
 public:
  void Add(std::string_view value, std::string_view path, std::string_view rule);
  void AddNull(std::string_view path);
  // DynamoDB's newer wording, which some members have: "Value at 'Limit' failed to satisfy constraint: …", the
  // value not echoed and the path as the member is spelled.
  void AddUnechoed(std::string_view path, std::string_view rule);
  void AddRaw(std::string text) { errors_.push_back(std::move(text)); }
  bool empty() const { return errors_.empty(); }
  // OK when empty, else "1 validation error detected: …" / "N validation errors detected: …; …" (10 at most).
  Status ToStatus() const;

  // Common members.
  // Paths and allowed values are views: the checks run on every request, and build strings only for a message.
  void CheckTableName(const std::optional<std::string>& name, std::string_view path, bool required = true);
  // The TableName of an operation on an existing table: 1 to 1,024 characters, a name or a table ARN. A missing
  // top-level TableName (path "tableName") is "The parameter 'TableName' is required but was not present in
  // the request", which ToStatus reports before any other error.
  void CheckTableNameOrArn(const std::optional<std::string>& name, std::string_view path);
  // The TableName of a data-plane item operation (PutItem, GetItem, UpdateItem, DeleteItem, Query, Scan): a table
  // ARN (1 to 1,024 characters), or a name of 3 to 255 characters of [a-zA-Z0-9_.-]. Missing: "Value null at
  // 'tableName' …"; empty: "Value at 'TableName' … greater than or equal to 1", the only error reported.
  void CheckItemTableName(const std::optional<std::string>& name);
  // An invalid ReturnValues: DynamoDB's unechoed (and misspelt) enum message. With sole, it is the only error
  // reported (UpdateItem), unless a sole error came before it.
  void CheckReturnValues(const std::optional<std::string>& value, bool sole);
  void CheckEnum(const std::optional<std::string>& value, std::string_view path, EnumValues allowed);
  void CheckMin(const std::optional<int64_t>& value, std::string_view path, int64_t min);
  void CheckMax(const std::optional<int64_t>& value, std::string_view path, int64_t max);

 private:
  std::vector<std::string> errors_;
  bool table_name_missing_ = false;
  std::string sole_error_;  // when set, the only error ToStatus reports
};

// Operations whose only member is TableName (DescribeTable, DeleteTable, DescribeTimeToLive): reads it with
// its type and constraint checks.
Status ReadTableNameOnly(const RequestReader& r, std::string* table_name);

// The allowed values of ReturnValues, ReturnItemCollectionMetrics and ReturnConsumedCapacity, in DynamoDB's message
// order.
extern const EnumValues kReturnConsumedCapacityValues;
extern const EnumValues kReturnValuesValues;
extern const EnumValues kReturnItemCollectionMetricsValues;

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_REQUEST_READER_H_
