// Expression syntax: the grammar of DynamoDB's expression language, without its meaning.
//
// SyntaxParser turns expression text into a syntax tree whose leaves are still spelled as written (views into
// the text): names are not yet checked against the reserved words, placeholders not yet resolved, functions
// not yet checked. expression_parser.h gives the tree its meaning and DynamoDB's semantic errors; keeping the
// two apart lets every semantic error be reported only for text that parses, as DynamoDB does.
//
// The grammar is a PEG with ordered choice and backtracking (as dynalite's). A syntax error names the token at
// the furthest position any alternative reached, and "near" is that token with its neighbours:
//   a > b > c   ->  Syntax error; token: ">", near: "b > c"
//   a = b AND   ->  Syntax error; token: "<EOF>", near: "AND"
//
// Limits, checked before the recursive descent so that the text cannot drive its depth:
//   - more than kMaxOperators operators (comparators, AND, OR, NOT, BETWEEN, IN, functions; in an update "+",
//     "-" and functions) fail at once: "The expression contains too many operators; operator count: 301";
//   - the recursion goes at most kMaxSyntaxDepth groups deep (parentheses, NOT, function calls): deeper fails as
//     a syntax error at the token where the limit was met. An expression within kMaxOperators and without
//     redundant parentheses never comes near it.
//
// Condition grammar (keywords case-insensitive; AND, OR, NOT, BETWEEN, IN are not names):
//   condition := or
//   or        := and (OR and)*
//   and       := not (AND not)*
//   not       := NOT not | primary
//   primary   := '(' or ')' | comparison
//   comparison:= operandp comparator operandp | operandp BETWEEN operandp AND operandp
//              | operandp IN '(' operandp (',' operandp)* ')' | function
//   operandp  := '(' operandp ')' | operand
//   operand   := function | :value | path
//   function  := identifier '(' operandp (',' operandp)* ')'
//   path      := (identifier | #name) ('[' digits ']' | '.' (identifier | #name))*
// Projection:  path (',' path)*
// Update:      section+ where section := SET set (',' set)* | REMOVE path (',' path)*
//                                       | ADD path :value (',' path :value)* | DELETE (same as ADD)
//              set := path '=' setvalue;  setvalue := operandp [('+' | '-') operandp] | '(' setvalue ')'

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_SYNTAX_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_SYNTAX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expressions/expression_lexer.h"

namespace dynapage {

// The index a path element holds when its number is past an int's range (2^31 - 1).
inline constexpr uint32_t kIndexOutOfRange = 0x80000000u;

struct SyntaxPathElement {
  enum class Kind : uint8_t { kName, kPlaceholder, kIndex };
  Kind kind = Kind::kName;
  std::string_view text;  // kName: the identifier; kPlaceholder: "#n"
  uint32_t index = 0;     // kIndex
};
using SyntaxPath = std::vector<SyntaxPathElement>;

struct SyntaxOperand {
  enum class Kind : uint8_t { kPath, kValue, kFunction };
  Kind kind = Kind::kPath;
  SyntaxPath path;                  // kPath
  std::string_view name;            // kValue: ":v"; kFunction: the function name as written
  std::vector<SyntaxOperand> args;  // kFunction
};

struct SyntaxCondition {
  enum class Kind : uint8_t { kOr, kAnd, kNot, kCompare, kBetween, kIn, kFunction };
  Kind kind = Kind::kAnd;
  TokenKind comparator = TokenKind::kEq;  // kCompare: one of kEq, kNe, kLt, kLe, kGt, kGe
  std::vector<SyntaxCondition> children;  // kOr, kAnd (2 or more), kNot (1)
  // kCompare: 2; kBetween: 3; kIn: the tested operand then the list; kFunction: 1, the function itself.
  std::vector<SyntaxOperand> operands;
};

struct SyntaxUpdateAction {
  SyntaxPath path;
  TokenKind op = TokenKind::kEq;        // SET: kEq (plain value), kPlus or kMinus
  std::vector<SyntaxOperand> operands;  // SET: 1 (kEq) or 2; ADD/DELETE: 1 kValue; REMOVE: none
};

struct SyntaxUpdateSection {
  enum class Kind : uint8_t { kSet, kRemove, kAdd, kDelete };
  Kind kind = Kind::kSet;
  std::vector<SyntaxUpdateAction> actions;
};

class SyntaxParser {
 public:
  static constexpr size_t kMaxOperators = 300;
  static constexpr int kMaxSyntaxDepth = 1024;

