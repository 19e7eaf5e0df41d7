#include "engine/expressions/expression_parser.h"

#include <string>
#include <utility>

#include "engine/expressions/expression_syntax.h"
#include "engine/expressions/reserved_words.h"
#include "engine/expressions/syntax_cache.h"
#include "engine/model/attribute_value_format.h"
#include "engine/model/value_compare.h"

namespace dynapage {

static_assert(kMaxUpdateOperators == SyntaxParser::kMaxOperators, "one operator limit");

namespace {

// The kinds of semantic error, in the order DynamoDB ranks them when an expression has several.
enum ErrorKind {
  kRedundantParens,
  kRepeatedSection,
  kUnknownFunction,
  kMisusedFunction,
  kReservedWord,
  kUndefinedPlaceholder,
  kTooManyInOperands,
  kPathTooDeep,
  kOperandCount,
  kOperandNotDistinct,
  kOperandType,
  kPathOverlap,
  kErrorKindCount,
};

const char kValidTypes[] = "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}";
const char kAnyType[] = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}";

std::string View(std::string_view s) { return std::string(s); }

// What the parser knows statically about an operand.
struct OperandInfo {
  bool is_path = false;
  bool type_known = false;
  AttrType type = AttrType::kNull;
  const DocumentPath* path = nullptr;  // when is_path
};

// Names of types as UpdateExpression's ADD/DELETE messages spell them.
const char* LongTypeName(AttrType t) {
  switch (t) {
    case AttrType::kS: return "STRING";
    case AttrType::kN: return "NUMBER";
    case AttrType::kB: return "BINARY";
    case AttrType::kBool: return "BOOLEAN";
    case AttrType::kNull: return "NULL";
    case AttrType::kL: return "LIST";
    case AttrType::kM: return "MAP";
    case AttrType::kSS: return "STRING_SET";
    case AttrType::kNS: return "NUMBER_SET";
    case AttrType::kBS: return "BINARY_SET";
  }
  return "?";
}

// Gives a syntax tree its meaning, collecting the first error of each kind.
class Binder {
 public:
  explicit Binder(ExpressionAttributes* attrs) : attrs_(attrs) {}

  void Record(ErrorKind kind, std::string message) {
    if (errors_[kind].empty()) errors_[kind] = std::move(message);
  }

  bool HasError() const {
    for (const auto& e : errors_) {
      if (!e.empty()) return true;
    }
    return false;
  }

  Status Result(const char* expression_name) const {
    for (const auto& e : errors_) {
      if (!e.empty()) return Status::Validation(std::string("Invalid ") + expression_name + ": " + e);
    }
    return Status::OK();
  }

  // Resolves placeholders and checks reserved words and depth. Always fills *out (with empty names for
  // undefined placeholders), so that callers can go on collecting errors.
  void BindPath(const SyntaxPath& syntax, DocumentPath* out) {
    out->clear();
    out->reserve(syntax.size());
    for (const SyntaxPathElement& e : syntax) {
      switch (e.kind) {
        case SyntaxPathElement::Kind::kName:
          if (IsReservedWord(e.text)) {
            Record(kReservedWord, "Attribute name is a reserved keyword; reserved keyword: " + View(e.text));
          }
          out->push_back(PathElement::Name(View(e.text)));
          break;
        case SyntaxPathElement::Kind::kPlaceholder: {
          const std::string* name = attrs_->ResolveName(e.text);
          if (name == nullptr) {
            Record(kUndefinedPlaceholder,
                   "An expression attribute name used in the document path is not defined; attribute name: " +
                       View(e.text));
            out->push_back(PathElement::Name(std::string()));
          } else {
            out->push_back(PathElement::Name(*name));
          }
          break;
        }
        case SyntaxPathElement::Kind::kIndex:
          if (e.index >= kIndexOutOfRange) Record(kPathTooDeep, "List index is not within the allowable range");
          out->push_back(PathElement::Index(e.index));
          break;
      }
    }
    if (out->size() > kMaxPathDepth) {
      Record(kPathTooDeep,
             "The document path has too many nesting levels; nesting levels: " + std::to_string(out->size()));
    }
  }

