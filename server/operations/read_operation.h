// What Query and Scan share on the wire: reading the common request members, and writing a page as the
// response, items streamed from the engine straight into the response body.

#ifndef DYNAPAGE_SERVER_OPERATIONS_READ_OPERATION_H_
#define DYNAPAGE_SERVER_OPERATIONS_READ_OPERATION_H_

#include <functional>

#include "engine/read/page_reader.h"
#include "engine/read/read_request.h"
#include "server/protocol/consumed_capacity_json.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// Writes each item of a page into the response, where an array is open (Query, Scan, ExecuteStatement).
class ResponseSink : public ItemSink {
 public:
  explicit ResponseSink(JsonWriter* w) : w_(w) {}
  void AddJson(std::string_view json) override;
  void AddItem(const AttributeMap& item) override;

 private:
  JsonWriter* w_;
};

// Reads the members common to Query and Scan into *request and checks their constraints into *errors.
// filter_member is "QueryFilter" or "ScanFilter"; scan_cohorts words a Scan's Limit (null for Query).
Status ReadCommonReadMembers(const RequestReader& r, const char* filter_member, const MessageCohorts* scan_cohorts,
                             ReadRequest* request, std::optional<std::string>* capacity, ConstraintErrors* errors);

// Runs read(sink, result) with a sink writing "Items" into the response, then writes Count, ScannedCount,
// LastEvaluatedKey and ConsumedCapacity.
Status WriteReadResponse(OperationContext& ctx, const ReadRequest& request, CapacityDetail detail,
                         const std::function<Status(ItemSink*, ReadResult*)>& read);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_READ_OPERATION_H_
