#include "server/seed/seed_plan.h"

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "server/seed/seeder.h"

namespace dynapage {
namespace {

const char kTable[] =
    "\"CreateTable\":{\"TableName\":\"Users\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}";

std::string SeedText(const std::string& items) {
  return std::string("{\"Tables\":[\n  {") + kTable + ",\n   \"Items\":[\n" + items + "]}]}";
}

std::string Text(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  value.Accept(w);
  return buffer.GetString();
}

TEST(SeedPlanTest, ReadsTablesAndItemsWithTheLineEachStartsOn) {
  SeedPlan plan;
  ReadSeedJson(SeedText("    {\"id\":{\"S\":\"a\"}},\n\n    {\"id\":{\"S\":\"b\"},\n     \"n\":{\"N\":\"1\"}}\n"),
               "seed.json", ".", Caller(), &plan);
  ASSERT_TRUE(plan.errors.empty()) << plan.errors[0];
  ASSERT_EQ(plan.tables.size(), 1u);
  EXPECT_EQ(plan.tables[0].table_name, "Users");
  EXPECT_EQ(plan.tables[0].line, 2u);
  ASSERT_EQ(plan.tables[0].items.size(), 2u);
  EXPECT_EQ(plan.tables[0].items[0].line, 4u);
  EXPECT_EQ(plan.tables[0].items[1].line, 6u);
  EXPECT_EQ(plan.tables[0].items[1].index, 1u);
}

TEST(SeedPlanTest, AValueDynamoDbRefusesIsNamedByFileLineAndItem) {
  SeedPlan plan;
  ReadSeedJson(SeedText("    {\"id\":{\"S\":\"a\"}},\n    {\"id\":{\"S\":\"b\"},\"n\":{\"N\":\"one\"}}\n"), "seed.json",
               ".", Caller(), &plan);
  ASSERT_EQ(plan.errors.size(), 1u);
  EXPECT_EQ(plan.errors[0].rfind("seed.json:5: table Users item 1: ", 0), 0u) << plan.errors[0];
}

TEST(SeedPlanTest, TextThatIsNotJsonIsNamedByItsLine) {
  SeedPlan plan;
  ReadSeedJson("{\"Tables\":[\n{\n\"CreateTable\": nope}]}", "bad.json", ".", Caller(), &plan);
  ASSERT_EQ(plan.errors.size(), 1u);
  EXPECT_EQ(plan.errors[0].rfind("bad.json:3: not JSON: ", 0), 0u) << plan.errors[0];
}

TEST(SeedPlanTest, ADefinitionNestedTooDeepIsRefusedWithoutRecursing) {
  SeedPlan plan;
  std::string deep = std::string(100000, '[') + std::string(100000, ']') + "}}]}";
  ReadSeedJson("{\"Tables\":[\n{\"CreateTable\":{\"TableName\":\"Users\",\"Tags\":" + deep, "deep.json", ".", Caller(),
               &plan);
  ASSERT_EQ(plan.errors.size(), 1u);
  EXPECT_EQ(plan.errors[0], "deep.json:2: a table definition nested deeper than 64 levels");
}

TEST(SeedPlanTest, ItemsMayNestAsDeepAsDynamoDbAllows) {
  SeedPlan plan;
  std::string value = "{\"S\":\"x\"}";
  for (int i = 0; i < 31; ++i) value = "{\"L\":[" + value + "]}";
  ReadSeedJson(SeedText("{\"id\":{\"S\":\"a\"},\"deep\":" + value + "}"), "seed.json", ".", Caller(), &plan);
  EXPECT_TRUE(plan.errors.empty()) << plan.errors[0];
  ASSERT_EQ(plan.tables[0].items.size(), 1u);
}

TEST(SeedPlanTest, NamespaceComesFromTheFileOrTheTable) {
  SeedPlan plan;
  ReadSeedJson(std::string("{\"AccessKeyId\":\"AKIDONE\",\"Tables\":[{") + kTable + "},{\"Region\":\"eu-west-1\"," +
                   kTable + "}]}",
               "seed.json", ".", Caller(), &plan);
  ASSERT_EQ(plan.tables.size(), 2u);
  EXPECT_EQ(plan.tables[0].caller.access_key, "AKIDONE");
  EXPECT_EQ(plan.tables[0].caller.region, "us-east-1");
  EXPECT_EQ(plan.tables[1].caller.access_key, "AKIDONE");
  EXPECT_EQ(plan.tables[1].caller.region, "eu-west-1");
}

TEST(SeedPlanTest, DescribeTableOutputBecomesCreateTableInput) {
  rapidjson::Document description;
  description.Parse(
      "{\"TableName\":\"T\",\"TableStatus\":\"ACTIVE\",\"ItemCount\":3,\"TableArn\":\"arn:x\","
      "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
      "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
      "\"ProvisionedThroughput\":{\"NumberOfDecreasesToday\":0,\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0},"
      "\"BillingModeSummary\":{\"BillingMode\":\"PAY_PER_REQUEST\"},"
      "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"g\",\"IndexStatus\":\"ACTIVE\",\"IndexArn\":\"arn:y\","
      "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"},"
      "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0}}],"
      "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"},"
      "\"TableClassSummary\":{\"TableClass\":\"STANDARD\"},\"DeletionProtectionEnabled\":false}");
  rapidjson::Document input;
  CreateTableInputOfDescription(description, &input);
  EXPECT_EQ(Text(input),
            "{\"TableName\":\"T\",\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
            "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\","
            "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"g\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":"
            "\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
            "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"},"
            "\"TableClass\":\"STANDARD\",\"DeletionProtectionEnabled\":false}");
}