  // Copies the value of ":v" into *out; false (with the error recorded) if it is not defined.
  bool BindValue(std::string_view name, AttributeValue* out) {
    const AttributeValue* v = attrs_->ResolveValue(name);
    if (v == nullptr) {
      Record(kUndefinedPlaceholder,
             "An expression attribute value used in expression is not defined; attribute value: " + View(name));
      return false;
    }
    *out = *v;
    return true;
  }

  // Records the overlap or conflict of two target paths (the earlier one first), if any.
  void CheckPathPair(const DocumentPath& one, const DocumentPath& two) {
    std::string clash = PathClashMessage(one, two);
    if (!clash.empty()) Record(kPathOverlap, std::move(clash));
  }

  void CheckPathsDisjoint(const std::vector<DocumentPath>& paths) {
    for (size_t j = 1; j < paths.size(); j++) {
      for (size_t i = 0; i < j; i++) CheckPathPair(paths[i], paths[j]);
    }
  }

  // ---- Conditions ----

  std::unique_ptr<ConditionExpr> BindCondition(const SyntaxCondition& s) {
    auto node = std::make_unique<ConditionExpr>();
    switch (s.kind) {
      case SyntaxCondition::Kind::kOr:
      case SyntaxCondition::Kind::kAnd:
      case SyntaxCondition::Kind::kNot:
        node->kind = s.kind == SyntaxCondition::Kind::kOr    ? ConditionExpr::Kind::kOr
                     : s.kind == SyntaxCondition::Kind::kAnd ? ConditionExpr::Kind::kAnd
                                                             : ConditionExpr::Kind::kNot;
        for (const SyntaxCondition& child : s.children) node->children.push_back(BindCondition(child));
        break;
      case SyntaxCondition::Kind::kCompare: {
        node->kind = ConditionExpr::Kind::kCompare;
        node->comparator = ToComparator(s.comparator);
        std::vector<OperandInfo> info;
        BindOperands(s.operands, &node->operands, &info);
        const char* op = ComparatorText(node->comparator);
        CheckDistinct(op, info);
        if (node->comparator != Comparator::kEq && node->comparator != Comparator::kNe) {
          CheckOrderedTypes(op, info);
        }
        break;
      }
      case SyntaxCondition::Kind::kBetween: {
        node->kind = ConditionExpr::Kind::kBetween;
        std::vector<OperandInfo> info;
        BindOperands(s.operands, &node->operands, &info);
        CheckDistinct("BETWEEN", info);
        CheckOrderedTypes("BETWEEN", info);
        const Operand& lo = node->operands[1];
        const Operand& hi = node->operands[2];
        if (lo.kind == Operand::Kind::kValue && hi.kind == Operand::Kind::kValue && info[1].type_known &&
            info[2].type_known) {
          CheckBetweenBounds(lo.value, hi.value);
        }
        break;
      }
      case SyntaxCondition::Kind::kIn: {
        node->kind = ConditionExpr::Kind::kIn;
        std::vector<OperandInfo> info;
        BindOperands(s.operands, &node->operands, &info);
        size_t list_size = s.operands.size() - 1;
        if (list_size > kMaxInOperands) {
          Record(kTooManyInOperands, "The IN operator is provided with too many operands; number of operands: " +
                                         std::to_string(list_size));
        }
        CheckDistinct("IN", info);
        break;
      }
      case SyntaxCondition::Kind::kFunction:
        BindFunctionCondition(s.operands[0], node.get());
        break;
    }
    return node;
  }

  // Binds the operands of a comparison, BETWEEN or IN, where only size() may appear as a function.
  void BindOperands(const std::vector<SyntaxOperand>& syntax, std::vector<Operand>* out,
                    std::vector<OperandInfo>* info) {
    out->resize(syntax.size());
    info->resize(syntax.size());
    for (size_t i = 0; i < syntax.size(); i++) BindOperand(syntax[i], &(*out)[i], &(*info)[i]);
    // Paths were bound into *out, which no longer moves.
    for (size_t i = 0; i < syntax.size(); i++) {
      if ((*info)[i].is_path) (*info)[i].path = &(*out)[i].path;
    }
  }

