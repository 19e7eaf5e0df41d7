#include "server/operations/operation_table.h"

#include <utility>

namespace dynapage {

OperationHandler FindOperation(std::string_view name) {
  static const std::pair<std::string_view, OperationHandler> kOperations[] = {
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
  for (const auto& [op, handler] : kOperations) {
    if (op == name) return handler;
  }
  return nullptr;
}

OperationHandler FindStreamsOperation(std::string_view name) {
  static const std::pair<std::string_view, OperationHandler> kOperations[] = {
      {"DescribeStream", HandleDescribeStream},
      {"GetRecords", HandleGetRecords},
      {"GetShardIterator", HandleGetShardIterator},
      {"ListStreams", HandleListStreams},
  };
  for (const auto& [op, handler] : kOperations) {
    if (op == name) return handler;
  }
  return nullptr;
}

}  // namespace dynapage
