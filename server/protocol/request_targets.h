// RequestTargets: the tables and indexes a request targets, as its operation declares them before it runs
// (server/operations/operation_table.h). The test bench reads them for per-table page chaos, fault rules with a
// "table" or "index", the request log and the pagination audit (docs/testing-pagination.md), without reading the
// request a second time.
//
// What a request names: TableName, the tables of a batch's RequestItems, those of a transaction's items, the table of
// a stream ARN or shard iterator, those of PartiQL statements (the operation parses them); IndexName, or the index
// an ExecuteStatement reads (index), and with it the indexes the statements of a batch or transaction read
// (indexes). A malformed request targets what it names; none of this fails.

#ifndef DYNAPAGE_SERVER_PROTOCOL_REQUEST_TARGETS_H_
#define DYNAPAGE_SERVER_PROTOCOL_REQUEST_TARGETS_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>
#include <vector>

namespace dynapage {

struct RequestTargets {
  std::vector<std::string> tables;
  std::string index;
  std::vector<std::string> indexes;
  // ExecuteStatement: the table and index its one statement names (empty when it names none).
  std::string statement_table;
  std::string statement_index;
};

// Declares what request, a request of the named operation, targets into *targets (the operation table's
// DeclareOperationTargets). REQUIRES: request is a JSON object; targets is empty.
using TargetDeclarer = void (*)(std::string_view operation, const rapidjson::Value& request, RequestTargets* targets);

// Adds the tables and indexes a request's PartiQL statements name (the PartiQL operations parse them).
using StatementTargetAdder = void (*)(const rapidjson::Value& request, RequestTargets* targets);

// The targets of request: those its members name (TableName, StreamArn, ShardIterator, RequestItems,
// TransactItems, in that order; IndexName), then those add_statements adds (null: none), then IndexName, or the
// one statement's index, joins indexes. REQUIRES: request is a JSON object; targets is empty.
void CollectRequestTargets(const rapidjson::Value& request, StatementTargetAdder add_statements,
                           RequestTargets* targets);

// The table of a stream ARN ("arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL"), also at the start of a
// shard iterator ("<StreamArn>|1|…"); empty when there is none.
std::string_view TableOfStreamArn(std::string_view arn);

// The text of member of object, or "" when object is not an object or the member is not a string.
std::string_view TextMember(const rapidjson::Value& object, const char* member);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_REQUEST_TARGETS_H_