  // A path or a value placeholder, into an Operand or an UpdateOperand (both have kPath and kValue); false, with
  // nothing bound, for a function.
  template <typename BoundOperand>
  bool BindPathOrValue(const SyntaxOperand& s, BoundOperand* out, OperandInfo* info) {
    switch (s.kind) {
      case SyntaxOperand::Kind::kPath:
        out->kind = BoundOperand::Kind::kPath;
        BindPath(s.path, &out->path);
        info->is_path = true;
        return true;
      case SyntaxOperand::Kind::kValue:
        out->kind = BoundOperand::Kind::kValue;
        if (BindValue(s.name, &out->value)) {
          info->type_known = true;
          info->type = out->value.type;
        }
        return true;
      case SyntaxOperand::Kind::kFunction:
        break;
    }
    return false;
  }

  void BindOperand(const SyntaxOperand& s, Operand* out, OperandInfo* info) {
    if (BindPathOrValue(s, out, info)) return;
    if (s.name != "size") {
      // A condition function standing where a value is needed. Still check it, as DynamoDB reports an unknown name
      // or a bad call before the misuse.
      ConditionExpr ignored;
      BindFunctionCondition(s, &ignored);
      Record(kMisusedFunction,
             "The function is not allowed to be used this way in an expression; function: " + View(s.name));
      info->type_known = true;
      info->type = AttrType::kBool;
      return;
    }
    BindSize(s, out);
    info->type_known = true;
    info->type = AttrType::kN;
  }

