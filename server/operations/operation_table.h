// The operations dynapage implements: a handler for each (one file per operation in this folder) and the table
// that finds a handler by the operation's name, which the HTTP layer gives the Dispatcher. The table also says
// what a request of each operation targets (DeclareOperationTargets), for the test bench.

#ifndef DYNAPAGE_SERVER_OPERATIONS_OPERATION_TABLE_H_
#define DYNAPAGE_SERVER_OPERATIONS_OPERATION_TABLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/catalog/catalog.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"
#include "server/protocol/request_targets.h"

namespace dynapage {

// The handler of an operation name ("PutItem"), or nullptr if dynapage does not implement it. An OperationFinder.
OperationHandler FindOperation(std::string_view name);
// The names of every operation dynapage serves, DynamoDB's and DynamoDB Streams' (fault rules are checked
// against them).
std::vector<std::string> ServedOperationNames();

// What a request of the named operation (of DynamoDB or DynamoDB Streams) targets: the tables and indexes its
// members name and, for ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, those its statements
// name. A TargetDeclarer. REQUIRES: request is a JSON object; targets is empty.
void DeclareOperationTargets(std::string_view name, const rapidjson::Value& request, RequestTargets* targets);

Status HandleCreateTable(OperationContext& ctx);
Status HandleDescribeTable(OperationContext& ctx);
Status HandleListTables(OperationContext& ctx);
Status HandleDeleteTable(OperationContext& ctx);
Status HandlePutItem(OperationContext& ctx);
Status HandleGetItem(OperationContext& ctx);
Status HandleDeleteItem(OperationContext& ctx);
Status HandleBatchWriteItem(OperationContext& ctx);
Status HandleBatchGetItem(OperationContext& ctx);
Status HandleQuery(OperationContext& ctx);
Status HandleScan(OperationContext& ctx);
Status HandleSearchVectors(OperationContext& ctx);
Status HandleUpdateItem(OperationContext& ctx);
Status HandleTransactWriteItems(OperationContext& ctx);
Status HandleTransactGetItems(OperationContext& ctx);
Status HandleDescribeTimeToLive(OperationContext& ctx);
Status HandleUpdateTimeToLive(OperationContext& ctx);
Status HandleTagResource(OperationContext& ctx);
Status HandleUntagResource(OperationContext& ctx);
Status HandleListTagsOfResource(OperationContext& ctx);
Status HandleDescribeEndpoints(OperationContext& ctx);
Status HandleDescribeLimits(OperationContext& ctx);
Status HandleUpdateTable(OperationContext& ctx);
Status HandleUpdateTableReplicas(OperationContext& ctx);  // UpdateTable with ReplicaUpdates
// Global tables (docs/global-tables.md).
Status HandleCreateGlobalTable(OperationContext& ctx);
Status HandleDescribeGlobalTable(OperationContext& ctx);
Status HandleListGlobalTables(OperationContext& ctx);
Status HandleUpdateGlobalTable(OperationContext& ctx);
Status HandleDescribeGlobalTableSettings(OperationContext& ctx);
Status HandleUpdateGlobalTableSettings(OperationContext& ctx);
Status HandleDescribeTableReplicaAutoScaling(OperationContext& ctx);
Status HandleUpdateTableReplicaAutoScaling(OperationContext& ctx);
Status HandleDescribeContinuousBackups(OperationContext& ctx);
// Backups and restores (docs/backups.md).
Status HandleCreateBackup(OperationContext& ctx);
Status HandleDescribeBackup(OperationContext& ctx);
Status HandleListBackups(OperationContext& ctx);
Status HandleDeleteBackup(OperationContext& ctx);
Status HandleRestoreTableFromBackup(OperationContext& ctx);
Status HandleRestoreTableToPointInTime(OperationContext& ctx);
// BackupArn of DescribeBackup and DeleteBackup, with its constraints.
Status ReadBackupArn(const RequestReader& r, std::string* arn);
// A restore's answer: the new table CREATING, with its RestoreSummary, as DynamoDB's first answer shows it.
void WriteRestoredTableResponse(TableDescription* description, JsonWriter* w);
Status HandleUpdateContinuousBackups(OperationContext& ctx);
Status HandlePutResourcePolicy(OperationContext& ctx);
Status HandleGetResourcePolicy(OperationContext& ctx);
Status HandleDeleteResourcePolicy(OperationContext& ctx);
Status HandleDescribeContributorInsights(OperationContext& ctx);
Status HandleUpdateContributorInsights(OperationContext& ctx);
Status HandleListContributorInsights(OperationContext& ctx);
Status HandleEnableKinesisStreamingDestination(OperationContext& ctx);
Status HandleDisableKinesisStreamingDestination(OperationContext& ctx);
Status HandleUpdateKinesisStreamingDestination(OperationContext& ctx);
Status HandleDescribeKinesisStreamingDestination(OperationContext& ctx);
// Export and import (docs/export-import.md).
Status HandleExportTableToPointInTime(OperationContext& ctx);
Status HandleDescribeExport(OperationContext& ctx);
Status HandleListExports(OperationContext& ctx);
Status HandleImportTable(OperationContext& ctx);
Status HandleDescribeImport(OperationContext& ctx);
Status HandleListImports(OperationContext& ctx);
// Bulk put (engine/transfer/bulk_operations.h): one file each.
Status HandleStartBulkPutItems(OperationContext& ctx);
Status HandleDescribeBulkOperation(OperationContext& ctx);
Status HandleListBulkOperations(OperationContext& ctx);
Status HandleCancelBulkOperation(OperationContext& ctx);
// PartiQL (docs/partiql.md).
Status HandleExecuteStatement(OperationContext& ctx);
Status HandleBatchExecuteStatement(OperationContext& ctx);
Status HandleExecuteTransaction(OperationContext& ctx);

// DynamoDB Streams (X-Amz-Target DynamoDBStreams_20120810.<name>): the same contract, another table.
OperationHandler FindStreamsOperation(std::string_view name);
Status HandleListStreams(OperationContext& ctx);
Status HandleDescribeStream(OperationContext& ctx);
Status HandleGetShardIterator(OperationContext& ctx);
Status HandleGetRecords(OperationContext& ctx);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_OPERATION_TABLE_H_
