// The command line (server/command_line.h): dynapage's flags, DynamoDB Local's flags and their exclusions.

#include "server/command_line.h"
#include "server/health_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

CommandLineOutcome Parse(const std::vector<std::string>& args, CommandLine* out) {
  *out = CommandLine();
  return ParseCommandLine(args, out);
}

TEST(CommandLineTest, DefaultsAreInMemoryOnLoopbackPort8000PerAccessKeyAndRegion) {
  CommandLine c;
  CommandLineOutcome o = Parse({}, &c);
  EXPECT_TRUE(o.run);
  EXPECT_EQ("", c.host);  // both loopbacks
  EXPECT_EQ(8000, c.port);
  EXPECT_EQ("", c.database.path);
  EXPECT_EQ(NamespaceMode::kAccessKeyRegion, c.namespace_mode);
  EXPECT_EQ(0u, c.service.transient_status_ms);
  EXPECT_FALSE(c.dynamodb_local_flags);
}

TEST(CommandLineTest, DynapagesOwnFlagsKeepWorking) {
  CommandLine c;
  CommandLineOutcome o = Parse({"--port", "0", "--host=0.0.0.0", "--db-path", "/tmp/d", "--max-page-bytes", "4096",
                                "--no-client-cpu-affinity", "--namespace", "region", "--cors", "*"},
                               &c);
  ASSERT_TRUE(o.run) << o.error;
  EXPECT_EQ(0, c.port);
  EXPECT_EQ("0.0.0.0", c.host);
  EXPECT_EQ("/tmp/d", c.database.path);  // dynapage's --db-path keeps a shared database in the directory itself
  EXPECT_EQ(4096u, c.service.max_page_bytes);
  EXPECT_FALSE(c.http.follow_client_cpu);
  EXPECT_EQ(NamespaceMode::kRegion, c.namespace_mode);
  EXPECT_EQ(std::vector<std::string>{"*"}, c.http.cors_origins);
}

TEST(CommandLineTest, MessagesPinsOneRegionsWordingOrLegacy) {
  CommandLine c;
  ASSERT_TRUE(Parse({"--port", "0"}, &c).run);
  EXPECT_FALSE(c.service.messages_pin.has_value());  // each request in its own region's wording
  ASSERT_TRUE(Parse({"--messages", "eu-west-2"}, &c).run);
  ASSERT_TRUE(c.service.messages_pin.has_value());
  EXPECT_EQ(Dialect::kNew, c.service.messages_pin->scan);
  EXPECT_EQ(Dialect::kNew, c.service.messages_pin->framework);
  ASSERT_TRUE(Parse({"--messages", "legacy"}, &c).run);
  EXPECT_EQ(Dialect::kLegacy, c.service.messages_pin->framework);
  EXPECT_EQ(Dialect::kLegacy, c.service.messages_pin->batch_get_empty);
  CommandLineOutcome o = Parse({"--messages", "mars-north-1"}, &c);
  EXPECT_FALSE(o.run);
  EXPECT_NE(std::string::npos, o.error.find("--messages")) << o.error;
}

TEST(CommandLineTest, DynamoDbLocalsUsualLineServesOneSharedDatabaseInMemory) {
  CommandLine c;
  CommandLineOutcome o = Parse({"-sharedDb", "-inMemory", "-port", "8001"}, &c);
  ASSERT_TRUE(o.run) << o.error;
  EXPECT_EQ(8001, c.port);
  EXPECT_EQ("", c.database.path);
  EXPECT_EQ(NamespaceMode::kShared, c.namespace_mode);
  EXPECT_TRUE(c.dynamodb_local_flags);
}

TEST(CommandLineTest, DynamoDbLocalsFlagsKeepFilesInTheWorkingDirectoryUnlessTold) {
  CommandLine c;
  ASSERT_TRUE(Parse({"-port", "8000"}, &c).run);
  EXPECT_EQ(".", c.database.path);
  EXPECT_EQ(NamespaceMode::kAccessKeyRegion, c.namespace_mode);
  ASSERT_TRUE(Parse({"-sharedDb", "-dbPath", "./data"}, &c).run);
  EXPECT_EQ("./data/shared-local-instance.db", c.database.path);
  EXPECT_EQ(NamespaceMode::kShared, c.namespace_mode);
}

TEST(CommandLineTest, JavaArgumentsOfAnImageCommandAreIgnored) {
  CommandLine c;
  CommandLineOutcome o = Parse(
      {"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar", "-sharedDb", "-inMemory"}, &c);
  ASSERT_TRUE(o.run) << o.error;
  EXPECT_EQ(NamespaceMode::kShared, c.namespace_mode);
  EXPECT_EQ("", c.database.path);
}

TEST(CommandLineTest, InMemoryWithDbPathIsAnError) {
  CommandLine c;
  CommandLineOutcome o = Parse({"-inMemory", "-dbPath", "/tmp/x"}, &c);
  EXPECT_FALSE(o.run);
  EXPECT_EQ(2, o.exit_code);
  EXPECT_NE(std::string::npos, o.error.find("-inMemory and -dbPath")) << o.error;
}