  void BindSize(const SyntaxOperand& s, Operand* out) {
    out->kind = Operand::Kind::kSize;
    std::vector<Operand> args;
    std::vector<OperandInfo> info;
    BindOperands(s.args, &args, &info);
    if (!CheckArity("size", args.size(), 1)) return;
    if (info[0].type_known &&
        (info[0].type == AttrType::kN || info[0].type == AttrType::kBool || info[0].type == AttrType::kNull)) {
      Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or function: "
                                       "size, operand type: ") +
                               AttrTypeName(info[0].type));
      return;
    }
    if (args[0].kind == Operand::Kind::kPath) {
      out->path = std::move(args[0].path);
    } else if (args[0].kind == Operand::Kind::kValue) {
      out->value = std::move(args[0].value);
    }
  }

  // A function in the place of a condition: attribute_exists(a), begins_with(a, :v), …
  void BindFunctionCondition(const SyntaxOperand& f, ConditionExpr* node) {
    struct Known {
      const char* name;
      ConditionExpr::Kind kind;
      size_t arity;
    };
    static const Known kFunctions[] = {
        {"attribute_exists", ConditionExpr::Kind::kAttributeExists, 1},
        {"attribute_not_exists", ConditionExpr::Kind::kAttributeNotExists, 1},
        {"attribute_type", ConditionExpr::Kind::kAttributeType, 2},
        {"begins_with", ConditionExpr::Kind::kBeginsWith, 2},
        {"contains", ConditionExpr::Kind::kContains, 2},
    };
    const Known* known = nullptr;
    for (const Known& k : kFunctions) {
      if (f.name == k.name) known = &k;
    }
    std::vector<OperandInfo> info;
    BindOperands(f.args, &node->operands, &info);
    if (f.name == "size") {
      // size() yields a number, not a truth value.
      CheckArity("size", f.args.size(), 1);
      Record(kMisusedFunction, "The function is not allowed to be used this way in an expression; function: size");
      return;
    }
    if (known == nullptr && (f.name == "if_not_exists" || f.name == "list_append")) {
      // UpdateExpression's functions are known, but have no place in a condition.
      Record(kMisusedFunction, "The function is not allowed to be used this way in an expression; function: " +
                                   View(f.name));
      return;
    }
    if (known == nullptr) {
      Record(kUnknownFunction, "Invalid function name; function: " + View(f.name));
      return;
    }
    node->kind = known->kind;
    if (!CheckArity(known->name, f.args.size(), known->arity)) return;
    switch (known->kind) {
      case ConditionExpr::Kind::kAttributeExists:
      case ConditionExpr::Kind::kAttributeNotExists:
        RequirePath(known->name, info[0]);
        break;
      case ConditionExpr::Kind::kAttributeType: {
        // The first operand may be a value too (DynamoDB accepts attribute_type(:v, :t)).
        const OperandInfo& t = info[1];
        if (!t.type_known || t.type != AttrType::kS) {
          Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or "
                                           "function: attribute_type, operand type: ") +
                                   (t.type_known ? AttrTypeName(t.type) : kAnyType));
          break;
        }
        const std::string& type_name = node->operands[1].value.scalar;
        if (!AttrTypeFromName(type_name, &node->attribute_type)) {
          Record(kOperandType, "Invalid attribute type name found; type: " + type_name +
                                   ", valid types: " + kValidTypes);
          break;
        }
        node->operands.pop_back();  // the type now lives in attribute_type
        break;
      }
      case ConditionExpr::Kind::kBeginsWith:
        CheckDistinct(known->name, info);
        for (const OperandInfo& i : info) {
          if (i.type_known && i.type != AttrType::kS && i.type != AttrType::kB) {
            Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or "
                                             "function: begins_with, operand type: ") +
                                     AttrTypeName(i.type));
            break;
          }
        }
        break;
      case ConditionExpr::Kind::kContains:
        CheckDistinct(known->name, info);
        break;
      default:
        break;
    }
  }

  bool CheckArity(const char* name, size_t got, size_t want) {
    if (got == want) return true;
    Record(kOperandCount, std::string("Incorrect number of operands for operator or function; operator or "
                                      "function: ") +
                              name + ", number of operands: " + std::to_string(got));
    return false;
  }

  void RequirePath(const char* name, const OperandInfo& info) {
    if (!info.is_path) {
      Record(kOperandType,
             std::string("Operator or function requires a document path; operator or function: ") + name);
    }
  }

  // "a = a", "a BETWEEN a AND :x", "begins_with(a, a)": the first operand repeated among the others.
  void CheckDistinct(const char* op, const std::vector<OperandInfo>& info) {
    if (info.empty() || !info[0].is_path) return;
    for (size_t i = 1; i < info.size(); i++) {
      if (info[i].is_path && *info[i].path == *info[0].path) {
        Record(kOperandNotDistinct,
               std::string("The first operand must be distinct from the remaining operands for this operator or "
                           "function; operator: ") +
                   op + ", first operand: " + FormatPath(*info[0].path));
        return;
      }
    }
  }

  // <, <=, >, >= and BETWEEN order only S, N and B.
  void CheckOrderedTypes(const char* op, const std::vector<OperandInfo>& info) {
    for (const OperandInfo& i : info) {
      if (i.type_known && !IsOrderedType(i.type)) {
        Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or function: ") +
                                 op + ", operand type: " + AttrTypeName(i.type));
        return;
      }
    }
  }

  void CheckBetweenBounds(const AttributeValue& lo, const AttributeValue& hi) {
    std::string bounds =
        "lower bound operand: " + FormatAttributeValue(lo) + ", upper bound operand: " + FormatAttributeValue(hi);
    if (lo.type != hi.type) {
      Record(kOperandType, "The BETWEEN operator requires same data type for lower and upper bounds; " + bounds);
    } else if (IsOrderedType(lo.type) && CompareOrdered(lo, hi) > 0) {
      Record(kOperandType,
             "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + bounds);
    }
  }

  static Comparator ToComparator(TokenKind k) {
    switch (k) {
      case TokenKind::kNe: return Comparator::kNe;
      case TokenKind::kLt: return Comparator::kLt;
      case TokenKind::kLe: return Comparator::kLe;
      case TokenKind::kGt: return Comparator::kGt;
      case TokenKind::kGe: return Comparator::kGe;
      default: return Comparator::kEq;
    }
  }

  // ---- Updates ----

  void BindUpdateOperand(const SyntaxOperand& s, UpdateOperand* out, OperandInfo* info) {
    if (BindPathOrValue(s, out, info)) return;
    bool if_not_exists = s.name == "if_not_exists";
    bool list_append = s.name == "list_append";
    out->kind = if_not_exists ? UpdateOperand::Kind::kIfNotExists : UpdateOperand::Kind::kListAppend;
    std::vector<OperandInfo> args_info(s.args.size());
    out->args.resize(s.args.size());
    for (size_t i = 0; i < s.args.size(); i++) BindUpdateOperand(s.args[i], &out->args[i], &args_info[i]);
    if (!if_not_exists && !list_append) {
      Record(kUnknownFunction, "Invalid function name; function: " + View(s.name));
      return;
    }
    const char* name = if_not_exists ? "if_not_exists" : "list_append";
    if (!CheckArity(name, s.args.size(), 2)) return;
    if (list_append) {
      for (const SyntaxOperand& arg : s.args) {
        if (arg.kind == SyntaxOperand::Kind::kFunction && arg.name == "list_append") {
          Record(kMisusedFunction,
                 "The function is not allowed to be used this way in an expression; function: list_append");
        }
      }
    }
    if (if_not_exists) {
      RequirePath(name, args_info[0]);
      if (args_info[1].type_known) {
        info->type_known = true;
        info->type = args_info[1].type;
      }
      return;
    }
    // Only constants are checked: what a path or a nested function yields is known only when applied.
    for (size_t i = 0; i < args_info.size(); i++) {
      if (out->args[i].kind == UpdateOperand::Kind::kValue && args_info[i].type_known &&
          args_info[i].type != AttrType::kL) {
        Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or function: "
                                         "list_append, operand type: ") +
                                 AttrTypeName(args_info[i].type));
        break;
      }
    }
    info->type_known = true;
    info->type = AttrType::kL;
  }

  void BindSetAction(const SyntaxUpdateAction& s, SetAction* out) {
    BindPath(s.path, &out->path);
    OperandInfo left, right;
    BindUpdateOperand(s.operands[0], &out->left, &left);
    if (s.op == TokenKind::kEq) {
      out->op = SetAction::Op::kAssign;
      return;
    }
    out->op = s.op == TokenKind::kPlus ? SetAction::Op::kPlus : SetAction::Op::kMinus;
    BindUpdateOperand(s.operands[1], &out->right, &right);
    const char* op = s.op == TokenKind::kPlus ? "+" : "-";
    for (const OperandInfo* i : {&left, &right}) {
      if (i->type_known && i->type != AttrType::kN) {
        Record(kOperandType, std::string("Incorrect operand type for operator or function; operator or function: ") +
                                 op + ", operand type: " + AttrTypeName(i->type));
        break;
      }
    }
  }

  // ADD and DELETE: "path :value".
  void BindValueAction(const SyntaxUpdateAction& s, const char* op, bool allow_number, DocumentPath* path,
                       AttributeValue* value) {
    BindPath(s.path, path);
    if (!BindValue(s.operands[0].name, value)) return;
    bool ok = IsSetType(value->type) || (allow_number && value->type == AttrType::kN);
    if (!ok) {
      Record(kOperandType, std::string("Incorrect operand type for operator or function; operator: ") + op +
                               ", operand type: " + LongTypeName(value->type));
    }
  }

 private:
  ExpressionAttributes* attrs_;
  std::string errors_[kErrorKindCount];
};

}  // namespace

