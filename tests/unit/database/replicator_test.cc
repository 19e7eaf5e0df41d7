// Replicator (engine/database/replicator.h): its queue stays under its bound, and the writes that did not fit
// (puts and deletes, also of items the replica never held) still reach the other replica, by a catch-up.

#include "engine/database/replicator.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/database/database.h"
#include "engine/read/get_item.h"
#include "engine/write/item_operations.h"

namespace dynapage {
namespace {

Caller In(const std::string& region) {
  Caller caller;
  caller.access_key = "A";
  caller.region = region;
  return caller;
}

// "t" keyed by "id", a replica in us-east-1 and eu-west-1, each region its own database, linked by a replicator
// whose queue holds max_queued_bytes.
class ReplicatorTest : public ::testing::Test {
 protected:
  void Open(size_t max_queued_bytes) {
    for (auto* db : {&east_, &west_}) ASSERT_TRUE(Database::Open(DatabaseOptions{}, db).ok());
    ReplicatorOptions options;
    options.max_queued_bytes = max_queued_bytes;
    replicator_ = std::make_unique<Replicator>(
        [this](const Caller& caller, Database** db) {
          *db = caller.region == "us-east-1" ? east_.get() : west_.get();
          return Status::OK();
        },
        options);
    sink_ = replicator_->SinkFor(In("us-east-1"));
    east_->writes().set_replication(sink_.get());
    for (auto* db : {east_.get(), west_.get()}) {
      TableDefinition table;
      table.name = "t";
      table.key.hash = KeyAttribute{"id", AttrType::kS};
      table.attribute_definitions.push_back(table.key.hash);
      table.pay_per_request = true;
      table.global.version = kGlobalTableVersion2019;
      for (const char* region : {"us-east-1", "eu-west-1"}) {
        ReplicaMember member;
        member.region = region;
        table.global.replicas.push_back(member);
      }
      TableDescription description;
      ASSERT_TRUE(db->writes().CreateTable(RequestContext(), table, &description).ok());
    }
  }
  void TearDown() override { replicator_.reset(); }

  RequestContext East() {
    RequestContext ctx;
    ctx.caller = In("us-east-1");
    return ctx;
  }
  void Put(const std::string& id) {
    PutItemRequest request;
    request.table_name = "t";
    request.item["id"] = AttributeValue::String(id);
    request.item["pad"] = AttributeValue::String(std::string(1000, 'x'));
    WriteItemResult result;
    ASSERT_TRUE(PutItem(east_->writes(), East(), request, &result).ok());
  }
  void Delete(const std::string& id) {
    DeleteItemRequest request;
    request.table_name = "t";
    request.key["id"] = AttributeValue::String(id);
    WriteItemResult result;
    ASSERT_TRUE(DeleteItem(east_->writes(), East(), request, &result).ok());
  }
  bool InWest(const std::string& id) {
    GetItemRequest request;
    request.table_name = "t";
    request.key["id"] = AttributeValue::String(id);
    GetItemResult result;
    RequestContext ctx;
    ctx.caller = In("eu-west-1");
    EXPECT_TRUE(GetItem(west_->catalog(), ctx, request, &result).ok());
    return result.item.has_value();
  }

  std::unique_ptr<Database> east_, west_;
  std::unique_ptr<Replicator> replicator_;
  std::unique_ptr<ReplicationSink> sink_;
};

TEST_F(ReplicatorTest, WritesBeyondTheBoundAreCaughtUpNotLost) {
  Open(/*max_queued_bytes=*/4000);  // about three writes
  for (int i = 0; i < 300; i++) Put("k" + std::to_string(i));
  for (int i = 0; i < 300; i += 2) Delete("k" + std::to_string(i));
  Delete("never-there");  // a tombstone only
  replicator_->Drain();
  EXPECT_LE(replicator_->peak_queued_bytes(), 4000u);
  EXPECT_GT(replicator_->catch_ups(), 0u);
  int wrong = 0;
  for (int i = 0; i < 300; i++) wrong += InWest("k" + std::to_string(i)) != (i % 2 == 1);
  EXPECT_EQ(0, wrong);
  EXPECT_EQ(150u, west_->catalog().StatsOf(west_->catalog().FindTable("t")->keyspace).item_count);
}

TEST_F(ReplicatorTest, CatchUpCarriesTombstonesOfItemsTheReplicaNeverHeld) {
  Open(/*max_queued_bytes=*/0);  // every write is caught up
  Delete("a");
  replicator_->Drain();
  ASSERT_EQ(1u, replicator_->catch_ups());
  // eu-west-1 holds the tombstone, so a put made there before the deletion and arriving later loses.
  std::string resume;
  std::vector<ReplicatedWrite> chunk;
  ASSERT_TRUE(west_->writes().ReadReplicatedChunk("t", 1 << 20, &resume, &chunk).ok());
  ASSERT_EQ(1u, chunk.size());
  EXPECT_TRUE(chunk[0].stamp.deleted);
  EXPECT_EQ("us-east-1", chunk[0].stamp.origin);
}

}  // namespace
}  // namespace dynapage
