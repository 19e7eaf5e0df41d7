#include "engine/partiql/partiql_parser.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "engine/model/number.h"
#include "engine/partiql/partiql_lexer.h"

namespace dynapage {

namespace {

using Tok = PartiqlToken;

// Words that cannot stand unquoted for a name: PartiQL's keywords and the functions DynamoDB knows.
const char* const kReservedWords[] = {
    "ALL",    "AND",   "AS",      "ASC",   "BETWEEN", "BY",     "COUNT",  "DELETE", "DESC",  "DISTINCT",
    "EXISTS", "FALSE", "FROM",    "GROUP", "HAVING",  "IN",     "INSERT", "INTO",   "IS",    "JOIN",
    "LIKE",   "LIMIT", "MISSING", "NOT",   "NULL",    "OFFSET", "OR",     "ORDER",  "PIVOT", "REMOVE",
    "SELECT", "SET",   "SIZE",    "TRUE",  "UNION",   "UPDATE", "VALUE",  "VALUES", "WHERE", "RETURNING",
    "AVG",    "MAX",   "MIN",     "SUM",   "CAST",    "CASE",   "WHEN",   "THEN",   "ELSE",  "END"};

bool IsReserved(const Tok& t) {
  if (t.kind != Tok::Kind::kWord) return false;
  for (const char* w : kReservedWords) {
    if (t.IsWord(w)) return true;
  }
  return false;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

class Parser {
 public:
  explicit Parser(std::vector<Tok> tokens) : t_(std::move(tokens)) {}

  Status Statement(PartiqlStatement* out) {
    if (Peek().IsWord("SELECT")) {
      DP_RETURN_IF_ERROR(Select(out));
    } else if (Peek().IsWord("INSERT")) {
      DP_RETURN_IF_ERROR(Insert(out));
    } else if (Peek().IsWord("UPDATE")) {
      DP_RETURN_IF_ERROR(Update(out));
    } else if (Peek().IsWord("DELETE")) {
      DP_RETURN_IF_ERROR(Delete(out));
    } else if (Peek().IsWord("EXISTS") || (Peek().IsWord("NOT") && Peek(1).IsWord("EXISTS"))) {
      DP_RETURN_IF_ERROR(Exists(out));
    } else {
      return Syntax("Expected data manipulation");
    }
    if (Peek().IsWord("LIMIT")) return Status::Validation("Unsupported clause: LIMIT at " + Peek().Position());
    if (Peek().IsWord("GROUP")) return Status::Validation("Unsupported clause: GROUP BY");
    if (Peek().IsWord("RETURNING") && out->kind == PartiqlStatement::Kind::kInsert) {
      return Status::Validation("RETURNING is not supported in INSERT");
    }
    if (Peek().IsSymbol(";")) Next();
    if (Peek().kind != Tok::Kind::kEnd) return Unexpected();
    out->parameter_count = parameters_;
    return Status::OK();
  }

 private:
  const Tok& Peek(size_t ahead = 0) const { return t_[std::min(pos_ + ahead, t_.size() - 1)]; }
  const Tok& Next() {
    const Tok& t = t_[pos_];
    if (pos_ + 1 < t_.size()) pos_++;
    return t;
  }
  static Status Syntax(const std::string& detail) {
    return Status::Validation(std::string(kPartiqlSyntaxPrefix) + detail);
  }
  Status Unexpected() const {
    const Tok& t = Peek();
    if (t.kind == Tok::Kind::kEnd) return Syntax("Unexpected end of statement");
    if (IsReserved(t)) return Syntax("Unexpected keyword at " + t.Position());
    return Syntax("Unexpected token at " + t.Position());
  }
  Status ExpectWord(const char* word) {
    if (!Peek().IsWord(word)) return Unexpected();
    Next();
    return Status::OK();
  }
  Status ExpectSymbol(const char* symbol) {
    if (!Peek().IsSymbol(symbol)) return Unexpected();
    Next();
    return Status::OK();
  }
  // Entering one more level of nesting; Leave() on the way out.
  Status Enter() {
    if (++depth_ > kMaxPartiqlDepth) return Syntax("Statement nests too deeply at " + Peek().Position());
    return Status::OK();
  }
  void Leave() { depth_--; }

  bool AtName() const {
    const Tok& t = Peek();
    return t.kind == Tok::Kind::kQuotedName || (t.kind == Tok::Kind::kWord && !IsReserved(t));
  }

  // name: an unquoted word that is no keyword, or a quoted name.
  Status Name(std::string* out) {
    if (!AtName()) return Unexpected();
    *out = Next().text;
    return Status::OK();
  }

  // path := name ('.' name | '[' number ']')*
  Status Path(DocumentPath* out) {
    std::string first;
    DP_RETURN_IF_ERROR(Name(&first));
    out->push_back(PathElement::Name(std::move(first)));
    for (;;) {
      if (Peek().IsSymbol(".")) {
        Next();
        const Tok& t = Peek();
        if (t.kind != Tok::Kind::kWord && t.kind != Tok::Kind::kQuotedName) return Unexpected();
        out->push_back(PathElement::Name(Next().text));
      } else if (Peek().IsSymbol("[")) {
        Next();
        const Tok& t = Peek();
        if (t.kind != Tok::Kind::kNumber || t.text.find_first_not_of("0123456789") != std::string::npos ||
            t.text.size() > 9) {
          return Unexpected();
        }
        out->push_back(PathElement::Index(static_cast<uint32_t>(std::stoul(Next().text))));
        DP_RETURN_IF_ERROR(ExpectSymbol("]"));
      } else {
        return Status::OK();
      }
    }
  }

  // 'key': of a tuple. A key that is not a string, or comes twice, is refused with DynamoDB's messages.
  Status TupleKey(std::set<std::string>* seen, std::string* key) {
    const Tok t = Peek();
    if (t.kind != Tok::Kind::kString) {
      if (t.kind == Tok::Kind::kWord || t.kind == Tok::Kind::kQuotedName) {
        return Status::Validation("Tuple keys must be of type String. Actual type: VariableReference under root at " +
                                  t.Position());
      }
      return Unexpected();
    }
    Next();
    if (!seen->insert(t.text).second) {
      return Status::Validation("Duplicate keys in tuple. Key: " + t.text + " under root at " + t.Position());
    }
    *key = t.text;
    return ExpectSymbol(":");
  }

  // target := name ['.' name]. FROM of a SELECT: a third part, an empty name or a parameter are refused.
  Status Target(PartiqlStatement* out, bool data_manipulation) {
    const Tok& start = Peek();
    if (start.IsSymbol("?")) return Status::Validation("Unexpected from source");
    if (start.kind == Tok::Kind::kQuotedName && start.text.empty()) {
      return Status::Validation("Path component cannot be an empty string");
    }
    DP_RETURN_IF_ERROR(Name(&out->table));
    if (Peek().IsSymbol(".")) {
      Next();
      if (Peek().kind == Tok::Kind::kQuotedName && Peek().text.empty()) {
        return Status::Validation("Path component cannot be an empty string");
      }
      std::string index;
      if (Peek().kind != Tok::Kind::kWord && Peek().kind != Tok::Kind::kQuotedName) return Unexpected();
      index = Next().text;
      if (Peek().IsSymbol(".")) {
        return Status::Validation("A path may contain at most 2 components in the FROM clause");
      }
      if (data_manipulation) {
        if (out->kind == PartiqlStatement::Kind::kInsert) {
          return Status::Validation(
              "FROM clause may only contain a single table name in data manipulation statements at " +
              start.Position());
        }
        return Status::Validation("This operation is not supported on an index");
      }
      out->index = std::move(index);
    }
    return Status::OK();
  }

  Status Select(PartiqlStatement* out) {
    out->kind = PartiqlStatement::Kind::kSelect;
    Next();
    if (Peek().IsWord("DISTINCT")) return Status::Validation("Unsupported token in expression: DISTINCT");
    if (Peek().IsWord("VALUE") || Peek().IsWord("PIVOT")) {
      return Status::Validation("Select projection doesn't support value or pivot keywords");
    }
    if (Peek().IsWord("ALL")) Next();
    if (Peek().IsSymbol("*")) {
      Next();
    } else {
      std::set<std::string> seen;
      for (;;) {
        const Tok start = Peek();
        bool is_call = start.kind == Tok::Kind::kWord && Peek(1).IsSymbol("(");
        if (is_call || !AtName()) {
          if (is_call || start.kind == Tok::Kind::kNumber || start.kind == Tok::Kind::kString) {
            return Status::Validation("Unexpected path component at " + start.Position());
          }
          return Unexpected();
        }
        DocumentPath path;
        DP_RETURN_IF_ERROR(Path(&path));
        const Tok& after = Peek();
        if (after.IsSymbol("+") || after.IsSymbol("-") || after.IsSymbol("*") || after.IsSymbol("/")) {
          return Status::Validation("Unexpected path component at " + start.Position());
        }
        std::string text = PartiqlPathText(path);
        if (!seen.insert(text).second) {
          return Status::Validation("Duplicate identifiers in select clause: " + text);
        }
        out->projection.push_back(std::move(path));
        if (!Peek().IsSymbol(",")) break;
        Next();
      }
    }
    DP_RETURN_IF_ERROR(ExpectWord("FROM"));
    DP_RETURN_IF_ERROR(Target(out, false));
    if (Peek().IsWord("AS") || AtName()) return Status::Validation("Aliasing is not supported");
    if (Peek().IsSymbol(",")) return Status::Validation("Only select from a single table or index is supported.");
    if (Peek().IsWord("WHERE")) {
      Next();
      DP_RETURN_IF_ERROR(Condition(&out->where));
    }
    if (Peek().IsWord("ORDER")) {
      Next();
      DP_RETURN_IF_ERROR(ExpectWord("BY"));
      for (;;) {
        PartiqlOrderKey key;
        DP_RETURN_IF_ERROR(Path(&key.path));
        if (Peek().IsWord("ASC")) {
          Next();
        } else if (Peek().IsWord("DESC")) {
          Next();
          key.descending = true;
        }
        out->order_by.push_back(std::move(key));
        if (!Peek().IsSymbol(",")) break;
        Next();
      }
    }
    return Status::OK();
  }

  Status Insert(PartiqlStatement* out) {
    out->kind = PartiqlStatement::Kind::kInsert;
    Next();
    DP_RETURN_IF_ERROR(ExpectWord("INTO"));
    DP_RETURN_IF_ERROR(Target(out, true));
    DP_RETURN_IF_ERROR(ExpectWord("VALUE"));
    const Tok start = Peek();
    if (start.IsSymbol("<<")) {
      return Status::Validation(
          "Unsupported format in item expression. Please use struct format {...} to express item values for insert "
          "statement. at " +
          start.Position());
    }
    DP_RETURN_IF_ERROR(ExpectSymbol("{"));
    std::set<std::string> seen;
    if (!Peek().IsSymbol("}")) {
      for (;;) {
        std::string key;
        DP_RETURN_IF_ERROR(TupleKey(&seen, &key));
        PartiqlOperand value;
        if (Peek().IsSymbol("?")) {
          Next();
          value.kind = PartiqlOperand::Kind::kParameter;
          value.parameter = parameters_++;
        } else {
          DP_RETURN_IF_ERROR(Literal(&value.value));
        }
        out->item.emplace_back(std::move(key), std::move(value));
        if (!Peek().IsSymbol(",")) break;
        Next();
      }
    }
    return ExpectSymbol("}");
  }

  Status Update(PartiqlStatement* out) {
    out->kind = PartiqlStatement::Kind::kUpdate;
    Next();
    DP_RETURN_IF_ERROR(Target(out, true));
    bool any = false;
    for (;;) {
      if (Peek().IsWord("SET")) {
        Next();
        for (;;) {
          PartiqlSetItem item;
          DP_RETURN_IF_ERROR(Path(&item.path));
          DP_RETURN_IF_ERROR(ExpectSymbol("="));
          DP_RETURN_IF_ERROR(SetValue(&item.value));
          out->set_items.push_back(std::move(item));
          if (!Peek().IsSymbol(",")) break;
          Next();
        }
      } else if (Peek().IsWord("REMOVE")) {
        Next();
        for (;;) {
          DocumentPath path;
          DP_RETURN_IF_ERROR(Path(&path));
          out->remove_paths.push_back(std::move(path));
          if (!Peek().IsSymbol(",")) break;
          Next();
        }
      } else {
        break;
      }
      any = true;
    }
    if (!any) return Unexpected();
    if (Peek().IsWord("WHERE")) {
      Next();
      DP_RETURN_IF_ERROR(Condition(&out->where));
    }
    return Returning(out);
  }

  Status Delete(PartiqlStatement* out) {
    out->kind = PartiqlStatement::Kind::kDelete;
    Next();
    DP_RETURN_IF_ERROR(ExpectWord("FROM"));
    DP_RETURN_IF_ERROR(Target(out, true));
    if (Peek().IsWord("WHERE")) {
      Next();
      DP_RETURN_IF_ERROR(Condition(&out->where));
    }
    DP_RETURN_IF_ERROR(Returning(out));
    if (out->returning != PartiqlReturning::kNone && out->returning != PartiqlReturning::kAllOld) {
      static const char* const kTexts[] = {"", "ALL OLD", "ALL NEW", "MODIFIED OLD", "MODIFIED NEW"};
      return Status::Validation(std::string("Invalid returning clause: RETURNING ") +
                                kTexts[static_cast<int>(out->returning)] +
                                " *. Only RETURNING ALL OLD * is allowed in DELETE statements.");
    }
    return Status::OK();
  }

  Status Returning(PartiqlStatement* out) {
    if (!Peek().IsWord("RETURNING")) return Status::OK();
    Next();
    bool all;
    if (Peek().IsWord("ALL")) {
      all = true;
    } else if (Peek().IsWord("MODIFIED")) {
      all = false;
    } else {
      return Unexpected();
    }
    Next();
    bool old;
    if (Peek().IsWord("OLD")) {
      old = true;
    } else if (Peek().IsWord("NEW")) {
      old = false;
    } else {
      return Unexpected();
    }
    Next();
    DP_RETURN_IF_ERROR(ExpectSymbol("*"));
    out->returning = all ? (old ? PartiqlReturning::kAllOld : PartiqlReturning::kAllNew)
                         : (old ? PartiqlReturning::kModifiedOld : PartiqlReturning::kModifiedNew);
    return Status::OK();
  }

  Status Exists(PartiqlStatement* out) {
    if (Peek().IsWord("NOT")) {
      Next();
      out->negated_exists = true;
    }
    Next();
    DP_RETURN_IF_ERROR(ExpectSymbol("("));
    if (!Peek().IsWord("SELECT")) return Unexpected();
    DP_RETURN_IF_ERROR(Select(out));
    DP_RETURN_IF_ERROR(ExpectSymbol(")"));
    out->kind = PartiqlStatement::Kind::kExists;
    return Status::OK();
  }

  // set_value := operand [('+'|'-') operand] | list_append(x, y) | set_add(path, v) | set_delete(path, v)
  //            | if_not_exists(path, v)
  Status SetValue(PartiqlSetValue* out) {
    const Tok& t = Peek();
    if (t.kind == Tok::Kind::kWord && Peek(1).IsSymbol("(")) {
      std::string name = Lower(t.text);
      if (name == "list_append") {
        out->kind = PartiqlSetValue::Kind::kListAppend;
      } else if (name == "set_add") {
        out->kind = PartiqlSetValue::Kind::kSetAdd;
      } else if (name == "set_delete") {
        out->kind = PartiqlSetValue::Kind::kSetDelete;
      } else if (name == "if_not_exists") {
        out->kind = PartiqlSetValue::Kind::kIfNotExists;
      } else {
        return Status::Validation("Unrecognized function: " + t.text);
      }
      Next();
      Next();
      DP_RETURN_IF_ERROR(Operand(&out->first));
      DP_RETURN_IF_ERROR(ExpectSymbol(","));
      DP_RETURN_IF_ERROR(Operand(&out->second));
      DP_RETURN_IF_ERROR(ExpectSymbol(")"));
      if (out->kind != PartiqlSetValue::Kind::kListAppend && out->first.kind != PartiqlOperand::Kind::kPath) {
        return Status::Validation("Incorrect operand type for operator or function; operator or function: " + name +
                                  ", operand type: " + OperandTypeName(out->first));
      }
      return Status::OK();
    }
    DP_RETURN_IF_ERROR(Operand(&out->first));
    if (Peek().IsSymbol("+") || Peek().IsSymbol("-")) {
      out->kind = Next().IsSymbol("+") ? PartiqlSetValue::Kind::kPlus : PartiqlSetValue::Kind::kMinus;
      DP_RETURN_IF_ERROR(Operand(&out->second));
    }
    return Status::OK();
  }

  static std::string OperandTypeName(const PartiqlOperand& o) {
    if (o.kind == PartiqlOperand::Kind::kLiteral) return AttrTypeName(o.value.type);
    return o.kind == PartiqlOperand::Kind::kParameter ? "PARAMETER" : "PATH";
  }

  // cond := and_list (OR and_list)*
  Status Condition(std::unique_ptr<PartiqlCondition>* out) {
    DP_RETURN_IF_ERROR(Enter());
    std::vector<std::unique_ptr<PartiqlCondition>> terms;
    for (;;) {
      std::unique_ptr<PartiqlCondition> term;
      DP_RETURN_IF_ERROR(AndList(&term));
      terms.push_back(std::move(term));
      if (!Peek().IsWord("OR")) break;
      Next();
    }
    Leave();
    *out = Combine(PartiqlCondition::Kind::kOr, std::move(terms));
    return Status::OK();
  }

  Status AndList(std::unique_ptr<PartiqlCondition>* out) {
    std::vector<std::unique_ptr<PartiqlCondition>> terms;
    for (;;) {
      std::unique_ptr<PartiqlCondition> term;
      DP_RETURN_IF_ERROR(Unary(&term));
      terms.push_back(std::move(term));
      if (!Peek().IsWord("AND")) break;
      Next();
    }
    *out = Combine(PartiqlCondition::Kind::kAnd, std::move(terms));
    return Status::OK();
  }

  static std::unique_ptr<PartiqlCondition> Combine(PartiqlCondition::Kind kind,
                                                   std::vector<std::unique_ptr<PartiqlCondition>> terms) {
    if (terms.size() == 1) return std::move(terms[0]);
    auto node = std::make_unique<PartiqlCondition>();
    node->kind = kind;
    node->children = std::move(terms);
    return node;
  }

  Status Unary(std::unique_ptr<PartiqlCondition>* out) {
    if (Peek().IsWord("NOT")) {
      Next();
      DP_RETURN_IF_ERROR(Enter());
      auto node = std::make_unique<PartiqlCondition>();
      node->kind = PartiqlCondition::Kind::kNot;
      node->children.emplace_back();
      DP_RETURN_IF_ERROR(Unary(&node->children[0]));
      Leave();
      *out = std::move(node);
      return Status::OK();
    }
    if (Peek().IsSymbol("(")) {
      Next();
      DP_RETURN_IF_ERROR(Condition(out));
      return ExpectSymbol(")");
    }
    return Predicate(out);
  }

  Status Predicate(std::unique_ptr<PartiqlCondition>* out) {
    auto node = std::make_unique<PartiqlCondition>();
    const Tok& t = Peek();
    if (t.kind == Tok::Kind::kWord && Peek(1).IsSymbol("(") && !t.IsWord("SIZE")) {
      std::string name = Lower(t.text);
      bool two_arguments = name == "begins_with" || name == "contains" || name == "attribute_type";
      bool one_argument = name == "attribute_exists" || name == "attribute_not_exists";
      if (!two_arguments && !one_argument) {
        if (name == "exists") {
          return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
        }
        return Status::Validation("Unrecognized function: " + t.text);
      }
      Next();
      Next();
      node->kind = PartiqlCondition::Kind::kFunction;
      node->function = name;
      node->operands.emplace_back();
      DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
      if (two_arguments) {
        DP_RETURN_IF_ERROR(ExpectSymbol(","));
        node->operands.emplace_back();
        DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
      }
      DP_RETURN_IF_ERROR(ExpectSymbol(")"));
      if (node->operands[0].kind != PartiqlOperand::Kind::kPath && (one_argument || name == "attribute_type")) {
        return Status::Validation("Incorrect operand type for operator or function; operator or function: " + name +
                                  ", operand type: " + OperandTypeName(node->operands[0]));
      }
      if (name == "attribute_type") DP_RETURN_IF_ERROR(CheckTypeName(node->operands[1]));
      *out = std::move(node);
      return Status::OK();
    }
    PartiqlOperand left;
    DP_RETURN_IF_ERROR(Operand(&left));
    const Tok& op = Peek();
    bool negated = false;
    if (op.IsWord("IS")) {
      Next();
      if (Peek().IsWord("NOT")) {
        Next();
        negated = true;
      }
      if (Peek().IsWord("MISSING")) {
        node->kind = PartiqlCondition::Kind::kIsMissing;
      } else if (Peek().IsWord("NULL")) {
        node->kind = PartiqlCondition::Kind::kIsNull;
      } else {
        return Unexpected();
      }
      Next();
      if (left.kind != PartiqlOperand::Kind::kPath) {
        return Status::Validation("The left hand side argument to IS must be a Variable Reference, Literal, or Path");
      }
      node->operands.push_back(std::move(left));
      *out = Negate(std::move(node), negated);
      return Status::OK();
    }
    if (op.IsWord("NOT")) {
      Next();
      negated = true;
    }
    if (Peek().IsWord("BETWEEN")) {
      Next();
      node->kind = PartiqlCondition::Kind::kBetween;
      node->operands.push_back(std::move(left));
      node->operands.emplace_back();
      DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
      DP_RETURN_IF_ERROR(ExpectWord("AND"));
      node->operands.emplace_back();
      DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
      for (size_t i = 0; i < 3; i++) DP_RETURN_IF_ERROR(CheckOrderingOperand("BETWEEN", node->operands[i]));
      *out = Negate(std::move(node), negated);
      return Status::OK();
    }
    if (Peek().IsWord("IN")) {
      Next();
      node->kind = PartiqlCondition::Kind::kIn;
      node->operands.push_back(std::move(left));
      const char* close = Peek().IsSymbol("[") ? "]" : ")";
      if (!Peek().IsSymbol("[") && !Peek().IsSymbol("(")) return Unexpected();
      Next();
      for (;;) {
        node->operands.emplace_back();
        DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
        if (!Peek().IsSymbol(",")) break;
        Next();
      }
      DP_RETURN_IF_ERROR(ExpectSymbol(close));
      if (node->operands.size() > 101) {
        return Status::Validation("The IN operator is provided with too many operands; number of operands: " +
                                  std::to_string(node->operands.size() - 1));
      }
      *out = Negate(std::move(node), negated);
      return Status::OK();
    }
    if (Peek().IsWord("LIKE"))
      return Status::Validation("Unsupported operator in Condition Expression. Operator: like");
    if (negated) return Unexpected();
    static const std::pair<const char*, Comparator> kComparators[] = {
        {"=", Comparator::kEq},  {"<>", Comparator::kNe}, {"!=", Comparator::kNe}, {"<", Comparator::kLt},
        {"<=", Comparator::kLe}, {">", Comparator::kGt},  {">=", Comparator::kGe}};
    for (const auto& [symbol, comparator] : kComparators) {
      if (!Peek().IsSymbol(symbol)) continue;
      Next();
      node->kind = PartiqlCondition::Kind::kCompare;
      node->comparator = comparator;
      node->operands.push_back(std::move(left));
      node->operands.emplace_back();
      DP_RETURN_IF_ERROR(Operand(&node->operands.back()));
      if (comparator != Comparator::kEq && comparator != Comparator::kNe) {
        for (size_t i = 0; i < 2; i++) {
          DP_RETURN_IF_ERROR(CheckOrderingOperand(ComparatorText(comparator), node->operands[i]));
        }
      }
      ArithmeticAfter();
      if (!arithmetic_.empty()) return ArithmeticError();
      *out = std::move(node);
      return Status::OK();
    }
    ArithmeticAfter();
    if (!arithmetic_.empty()) return ArithmeticError();
    return Unexpected();
  }

  // An arithmetic operator where a comparison's operand ends: DynamoDB names it in its refusal.
  void ArithmeticAfter() {
    for (const char* s : {"+", "-", "*", "/"}) {
      if (Peek().IsSymbol(s)) arithmetic_ = s;
    }
  }
  Status ArithmeticError() const {
    return Status::Validation("Unsupported operator in Condition Expression. Operator: " + arithmetic_);
  }

  static std::unique_ptr<PartiqlCondition> Negate(std::unique_ptr<PartiqlCondition> node, bool negated) {
    if (!negated) return node;
    auto n = std::make_unique<PartiqlCondition>();
    n->kind = PartiqlCondition::Kind::kNot;
    n->children.push_back(std::move(node));
    return n;
  }

  static Status CheckOrderingOperand(const char* op, const PartiqlOperand& o) {
    if (o.kind != PartiqlOperand::Kind::kLiteral) return Status::OK();
    AttrType t = o.value.type;
    if (t == AttrType::kS || t == AttrType::kN || t == AttrType::kB) return Status::OK();
    return Status::Validation(std::string("Incorrect operand type for operator or function; operator or function: ") +
                              op + ", operand type: " + AttrTypeName(t));
  }

  static Status CheckTypeName(const PartiqlOperand& o) {
    if (o.kind != PartiqlOperand::Kind::kLiteral) return Status::OK();
    AttrType type;
    if (o.value.type == AttrType::kS && AttrTypeFromName(o.value.scalar, &type)) return Status::OK();
    std::string shown = o.value.type == AttrType::kS ? o.value.scalar : AttrTypeName(o.value.type);
    return Status::Validation("Invalid attribute type name found; type: " + shown +
                              ", valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}");
  }

  // operand := path | literal | '?' | size(path)
  Status Operand(PartiqlOperand* out) {
    const Tok& t = Peek();
    if (t.IsSymbol("?")) {
      Next();
      out->kind = PartiqlOperand::Kind::kParameter;
      out->parameter = parameters_++;
      return Status::OK();
    }
    if (t.IsWord("MISSING")) return Status::Validation("MISSING must be compared using IS operator");
    if (t.IsWord("SIZE") && Peek(1).IsSymbol("(")) {
      Next();
      Next();
      out->kind = PartiqlOperand::Kind::kSize;
      DP_RETURN_IF_ERROR(Path(&out->path));
      return ExpectSymbol(")");
    }
    if (AtName()) {
      out->kind = PartiqlOperand::Kind::kPath;
      return Path(&out->path);
    }
    if (t.kind == Tok::Kind::kWord && Peek(1).IsSymbol("(") && !IsReserved(t)) {
      return Status::Validation("Unrecognized function: " + t.text);
    }
    out->kind = PartiqlOperand::Kind::kLiteral;
    return Literal(&out->value);
  }

  // literal := string | ['-'] number | TRUE | FALSE | NULL | '[' … ']' | '{' 'k': v, … '}' | '<<' … '>>'
  Status Literal(AttributeValue* out) {
    const Tok t = Peek();
    if (t.kind == Tok::Kind::kString) {
      Next();
      *out = AttributeValue::String(t.text);
      return Status::OK();
    }
    if (t.kind == Tok::Kind::kNumber || (t.IsSymbol("-") && Peek(1).kind == Tok::Kind::kNumber)) {
      std::string text;
      if (t.IsSymbol("-")) {
        Next();
        text = "-";
      }
      text += Next().text;
      std::string canonical;
      DP_RETURN_IF_ERROR(Decimal::Canonicalize(text, &canonical));
      *out = AttributeValue::Number(std::move(canonical));
      return Status::OK();
    }
    if (t.IsWord("TRUE") || t.IsWord("FALSE")) {
      Next();
      *out = AttributeValue::Bool(t.IsWord("TRUE"));
      return Status::OK();
    }
    if (t.IsWord("NULL")) {
      Next();
      *out = AttributeValue::Null();
      return Status::OK();
    }
    if (t.IsSymbol("?")) return Status::Validation("Unsupported data type: Parameter at " + t.Position());
    if (t.IsSymbol("[")) {
      Next();
      DP_RETURN_IF_ERROR(Enter());
      std::vector<AttributeValue> elements;
      if (!Peek().IsSymbol("]")) {
        for (;;) {
          elements.emplace_back();
          DP_RETURN_IF_ERROR(Literal(&elements.back()));
          if (!Peek().IsSymbol(",")) break;
          Next();
        }
      }
      DP_RETURN_IF_ERROR(ExpectSymbol("]"));
      Leave();
      *out = AttributeValue::List(std::move(elements));
      return Status::OK();
    }
    if (t.IsSymbol("{")) {
      Next();
      DP_RETURN_IF_ERROR(Enter());
      AttributeMap members;
      std::set<std::string> seen;
      if (!Peek().IsSymbol("}")) {
        for (;;) {
          std::string key;
          DP_RETURN_IF_ERROR(TupleKey(&seen, &key));
          DP_RETURN_IF_ERROR(Literal(&members[key]));
          if (!Peek().IsSymbol(",")) break;
          Next();
        }
      }
      DP_RETURN_IF_ERROR(ExpectSymbol("}"));
      Leave();
      *out = AttributeValue::Map(std::move(members));
      return Status::OK();
    }
    if (t.IsSymbol("<<")) {
      Next();
      if (Peek().IsSymbol(">>")) return Status::Validation("Empty bags are not supported at " + t.Position());
      std::vector<AttributeValue> elements;
      for (;;) {
        elements.emplace_back();
        if (Peek().IsSymbol("?")) return Status::Validation("Unsupported data type: Parameter at " + Peek().Position());
        if (Peek().IsSymbol("[") || Peek().IsSymbol("{") || Peek().IsSymbol("<<")) {
          return Status::Validation(
              "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
        }
        DP_RETURN_IF_ERROR(Literal(&elements.back()));
        if (!Peek().IsSymbol(",")) break;
        Next();
      }
      DP_RETURN_IF_ERROR(ExpectSymbol(">>"));
      AttrType type = elements[0].type;
      std::vector<std::string> members;
      for (const AttributeValue& e : elements) {
        if (e.type != type || (type != AttrType::kS && type != AttrType::kN)) {
          return Status::Validation(
              "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
        }
        if (std::find(members.begin(), members.end(), e.scalar) == members.end()) members.push_back(e.scalar);
      }
      *out = AttributeValue::Set(type == AttrType::kS ? AttrType::kSS : AttrType::kNS, std::move(members));
      return Status::OK();
    }
    return Unexpected();
  }

  std::vector<Tok> t_;
  size_t pos_ = 0;
  int depth_ = 0;
  size_t parameters_ = 0;
  std::string arithmetic_;
};

}  // namespace

Status ParsePartiql(std::string_view text, PartiqlStatement* out) {
  std::vector<PartiqlToken> tokens;
  DP_RETURN_IF_ERROR(TokenizePartiql(text, &tokens));
  Parser parser(std::move(tokens));
  return parser.Statement(out);
}

std::string PartiqlProjectedName(const DocumentPath& path) {
  size_t last_name = 0;
  for (size_t i = 0; i < path.size(); i++) {
    if (!path[i].is_index) last_name = i;
  }
  DocumentPath tail(path.begin() + static_cast<std::ptrdiff_t>(last_name), path.end());
  return PartiqlPathText(tail);
}

std::string PartiqlPathText(const DocumentPath& path, const std::function<std::string(const std::string&)>& name_text) {
  std::string text;
  for (const PathElement& e : path) {
    if (e.is_index) {
      text += "[" + std::to_string(e.index) + "]";
    } else {
      if (!text.empty()) text += ".";
      text += name_text ? name_text(e.name) : e.name;
    }
  }
  return text;
}

}  // namespace dynapage
