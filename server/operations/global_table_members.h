// What the operations of global tables share (docs/global-tables.md): the check that regions have namespaces of
// their own, and reading a GlobalTableName.

#ifndef DYNAPAGE_SERVER_OPERATIONS_GLOBAL_TABLE_MEMBERS_H_
#define DYNAPAGE_SERVER_OPERATIONS_GLOBAL_TABLE_MEMBERS_H_

#include <string>

#include "engine/database/global_tables.h"
#include "server/protocol/operation.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// ValidationException when the server shares one namespace among regions (--namespace shared): no table there
// can have a replica.
Status RequireRegionNamespaces(const OperationContext& ctx);

// GlobalTableName, with its constraints checked into errors (the caller reports them).
Status ReadGlobalTableName(const RequestReader& r, std::string* name, ConstraintErrors* errors);

// Describe(GlobalTable|GlobalTableSettings): the 2017.11.29 group their GlobalTableName names.
Status DescribeNamedGlobalTable(const OperationContext& ctx, GlobalTableInfo* info);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_OPERATIONS_GLOBAL_TABLE_MEMBERS_H_