std::string PathClashMessage(const DocumentPath& one, const DocumentPath& two) {
  PathRelation r = ComparePaths(one, two);
  if (r == PathRelation::kDisjoint) return "";
  const char* what = r == PathRelation::kOverlap ? "overlap" : "conflict";
  return std::string("Two document paths ") + what +
         " with each other; must remove or rewrite one of these paths; path one: " + FormatPath(one) +
         ", path two: " + FormatPath(two);
}

namespace {

// The checks every expression kind makes before parsing.
Status CheckText(std::string_view text, const char* expression_name) {
  bool blank = true;
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
      blank = false;
      break;
    }
  }
  if (blank) {
    return Status::Validation(std::string("Invalid ") + expression_name + ": The expression can not be empty;");
  }
  if (text.size() > kMaxExpressionBytes) {
    return Status::Validation(std::string("Invalid ") + expression_name +
                              ": Expression size has exceeded the maximum allowed size; expression size: " +
                              std::to_string(text.size()));
  }
  return Status::OK();
}

Status SyntaxFailure(const std::string& syntax_error, const char* expression_name) {
  return Status::Validation(std::string("Invalid ") + expression_name + ": " + syntax_error);
}

}  // namespace

Status ParseCondition(std::string_view text, const char* expression_name, ExpressionAttributes* attrs,
                      std::unique_ptr<ConditionExpr>* out) {
  DP_RETURN_IF_ERROR(CheckText(text, expression_name));
  std::string syntax_error;
  std::shared_ptr<const ConditionSyntax> syntax = SyntaxCache::ForThisThread().Condition(text, &syntax_error);
  if (!syntax) return SyntaxFailure(syntax_error, expression_name);
  Binder binder(attrs);
  if (syntax->redundant_parentheses) binder.Record(kRedundantParens, "The expression has redundant parentheses;");
  std::unique_ptr<ConditionExpr> condition = binder.BindCondition(syntax->tree);
  DP_RETURN_IF_ERROR(binder.Result(expression_name));
  *out = std::move(condition);
  return Status::OK();
}

