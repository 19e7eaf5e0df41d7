#include "server/operations/operation_table.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "engine/base/check.h"

#include "server/operations/partiql_members.h"

namespace dynapage {

namespace {

// One operation: its name, its handler, and what it adds to the targets its members name (PartiQL statements).
struct OperationEntry {
  std::string_view name;
  OperationHandler handler;
  StatementTargetAdder add_statement_targets = nullptr;
};

const OperationEntry kOperations[] = {
    {"BatchExecuteStatement", HandleBatchExecuteStatement, AddStatementTargets},
    {"BatchGetItem", HandleBatchGetItem},
    {"BatchWriteItem", HandleBatchWriteItem},
    {"CancelBulkOperation", HandleCancelBulkOperation},
    {"CreateBackup", HandleCreateBackup},
    {"CreateGlobalTable", HandleCreateGlobalTable},
    {"CreateTable", HandleCreateTable},
    {"DeleteBackup", HandleDeleteBackup},
    {"DeleteItem", HandleDeleteItem},
    {"DeleteResourcePolicy", HandleDeleteResourcePolicy},
    {"DeleteTable", HandleDeleteTable},
    {"DescribeBackup", HandleDescribeBackup},
    {"DescribeBulkOperation", HandleDescribeBulkOperation},
    {"DescribeContinuousBackups", HandleDescribeContinuousBackups},
    {"DescribeContributorInsights", HandleDescribeContributorInsights},
    {"DescribeEndpoints", HandleDescribeEndpoints},
    {"DescribeExport", HandleDescribeExport},
    {"DescribeGlobalTable", HandleDescribeGlobalTable},
    {"DescribeGlobalTableSettings", HandleDescribeGlobalTableSettings},
    {"DescribeImport", HandleDescribeImport},
    {"DescribeKinesisStreamingDestination", HandleDescribeKinesisStreamingDestination},
    {"DescribeLimits", HandleDescribeLimits},
    {"DescribeTable", HandleDescribeTable},
    {"DescribeTableReplicaAutoScaling", HandleDescribeTableReplicaAutoScaling},
    {"DescribeTimeToLive", HandleDescribeTimeToLive},
    {"DisableKinesisStreamingDestination", HandleDisableKinesisStreamingDestination},
    {"EnableKinesisStreamingDestination", HandleEnableKinesisStreamingDestination},
    {"ExecuteStatement", HandleExecuteStatement, AddStatementTargets},
    {"ExecuteTransaction", HandleExecuteTransaction, AddStatementTargets},
    {"ExportTableToPointInTime", HandleExportTableToPointInTime},
    {"GetItem", HandleGetItem},
    {"GetResourcePolicy", HandleGetResourcePolicy},
    {"ImportTable", HandleImportTable},
    {"ListBackups", HandleListBackups},
    {"ListBulkOperations", HandleListBulkOperations},
    {"ListContributorInsights", HandleListContributorInsights},
    {"ListExports", HandleListExports},
    {"ListGlobalTables", HandleListGlobalTables},
    {"ListImports", HandleListImports},
    {"ListTables", HandleListTables},
    {"ListTagsOfResource", HandleListTagsOfResource},
    {"PutItem", HandlePutItem},
    {"PutResourcePolicy", HandlePutResourcePolicy},
    {"Query", HandleQuery},
    {"RestoreTableFromBackup", HandleRestoreTableFromBackup},
    {"RestoreTableToPointInTime", HandleRestoreTableToPointInTime},
    {"Scan", HandleScan},
    {"SearchVectors", HandleSearchVectors},
    {"StartBulkPutItems", HandleStartBulkPutItems},
    {"TagResource", HandleTagResource},
    {"TransactGetItems", HandleTransactGetItems},
    {"TransactWriteItems", HandleTransactWriteItems},
    {"UntagResource", HandleUntagResource},
    {"UpdateContinuousBackups", HandleUpdateContinuousBackups},
    {"UpdateContributorInsights", HandleUpdateContributorInsights},
    {"UpdateGlobalTable", HandleUpdateGlobalTable},
    {"UpdateGlobalTableSettings", HandleUpdateGlobalTableSettings},
    {"UpdateItem", HandleUpdateItem},
    {"UpdateKinesisStreamingDestination", HandleUpdateKinesisStreamingDestination},
    {"UpdateTable", HandleUpdateTable},
    {"UpdateTableReplicaAutoScaling", HandleUpdateTableReplicaAutoScaling},
    {"UpdateTimeToLive", HandleUpdateTimeToLive},
};

const OperationEntry kStreamsOperations[] = {
    {"DescribeStream", HandleDescribeStream},
    {"GetRecords", HandleGetRecords},
    {"GetShardIterator", HandleGetShardIterator},
    {"ListStreams", HandleListStreams},
};

bool NameBefore(const OperationEntry& a, const OperationEntry& b) { return a.name < b.name; }

// By binary search: every request looks its operation up, and a Query was ~45 comparisons down the table.
// REQUIRES: table is sorted by name (checked in debug and test builds).
template <size_t N>
const OperationEntry* Find(const OperationEntry (&table)[N], std::string_view name) {
  DP_DCHECK(std::is_sorted(std::begin(table), std::end(table), NameBefore));
  const OperationEntry* at =
      std::lower_bound(std::begin(table), std::end(table), OperationEntry{name, nullptr}, NameBefore);
  return at != std::end(table) && at->name == name ? at : nullptr;
}
}  // namespace

OperationHandler FindOperation(std::string_view name) {
  // A client mostly repeats its operation: the last one a thread found is compared first (one comparison where the
  // search was ~7).
  thread_local const OperationEntry* last_found = nullptr;
  if (last_found == nullptr || last_found->name != name) {
    const OperationEntry* entry = Find(kOperations, name);
    if (!entry) return nullptr;
    last_found = entry;
  }
  return last_found->handler;
}

OperationHandler FindStreamsOperation(std::string_view name) {
  const OperationEntry* entry = Find(kStreamsOperations, name);
  return entry ? entry->handler : nullptr;
}

std::vector<std::string> ServedOperationNames() {
  std::vector<std::string> names;
  for (const OperationEntry& entry : kOperations) names.emplace_back(entry.name);
  for (const OperationEntry& entry : kStreamsOperations) names.emplace_back(entry.name);
  return names;
}

void DeclareOperationTargets(std::string_view name, const rapidjson::Value& request, RequestTargets* targets) {
  const OperationEntry* entry = Find(kOperations, name);
  if (!entry) entry = Find(kStreamsOperations, name);
  CollectRequestTargets(request, entry ? entry->add_statement_targets : nullptr, targets);
}

}  // namespace dynapage