TEST(SeedPlanTest, ProvisionedDescriptionKeepsOnlyTheCapacities) {
  rapidjson::Document description;
  description.Parse(
      "{\"TableName\":\"T\",\"ProvisionedThroughput\":{\"NumberOfDecreasesToday\":2,"
      "\"LastIncreaseDateTime\":1.5,\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":7}}");
  rapidjson::Document input;
  CreateTableInputOfDescription(description, &input);
  EXPECT_EQ(Text(input),
            "{\"TableName\":\"T\",\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
            "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":7}}");
}

class SeederTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kShared, DatabaseOptions(), &set_).ok()); }
  Database* Shared() {
    Database* db = nullptr;
    EXPECT_TRUE(set_->For(Caller(), &db).ok());
    return db;
  }
  std::unique_ptr<DatabaseSet> set_;
};

TEST_F(SeederTest, LoadsAValidSeed) {
  SeedPlan plan;
  ReadSeedJson(SeedText("{\"id\":{\"S\":\"a\"}},{\"id\":{\"S\":\"b\"}}"), "seed.json", ".", Caller(), &plan);
  ASSERT_TRUE(SeedDatabases(&plan, set_.get(), BackgroundContext(), nullptr).ok());
  ASSERT_NE(Shared()->catalog().FindTable("Users"), nullptr);
}

TEST_F(SeederTest, AnItemWithoutItsKeyRefusesTheWholeSeed) {
  SeedPlan plan;
  ReadSeedJson(std::string("{\"Tables\":[{\"CreateTable\":{\"TableName\":\"Other\",\"BillingMode\":\"PAY_PER_REQUEST\","
                           "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"N\"}],"
                           "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}},\n{") +
                   kTable + ",\"Items\":[\n{\"id\":{\"S\":\"a\"}},\n{\"name\":{\"S\":\"b\"}}]}]}",
               "seed.json", ".", Caller(), &plan);
  ASSERT_TRUE(plan.errors.empty());
  EXPECT_FALSE(SeedDatabases(&plan, set_.get(), BackgroundContext(), nullptr).ok());
  ASSERT_EQ(plan.errors.size(), 1u);
  EXPECT_EQ(plan.errors[0],
            "seed.json:4: table Users item 1: ValidationException: One or more parameter values were "
            "invalid: Missing the key id in the item");
  EXPECT_EQ(Shared()->catalog().FindTable("Other"), nullptr);  // all or nothing
  EXPECT_EQ(Shared()->catalog().FindTable("Users"), nullptr);
}

TEST_F(SeederTest, ATableDefinitionGetsCreateTablesOwnError) {
  SeedPlan plan;
  ReadSeedJson("{\"Tables\":[\n{\"CreateTable\":{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"}}]}",
               "seed.json", ".", Caller(), &plan);
  EXPECT_FALSE(SeedDatabases(&plan, set_.get(), BackgroundContext(), nullptr).ok());
  ASSERT_EQ(plan.errors.size(), 1u);
  EXPECT_EQ(plan.errors[0].rfind("seed.json:2: table Tab: CreateTable: ValidationException: ", 0), 0u)
      << plan.errors[0];
  EXPECT_NE(plan.errors[0].find("keySchema"), std::string::npos) << plan.errors[0];
}

TEST_F(SeederTest, ATableThatExistsIsLeftAsItIs) {
  SeedPlan first;
  ReadSeedJson(SeedText("{\"id\":{\"S\":\"a\"}}"), "seed.json", ".", Caller(), &first);
  ASSERT_TRUE(SeedDatabases(&first, set_.get(), BackgroundContext(), nullptr).ok());
  std::string table_id = Shared()->catalog().FindTable("Users")->table_id;
  SeedPlan again;
  ReadSeedJson(SeedText("{\"id\":{\"S\":\"a\"}}"), "seed.json", ".", Caller(), &again);
  ASSERT_TRUE(SeedDatabases(&again, set_.get(), BackgroundContext(), nullptr).ok());
  EXPECT_EQ(Shared()->catalog().FindTable("Users")->table_id, table_id);
}

}  // namespace
}  // namespace dynapage
