#include "engine/partiql/statement_projection.h"

#include "engine/model/attribute_value_json.h"
#include "engine/partiql/partiql_parser.h"

namespace dynapage {

bool ProjectsNestedPaths(const std::vector<DocumentPath>& projection) {
  for (const DocumentPath& p : projection) {
    if (p.size() > 1) return true;
  }
  return false;
}

std::string ProjectionText(PartiqlExpressionBuilder* b, const std::vector<DocumentPath>& projection) {
  std::string text;
  for (const DocumentPath& p : projection) text += (text.empty() ? "" : ", ") + b->Path(p);
  return text;
}

AttributeMap PartiqlProjectedItem(const std::vector<DocumentPath>& projection, const AttributeMap& item) {
  AttributeMap out;
  for (const DocumentPath& p : projection) {
    const AttributeValue* v = ResolvePath(item, p);
    if (v) out[PartiqlProjectedName(p)] = *v;
  }
  return out;
}

void ProjectingSink::AddJson(std::string_view item_json) {
  AttributeMap item;
  if (!nested_ || !DecodeStoredAttributeMap(item_json, &item)) {
    out_->AddJson(item_json);
    return;
  }
  AddItem(item);
}

void ProjectingSink::AddItem(const AttributeMap& item) {
  if (!nested_) {
    out_->AddItem(item);
    return;
  }
  out_->AddItem(PartiqlProjectedItem(projection_, item));
}

}  // namespace dynapage
