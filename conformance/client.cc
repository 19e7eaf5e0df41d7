#include "conformance/client.h"

#include <httplib.h>

#include <chrono>
#include <thread>

namespace conformance {

std::string Response::Describe() const {
  std::string out = "HTTP " + std::to_string(status);
  if (!error_type.empty()) out += " " + error_type;
  if (!message.empty()) out += " \"" + message + "\"";
  std::string head = body.size() > 600 ? body.substr(0, 600) + "…(" + std::to_string(body.size()) + " bytes)" : body;
  return out + " body: " + head;
}

Client::Client(const Endpoint& endpoint)
    : endpoint_(endpoint),
      http_(std::make_unique<httplib::Client>(endpoint.scheme + "://" + endpoint.host + ":" +
                                              std::to_string(endpoint.port))) {
  http_->set_connection_timeout(10, 0);
  // A 1 MB page over a slow link, or a server under a debugger, can take a while; a hang still ends.
  http_->set_read_timeout(60, 0);
  http_->set_write_timeout(60, 0);
  // Keep-alive, as SDKs do (and it spares a TLS handshake per request against AWS). A server that answers
  // a kept-alive connection in two writes without TCP_NODELAY makes every request ~40 ms slower (Nagle +
  // delayed ACK); dynapage sets TCP_NODELAY since 39f1663.
  http_->set_keep_alive(true);
  http_->set_tcp_nodelay(true);
}

Client::~Client() = default;

Response Client::CallOnce(const std::string& operation, const std::string& body) {
  RequestToSign to_sign;
  to_sign.host = endpoint_.host_header;
  to_sign.body = body;
  to_sign.headers = {{"Content-Type", "application/x-amz-json-1.0"},
                     {"X-Amz-Target", "DynamoDB_20120810." + operation}};
  HeaderList signing = SignV4(to_sign, endpoint_.credentials, endpoint_.region, "dynamodb", std::time(nullptr));

  // Host is set explicitly so that what goes on the wire is exactly what was signed. Content-Type is given
  // to httplib as the content type argument (passing it as a header too would send it twice).
  httplib::Headers headers{{"Host", endpoint_.host_header}, {"X-Amz-Target", "DynamoDB_20120810." + operation}};
  for (const auto& [name, value] : signing) headers.emplace(name, value);

  Response r;
  auto result = http_->Post("/", headers, body, "application/x-amz-json-1.0");
  if (!result) {
    r.message = "transport error: " + httplib::to_string(result.error());
    return r;
  }
  r.status = result->status;
  r.body = result->body;
  r.json.Parse(r.body.c_str(), r.body.size());
  if (r.json.HasParseError()) r.json.SetNull();
  if (r.status != 200 && r.json.IsObject()) {
    if (const rapidjson::Value* type = Member(r.json, "__type"); type && type->IsString()) {
      // SDKs keep only the text after '#' (botocore: code.rsplit('#', 1)[1]).
      std::string t = type->GetString();
      size_t hash = t.rfind('#');
      r.error_type = hash == std::string::npos ? t : t.substr(hash + 1);
    }
    const rapidjson::Value* m = Member(r.json, "message");
    if (!m) m = Member(r.json, "Message");
    if (m && m->IsString()) r.message = m->GetString();
  }
  return r;
}

Response Client::Call(const std::string& operation, const std::string& body) {
  const int attempts = endpoint_.is_aws ? 8 : 1;
  Response r;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100 << std::min(attempt, 6)));
    r = CallOnce(operation, body);
    bool retryable = r.status == 0 || r.status >= 500 || r.error_type == "ProvisionedThroughputExceededException" ||
                     r.error_type == "ThrottlingException" || r.error_type == "RequestLimitExceeded" ||
                     r.error_type == "LimitExceededException";
    if (!retryable) break;
  }
  return r;
}

}  // namespace conformance
