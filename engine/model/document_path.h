// DocumentPath: a reference into an item, as expressions write it ("a.b[2].c").
//
// A path is a top-level attribute name followed by map lookups and list indexes. ResolvePath() walks an item
// without copying anything; FormatPath() prints a path the way DynamoDB's error messages do ("[a, b, [2]]").

#ifndef DYNAPAGE_ENGINE_MODEL_DOCUMENT_PATH_H_
#define DYNAPAGE_ENGINE_MODEL_DOCUMENT_PATH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/attribute_value.h"

namespace dynapage {

struct PathElement {
  bool is_index = false;
  std::string name;    // map key (or the top-level attribute name) when !is_index
  uint32_t index = 0;  // list position when is_index

  static PathElement Name(std::string n) { return PathElement{false, std::move(n), 0}; }
  static PathElement Index(uint32_t i) { return PathElement{true, std::string(), i}; }

  bool operator==(const PathElement& o) const {
    return is_index == o.is_index && (is_index ? index == o.index : name == o.name);
  }
  bool operator!=(const PathElement& o) const { return !(*this == o); }
};

// REQUIRES (for a path that came out of a parser): non-empty, and the first element is a name.
using DocumentPath = std::vector<PathElement>;

// The value the path designates, or nullptr if any step is missing or walks into the wrong type (a name applied
// to a non-map, an index applied to a non-list or beyond its end). The pointer aliases into item.
const AttributeValue* ResolvePath(const AttributeMap& item, const DocumentPath& path);

// "[a, b, [2]]": names verbatim, indexes in brackets, joined by ", " inside brackets.
std::string FormatPath(const DocumentPath& path);

// How two paths relate, for the overlap/conflict checks of ProjectionExpression and UpdateExpression.
enum class PathRelation {
  kDisjoint,  // they designate different parts of the item
  kOverlap,   // one is a prefix of the other (or they are equal)
  kConflict,  // at the first position where they differ, one steps by name and the other by index
};
PathRelation ComparePaths(const DocumentPath& a, const DocumentPath& b);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_DOCUMENT_PATH_H_
