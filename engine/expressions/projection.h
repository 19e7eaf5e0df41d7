// Projection: the part of an item that a ProjectionExpression (or AttributesToGet) selects.
//
// DynamoDB's semantics: projecting a.b yields {a: {b: …}}; list indexes select elements, which come back as a
// list of only the selected elements in index order (l[3], l[1] -> [l1, l3]); paths that are missing, or
// that step into a value of the wrong type, select nothing, and a map or list from which nothing was selected
// is left out entirely.

#ifndef DYNAPAGE_ENGINE_EXPRESSIONS_PROJECTION_H_
#define DYNAPAGE_ENGINE_EXPRESSIONS_PROJECTION_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace dynapage {

// A set of paths compiled once per request and applied to every returned item.
class Projection {
 public:
  // Paths may come in any order; overlapping paths (which the parser rejects) select the union.
  explicit Projection(const std::vector<DocumentPath>& paths);

  AttributeMap Apply(const AttributeMap& item) const;

 private:
  struct Node {
    bool whole = false;  // some path ends here: the value is taken entirely
    std::map<std::string, Node> names;
    std::map<uint32_t, Node> indexes;
  };
  static bool Select(const AttributeValue& value, const Node& node, AttributeValue* out);

  Node root_;
};

// One-shot form of Projection(paths).Apply(item).
AttributeMap ProjectItem(const AttributeMap& item, const std::vector<DocumentPath>& paths);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_EXPRESSIONS_PROJECTION_H_
