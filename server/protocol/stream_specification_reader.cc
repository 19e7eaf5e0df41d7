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

namespace {
// The view type required to enable and refused to disable, each refusal in the operation's words.
Status CheckViewType(const StreamSpecificationInput& spec, const char* required, const char* refused) {
  if (!spec.present) return Status::OK();
  if (*spec.enabled && !spec.view_type) return Status::Validation(std::string(kInvalidParameterPrefix) + required);
  if (!*spec.enabled && spec.view_type) return Status::Validation(std::string(kInvalidParameterPrefix) + refused);
  return Status::OK();
}
}  // namespace

Status CreateTableStreamCheck(const StreamSpecificationInput& spec) {
  return CheckViewType(spec, "Table is being created with a stream enabled, UpdateViewType is required",
                       "Table is being created with a stream disabled, UpdateViewType should not be specified");
}

Status UpdateTableStreamCheck(const StreamSpecificationInput& spec) {
  return CheckViewType(spec, "If stream is being enabled then UpdateViewType is required",
                       "If stream is being disabled, then UpdateViewType must not be specified");
}

}  // namespace dynapage
