#include "server/operation.h"

#include <utility>

namespace dynapage {

OperationHandler FindOperation(std::string_view name) {
  static const std::pair<std::string_view, OperationHandler> kOperations[] = {
      {"BatchGetItem", HandleBatchGetItem},
      {"BatchWriteItem", HandleBatchWriteItem},
      {"CreateTable", HandleCreateTable},
      {"DeleteItem", HandleDeleteItem},
      {"DeleteTable", HandleDeleteTable},
      {"DescribeTable", HandleDescribeTable},
      {"GetItem", HandleGetItem},
      {"ListTables", HandleListTables},
      {"PutItem", HandlePutItem},
      {"Query", HandleQuery},
      {"Scan", HandleScan},
  };
  for (const auto& [op, handler] : kOperations) {
    if (op == name) return handler;
  }
  return nullptr;
}

}  // namespace dynapage
