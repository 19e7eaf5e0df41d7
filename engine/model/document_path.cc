#include "engine/model/document_path.h"

namespace dynapage {

const AttributeValue* ResolvePath(const AttributeMap& item, const DocumentPath& path) {
  if (path.empty() || path[0].is_index) return nullptr;
  auto it = item.find(path[0].name);
  if (it == item.end()) return nullptr;
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < path.size(); i++) {
    const PathElement& e = path[i];
    if (e.is_index) {
      if (v->type != AttrType::kL || e.index >= v->list.size()) return nullptr;
      v = &v->list[e.index];
    } else {
      if (v->type != AttrType::kM) return nullptr;
      auto m = v->map.find(e.name);
      if (m == v->map.end()) return nullptr;
      v = &m->second;
    }
  }
  return v;
}

std::string FormatPath(const DocumentPath& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.size(); i++) {
    if (i > 0) out += ", ";
    if (path[i].is_index) {
      out += "[";
      out += std::to_string(path[i].index);
      out += "]";
    } else {
      out += path[i].name;
    }
  }
  out += "]";
  return out;
}

PathRelation ComparePaths(const DocumentPath& a, const DocumentPath& b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; i++) {
    if (a[i].is_index != b[i].is_index) return PathRelation::kConflict;
    if (a[i] != b[i]) return PathRelation::kDisjoint;
  }
  return PathRelation::kOverlap;
}

}  // namespace dynapage
