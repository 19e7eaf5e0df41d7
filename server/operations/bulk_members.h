// What StartBulkPutItems, DescribeBulkOperation, ListBulkOperations and CancelBulkOperation share on the wire
// (start_bulk_put_items.cc, describe_bulk_operation.cc, list_bulk_operations.cc, cancel_bulk_operation.cc): the
// server's bulk operations, the BulkOperationArn member, and BulkOperationDescription.

#ifndef DYNAPAGE_SERVER_OPERATIONS_BULK_MEMBERS_H_
#define DYNAPAGE_SERVER_OPERATIONS_BULK_MEMBERS_H_

#include <string>

#include "engine/model/attribute_value_json.h"
#include "engine/transfer/bulk_operations.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// The server's bulk operations, or the refusal (kNoS3DirMessage) of a server that serves none.
Status BulkOperationsOf(const OperationContext& ctx, BulkOperations** out);

// BulkOperationArn: required, 37 to 1,024 characters (the service model's constraints).
Status ReadBulkOperationArn(const RequestReader& r, std::string* arn);

// "BulkOperationDescription": {…} of record.
void WriteBulkOperationDescription(const BulkOperationRecord& record, JsonWriter& w);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_BULK_MEMBERS_H_
