#include "server/operations/operation_table.h"

#include <utility>

namespace dynapage {

namespace {
const std::pair<std::string_view, OperationHandler> kOperations[] = {
    {"BatchExecuteStatement", HandleBatchExecuteStatement},
    {"BatchGetItem", HandleBatchGetItem},
    {"BatchWriteItem", HandleBatchWriteItem},
    {"CreateTable", HandleCreateTable},
    {"DeleteItem", HandleDeleteItem},
    {"DeleteTable", HandleDeleteTable},
    {"DescribeContinuousBackups", HandleDescribeContinuousBackups},
    {"DescribeEndpoints", HandleDescribeEndpoints},
    {"DescribeLimits", HandleDescribeLimits},
    {"DescribeTable", HandleDescribeTable},
    {"DescribeTimeToLive", HandleDescribeTimeToLive},
    {"ExecuteStatement", HandleExecuteStatement},
    {"ExecuteTransaction", HandleExecuteTransaction},
    {"GetItem", HandleGetItem},
    {"ListTables", HandleListTables},
    {"ListTagsOfResource", HandleListTagsOfResource},
    {"PutItem", HandlePutItem},
    {"Query", HandleQuery},
    {"Scan", HandleScan},
    {"TagResource", HandleTagResource},
    {"TransactGetItems", HandleTransactGetItems},
    {"TransactWriteItems", HandleTransactWriteItems},
    {"UntagResource", HandleUntagResource},
    {"UpdateContinuousBackups", HandleUpdateContinuousBackups},
    {"UpdateItem", HandleUpdateItem},
    {"UpdateTable", HandleUpdateTable},
    {"UpdateTimeToLive", HandleUpdateTimeToLive},
};

const std::pair<std::string_view, OperationHandler> kStreamsOperations[] = {
    {"DescribeStream", HandleDescribeStream},
    {"GetRecords", HandleGetRecords},
    {"GetShardIterator", HandleGetShardIterator},
    {"ListStreams", HandleListStreams},
};

template <size_t N>
OperationHandler Find(const std::pair<std::string_view, OperationHandler> (&table)[N], std::string_view name) {
  for (const auto& [op, handler] : table) {
    if (op == name) return handler;
  }
  return nullptr;
}
}  // namespace

OperationHandler FindOperation(std::string_view name) { return Find(kOperations, name); }

OperationHandler FindStreamsOperation(std::string_view name) { return Find(kStreamsOperations, name); }

std::vector<std::string> ServedOperationNames() {
  std::vector<std::string> names;
  for (const auto& entry : kOperations) names.emplace_back(entry.first);
  for (const auto& entry : kStreamsOperations) names.emplace_back(entry.first);
  return names;
}

}  // namespace dynapage