  // text must outlive the parser and every tree it produces (the trees hold views into it).
  explicit SyntaxParser(std::string_view text);

  SyntaxParser(const SyntaxParser&) = delete;
  SyntaxParser& operator=(const SyntaxParser&) = delete;

  // Each returns false on a syntax error (then SyntaxError() describes it). Use one per parser.
  bool ParseCondition(SyntaxCondition* out);
  bool ParseProjection(std::vector<SyntaxPath>* out);
  bool ParseUpdate(std::vector<SyntaxUpdateSection>* out);

  // "Syntax error; token: \"<token>\", near: \"<near>\"", or "The expression contains too many operators;
  // operator count: <n>".
  std::string SyntaxError() const;

  // After a successful parse: whether an operand or a condition was wrapped in two pairs of parentheses
  // ("((a)) = :v", "((a = :v))"), which DynamoDB rejects as redundant.
  bool redundant_parentheses() const { return redundant_; }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& PeekAt(size_t i) const { return tokens_[i < tokens_.size() ? i : tokens_.size() - 1]; }
  bool At(TokenKind kind);      // true if the current token is kind; records a failure otherwise
  bool AtKeyword(const char* keyword);
  bool Expect(TokenKind kind);  // At() and consume
  bool ExpectKeyword(const char* keyword);
  void Fail();
  bool IsName(const Token& t) const;  // an identifier usable as a name (not a condition keyword)
  int SectionKeyword(const Token& t) const;  // -1, or the SyntaxUpdateSection::Kind

  bool ParseOr(SyntaxCondition* out, bool* wrapped);
  bool ParseAnd(SyntaxCondition* out, bool* wrapped);
  // OR and AND lists share one shape: an operand, then "keyword operand" for as long as the operand parses.
  using OperandParser = bool (SyntaxParser::*)(SyntaxCondition*, bool*);
  bool ParseJunction(const char* keyword, SyntaxCondition::Kind kind, OperandParser operand, SyntaxCondition* out,
                     bool* wrapped);
  bool ParseNot(SyntaxCondition* out, bool* wrapped);
  // "(" inner ")" at the current '(' (the caller has entered a Group): true with *out the inner node and *wrapped
  // set, noting doubled parentheses as redundant; false with the position and redundant_ as they were.
  template <typename Node>
  bool ParseParenthesized(bool (SyntaxParser::*inner)(Node*, bool*), Node* out, bool* wrapped);
  bool ParsePrimary(SyntaxCondition* out, bool* wrapped);
  bool ParseComparison(SyntaxCondition* out);
  bool ParseOperandParens(SyntaxOperand* out, bool* wrapped);
  bool ParseOperand(SyntaxOperand* out);
  bool ParseOperandList(std::vector<SyntaxOperand>* out);
  bool ParsePath(SyntaxPath* out);
  bool ParseSetValue(SyntaxUpdateAction* out);
  bool ParseUpdateAction(SyntaxUpdateSection::Kind kind, SyntaxUpdateAction* out);

  // The operators of the text as DynamoDB counts them (see above); update: whether it is an UpdateExpression.
  size_t CountOperators(bool update) const;
  // False, with too_many_operators_ set, if the text has more than kMaxOperators operators.
  bool WithinOperatorLimit(bool update);

  // Entered by every parse function that may call itself again through a group; false (after Fail()) when
  // the group would be deeper than kMaxSyntaxDepth. The caller then fails without recursing.
  class Group {
   public:
    explicit Group(SyntaxParser* parser) : parser_(parser) { parser_->depth_++; }
    ~Group() { parser_->depth_--; }
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;
    bool Allowed() const {
      if (parser_->depth_ <= kMaxSyntaxDepth) return true;
      parser_->Fail();
      return false;
    }

   private:
    SyntaxParser* parser_;
  };

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t furthest_ = 0;
  bool redundant_ = false;
  int depth_ = 0;
  size_t too_many_operators_ = 0;  // the operator count when it is over kMaxOperators, else 0
  // Positions of '(' where the parenthesized-condition alternative is known to fail: without this memo,
  // "((((a)))) = :v" would take time exponential in the nesting depth.
  std::vector<bool> group_failed_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_EXPRESSION_SYNTAX_H_
