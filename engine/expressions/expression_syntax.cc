#include "engine/expressions/expression_syntax.h"

#include <limits>
#include <string>
#include <utility>

namespace dynapage {

namespace {

bool IsComparator(TokenKind k) {
  return k == TokenKind::kEq || k == TokenKind::kNe || k == TokenKind::kLt || k == TokenKind::kLe ||
         k == TokenKind::kGt || k == TokenKind::kGe;
}

}  // namespace

SyntaxParser::SyntaxParser(std::string_view text)
    : text_(text), tokens_(Tokenize(text)), group_failed_(tokens_.size(), false) {}

void SyntaxParser::Fail() {
  if (pos_ > furthest_) furthest_ = pos_;
}

bool SyntaxParser::At(TokenKind kind) {
  if (Peek().kind == kind) return true;
  Fail();
  return false;
}

bool SyntaxParser::AtKeyword(const char* keyword) {
  if (IsKeyword(text_, Peek(), keyword)) return true;
  Fail();
  return false;
}

bool SyntaxParser::Expect(TokenKind kind) {
  if (!At(kind)) return false;
  pos_++;
  return true;
}

bool SyntaxParser::ExpectKeyword(const char* keyword) {
  if (!AtKeyword(keyword)) return false;
  pos_++;
  return true;
}

bool SyntaxParser::IsName(const Token& t) const {
  if (t.kind != TokenKind::kIdentifier) return false;
  static const char* const kKeywords[] = {"AND", "OR", "NOT", "BETWEEN", "IN"};
  for (const char* k : kKeywords) {
    if (IsKeyword(text_, t, k)) return false;
  }
  return true;
}

int SyntaxParser::SectionKeyword(const Token& t) const {
  if (IsKeyword(text_, t, "SET")) return static_cast<int>(SyntaxUpdateSection::Kind::kSet);
  if (IsKeyword(text_, t, "REMOVE")) return static_cast<int>(SyntaxUpdateSection::Kind::kRemove);
  if (IsKeyword(text_, t, "ADD")) return static_cast<int>(SyntaxUpdateSection::Kind::kAdd);
  if (IsKeyword(text_, t, "DELETE")) return static_cast<int>(SyntaxUpdateSection::Kind::kDelete);
  return -1;
}

std::string SyntaxParser::SyntaxError() const {
  if (too_many_operators_ > 0) {
    return "The expression contains too many operators; operator count: " + std::to_string(too_many_operators_);
  }
  const Token& tok = PeekAt(furthest_);
  std::string token_text =
      tok.kind == TokenKind::kEnd ? "<EOF>" : std::string(text_.substr(tok.begin, tok.end - tok.begin));
  size_t begin = furthest_ > 0 ? tokens_[furthest_ - 1].begin : tok.begin;
  size_t end;
  const Token& next = PeekAt(furthest_ + 1);
  if (tok.kind != TokenKind::kEnd && next.kind != TokenKind::kEnd) {
    end = next.end;
  } else if (tok.kind != TokenKind::kEnd) {
    end = tok.end;
  } else {
    end = furthest_ > 0 ? tokens_[furthest_ - 1].end : tok.begin;
  }
  return "Syntax error; token: \"" + token_text + "\", near: \"" + std::string(text_.substr(begin, end - begin)) +
         "\"";
}

size_t SyntaxParser::CountOperators(bool update) const {
  size_t count = 0;
  size_t betweens = 0;
  size_t ands = 0;
  for (size_t i = 0; i < tokens_.size(); i++) {
    const Token& t = tokens_[i];
    if (IsName(t) && PeekAt(i + 1).kind == TokenKind::kLParen) {
      count++;  // a function
    } else if (update) {
      if (t.kind == TokenKind::kPlus || t.kind == TokenKind::kMinus) count++;
    } else if (IsComparator(t.kind)) {
      count++;
    } else if (IsKeyword(text_, t, "AND")) {
      ands++;
    } else if (IsKeyword(text_, t, "BETWEEN")) {
      betweens++;
    } else if (IsKeyword(text_, t, "OR") || IsKeyword(text_, t, "NOT") || IsKeyword(text_, t, "IN")) {
      count++;
    }
  }
  // "a BETWEEN b AND c" is one operator: its AND is not a conjunction.
  return count + betweens + (ands > betweens ? ands - betweens : 0);
}

bool SyntaxParser::WithinOperatorLimit(bool update) {
  size_t count = CountOperators(update);
  if (count <= kMaxOperators) return true;
  too_many_operators_ = count;
  return false;
}

// ---- Conditions ----

bool SyntaxParser::ParseCondition(SyntaxCondition* out) {
  if (!WithinOperatorLimit(false)) return false;
  bool wrapped = false;
  if (!ParseOr(out, &wrapped)) return false;
  return At(TokenKind::kEnd);
}

bool SyntaxParser::ParseOr(SyntaxCondition* out, bool* wrapped) {
  return ParseJunction("OR", SyntaxCondition::Kind::kOr, &SyntaxParser::ParseAnd, out, wrapped);
}

bool SyntaxParser::ParseAnd(SyntaxCondition* out, bool* wrapped) {
  return ParseJunction("AND", SyntaxCondition::Kind::kAnd, &SyntaxParser::ParseNot, out, wrapped);
}

bool SyntaxParser::ParseJunction(const char* keyword, SyntaxCondition::Kind kind, OperandParser operand,
                                 SyntaxCondition* out, bool* wrapped) {
  SyntaxCondition first;
  if (!(this->*operand)(&first, wrapped)) return false;
  std::vector<SyntaxCondition> terms;
  terms.push_back(std::move(first));
  while (AtKeyword(keyword)) {
    size_t save = pos_;
    bool save_redundant = redundant_;
    pos_++;
    SyntaxCondition next;
    bool w;
    if (!(this->*operand)(&next, &w)) {
      pos_ = save;
      redundant_ = save_redundant;
      break;
    }
    terms.push_back(std::move(next));
  }
  if (terms.size() == 1) {
    *out = std::move(terms[0]);
    return true;
  }
  *wrapped = false;
  out->kind = kind;
  out->children = std::move(terms);
  return true;
}

bool SyntaxParser::ParseNot(SyntaxCondition* out, bool* wrapped) {
  if (AtKeyword("NOT")) {
    Group group(this);
    if (!group.Allowed()) return false;
    size_t save = pos_;
    bool save_redundant = redundant_;
    pos_++;
    SyntaxCondition inner;
    bool w;
    if (ParseNot(&inner, &w)) {
      *wrapped = false;
      out->kind = SyntaxCondition::Kind::kNot;
      out->children.clear();
      out->children.push_back(std::move(inner));
      return true;
    }
    pos_ = save;
    redundant_ = save_redundant;
    // NOT is not a name, so no other alternative can start here.
    return false;
  }
  return ParsePrimary(out, wrapped);
}

template <typename Node>
bool SyntaxParser::ParseParenthesized(bool (SyntaxParser::*inner)(Node*, bool*), Node* out, bool* wrapped) {
  size_t save = pos_;
  bool save_redundant = redundant_;
  pos_++;
  Node node;
  bool inner_wrapped = false;
  if ((this->*inner)(&node, &inner_wrapped) && Expect(TokenKind::kRParen)) {
    if (inner_wrapped) redundant_ = true;
    *out = std::move(node);
    *wrapped = true;
    return true;
  }
  pos_ = save;
  redundant_ = save_redundant;
  return false;
}

bool SyntaxParser::ParsePrimary(SyntaxCondition* out, bool* wrapped) {
  if (At(TokenKind::kLParen) && !group_failed_[pos_]) {
    Group group(this);
    if (!group.Allowed()) return false;
    if (ParseParenthesized(&SyntaxParser::ParseOr, out, wrapped)) return true;
    group_failed_[pos_] = true;  // no condition opens here; a comparison may ("(a) = :v")
  }
  *wrapped = false;
  return ParseComparison(out);
}

bool SyntaxParser::ParseComparison(SyntaxCondition* out) {
  size_t save = pos_;
  bool save_redundant = redundant_;
  auto fail = [&]() {
    pos_ = save;
    redundant_ = save_redundant;
    return false;
  };
  SyntaxOperand x;
  bool x_wrapped = false;
  if (!ParseOperandParens(&x, &x_wrapped)) return fail();
  TokenKind k = Peek().kind;
  if (IsComparator(k)) {
    pos_++;
    SyntaxOperand y;
    bool w;
    if (!ParseOperandParens(&y, &w)) return fail();
    out->kind = SyntaxCondition::Kind::kCompare;
    out->comparator = k;
    out->operands.clear();
    out->operands.push_back(std::move(x));
    out->operands.push_back(std::move(y));
    return true;
  }
  Fail();  // a comparator was one of the possibilities here
  if (AtKeyword("BETWEEN")) {
    pos_++;
    SyntaxOperand lo, hi;
    bool w;
    if (!ParseOperandParens(&lo, &w) || !ExpectKeyword("AND") || !ParseOperandParens(&hi, &w)) return fail();
    out->kind = SyntaxCondition::Kind::kBetween;
    out->operands.clear();
    out->operands.push_back(std::move(x));
    out->operands.push_back(std::move(lo));
    out->operands.push_back(std::move(hi));
    return true;
  }
  if (AtKeyword("IN")) {
    pos_++;
    std::vector<SyntaxOperand> list;
    if (!Expect(TokenKind::kLParen) || !ParseOperandList(&list) || !Expect(TokenKind::kRParen)) return fail();
    out->kind = SyntaxCondition::Kind::kIn;
    out->operands.clear();
    out->operands.push_back(std::move(x));
    for (auto& op : list) out->operands.push_back(std::move(op));
    return true;
  }
  if (x.kind == SyntaxOperand::Kind::kFunction && !x_wrapped) {
    out->kind = SyntaxCondition::Kind::kFunction;
    out->operands.clear();
    out->operands.push_back(std::move(x));
    return true;
  }
  return fail();
}

// ---- Operands and paths ----

bool SyntaxParser::ParseOperandParens(SyntaxOperand* out, bool* wrapped) {
  if (At(TokenKind::kLParen)) {
    Group group(this);
    return group.Allowed() && ParseParenthesized(&SyntaxParser::ParseOperandParens, out, wrapped);
  }
  *wrapped = false;
  return ParseOperand(out);
}

bool SyntaxParser::ParseOperand(SyntaxOperand* out) {
  const Token& t = Peek();
  if (IsName(t) && PeekAt(pos_ + 1).kind == TokenKind::kLParen) {
    Group group(this);
    if (!group.Allowed()) return false;
    size_t save = pos_;
    bool save_redundant = redundant_;
    pos_ += 2;
    std::vector<SyntaxOperand> args;
    if (!ParseOperandList(&args) || !Expect(TokenKind::kRParen)) {
      pos_ = save;
      redundant_ = save_redundant;
      return false;
    }
    out->kind = SyntaxOperand::Kind::kFunction;
    out->name = text_.substr(t.begin, t.end - t.begin);
    out->args = std::move(args);
    return true;
  }
  if (t.kind == TokenKind::kValuePlaceholder) {
    pos_++;
    out->kind = SyntaxOperand::Kind::kValue;
    out->name = text_.substr(t.begin, t.end - t.begin);
    return true;
  }
  out->kind = SyntaxOperand::Kind::kPath;
  return ParsePath(&out->path);
}

bool SyntaxParser::ParseOperandList(std::vector<SyntaxOperand>* out) {
  SyntaxOperand first;
  bool w;
  if (!ParseOperandParens(&first, &w)) return false;
  out->push_back(std::move(first));
  while (At(TokenKind::kComma)) {
    size_t save = pos_;
    bool save_redundant = redundant_;
    pos_++;
    SyntaxOperand next;
    if (!ParseOperandParens(&next, &w)) {
      pos_ = save;
      redundant_ = save_redundant;
      break;
    }
    out->push_back(std::move(next));
  }
  return true;
}

bool SyntaxParser::ParsePath(SyntaxPath* out) {
  out->clear();
  auto name_element = [&](const Token& t, SyntaxPathElement* e) {
    if (IsName(t)) {
      e->kind = SyntaxPathElement::Kind::kName;
    } else if (t.kind == TokenKind::kNamePlaceholder) {
      e->kind = SyntaxPathElement::Kind::kPlaceholder;
    } else {
      return false;
    }
    e->text = text_.substr(t.begin, t.end - t.begin);
    return true;
  };
  SyntaxPathElement head;
  if (!name_element(Peek(), &head)) {
    Fail();
    return false;
  }
  pos_++;
  out->push_back(head);
  while (true) {
    if (Peek().kind == TokenKind::kLBracket) {
      size_t save = pos_;
      pos_++;
      const Token& num = Peek();
      uint64_t value = 0;
      bool ok = num.kind == TokenKind::kNumber;
      // An index past an int's range is kept as kIndexOutOfRange, for the binder to refuse with DynamoDB's message.
      for (uint32_t i = num.begin; ok && i < num.end && value <= kIndexOutOfRange; i++) {
        value = value * 10 + static_cast<uint64_t>(text_[i] - '0');
      }
      if (value > kIndexOutOfRange) value = kIndexOutOfRange;
      if (!ok) {
        Fail();
        pos_ = save;
        return true;
      }
      pos_++;
      if (!Expect(TokenKind::kRBracket)) {
        pos_ = save;
        return true;
      }
      SyntaxPathElement e;
      e.kind = SyntaxPathElement::Kind::kIndex;
      e.index = static_cast<uint32_t>(value);
      out->push_back(e);
    } else if (Peek().kind == TokenKind::kDot) {
      size_t save = pos_;
      pos_++;
      SyntaxPathElement e;
      if (!name_element(Peek(), &e)) {
        Fail();
        pos_ = save;
        return true;
      }
      pos_++;
      out->push_back(e);
    } else {
      Fail();  // '[' or '.' could have continued the path here
      return true;
    }
  }
}

// ---- Projection ----

bool SyntaxParser::ParseProjection(std::vector<SyntaxPath>* out) {
  SyntaxPath first;
  if (!ParsePath(&first)) return false;
  out->push_back(std::move(first));
  while (At(TokenKind::kComma)) {
    pos_++;
    SyntaxPath next;
    if (!ParsePath(&next)) return false;
    out->push_back(std::move(next));
  }
  return At(TokenKind::kEnd);
}

// ---- Update ----

bool SyntaxParser::ParseUpdate(std::vector<SyntaxUpdateSection>* out) {
  if (!WithinOperatorLimit(true)) return false;
  int kind = SectionKeyword(Peek());
  if (kind < 0) {
    Fail();
    return false;
  }
  while (kind >= 0) {
    pos_++;
    SyntaxUpdateSection section;
    section.kind = static_cast<SyntaxUpdateSection::Kind>(kind);
    SyntaxUpdateAction action;
    if (!ParseUpdateAction(section.kind, &action)) return false;
    section.actions.push_back(std::move(action));
    while (At(TokenKind::kComma)) {
      pos_++;
      SyntaxUpdateAction next;
      if (!ParseUpdateAction(section.kind, &next)) return false;
      section.actions.push_back(std::move(next));
    }
    out->push_back(std::move(section));
    kind = SectionKeyword(Peek());
    if (kind < 0) Fail();  // another section could have started here
  }
  return At(TokenKind::kEnd);
}

bool SyntaxParser::ParseUpdateAction(SyntaxUpdateSection::Kind kind, SyntaxUpdateAction* out) {
  if (!ParsePath(&out->path)) return false;
  switch (kind) {
    case SyntaxUpdateSection::Kind::kSet:
      if (!Expect(TokenKind::kEq)) return false;
      return ParseSetValue(out);
    case SyntaxUpdateSection::Kind::kRemove:
      return true;
    case SyntaxUpdateSection::Kind::kAdd:
    case SyntaxUpdateSection::Kind::kDelete: {
      if (!At(TokenKind::kValuePlaceholder)) return false;
      const Token& t = Peek();
      SyntaxOperand v;
      v.kind = SyntaxOperand::Kind::kValue;
      v.name = text_.substr(t.begin, t.end - t.begin);
      out->operands.push_back(std::move(v));
      pos_++;
      return true;
    }
  }
  return false;
}

bool SyntaxParser::ParseSetValue(SyntaxUpdateAction* out) {
  Group group(this);
  if (!group.Allowed()) return false;
  size_t save = pos_;
  bool save_redundant = redundant_;
  SyntaxOperand a;
  bool w;
  if (ParseOperandParens(&a, &w)) {
    TokenKind k = Peek().kind;
    if (k == TokenKind::kPlus || k == TokenKind::kMinus) {
      pos_++;
      SyntaxOperand b;
      if (ParseOperandParens(&b, &w)) {
        out->op = k;
        out->operands.clear();
        out->operands.push_back(std::move(a));
        out->operands.push_back(std::move(b));
        return true;
      }
    } else {
      Fail();  // '+' or '-' could have followed
      out->op = TokenKind::kEq;
      out->operands.clear();
      out->operands.push_back(std::move(a));
      return true;
    }
  }
  pos_ = save;
  redundant_ = save_redundant;
  // "(a + b)": the whole value in parentheses.
  if (!Expect(TokenKind::kLParen)) return false;
  if (ParseSetValue(out) && Expect(TokenKind::kRParen)) return true;
  pos_ = save;
  redundant_ = save_redundant;
  return false;
}

}  // namespace dynapage
