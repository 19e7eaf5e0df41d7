// ExpressionAttributes: a request's ExpressionAttributeNames ("#n" -> name) and ExpressionAttributeValues
// (":v" -> value), as every expression of that request sees them.
//
// The parsers resolve placeholders through one shared instance per request and it records which were used,
// so that after all of a request's expressions are parsed CheckAllUsed() can report the leftovers the way
// DynamoDB does (docs/behaviour.md §7.1). Either map may be absent (nullptr). The maps are borrowed: they must outlive
// this object. The static helpers implement the request-level checks that need no parsing.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_ATTRIBUTES_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_ATTRIBUTES_H_

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

using ExpressionNameMap = std::map<std::string, std::string>;
using ExpressionValueMap = std::map<std::string, AttributeValue>;

class ExpressionAttributes {
 public:
  ExpressionAttributes(const ExpressionNameMap* names, const ExpressionValueMap* values)
      : names_(names), values_(values) {}

  ExpressionAttributes(const ExpressionAttributes&) = delete;
  ExpressionAttributes& operator=(const ExpressionAttributes&) = delete;

  // The attribute name "#n" stands for, or nullptr if it is not defined. Marks it used.
  const std::string* ResolveName(std::string_view placeholder);
  // The value ":v" stands for, or nullptr if it is not defined. Marks it used.
  const AttributeValue* ResolveValue(std::string_view placeholder);

  // After every expression of the request has been parsed: an error naming the placeholders no expression used
  // ("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"), names before values.
  // (The writes mark it for the cohort envelope: PrepareWriteExpressions.)
  Status CheckAllUsed() const;

  // Request-level checks of the maps themselves, done before any expression is parsed:
  //   "ExpressionAttributeNames must not be empty"
  //   "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\""   (keys must match ^#[0-9A-Za-z_]+$)
  //   "ExpressionAttributeNames contains invalid value: Empty attribute name; key: #a"
  // A null map is fine.
  static Status ValidateNames(const ExpressionNameMap* names);
  //   "ExpressionAttributeValues must not be empty"
  //   "ExpressionAttributeValues contains invalid key: Syntax error; key: \"a\""  (keys must match ^:[0-9A-Za-z_]+$)
  // The values themselves are validated where the request is decoded; see InvalidValueMessage().
  static Status ValidateValues(const ExpressionValueMap* values);

  // Message builders for the checks callers make, since only they know which expressions a request carries.
  // "ExpressionAttributeNames can only be specified when using expressions"
  static std::string NamesWithoutExpressionsMessage();
  // "ExpressionAttributeValues can only be specified when using expressions: FilterExpression and
  // KeyConditionExpression are null" for {"FilterExpression", "KeyConditionExpression"};
  // "…: FilterExpression is null" for one name; no names: "ExpressionAttributeValues can only be specified when
  // using expressions".
  static std::string ValuesWithoutExpressionsMessage(const std::vector<std::string>& null_expressions);
  // "Can not use both expression and non-expression parameters in the same request: Non-expression parameters:
  // {AttributesToGet, QueryFilter} Expression parameters: {ProjectionExpression}", members as given.
  static std::string MixedParametersMessage(const std::vector<std::string>& non_expression,
                                            const std::vector<std::string>& expression);
  // A value that failed AttributeValue validation: "ExpressionAttributeValues contains invalid value: <reason>
  // for key :a".
  static std::string InvalidValueMessage(const std::string& reason, const std::string& key);

 private:
  const ExpressionNameMap* names_;
  const ExpressionValueMap* values_;
  // Keys of the maps above (they are stable) that some expression used.
  std::set<const std::string*> used_names_;
  std::set<const std::string*> used_values_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_ATTRIBUTES_H_
