#include "server/protocol/stream_specification_reader.h"

#include "engine/base/messages.h"
#include "engine/model/json_types.h"

namespace dynapage {

Status ReadStreamSpecification(const RequestReader& r, StreamSpecificationInput* out, ConstraintErrors* errors) {
  const rapidjson::Value* spec = r.Get("StreamSpecification");
  out->present = spec != nullptr;
  if (!spec) return Status::OK();
  DP_RETURN_IF_ERROR(CheckJsonObject(*spec));
  RequestReader s(*spec);
  DP_RETURN_IF_ERROR(s.GetBoolean("StreamEnabled", &out->enabled));
  DP_RETURN_IF_ERROR(s.GetString("StreamViewType", &out->view_type));
  if (!out->enabled) errors->AddNull("streamSpecification.streamEnabled");
  // DynamoDB lists the values in this order, not the service model's.
  errors->CheckEnum(out->view_type, "streamSpecification.streamViewType",
                    {"OLD_IMAGE", "KEYS_ONLY", "NEW_AND_OLD_IMAGES", "NEW_IMAGE"});
  return Status::OK();
}

Status CreateTableStreamCheck(const StreamSpecificationInput& spec) {
  if (!spec.present) return Status::OK();
  if (*spec.enabled && !spec.view_type) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Table is being created with a stream enabled, UpdateViewType is required");
  }
  if (!*spec.enabled && spec.view_type) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "Table is being created with a stream disabled, UpdateViewType should not be specified");
  }
  return Status::OK();
}

Status UpdateTableStreamCheck(const StreamSpecificationInput& spec) {
  if (!spec.present) return Status::OK();
  if (*spec.enabled && !spec.view_type) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "If stream is being enabled then UpdateViewType is required");
  }
  if (!*spec.enabled && spec.view_type) {
    return Status::Validation(std::string(kInvalidParameterPrefix) +
                              "If stream is being disabled, then UpdateViewType must not be specified");
  }
  return Status::OK();
}

}  // namespace dynapage
