// What a PartiQL SELECT answers for the paths it projects (docs/partiql.md). A projection of top-level attributes
// is a ProjectionExpression of the read; one with a nested path ("tags[1]") is answered from the whole item, each
// path under the name of its last step, where a ProjectionExpression would nest them ({"tags": [the element]}).

#ifndef DYNAPAGE_ENGINE_PARTIQL_STATEMENT_PROJECTION_H_
#define DYNAPAGE_ENGINE_PARTIQL_STATEMENT_PROJECTION_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"
#include "engine/partiql/partiql_expressions.h"
#include "engine/read/page_reader.h"

namespace dynapage {

// True if a path of the projection has more than one step: the read cannot project it.
bool ProjectsNestedPaths(const std::vector<DocumentPath>& projection);

// The projection as ProjectionExpression text, its names added to b.
std::string ProjectionText(PartiqlExpressionBuilder* b, const std::vector<DocumentPath>& projection);

// The item a SELECT answers for a stored item projected by its paths: each path under the name of its last step.
AttributeMap PartiqlProjectedItem(const std::vector<DocumentPath>& projection, const AttributeMap& item);

// Projects whole items for a projection of nested paths; otherwise (the read projected them) passes them through.
// REQUIRES: out and projection outlive the sink.
class ProjectingSink : public ItemSink {
 public:
  ProjectingSink(ItemSink* out, const std::vector<DocumentPath>& projection)
      : out_(out), projection_(projection), nested_(ProjectsNestedPaths(projection)) {}
  void AddJson(std::string_view item_json) override;
  void AddItem(const AttributeMap& item) override;

 private:
  ItemSink* out_;
  const std::vector<DocumentPath>& projection_;
  const bool nested_;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_STATEMENT_PROJECTION_H_
