#include "conformance/endpoint.h"

#include <cstdlib>

namespace conformance {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string Endpoint::Describe() const {
  std::string out = url + " (" + (is_aws ? "AWS" : "local") + ", region " + region;
  out += credentials_from_environment ? ", credentials from the environment" : ", dummy credentials";
  if (!credentials.session_token.empty()) out += " with session token";
  return out + ")";
}

bool EndpointFromEnvironment(Endpoint* e, std::string* error) {
  e->url = Env("DYNAPAGE_ENDPOINT");
  if (e->url.empty()) e->url = Env("DYNAMODB_ENDPOINT");
  if (e->url.empty()) e->url = "http://localhost:8000";
  while (!e->url.empty() && e->url.back() == '/') e->url.pop_back();

  size_t sep = e->url.find("://");
  if (sep == std::string::npos) {
    *error = "endpoint '" + e->url + "' has no scheme (want http://host:port or https://host)";
    return false;
  }
  e->scheme = e->url.substr(0, sep);
  if (e->scheme != "http" && e->scheme != "https") {
    *error = "endpoint scheme must be http or https: " + e->url;
    return false;
  }
  std::string rest = e->url.substr(sep + 3);
  if (rest.find('/') != std::string::npos) {
    *error = "endpoint must not have a path: " + e->url;
    return false;
  }
  const int default_port = e->scheme == "https" ? 443 : 80;
  e->port = default_port;
  size_t colon = rest.rfind(':');
  if (colon != std::string::npos && rest.find(']') == std::string::npos) {
    e->host = rest.substr(0, colon);
    char* end = nullptr;
    long port = std::strtol(rest.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port <= 0 || port > 65535) {
      *error = "bad port in endpoint: " + e->url;
      return false;
    }
    e->port = static_cast<int>(port);
  } else {
    e->host = rest;
  }
  if (e->host.empty()) {
    *error = "endpoint has no host: " + e->url;
    return false;
  }
  // Matches botocore's _host_from_url: the port is part of Host only when it is not the default.
  e->host_header = e->port == default_port ? e->host : e->host + ":" + std::to_string(e->port);
  e->is_aws = EndsWith(e->host, ".amazonaws.com") || EndsWith(e->host, ".amazonaws.com.cn");

  e->region = Env("AWS_REGION");
  if (e->region.empty()) e->region = Env("AWS_DEFAULT_REGION");
  if (e->region.empty() && e->is_aws) {
    // dynamodb.<region>.amazonaws.com
    size_t first = e->host.find('.');
    size_t second = first == std::string::npos ? first : e->host.find('.', first + 1);
    if (second != std::string::npos) e->region = e->host.substr(first + 1, second - first - 1);
  }
  if (e->region.empty()) e->region = "us-east-1";

  e->credentials.access_key_id = Env("AWS_ACCESS_KEY_ID");
  e->credentials.secret_access_key = Env("AWS_SECRET_ACCESS_KEY");
  e->credentials.session_token = Env("AWS_SESSION_TOKEN");
  e->credentials_from_environment = !e->credentials.access_key_id.empty() && !e->credentials.secret_access_key.empty();
  if (!e->credentials_from_environment) {
    if (e->is_aws) {
      *error = "AWS endpoint " + e->url + " needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
      return false;
    }
    // DynamoDB Local (since 2.0) wants an access key of [A-Za-z0-9] only; this one suits every emulator.
    e->credentials = Credentials{"dynapageConformance", "dummySecretKey", ""};
  }
  return true;
}

}  // namespace conformance
