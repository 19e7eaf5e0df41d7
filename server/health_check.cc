#include "server/health_check.h"

#include <httplib.h>

#include "engine/base/check.h"

namespace dynapage {

std::string HealthCheckAddress(const std::string& host) {
  if (host.empty() || host == "0.0.0.0") return "127.0.0.1";
  if (host == "::") return "::1";
  return host;
}

int RunHealthCheck(const std::string& address, int port, int timeout_ms, std::string* report) {
  DP_DCHECK(port > 0 && port < 65536);
  httplib::Client client(address, port);
  const time_t seconds = timeout_ms / 1000;
  const time_t micros = (timeout_ms % 1000) * 1000;
  client.set_connection_timeout(seconds, micros);
  client.set_read_timeout(seconds, micros);
  client.set_write_timeout(seconds, micros);
  std::string where = "http://" + (address.find(':') != std::string::npos ? "[" + address + "]" : address) + ":" +
                      std::to_string(port) + "/";
  httplib::Result result = client.Get("/");
  if (!result) {
    *report = "unhealthy: no answer from " + where + " (" + httplib::to_string(result.error()) + ")";
    return 1;
  }
  if (result->status != 200) {
    *report = "unhealthy: " + where + " answered " + std::to_string(result->status);
    return 1;
  }
  *report = result->body;
  return 0;
}

}  // namespace dynapage
