#include "server/protocol/region_actions_reader.h"

#include <optional>

#include "server/protocol/table_schema_reader.h"

namespace dynapage {

Status ReadRegionActions(const RequestReader& r, const char* member, const std::string& path, bool with_update,
                         RegionActions* out, ConstraintErrors* errors) {
  *out = RegionActions();
  std::vector<const rapidjson::Value*> elements;
  DP_RETURN_IF_ERROR(ReadStructList(r, member, &elements, &out->present));
  out->elements = elements.size();
  for (size_t i = 0; i < elements.size(); i++) {
    RequestReader element(*elements[i]);
    int actions = 0;
    struct Action {
      const char* name;
      const char* field;
      std::vector<std::string>* regions;
    };
    const Action kActions[] = {{"Create", "create", &out->creates},
                               {"Update", "update", with_update ? &out->updates : nullptr},
                               {"Delete", "delete", &out->deletes}};
    for (const Action& a : kActions) {
      if (!a.regions) continue;
      const rapidjson::Value* action = element.Get(a.name);
      if (!action) continue;
      if (!action->IsObject())
        return Status::Serialization(action->IsArray() ? "Start of list found where not expected"
                                                       : "Unexpected field type");
      actions++;
      std::optional<std::string> region;
      DP_RETURN_IF_ERROR(RequestReader(*action).GetString("RegionName", &region));
      if (!region) {
        errors->AddNull(path + "." + std::to_string(i + 1) + ".member." + a.field + ".regionName");
        continue;
      }
      a.regions->push_back(*region);
    }
    out->some_element_empty |= actions == 0;
    out->some_element_mixed |= actions > 1;
  }
  return Status::OK();
}

}  // namespace dynapage
