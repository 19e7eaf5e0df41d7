// PartiQL parser: the statements DynamoDB's ExecuteStatement, BatchExecuteStatement and ExecuteTransaction accept
// (SELECT, INSERT, UPDATE, DELETE and, in transactions, EXISTS), with DynamoDB's rejections and messages
// (docs/partiql.md).
//
// The parser is recursive descent with a depth counter: parentheses, NOT and nested literals together may nest at
// most kMaxPartiqlDepth levels, so no input drives the recursion deeper (beyond that: a syntax error). AND and OR
// chains are read as lists, not as nested nodes. The tree refers to no table; which key a WHERE clause pins is the
// planner's business (engine/partiql/). A `?` is kept as its position among the statement's placeholders; values
// are bound by the planner, which also checks the parameter count.

#ifndef DYNAPAGE_ENGINE_PARTIQL_PARTIQL_PARSER_H_
#define DYNAPAGE_ENGINE_PARTIQL_PARTIQL_PARSER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace dynapage {

constexpr int kMaxPartiqlDepth = 32;

// A value in a statement: a document path, a literal, a `?`, or size(path).
struct PartiqlOperand {
  enum class Kind : uint8_t { kPath, kLiteral, kParameter, kSize };
  Kind kind = Kind::kLiteral;
  DocumentPath path;     // kPath, kSize
  AttributeValue value;  // kLiteral
  size_t parameter = 0;  // kParameter: 0-based position among the statement's `?`
};

struct PartiqlCondition {
  enum class Kind : uint8_t {
    kAnd,        // children: 2 or more
    kOr,         // children: 2 or more
    kNot,        // children: 1
    kCompare,    // operands: 2
    kBetween,    // operands: value, lower, upper
    kIn,         // operands: value, then the candidates
    kIsMissing,  // operands: 1 (a path)
    kIsNull,     // operands: 1
    kFunction,   // function (lower case): begins_with, contains, attribute_type, attribute_exists, attribute_not_exists
  };
  Kind kind = Kind::kAnd;
  Comparator comparator = Comparator::kEq;
  std::string function;
  std::vector<std::unique_ptr<PartiqlCondition>> children;
  std::vector<PartiqlOperand> operands;
};

// The right-hand side of SET path = …
struct PartiqlSetValue {
  enum class Kind : uint8_t { kOperand, kPlus, kMinus, kListAppend, kSetAdd, kSetDelete, kIfNotExists };
  Kind kind = Kind::kOperand;
  PartiqlOperand first;   // the operand, or the left / first argument
  PartiqlOperand second;  // kPlus, kMinus and the functions' second argument
};

struct PartiqlSetItem {
  DocumentPath path;
  PartiqlSetValue value;
};

struct PartiqlOrderKey {
  DocumentPath path;
  bool descending = false;
};

enum class PartiqlReturning : uint8_t { kNone, kAllOld, kAllNew, kModifiedOld, kModifiedNew };

struct PartiqlStatement {
  enum class Kind : uint8_t { kSelect, kInsert, kUpdate, kDelete, kExists };
  Kind kind = Kind::kSelect;
  bool negated_exists = false;  // NOT EXISTS(…), which no operation supports
  std::string table;
  std::optional<std::string> index;  // SELECT FROM "table"."index"
  // SELECT: the projected paths (empty for *), each answered under the name of its last step.
  std::vector<DocumentPath> projection;
  std::unique_ptr<PartiqlCondition> where;  // may be null
  std::vector<PartiqlOrderKey> order_by;
  // INSERT: the item's attributes, in written order.
  std::vector<std::pair<std::string, PartiqlOperand>> item;
  // UPDATE: SET and REMOVE, each in written order.
  std::vector<PartiqlSetItem> set_items;
  std::vector<DocumentPath> remove_paths;
  PartiqlReturning returning = PartiqlReturning::kNone;
  size_t parameter_count = 0;

  bool is_read() const { return kind == Kind::kSelect; }
};

// Parses one statement. Errors are ValidationExceptions with DynamoDB's text: "Statement wasn't well formed, can't
// be processed: …" for syntax, and the specific messages of docs/partiql.md for constructs DynamoDB refuses.
Status ParsePartiql(std::string_view text, PartiqlStatement* out);

// The name a projected path is answered under: its last step ("m.k.z" -> "z", "tags[1]" -> "tags[1]").
std::string PartiqlProjectedName(const DocumentPath& path);

// A path as PartiQL writes it: "a.b[2]"; each name written as name_text gives it (as is when null).
std::string PartiqlPathText(const DocumentPath& path,
                            const std::function<std::string(const std::string&)>& name_text = nullptr);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_PARTIQL_PARSER_H_
