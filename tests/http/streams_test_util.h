// Test support for DynamoDB Streams and TTL: calls under the Streams target prefix, the admin calls, and reading
// a stream's records whole.

#ifndef DYNAPAGE_TESTS_HTTP_STREAMS_TEST_UTIL_H_
#define DYNAPAGE_TESTS_HTTP_STREAMS_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {

// POSTs body as a DynamoDB Streams operation (X-Amz-Target DynamoDBStreams_20120810.<operation>).
HttpResult CallStreams(TestServer& server, const std::string& operation, const std::string& body);
// POSTs body to an admin path ("/_dynapage/clock").
HttpResult CallAdmin(TestServer& server, const std::string& path, const std::string& body);
// POST /_dynapage/ttl/sweep; the ExpiredItems it answers (-1 on failure).
int64_t Sweep(TestServer& server);

// One record as GetRecords returned it, members as compact JSON text ("" when absent).
struct StreamRecordText {
  std::string event_name;
  std::string keys;
  std::string new_image;
  std::string old_image;
  std::string sequence_number;
  std::string user_identity;
  int64_t size_bytes = 0;
  std::string json;  // the whole record
};

// The table's LatestStreamArn (from DescribeTable), or "".
std::string LatestStreamArn(TestServer& server, const std::string& table);
// The stream's one shard id (from DescribeStream).
std::string ShardIdOf(TestServer& server, const std::string& stream_arn);
// A shard iterator; ADD_FAILURE and "" on an error.
std::string Iterator(TestServer& server, const std::string& stream_arn, const std::string& type,
                     const std::string& sequence_number = "");
// Every record from TRIM_HORIZON, following NextShardIterator until a read returns none.
std::vector<StreamRecordText> ReadAll(TestServer& server, const std::string& stream_arn);
// GetRecords from an iterator; *next is the NextShardIterator ("" when absent).
std::vector<StreamRecordText> ReadOnce(TestServer& server, const std::string& iterator, std::string* next,
                                       int limit = 0);
// "INSERT a" for each record, keys by their S or N value.
std::vector<std::string> Events(const std::vector<StreamRecordText>& records);

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_STREAMS_TEST_UTIL_H_
