#include "conformance/environment.h"

#include <unistd.h>

#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace conformance {
namespace {

ConformanceState* g_state = nullptr;

void DeleteLeftoverTables() {
  if (g_state && g_state->tables && !g_state->tables->live().empty()) {
    std::fprintf(stderr, "conformance: deleting %zu table(s) left by the run\n", g_state->tables->live().size());
    g_state->tables->DeleteAll();
  }
}

// Not async-signal-safe (it sends HTTP requests), on purpose: an interrupted run against AWS must not leave
// billable tables behind, and the process is about to end anyway.
void OnSignal(int sig) {
  static volatile std::sig_atomic_t in_handler = 0;
  if (in_handler) _exit(128 + sig);
  in_handler = 1;
  if (g_state && g_state->tables) {
    // The interrupted request may hold the client's locks: clean up through a client of our own.
    static Client* fresh = new Client(g_state->endpoint);
    g_state->tables->set_client(fresh);
  }
  DeleteLeftoverTables();
  _exit(128 + sig);
}

}  // namespace

ConformanceState& Conformance() { return *g_state; }

bool InitConformance(std::string* error) {
  auto state = std::make_unique<ConformanceState>();
  if (!EndpointFromEnvironment(&state->endpoint, error)) return false;
  state->client = std::make_unique<Client>(state->endpoint);
  state->tables = std::make_unique<TableRegistry>(state->client.get());
  g_state = state.release();  // lives until exit: the atexit hook still needs it
  std::atexit(DeleteLeftoverTables);
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  return true;
}

void ConformanceEnvironment::SetUp() {
  std::printf("dynapage_conformance: running against %s\n", Conformance().endpoint.Describe().c_str());
  std::fflush(stdout);
}

void ConformanceEnvironment::TearDown() { DeleteLeftoverTables(); }

void Observe(const std::string& what, const std::string& value) {
  std::printf("OBSERVED: %s: %s\n", what.c_str(), value.c_str());
  std::fflush(stdout);
  std::string key;
  for (char c : what) key.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  ::testing::Test::RecordProperty("observed_" + key, value);
}

}  // namespace conformance
