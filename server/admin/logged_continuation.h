// LoggedContinuation: the continuation a paginated request sent and the one its answer handed out, as JSON text,
// for the request log's start_key and next_key (docs/testing-pagination.md, "The request log"), by which the console
// draws a conversation as a chain of pages (docs/console.md).
//
// The answer is not parsed: its continuation member is the last one the operations write after the items (a key)
// or has a string value that no item attribute can have (a token), so a search from the end finds it, and only that
// value is read. Costs nothing for an operation that has no continuation.

#ifndef DYNAPAGE_SERVER_ADMIN_LOGGED_CONTINUATION_H_
#define DYNAPAGE_SERVER_ADMIN_LOGGED_CONTINUATION_H_

#include <rapidjson/document.h>

#include <string>
#include <string_view>

namespace dynapage {

struct LoggedContinuation {
  std::string start;  // ExclusiveStartKey, NextToken, ShardIterator or ExclusiveStartTableName sent; "" if none
  std::string next;   // LastEvaluatedKey, NextToken, NextShardIterator or LastEvaluatedTableName handed out
};

// The continuations of a request of operation with the parsed body request, answered with answer_body (status
// 200; "" for a failed request). handed_out: the operation's counters say the answer carries a LastEvaluatedKey
// (Query, Scan, whose items could hold an attribute of that name).
LoggedContinuation ContinuationOf(std::string_view operation, const rapidjson::Value& request,
                                  const std::string& answer_body, bool handed_out);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_ADMIN_LOGGED_CONTINUATION_H_