TEST(CommandLineTest, OptimizeDbNeedsDbPath) {
  CommandLine c;
  EXPECT_FALSE(Parse({"-optimizeDbBeforeStartup", "-inMemory"}, &c).run);
  EXPECT_TRUE(Parse({"-optimizeDbBeforeStartup", "-dbPath", "/tmp/x"}, &c).run);
}

TEST(CommandLineTest, SharedDbContradictingNamespaceIsAnError) {
  CommandLine c;
  EXPECT_FALSE(Parse({"-sharedDb", "--namespace", "region"}, &c).run);
  EXPECT_TRUE(Parse({"-sharedDb", "--namespace", "shared"}, &c).run);
  EXPECT_FALSE(Parse({"--namespace", "everyone"}, &c).run);
}

TEST(CommandLineTest, DelayTransientStatusesHasADefaultThatTheDelayFlagSets) {
  CommandLine c;
  ASSERT_TRUE(Parse({"-delayTransientStatuses", "-inMemory"}, &c).run);
  EXPECT_EQ(1000u, c.service.transient_status_ms);
  ASSERT_TRUE(Parse({"-delayTransientStatuses", "--transient-status-delay", "250"}, &c).run);
  EXPECT_EQ(250u, c.service.transient_status_ms);
  ASSERT_TRUE(Parse({"--transient-status-delay=40"}, &c).run);
  EXPECT_EQ(40u, c.service.transient_status_ms);
}

TEST(CommandLineTest, TtlUpdateCooldownIsOffUnlessAsked) {
  CommandLine c;
  ASSERT_TRUE(Parse({}, &c).run);
  EXPECT_EQ(0, c.service.ttl_update_cooldown_ms);
  ASSERT_TRUE(Parse({"--ttl-update-cooldown", "3600"}, &c).run);
  EXPECT_EQ(3600 * 1000, c.service.ttl_update_cooldown_ms);
  CommandLineOutcome o = Parse({"--ttl-update-cooldown", "soon"}, &c);
  EXPECT_FALSE(o.run);
  EXPECT_NE(std::string::npos, o.error.find("--ttl-update-cooldown")) << o.error;
}

TEST(CommandLineTest, TelemetryAndCorsFlagsAreAccepted) {
  CommandLine c;
  ASSERT_TRUE(Parse({"-disableTelemetry", "-cors", "http://a.example,http://b.example", "-inMemory"}, &c).run);
  EXPECT_EQ((std::vector<std::string>{"http://a.example", "http://b.example"}), c.http.cors_origins);
}

TEST(CommandLineTest, HelpAndVersionPrintAndExit) {
  CommandLine c;
  for (const char* flag : {"-help", "--help", "-h"}) {
    CommandLineOutcome o = Parse({flag}, &c);
    EXPECT_FALSE(o.run);
    EXPECT_EQ(0, o.exit_code);
    EXPECT_NE(std::string::npos, o.output.find("-delayTransientStatuses")) << flag;
  }
  for (const char* flag : {"-version", "--version"}) {
    CommandLineOutcome o = Parse({flag}, &c);
    EXPECT_FALSE(o.run);
    EXPECT_EQ(0u, o.output.rfind("dynapage ", 0)) << o.output;
  }
}

TEST(CommandLineTest, BadValuesAndUnknownFlagsExitWithTwo) {
  CommandLine c;
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--port", "70000"}, {"-port"}, {"--bogus"}, {"-bogus"}, {"--no-client-cpu-affinity=1"}}) {
    CommandLineOutcome o = Parse(args, &c);
    EXPECT_FALSE(o.run) << args[0];
    EXPECT_EQ(2, o.exit_code) << args[0];
    EXPECT_NE(std::string::npos, o.error.find("dynapage: ")) << o.error;
  }
}

// --health-check (the image's HEALTHCHECK): parsed with the port it probes; 0 while the server answers GET / with
// 200, 1 when nothing answers.
TEST(HealthCheckTest, ProbesGetSlashOfTheServerAtThePort) {
  CommandLine c;
  CommandLineOutcome o = Parse({"--health-check", "-port", "8123"}, &c);
  ASSERT_TRUE(o.run) << o.error;
  EXPECT_TRUE(c.health_check);
  EXPECT_EQ(8123, c.port);
  EXPECT_EQ(2, Parse({"--health-check", "--port", "0"}, &c).exit_code);
  EXPECT_EQ("127.0.0.1", HealthCheckAddress(""));
  EXPECT_EQ("127.0.0.1", HealthCheckAddress("0.0.0.0"));
  EXPECT_EQ("::1", HealthCheckAddress("::"));
  EXPECT_EQ("10.0.0.7", HealthCheckAddress("10.0.0.7"));

  std::string report;
  int port = 0;
  {
    TestServer server;
    port = server.port();
    EXPECT_EQ(0, RunHealthCheck("127.0.0.1", port, 2000, &report));
    EXPECT_EQ(0u, report.rfind("healthy: ", 0)) << report;
  }
  EXPECT_EQ(1, RunHealthCheck("127.0.0.1", port, 2000, &report));
  EXPECT_EQ(0u, report.rfind("unhealthy: no answer from http://127.0.0.1:" + std::to_string(port) + "/", 0))
      << report;
}

}  // namespace
}  // namespace dynapage
