// The health probe of `dynapage --health-check`: asks a running dynapage for `GET /` and says whether it answered.
//
// The image is FROM scratch, without a shell or curl, so its Dockerfile's HEALTHCHECK runs the dynapage binary
// itself in this mode (docs/dynamodb-local.md). The probe goes to the loopback address of the family the server
// listens on (127.0.0.1 for an unset host or 0.0.0.0, ::1 for ::), or to the host it was given.

#ifndef DYNAPAGE_SERVER_HEALTH_CHECK_H_
#define DYNAPAGE_SERVER_HEALTH_CHECK_H_

#include <string>

namespace dynapage {

// The address to probe for a server bound to host ("" for both loopbacks).
std::string HealthCheckAddress(const std::string& host);

// 0 when http://<address>:port/ answers 200 within timeout_ms, 1 otherwise (not listening, another status, too
// slow); *report is one line saying which. REQUIRES: 0 < port < 65536.
int RunHealthCheck(const std::string& address, int port, int timeout_ms, std::string* report);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_HEALTH_CHECK_H_
