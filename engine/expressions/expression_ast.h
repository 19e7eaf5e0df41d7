// Expression AST: what the parsers produce and the evaluators consume, for the one expression language that
// Query/Scan (FilterExpression, KeyConditionExpression, ProjectionExpression) and the writes
// (ConditionExpression, UpdateExpression) share.
//
// A parsed tree is self-contained: placeholders are already resolved, #names into the paths and :values copied
// into the operands, so it does not refer to the request it came from and may be kept and evaluated any number
// of times (the condition evaluator allocates nothing per item). Only trees built by the parsers (or by the
// legacy converters) satisfy the shape rules written next to each kind below.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_AST_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_AST_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace dynapage {

// A value inside a condition.
struct Operand {
  enum class Kind : uint8_t {
    kPath,   // the item's value at path (absent if missing)
    kValue,  // a constant from ExpressionAttributeValues
    kSize,   // size(path) or, rarely, size(:value): a number, absent if the argument has no size
  };
  Kind kind = Kind::kValue;
  DocumentPath path;     // kPath; kSize of a path (non-empty)
  AttributeValue value;  // kValue; kSize of a constant (path empty)

  static Operand Path(DocumentPath p) {
    Operand o;
    o.kind = Kind::kPath;
    o.path = std::move(p);
    return o;
  }
  static Operand Value(AttributeValue v) {
    Operand o;
    o.kind = Kind::kValue;
    o.value = std::move(v);
    return o;
  }
};

enum class Comparator : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
// "=", "<>", "<", "<=", ">", ">=".
const char* ComparatorText(Comparator c);

struct ConditionExpr {
  enum class Kind : uint8_t {
    kAnd,                 // children: 2 or more
    kOr,                  // children: 2 or more
    kNot,                 // children: 1
    kCompare,             // operands: 2, compared with comparator
    kBetween,             // operands: value, lower, upper
    kIn,                  // operands: value, then 1..100 candidates
    kAttributeExists,     // operands: 1, a kPath
    kAttributeNotExists,  // operands: 1, a kPath
    kAttributeType,       // operands: 1, a kPath; the wanted type is attribute_type
    kBeginsWith,          // operands: 2
    kContains,            // operands: 2
  };
  Kind kind = Kind::kAnd;
  Comparator comparator = Comparator::kEq;
  AttrType attribute_type = AttrType::kS;
  std::vector<std::unique_ptr<ConditionExpr>> children;
  std::vector<Operand> operands;
};

// Appends every document path the condition reads (including those inside size()), in expression order.
// Callers use it to reject filters on key attributes (docs/behaviour.md §5.2).
void CollectConditionPaths(const ConditionExpr& condition, std::vector<DocumentPath>* paths);

// A value on the right-hand side of an UpdateExpression SET action.
struct UpdateOperand {
  enum class Kind : uint8_t {
    kPath,         // the item's current value at path
    kValue,        // a constant from ExpressionAttributeValues
    kIfNotExists,  // args: {kPath operand, fallback}: the path's value if present, else the fallback
    kListAppend,   // args: {first, second}: the concatenation of two lists
  };
  Kind kind = Kind::kValue;
  DocumentPath path;                 // kPath
  AttributeValue value;              // kValue
  std::vector<UpdateOperand> args;  // kIfNotExists, kListAppend
};

struct SetAction {
  enum class Op : uint8_t { kAssign, kPlus, kMinus };
  DocumentPath path;  // the target
  Op op = Op::kAssign;
  UpdateOperand left;
  UpdateOperand right;  // kPlus, kMinus only
};

// ADD path :value — adds to a number, or unions into a set. value is N, SS, NS or BS.
struct AddAction {
  DocumentPath path;
  AttributeValue value;
};

// DELETE path :value — removes elements from a set. value is SS, NS or BS.
struct DeleteAction {
  DocumentPath path;
  AttributeValue value;
};

// The actions of an UpdateExpression grouped by clause, each clause in written order. No two target paths
// overlap or conflict (the parser rejects that), so the actions may be applied in any order.
struct UpdateExpr {
  std::vector<SetAction> set_actions;
  std::vector<DocumentPath> remove_actions;
  std::vector<AddAction> add_actions;
  std::vector<DeleteAction> delete_actions;
};

// Appends the target path of every action (SET, then REMOVE, ADD, DELETE). Callers use it to reject updates
// of key attributes.
void CollectUpdateTargets(const UpdateExpr& update, std::vector<DocumentPath>* paths);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_AST_H_
