#include "engine/transfer/ion_reader.h"

#include <rapidjson/document.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/messages.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {

using JsonValue = rapidjson::Value;

// Structs and lists open at once: the line's struct, its Item struct, and the item's own nesting, which
// DecodeAttributeMap bounds exactly; one more so that what it refuses is refused with its own message.
constexpr size_t kMaxOpenContainers = kMaxNestingDepth + 3;

bool IsIdentifierStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool IsIdentifierPart(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// An Ion integer, decimal or float token as DynamoDB number text (still to be checked as one): "103." -> "103",
// "6d2" -> "6e2", "1_000" -> "1000", "0x1f" -> "31". Returns false, with *error, for what is no number in DynamoDB.
bool IonNumberToText(std::string token, std::string* text, std::string* error) {
  if (token == "+inf" || token == "-inf") {
    *error = "Unexpected data: " + token + " is no DynamoDB number";
    return false;
  }
  for (size_t i = 1; i < token.size(); ++i) {
    char prev = token[i - 1];
    bool exponent_sign =
        (token[i] == '-' || token[i] == '+') && (prev == 'e' || prev == 'E' || prev == 'd' || prev == 'D');
    if (token[i] == 'T' || token[i] == ':' || ((token[i] == '-' || token[i] == '+') && !exponent_sign)) {
      *error = "Unexpected data: the timestamp " + token + " is no DynamoDB value";
      return false;
    }
  }
  std::string plain;
  for (char c : token) {
    if (c != '_') plain.push_back(c);
  }
  bool negative = !plain.empty() && plain[0] == '-';
  std::string_view body = std::string_view(plain).substr(negative ? 1 : 0);
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X' || body[1] == 'b' || body[1] == 'B')) {
    int base = (body[1] == 'x' || body[1] == 'X') ? 16 : 2;
    std::string digits(body.substr(2));
    char* end = nullptr;
    errno = 0;
    unsigned long long value = std::strtoull(digits.c_str(), &end, base);
    if (errno != 0 || *end != '\0' || digits[0] == '-' || digits[0] == '+') {
      *error = "Unexpected data: the integer " + token + " is not read (a base-" + std::to_string(base) +
               " integer of at most 64 bits is)";
      return false;
    }
    *text = (negative ? "-" : "") + std::to_string(value);
    return true;
  }
  text->clear();
  for (size_t i = 0; i < plain.size(); ++i) {
    char c = plain[i];
    if (c == 'd' || c == 'D') c = 'e';
    if (c == '.' && (i + 1 == plain.size() || !IsDigit(plain[i + 1]))) continue;  // "103." is the integer 103
    text->push_back(c);
  }
  return true;
}

enum class IonScalar { kString, kDecimal, kBlob, kBool, kNull };

// One open struct or list of the value being read.
struct Frame {
  bool is_struct = false;
  AttrType type = AttrType::kL;  // kM for a struct; kL for a list, kSS, kNS or kBS for an annotated one
  JsonValue members;             // a struct's name -> wire value, or a list's wire values (a set's element texts)
  std::string field;             // a struct's field being read
};

class IonParser {
 public:
  explicit IonParser(std::string_view text) : text_(text) {}

  enum class Outcome { kEnd, kItem, kUnparsable };

  // Reads the next top-level value. kItem: *status is OK with *item, or the item's error. kUnparsable: *status says
  // where the text stops making sense.
  Outcome Next(AttributeMap* item, Status* status) {
    // The values of the item before are dropped before their allocator is: each item gets a fresh one.
    stack_.clear();
    stack_.reserve(kMaxOpenContainers);
    top_.SetNull();
    allocator_ = std::make_unique<rapidjson::Document::AllocatorType>();
    item_error_.clear();
    done_ = false;
    want_ = Want::kValue;
    while (!done_) {
      if (!SkipSpace()) return Unparsable(status);
      if (pos_ >= text_.size()) {
        if (stack_.empty()) return Outcome::kEnd;
        syntax_error_ = "the object ends inside a value";
        return Unparsable(status);
      }
      if (want_ == Want::kFieldName) {
        if (!ReadFieldName()) return Unparsable(status);
      } else if (want_ == Want::kCommaOrClose) {
        if (!ReadCommaOrClose()) return Unparsable(status);
      } else {
        bool too_deep = false;
        if (!ReadValue(&too_deep)) return Unparsable(status);
        if (too_deep) {
          // The rest of this item is skipped without being kept: reading goes on at the next line.
          size_t line_end = text_.find('\n', pos_);
          pos_ = line_end == std::string_view::npos ? text_.size() : line_end + 1;
          *status = Status::Validation(kNestingTooDeep);
          return Outcome::kItem;
        }
      }
    }
    *status = ToItem(item);
    return Outcome::kItem;
  }

 private:
  enum class Want { kValue, kFieldName, kCommaOrClose };

