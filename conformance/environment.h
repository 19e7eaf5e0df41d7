// The run's shared state: the endpoint, one client, the registry of created tables.
//
// Contract: main() installs ConformanceEnvironment before RUN_ALL_TESTS. Its SetUp prints the endpoint the
// run is against (nothing is sent yet, so offline cases such as the SigV4 ones run with no server at all);
// its TearDown deletes every table still registered, and so do an atexit hook and a SIGINT/SIGTERM handler.
// Cases reach the state through Conformance().

#ifndef DYNAPAGE_CONFORMANCE_ENVIRONMENT_H_
#define DYNAPAGE_CONFORMANCE_ENVIRONMENT_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "conformance/client.h"
#include "conformance/endpoint.h"
#include "conformance/test_tables.h"

namespace conformance {

struct ConformanceState {
  Endpoint endpoint;
  std::unique_ptr<Client> client;
  std::unique_ptr<TableRegistry> tables;
};

// REQUIRES: InitConformance succeeded.
ConformanceState& Conformance();
inline Client& TheClient() { return *Conformance().client; }
inline TableRegistry& Tables() { return *Conformance().tables; }

// Reads the endpoint from the environment; false (with the reason) when it is unusable.
bool InitConformance(std::string* error);

class ConformanceEnvironment : public ::testing::Environment {
 public:
  void SetUp() override;
  void TearDown() override;
};

// For behaviour docs/behaviour.md lists as uncertain on real DynamoDB: the case records what the endpoint did instead
// of asserting a guess. Prints "OBSERVED: <what>: <value>" and records it as a test property (in the XML).
void Observe(const std::string& what, const std::string& value);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_ENVIRONMENT_H_
