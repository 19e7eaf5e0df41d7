// Expression parser: DynamoDB's expression language with its meaning and its validation errors.
//
// Each entry point parses one expression of a request, resolving #name and :value placeholders through the
// request's ExpressionAttributes (which records their use for the later unused-placeholder check), and
// returns either a self-contained AST (engine/expressions/expression_ast.h) or a Validation status with DynamoDB's
// exact message, prefixed "Invalid <ExpressionName>: ". Errors are reported as DynamoDB does: a syntax error first;
// otherwise the first error of the highest-ranked kind, ranked: redundant parentheses, repeated update section,
// unknown function, misused function, reserved word, undefined placeholder, too many IN operands, path too
// deep, wrong operand count, operand repeated, operand type, overlapping paths.
//
// Nothing here depends on a table: key-attribute rules are the callers' (see engine/expressions/key_condition.h).

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_PARSER_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_PARSER_H_

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/expressions/expression_ast.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/model/document_path.h"

namespace dynapage {

// Limits (DOC ServiceQuotas): expression text, document path depth, operands of IN.
constexpr size_t kMaxExpressionBytes = 4096;
constexpr size_t kMaxPathDepth = 32;
constexpr size_t kMaxInOperands = 100;
// Operators ("+", "-") and functions in one UpdateExpression; operators (comparators, AND, OR, NOT, BETWEEN,
// IN) and functions in one condition (SyntaxParser::kMaxOperators, checked before parsing).
constexpr size_t kMaxUpdateOperators = 300;  // = SyntaxParser::kMaxOperators

// Parses a condition: FilterExpression, ConditionExpression, or (before its key-specific checks, see
// ParseKeyConditionExpression) KeyConditionExpression. expression_name is the request member, used in the
// message prefix ("Invalid FilterExpression: …"). The syntax of recently parsed texts is reused (per thread,
// engine/expressions/syntax_cache.h); binding is done for every call.
// REQUIRES: attrs != nullptr (it may wrap two null maps).
Status ParseCondition(std::string_view text, const char* expression_name, ExpressionAttributes* attrs,
                      std::unique_ptr<ConditionExpr>* out);

// Parses a ProjectionExpression into its document paths, in written order. Rejects paths that overlap
// ("a, a.b") or conflict ("a.b, a[0]").
Status ParseProjection(std::string_view text, ExpressionAttributes* attrs, std::vector<DocumentPath>* out);

// Why two target paths of one update cannot both be written: "Two document paths overlap with each other; must
// remove or rewrite one of these paths; path one: [a], path two: [a, b]" (or "conflict", for "a.b" and "a[0]");
// "" when they are disjoint. PartiQL's UPDATE gives it as is, an UpdateExpression under its prefix.
std::string PathClashMessage(const DocumentPath& one, const DocumentPath& two);

// Parses an UpdateExpression (SET, REMOVE, ADD, DELETE clauses, each at most once). Rejects target paths that
// overlap or conflict, operands whose type is known to be wrong from the :values alone, and (before the
// syntax) more than kMaxUpdateOperators operators and functions: "Invalid UpdateExpression: The expression
// contains too many operators; operator count: 301". A condition with more than 300 operators gets the same
// message with its own prefix ("Invalid ConditionExpression: …").
Status ParseUpdate(std::string_view text, ExpressionAttributes* attrs, UpdateExpr* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_PARSER_H_
