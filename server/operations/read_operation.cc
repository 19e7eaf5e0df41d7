#include "server/operations/read_operation.h"

#include "engine/base/messages.h"

namespace dynapage {

namespace {
// The room made for a page's items before the first is written: a page of Limit 25 small items, or the first
// steps of a larger page, without regrowing (and copying) the response buffer several times on the way.
constexpr size_t kItemsReserveBytes = 16 * 1024;

}  // namespace

void ResponseSink::AddJson(std::string_view json) { w_->RawJson(json, rapidjson::kObjectType); }
void ResponseSink::AddItem(const AttributeMap& item) { WriteAttributeMap(item, w_); }

Status ReadCommonReadMembers(const RequestReader& r, const char* filter_member, const MessageCohorts* scan_cohorts,
                             ReadRequest* request, std::optional<std::string>* capacity, ConstraintErrors* errors) {
  std::optional<std::string> table_name;
  std::optional<bool> consistent;
  DP_RETURN_IF_ERROR(r.GetString("TableName", &table_name));
  DP_RETURN_IF_ERROR(r.GetString("IndexName", &request->index_name));
  DP_RETURN_IF_ERROR(r.GetStringList("AttributesToGet", &request->attributes_to_get));
  DP_RETURN_IF_ERROR(r.GetInteger("Limit", &request->limit));
  DP_RETURN_IF_ERROR(r.GetString("Select", &request->select));
  DP_RETURN_IF_ERROR(r.GetBoolean("ConsistentRead", &consistent));
  DP_RETURN_IF_ERROR(r.GetString("ReturnConsumedCapacity", capacity));
  DP_RETURN_IF_ERROR(r.GetString("FilterExpression", &request->filter_expression));
  DP_RETURN_IF_ERROR(r.GetLegacyConditions(filter_member, &request->legacy_filter));
  DP_RETURN_IF_ERROR(r.GetString("ConditionalOperator", &request->conditional_operator));
  DP_RETURN_IF_ERROR(r.GetString("ProjectionExpression", &request->projection_expression));
  DP_RETURN_IF_ERROR(r.GetExpressionInputs(&request->expression_inputs));
  Status s = r.GetAttributeMap("ExclusiveStartKey", &request->exclusive_start_key);
  if (!s.ok()) {
    // DynamoDB words the shape errors of an ExclusiveStartKey value as a bad start key (docs/behaviour.md §3.2);
    // number errors and the others keep their plain text.
    if (IsStartKeyShapeError(s.detail())) return WithMessagePrefix(kInvalidStartKeyPrefix, s);
    return s;
  }

  errors->CheckItemTableName(table_name);
  if (request->index_name) errors->CheckTableName(request->index_name, "indexName", false);
  if (request->attributes_to_get && request->attributes_to_get->empty()) {
    errors->Add("[]", "attributesToGet", "Member must have length greater than or equal to 1");
  }
  if (request->limit && *request->limit < 1) {
    if (scan_cohorts) {
      errors->AddRaw(CohortText(*scan_cohorts, CohortTextId::kScanLimitBelowOne, std::to_string(*request->limit)));
    } else {
      errors->AddUnechoed("Limit", "Member must have value greater than or equal to 1");
    }
  }
  errors->CheckEnum(request->select, "select",
                    {"SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"});
  errors->CheckEnum(*capacity, "returnConsumedCapacity", kReturnConsumedCapacityValues);
  errors->CheckEnum(request->conditional_operator, "conditionalOperator", {"AND", "OR"});
  request->table_name = table_name.value_or("");
  request->consistent_read = consistent.value_or(false);
  request->index_capacity_detail = *capacity && **capacity == "INDEXES";
  return Status::OK();
}

Status WriteReadResponse(OperationContext& ctx, const ReadRequest& request, CapacityDetail detail,
                         const std::function<Status(ItemSink*, ReadResult*)>& read) {
  JsonWriter& w = ctx.response;
  bool count_only = request.select && *request.select == "COUNT";
  w.StartObject();
  if (!count_only) {
    w.Reserve(kItemsReserveBytes);
    w.Key("Items");
    w.StartArray();
  }
  ResponseSink sink(&w);
  ReadResult result;
  DP_RETURN_IF_ERROR(read(&sink, &result));
  if (!count_only) w.EndArray();
  w.Key("Count");
  w.Uint64(result.count);
  w.Key("ScannedCount");
  w.Uint64(result.scanned_count);
  if (result.last_evaluated_key) {
    w.Key("LastEvaluatedKey");
    WriteAttributeMap(*result.last_evaluated_key, &w);
  }
  WriteConsumedCapacityMember(result.capacity, detail, &w);
  w.EndObject();
  return Status::OK();
}

}  // namespace dynapage
