// NamespacedServer: an in-process server over a DatabaseSet (one namespace per access key and region, or as the
// mode says), and calls signed as any access key and region.

#ifndef DYNAPAGE_TESTS_HTTP_NAMESPACED_SERVER_H_
#define DYNAPAGE_TESTS_HTTP_NAMESPACED_SERVER_H_

#include <rapidjson/document.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "engine/database/database_set.h"
#include "server/http/http_server.h"
#include "server/service/service.h"
#include "tests/http/http_test_util.h"

namespace dynapage {

// A signed request's Authorization header, for access_key in region.
inline std::string Authorization(const std::string& access_key, const std::string& region) {
  return "AWS4-HMAC-SHA256 Credential=" + access_key + "/20260101/" + region +
         "/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0123";
}

// An HttpServer over a DatabaseSet, and calls signed as any access key and region.
class NamespacedServer {
 public:
  explicit NamespacedServer(NamespaceMode mode, const std::string& path = "") {
    Status opened = Service::Open(mode, DatabaseOptions{path}, ServiceOptions(), nullptr, &service_);
    if (!opened.ok()) std::abort();
    port_ = server_.Bind("127.0.0.1", 0);
    thread_ = std::thread([this] { server_.Run(service_.get()); });
    TestClient(port_).AwaitAnswer(std::chrono::seconds(10));
  }
  ~NamespacedServer() {
    server_.Stop();
    thread_.join();
    server_.WaitForRequests();
  }

  rapidjson::Document Call(const std::string& access_key, const std::string& region, const std::string& operation,
                           const std::string& body, int* status = nullptr) {
    HttpRequest request;
    request.headers = DynamoHeaders(operation);
    request.headers.erase("Authorization");
    request.headers.emplace("Authorization", Authorization(access_key, region));
    request.body = body;
    HttpResult answer = TestClient(port_).Send(request);
    rapidjson::Document d;
    d.Parse(answer.status != 0 ? answer.body.c_str() : "{}");
    if (status) *status = answer.status;
    return d;
  }

  std::string CreateTable(const std::string& access_key, const std::string& region, const std::string& name) {
    rapidjson::Document d = Call(access_key, region, "CreateTable",
                                 R"({"TableName":")" + name +
                                     R"(","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                                     R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
                                     R"("BillingMode":"PAY_PER_REQUEST"})");
    if (!d.IsObject() || !d.HasMember("TableDescription")) return "";
    return d["TableDescription"]["TableArn"].GetString();
  }

  int port() const { return port_; }

  std::string TableNames(const std::string& access_key, const std::string& region) {
    rapidjson::Document d = Call(access_key, region, "ListTables", "{}");
    std::string names;
    for (const auto& name : d["TableNames"].GetArray()) names += std::string(name.GetString()) + " ";
    return names;
  }

 private:
  std::unique_ptr<Service> service_;
  HttpServer server_;
  std::thread thread_;
  int port_ = -1;
};

}  // namespace dynapage

#endif  // DYNAPAGE_TESTS_HTTP_NAMESPACED_SERVER_H_