  Outcome Unparsable(Status* status) {
    *status = Status::Validation("Unexpected data: " + syntax_error_ + " at offset " + std::to_string(pos_));
    return Outcome::kUnparsable;
  }

  bool Fail(std::string message) {
    syntax_error_ = std::move(message);
    return false;
  }
  void ItemError(std::string message) {
    if (item_error_.empty()) item_error_ = std::move(message);
  }

  bool StartsWith(std::string_view prefix) const { return text_.substr(pos_, prefix.size()) == prefix; }

  // Skips white space and comments; false on a comment left open.
  bool SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        ++pos_;
      } else if (StartsWith("//")) {
        size_t end = text_.find('\n', pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
      } else if (StartsWith("/*")) {
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) return Fail("a comment is not closed");
        pos_ = end + 2;
      } else {
        break;
      }
    }
    return true;
  }

  // One escape after a backslash (pos_ just past it), appended to *out as UTF-8.
  bool ReadEscape(std::string* out) {
    if (pos_ >= text_.size()) return Fail("a string is not closed");
    char c = text_[pos_++];
    switch (c) {
      case '0':
        out->push_back('\0');
        return true;
      case 'a':
        out->push_back('\a');
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 'v':
        out->push_back('\v');
        return true;
      case '"':
      case '\'':
      case '?':
      case '\\':
      case '/':
        out->push_back(c);
        return true;
      case '\r':
        if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
        return true;  // a line continued
      case '\n':
        return true;
      case 'x':
      case 'u':
      case 'U': {
        uint32_t cp = 0;
        if (!ReadHex(c == 'x' ? 2 : c == 'u' ? 4 : 8, &cp)) return false;
        if (cp >= 0xD800 && cp <= 0xDBFF && StartsWith("\\u")) {  // a surrogate pair, escaped as two
          pos_ += 2;
          uint32_t low = 0;
          if (!ReadHex(4, &low)) return false;
          if (low < 0xDC00 || low > 0xDFFF) return Fail("an escaped surrogate is not paired");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return Fail("an escape is no Unicode code point");
        AppendUtf8(cp, out);
        return true;
      }
      default:
        return Fail(std::string("the escape \\") + c + " is not Ion's");
    }
  }

  bool ReadHex(int digits, uint32_t* cp) {
    for (int i = 0; i < digits; ++i) {
      int d = pos_ < text_.size() ? HexDigit(text_[pos_]) : -1;
      if (d < 0) return Fail("an escape wants " + std::to_string(digits) + " hex digits");
      *cp = *cp * 16 + static_cast<uint32_t>(d);
      ++pos_;
    }
    return true;
  }

  // A "string" or 'quoted symbol' (pos_ at its quote): no raw line break inside.
  bool ReadShortText(std::string* out) {
    char quote = text_[pos_++];
    for (;;) {
      if (pos_ >= text_.size()) return Fail("a string is not closed");
      char c = text_[pos_++];
      if (c == quote) return true;
      if (c == '\n' || c == '\r') return Fail("a line break inside a quoted string");
      if (c == '\\') {
        if (!ReadEscape(out)) return false;
      } else {
        out->push_back(c);
      }
    }
  }

  // '''long''' strings (pos_ at the first), adjacent ones (white space and comments between) joined.
  bool ReadLongText(std::string* out) {
    while (StartsWith("'''")) {
      pos_ += 3;
      for (;;) {
        if (pos_ >= text_.size()) return Fail("a long string is not closed");
        if (StartsWith("'''")) {
          pos_ += 3;
          break;
        }
        char c = text_[pos_++];
        if (c == '\\') {
          if (!ReadEscape(out)) return false;
        } else {
          out->push_back(c);
        }
      }
      if (!SkipSpace()) return false;
    }
    return true;
  }

  std::string_view ReadIdentifier() {
    size_t start = pos_;
    while (pos_ < text_.size() && IsIdentifierPart(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  bool ReadFieldName() {
    Frame& frame = stack_.back();
    char c = text_[pos_];
    if (c == '}') {  // an empty struct, or a comma before the brace
      ++pos_;
      return CloseFrame();
    }
    frame.field.clear();
    if (StartsWith("'''")) {
      if (!ReadLongText(&frame.field)) return false;
    } else if (c == '"' || c == '\'') {
      if (!ReadShortText(&frame.field)) return false;
    } else if (IsIdentifierStart(c)) {
      frame.field = std::string(ReadIdentifier());
    } else {
      return Fail("a struct wants a field name");
    }
    if (!SkipSpace()) return false;
    if (pos_ >= text_.size() || text_[pos_] != ':' || StartsWith("::")) return Fail("a field name wants a ':'");
    ++pos_;
    want_ = Want::kValue;
    return true;
  }

  bool ReadCommaOrClose() {
    char c = text_[pos_];
    bool is_struct = stack_.back().is_struct;
    if (c == ',') {
      ++pos_;
      want_ = is_struct ? Want::kFieldName : Want::kValue;
      return true;
    }
    if (c != (is_struct ? '}' : ']')) return Fail(is_struct ? "a struct wants ',' or '}'" : "a list wants ',' or ']'");
    ++pos_;
    return CloseFrame();
  }

  // Annotations (name::) before a value; the last $dynamodb_SS/NS/BS one into *set_type (else kL).
  bool ReadAnnotations(AttrType* set_type) {
    *set_type = AttrType::kL;
    for (;;) {
      size_t start = pos_;
      std::string name;
      char c = text_[pos_];
      if (c == '\'' && !StartsWith("'''")) {
        if (!ReadShortText(&name)) return false;
      } else if (IsIdentifierStart(c)) {
        name = std::string(ReadIdentifier());
      } else {
        return true;
      }
      if (!SkipSpace()) return false;
      if (!StartsWith("::")) {
        pos_ = start;  // a value, not an annotation
        return true;
      }
      pos_ += 2;
      if (!SkipSpace()) return false;
      if (pos_ >= text_.size()) return Fail("an annotation wants a value");
      if (name == "$dynamodb_SS") *set_type = AttrType::kSS;
      if (name == "$dynamodb_NS") *set_type = AttrType::kNS;
      if (name == "$dynamodb_BS") *set_type = AttrType::kBS;
    }
  }

  bool ReadValue(bool* too_deep) {
    if (text_[pos_] == ']' && !stack_.empty() && !stack_.back().is_struct) {  // an empty list, or a trailing comma
      ++pos_;
      return CloseFrame();
    }
    AttrType set_type;
    if (!ReadAnnotations(&set_type)) return false;
    char c = text_[pos_];
    if (set_type != AttrType::kL && c != '[') {
      ItemError(std::string("Unexpected data: the annotation $dynamodb_") + AttrTypeName(set_type) +
                " on a value that is not a list");
    }
    if (c == '{' && !StartsWith("{{")) {
      ++pos_;
      return OpenFrame(true, AttrType::kM, too_deep);
    }
    if (c == '[') {
      ++pos_;
      return OpenFrame(false, set_type, too_deep);
    }
    std::string text;
    if (StartsWith("{{")) {
      if (!ReadBlob(&text)) return false;
      return AddScalar(IonScalar::kBlob, std::move(text), false);
    }
    if (c == '"') {
      if (!ReadShortText(&text)) return false;
      return AddScalar(IonScalar::kString, std::move(text), false);
    }
    if (StartsWith("'''")) {
      if (!ReadLongText(&text)) return false;
      return AddScalar(IonScalar::kString, std::move(text), false);
    }
    if (c == '\'') {
      if (!ReadShortText(&text)) return false;
      ItemError("Unexpected data: the symbol '" + text + "' is no DynamoDB value");
      return AddScalar(IonScalar::kNull, "", true);
    }
    if (IsDigit(c) || c == '-' || c == '+') return ReadNumber();
    if (IsIdentifierStart(c)) return ReadKeyword();
    if (c == '(') return Fail("s-expressions are not read");
    return Fail(std::string("a value cannot start with '") + c + "'");
  }

  bool ReadNumber() {
    size_t start = pos_++;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (!IsIdentifierPart(c) && c != '.' && c != '+' && c != '-' && c != ':') break;
      ++pos_;
    }
    std::string token(text_.substr(start, pos_ - start));
    std::string number, error;
    if (!IonNumberToText(token, &number, &error)) ItemError(error);
    return AddScalar(IonScalar::kDecimal, std::move(number), false);
  }

  bool ReadKeyword() {
    std::string_view word = ReadIdentifier();
    if (word == "true" || word == "false") return AddScalar(IonScalar::kBool, "", word == "true");
    if (word == "null") {
      if (pos_ < text_.size() && text_[pos_] == '.') {  // a typed null: NULL all the same
        ++pos_;
        std::string_view type = ReadIdentifier();
        static const char* const kTypes[] = {"null",   "bool", "int",  "float", "decimal", "timestamp", "symbol",
                                             "string", "clob", "blob", "list",  "sexp",    "struct"};
        bool known = false;
        for (const char* t : kTypes) known = known || type == t;
        if (!known) return Fail("null." + std::string(type) + " is no Ion type");
      }
      return AddScalar(IonScalar::kNull, "", true);
    }
    if (stack_.empty() && word == "$ion_1_0") return true;  // the version marker: no value
    ItemError("Unexpected data: the symbol " + std::string(word) + " is no DynamoDB value");
    return AddScalar(IonScalar::kNull, "", true);
  }

  // {{base64}} (pos_ at the braces) into *out, the base64 text as B's wire form takes it.
  bool ReadBlob(std::string* out) {
    pos_ += 2;
    for (;;) {
      if (pos_ >= text_.size()) return Fail("a blob is not closed");
      char c = text_[pos_];
      if (StartsWith("}}")) {
        pos_ += 2;
        return true;
      }
      if (c == '"' || c == '\'') return Fail("clobs are not read");
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
        ++pos_;
        continue;
      }
      if (!IsIdentifierPart(c) && c != '+' && c != '/' && c != '=') return Fail("a blob holds base64 text only");
      out->push_back(c);
      ++pos_;
    }
  }

  bool OpenFrame(bool is_struct, AttrType type, bool* too_deep) {
    if (stack_.size() >= kMaxOpenContainers) {
      *too_deep = true;
      return true;
    }
    Frame& frame = stack_.emplace_back();
    frame.is_struct = is_struct;
    frame.type = type;
    if (is_struct) {
      frame.members.SetObject();
    } else {
      frame.members.SetArray();
    }
    want_ = is_struct ? Want::kFieldName : Want::kValue;
    return true;
  }

  bool CloseFrame() {
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    JsonValue wire(rapidjson::kObjectType);
    wire.AddMember(rapidjson::StringRef(AttrTypeName(frame.type)), frame.members, *allocator_);
    return AddValue(std::move(wire), nullptr);
  }

  bool AddScalar(IonScalar kind, std::string text, bool boolean) {
    static const AttrType kTypes[] = {AttrType::kS, AttrType::kN, AttrType::kB, AttrType::kBool, AttrType::kNull};
    JsonValue wire(rapidjson::kObjectType);
    AttrType type = kTypes[static_cast<int>(kind)];
    JsonValue inner;
    if (type == AttrType::kBool || type == AttrType::kNull) {
      inner.SetBool(boolean);
    } else {
      inner.SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), *allocator_);
    }
    wire.AddMember(rapidjson::StringRef(AttrTypeName(type)), inner, *allocator_);
    return AddValue(std::move(wire), &type);
  }

  // A finished value (its wire form; scalar_type its type if it is a scalar) into the open container, or as the
  // top-level value.
  bool AddValue(JsonValue wire, const AttrType* scalar_type) {
    want_ = Want::kCommaOrClose;
    if (stack_.empty()) {
      top_ = std::move(wire);
      done_ = true;
      return true;
    }
    Frame& frame = stack_.back();
    if (frame.is_struct) {
      frame.members.AddMember(
          JsonValue(frame.field.data(), static_cast<rapidjson::SizeType>(frame.field.size()), *allocator_), wire,
          *allocator_);
    } else if (frame.type == AttrType::kL) {
      frame.members.PushBack(wire, *allocator_);
    } else if (!scalar_type || *scalar_type != SetElementType(frame.type)) {
      ItemError(std::string("Unexpected data: a $dynamodb_") + AttrTypeName(frame.type) + " set holds an element of " +
                "another type");
    } else {
      frame.members.PushBack(wire.MemberBegin()->value, *allocator_);  // the element's text, as a set's wire form
    }
    return true;
  }

  Status ToItem(AttributeMap* item) {
    const JsonValue& top = top_;
    if (!item_error_.empty()) return Status::Validation(item_error_);
    const JsonValue* fields = top.IsObject() ? &top.MemberBegin()->value : nullptr;
    if (!top.IsObject() || std::string_view(top.MemberBegin()->name.GetString()) != "M") fields = nullptr;
    const JsonValue* wrapped = nullptr;
    if (fields) {
      auto member = fields->FindMember("Item");
      if (member != fields->MemberEnd()) wrapped = &member->value;
    }
    if (!wrapped || std::string_view(wrapped->MemberBegin()->name.GetString()) != "M") {
      return Status::Validation("Unexpected data: a value without an Item struct");
    }
    return DecodeAttributeMap(wrapped->MemberBegin()->value, item);
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::unique_ptr<rapidjson::Document::AllocatorType> allocator_;  // of the item being read
  std::vector<Frame> stack_;                                       // declared after allocator_, so destroyed first
  Want want_ = Want::kValue;
  JsonValue top_;  // the top-level value, once done_
  bool done_ = false;
  std::string item_error_;    // the first reason the value being read is no item
  std::string syntax_error_;  // why the text stopped parsing
};

}  // namespace

void ReadIonItems(std::string_view text, const ImportItemVisitor& each) {
  IonParser parser(text);
  size_t index = 0;
  for (;;) {
    AttributeMap item;
    Status status;
    IonParser::Outcome outcome = parser.Next(&item, &status);
    if (outcome == IonParser::Outcome::kEnd) return;
    if (!status.ok()) item.clear();
    each(index++, status, &item);
    if (outcome == IonParser::Outcome::kUnparsable) return;
  }
}

}  // namespace dynapage
