// The expression parser and evaluators (engine/expressions/). Input: a first byte choosing the expression kind
// (condition, key condition, projection, update), then the expression text. The names #a, #b and the values :n,
// :s, :b, :l, :m, :ss are defined. Properties: parsing never crashes whatever the nesting (parentheses, NOT
// chains, nested functions, long paths); a parsed expression evaluates against a fixed item without crashing; an
// update's result is within the nesting limit and survives the stored form.

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/expressions/condition_evaluator.h"
#include "engine/expressions/expression_attributes.h"
#include "engine/expressions/expression_parser.h"
#include "engine/expressions/key_condition.h"
#include "engine/expressions/projection.h"
#include "engine/expressions/update_evaluator.h"
#include "engine/model/attribute_value_json.h"
#include "fuzz/fuzz_check.h"

namespace dynapage {
namespace {

AttributeMap ParseItem(const char* json) {
  rapidjson::Document doc;
  doc.Parse(json);
  AttributeMap item;
  FUZZ_CHECK(DecodeAttributeMap(doc, &item).ok());
  return item;
}

struct Fixture {
  ExpressionNameMap names = {{"#a", "a"}, {"#b", "b"}};
  ExpressionValueMap values;
  AttributeMap item;
  Fixture() {
    AttributeMap v = ParseItem(R"({":n":{"N":"1"},":s":{"S":"x"},":b":{"B":"AQ=="},":l":{"L":[{"N":"2"},{"S":"y"}]},)"
                               R"(":m":{"M":{"a":{"N":"3"}}},":ss":{"SS":["x","y"]}})");
    values.insert(v.begin(), v.end());
    item = ParseItem(R"({"pk":{"S":"k"},"a":{"N":"1"},"b":{"S":"x"},"l":{"L":[{"N":"1"},{"M":{"a":{"S":"z"}}}]},)"
                     R"("m":{"M":{"a":{"N":"2"},"l":{"L":[]}}},"ss":{"SS":["x"]}})");
  }
};

int Depth(const AttributeValue& v) {
  int deepest = 0;
  for (const AttributeValue& e : v.list) deepest = std::max(deepest, 1 + Depth(e));
  for (const auto& [name, e] : v.map) deepest = std::max(deepest, 1 + Depth(e));
  return deepest;
}

}  // namespace
}  // namespace dynapage

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dynapage;
  static const Fixture* fixture = new Fixture();
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  ExpressionAttributes attrs(&fixture->names, &fixture->values);
  switch (data[0] % 4) {
    case 0: {
      std::unique_ptr<ConditionExpr> condition;
      if (ParseCondition(text, "ConditionExpression", &attrs, &condition).ok()) {
        (void)EvaluateCondition(*condition, fixture->item);
      }
      break;
    }
    case 1: {
      ParsedKeyCondition key;
      (void)ParseKeyConditionExpression(text, &attrs, &key);
      break;
    }
    case 2: {
      std::vector<DocumentPath> paths;
      if (ParseProjection(text, &attrs, &paths).ok()) (void)ProjectItem(fixture->item, paths);
      break;
    }
    default: {
      UpdateExpr update;
      if (!ParseUpdate(text, &attrs, &update).ok()) break;
      AttributeMap item = fixture->item;
      if (!ApplyUpdate(update, UpdateDialect::kExpression, &item).ok()) break;
      for (const auto& [name, value] : item) FUZZ_CHECK(Depth(value) <= kMaxNestingDepth);
      AttributeMap back;
      FUZZ_CHECK(DecodeStoredAttributeMap(EncodeAttributeMap(item), &back));
      FUZZ_CHECK(back == item);
      break;
    }
  }
  return 0;
}
