// The request path end to end, without sockets: the Dispatcher (server/protocol/dispatcher.h) and every operation
// over an in-memory Database. Input: the operation ("PutItem", the X-Amz-Target after "DynamoDB_20120810."), a
// newline, then the body; a first line starting with '!' sends no Authorization header. Properties: no crash, no
// sanitizer report, and every answer is a JSON object in valid UTF-8. Two tables exist: "tab" (pk S) and "rng" (pk S,
// sk N, a global secondary index "gsi" on g S); the database starts afresh every few thousand inputs, so its size
// stays bounded.

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/base/utf8.h"
#include "engine/database/database.h"
#include "fuzz/fuzz_check.h"
#include "server/operations/operation_table.h"
#include "server/protocol/dispatcher.h"
#include "server/protocol/in_process_request.h"

namespace dynapage {
namespace {

const char kAuthorization[] =
    "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, "
    "Signature=abc";

class Service {
 public:
  Service() { Reset(); }

  WireResponse Call(std::string_view operation, std::string_view body, bool signed_request) {
    std::string text(body);  // WireRequest::body is NUL-terminated
    InProcessRequest request("FUZZ", operation, signed_request ? kAuthorization : "", text);
    return dispatcher_->Handle(request.wire);
  }

  void MaybeReset() {
    if (++calls_ % 4000 == 0) Reset();
  }

 private:
  void Reset() {
    dispatcher_.reset();
    databases_.reset();
    db_.reset();
    FUZZ_CHECK(Database::Open(DatabaseOptions(), &db_).ok());
    databases_ = std::make_unique<DatabaseSet>(db_.get());
    dispatcher_ = std::make_unique<Dispatcher>(databases_.get(), ServiceOptions(), &FindOperation);
    FUZZ_CHECK(Call("CreateTable",
                    R"({"TableName":"tab","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[)"
                    R"({"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})",
                    true)
                   .status == 200);
    FUZZ_CHECK(Call("CreateTable",
                    R"({"TableName":"rng","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[)"
                    R"({"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},)"
                    R"({"AttributeName":"g","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
                    R"({"AttributeName":"sk","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"gsi",)"
                    R"("KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]})",
                    true)
                   .status == 200);
    FUZZ_CHECK(Call("PutItem", R"({"TableName":"tab","Item":{"pk":{"S":"k"},"a":{"L":[{"N":"1"},{"M":{"b":{"S":"x"}}}]}}})",
                    true)
                   .status == 200);
  }

  std::unique_ptr<Database> db_;
  std::unique_ptr<DatabaseSet> databases_;
  std::unique_ptr<Dispatcher> dispatcher_;
  uint64_t calls_ = 0;
};

}  // namespace
}  // namespace dynapage

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dynapage;
  static Service* service = new Service();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  std::string_view operation = input.substr(0, newline);
  bool signed_request = true;
  if (!operation.empty() && operation[0] == '!') {
    signed_request = false;
    operation.remove_prefix(1);
  }
  WireResponse response = service->Call(operation, input.substr(newline + 1), signed_request);
  FUZZ_CHECK(response.content_type == "application/x-amz-json-1.0");
  if (!IsValidUtf8(response.body)) {
    std::fprintf(stderr, "answer is not UTF-8: %s\n", response.body.c_str());
    FUZZ_CHECK(false);
  }
  rapidjson::Document json;
  json.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(response.body.c_str(),
                                                                                      response.body.size());
  if (json.HasParseError() || !json.IsObject()) {
    std::fprintf(stderr, "answer is not a JSON object: %s\n", response.body.c_str());
    FUZZ_CHECK(false);
  }
  service->MaybeReset();
  return 0;
}