Status ParseProjection(std::string_view text, ExpressionAttributes* attrs, std::vector<DocumentPath>* out) {
  static const char kName[] = "ProjectionExpression";
  DP_RETURN_IF_ERROR(CheckText(text, kName));
  SyntaxParser parser(text);
  std::vector<SyntaxPath> syntax;
  if (!parser.ParseProjection(&syntax)) return SyntaxFailure(parser.SyntaxError(), kName);
  Binder binder(attrs);
  std::vector<DocumentPath> paths(syntax.size());
  for (size_t i = 0; i < syntax.size(); i++) binder.BindPath(syntax[i], &paths[i]);
  binder.CheckPathsDisjoint(paths);
  DP_RETURN_IF_ERROR(binder.Result(kName));
  *out = std::move(paths);
  return Status::OK();
}

Status ParseUpdate(std::string_view text, ExpressionAttributes* attrs, UpdateExpr* out) {
  static const char kName[] = "UpdateExpression";
  DP_RETURN_IF_ERROR(CheckText(text, kName));
  SyntaxParser parser(text);
  std::vector<SyntaxUpdateSection> sections;
  if (!parser.ParseUpdate(&sections)) return SyntaxFailure(parser.SyntaxError(), kName);
  Binder binder(attrs);
  if (parser.redundant_parentheses()) binder.Record(kRedundantParens, "The expression has redundant parentheses;");
  UpdateExpr update;
  bool seen[4] = {false, false, false, false};
  static const char* const kSectionNames[] = {"SET", "REMOVE", "ADD", "DELETE"};
  for (const SyntaxUpdateSection& section : sections) {
    int k = static_cast<int>(section.kind);
    if (seen[k]) {
      binder.Record(kRepeatedSection, std::string("The \"") + kSectionNames[k] +
                                          "\" section can only be used once in an update expression;");
    }
    seen[k] = true;
    for (const SyntaxUpdateAction& action : section.actions) {
      switch (section.kind) {
        case SyntaxUpdateSection::Kind::kSet:
          update.set_actions.emplace_back();
          binder.BindSetAction(action, &update.set_actions.back());
          break;
        case SyntaxUpdateSection::Kind::kRemove:
          update.remove_actions.emplace_back();
          binder.BindPath(action.path, &update.remove_actions.back());
          break;
        case SyntaxUpdateSection::Kind::kAdd:
          update.add_actions.emplace_back();
          binder.BindValueAction(action, "ADD", true, &update.add_actions.back().path,
                                 &update.add_actions.back().value);
          break;
        case SyntaxUpdateSection::Kind::kDelete:
          update.delete_actions.emplace_back();
          binder.BindValueAction(action, "DELETE", false, &update.delete_actions.back().path,
                                 &update.delete_actions.back().value);
          break;
      }
    }
  }
  // Overlaps are reported between target paths in written order, whatever their clause.
  std::vector<DocumentPath> targets;
  for (const SyntaxUpdateSection& section : sections) {
    for (const SyntaxUpdateAction& action : section.actions) {
      targets.emplace_back();
      binder.BindPath(action.path, &targets.back());
    }
  }
  binder.CheckPathsDisjoint(targets);
  DP_RETURN_IF_ERROR(binder.Result(kName));
  *out = std::move(update);
  return Status::OK();
}

}  // namespace dynapage
