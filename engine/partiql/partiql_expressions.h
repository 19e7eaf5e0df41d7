// PartiQL to DynamoDB expressions: how a parsed statement (engine/partiql/partiql_parser.h) is run by the
// existing read and write paths. A WHERE clause becomes a KeyConditionExpression and FilterExpression (SELECT) or a
// ConditionExpression (UPDATE, DELETE, EXISTS); SET and REMOVE become an UpdateExpression. Every name and value is
// a placeholder (#n0, :v0), so DynamoDB's reserved words never get in the way, and the same evaluators judge a
// PartiQL WHERE clause and a FilterExpression (docs/partiql.md).
//
// KeyPins reads which values a WHERE clause allows for one key attribute: the clause pins the attribute when every
// OR branch of it does so with = or IN (the planner's test for a Query rather than a Scan).

#ifndef DYNAPAGE_ENGINE_PARTIQL_PARTIQL_EXPRESSIONS_H_
#define DYNAPAGE_ENGINE_PARTIQL_PARTIQL_EXPRESSIONS_H_

#include <map>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/partiql_parser.h"

namespace dynapage {

// Builds expression texts and their ExpressionAttributeNames/Values. REQUIRES: parameters outlives the builder
// and holds a value for every `?` of the statement (the caller checks the count).
class PartiqlExpressionBuilder {
 public:
  explicit PartiqlExpressionBuilder(const std::vector<AttributeValue>& parameters) : parameters_(parameters) {}

  std::string Name(const std::string& name);
  std::string Value(const AttributeValue& value);
  std::string Path(const DocumentPath& path);
  // The value of a literal or `?` operand.
  const AttributeValue& ValueOf(const PartiqlOperand& operand) const;
  Status Operand(const PartiqlOperand& operand, std::string* out);
  // The condition as ConditionExpression text. Ordering operators refuse an operand whose type cannot be ordered
  // ("Incorrect operand type for operator or function; operator or function: <, operand type: M").
  Status Condition(const PartiqlCondition& condition, std::string* out);
  // The UPDATE's SET and REMOVE as UpdateExpression text.
  Status Update(const PartiqlStatement& statement, std::string* out);

  // The names and values used so far.
  ExpressionInputs TakeInputs();

 private:
  Status CheckOrdering(const char* op, const PartiqlOperand& operand) const;
  // SET path = a + b or a - b with a literal or parameter that is not a number.
  Status CheckArithmetic(const PartiqlSetValue& value) const;

  const std::vector<AttributeValue>& parameters_;
  std::map<std::string, std::string> names_;    // placeholder -> name
  std::map<std::string, std::string> name_of_;  // name -> placeholder
  std::map<std::string, AttributeValue> values_;
};

// The values the WHERE clause allows for the attribute name (a top-level attribute), in written order without
// repeats: *pinned is false when some OR branch does not pin it. Contradictory pins give an empty list.
void KeyPins(const PartiqlCondition* where, const std::string& name, const std::vector<AttributeValue>& parameters,
             bool* pinned, std::vector<AttributeValue>* values);

// The most candidates any `name IN […]` of the WHERE clause lists (0 when there is none).
size_t MaxInCandidates(const PartiqlCondition* where, const std::string& name);

// True if the condition is `name = value` (either side) or `name IN […]` of values: a pin and nothing else.
bool IsPurePin(const PartiqlCondition& condition, const std::string& name);

// The conjuncts of a WHERE clause (the children of a top-level AND, or the clause itself).
std::vector<const PartiqlCondition*> Conjuncts(const PartiqlCondition* where);

// The conjunction of parts as ConditionExpression text (an AND or OR among several parenthesized), built with b;
// "" and *status set when a part cannot be expressed.
std::string JoinConditions(PartiqlExpressionBuilder* b, const std::vector<const PartiqlCondition*>& parts,
                           Status* status);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_PARTIQL_EXPRESSIONS_H_
