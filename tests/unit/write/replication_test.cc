// Replication in the write path (engine/write/replication.h): writes from another replica are applied by last
// writer wins whatever order they arrive in (put vs put, put vs delete, delete vs put), a deletion leaves a
// tombstone and is sent on also when the item was not there, a ConditionCheck is not sent, and tombstones are
// swept after their retention.

#include "engine/write/replication.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/clock.h"
#include "engine/database/database.h"
#include "engine/read/get_item.h"
#include "engine/storage/item_key.h"
#include "engine/storage/key_codec.h"
#include "engine/write/item_operations.h"
#include "engine/write/transactions.h"

namespace dynapage {
namespace {

constexpr int64_t kNowMillis = 1'700'000'000'000;

class CapturingSink : public ReplicationSink {
 public:
  void Send(std::vector<ReplicatedWrite> writes) override {
    for (auto& w : writes) sent.push_back(std::move(w));
  }
  std::vector<ReplicatedWrite> sent;
};

// The replica of "t" (keyed by "id") in us-east-1 of a group with eu-west-1.
class ReplicationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions{}, &db_).ok());
    db_->writes().set_replication(&sink_);
    ctx_.caller.region = "us-east-1";
    ctx_.clock = &clock_;
    TableDefinition table;
    table.name = "t";
    table.key.hash = KeyAttribute{"id", AttrType::kS};
    table.attribute_definitions.push_back(table.key.hash);
    table.pay_per_request = true;
    table.stream_view_type = "NEW_AND_OLD_IMAGES";
    table.global.version = kGlobalTableVersion2019;
    for (const char* region : {"us-east-1", "eu-west-1"}) {
      ReplicaMember member;
      member.region = region;
      table.global.replicas.push_back(member);
    }
    TableDescription description;
    ASSERT_TRUE(db_->writes().CreateTable(ctx_, table, &description).ok());
  }

  AttributeMap Key(const std::string& id) {
    AttributeMap key;
    key["id"] = AttributeValue::String(id);
    return key;
  }

  // Applies a write of item id from eu-west-1 stamped at micros (value empty: a deletion); the count applied.
  size_t FromWest(const std::string& id, int64_t micros, const std::string& value) {
    auto table = db_->catalog().FindTable("t");
    ReplicatedWrite w;
    w.table = "t";
    w.key_suffix = TableItemKey(*table, Key(id)).substr(KeyspacePrefix(table->keyspace).size());
    if (!value.empty()) {
      w.item = Key(id);
      (*w.item)["v"] = AttributeValue::String(value);
    }
    w.stamp = ReplicaStamp{micros, "eu-west-1", value.empty()};
    std::vector<ReplicatedWrite> writes{w};
    size_t applied = 0;
    EXPECT_TRUE(db_->writes().ApplyReplicated(ctx_, "t", "eu-west-1", &writes, &applied).ok());
    return applied;
  }

  // The "v" of item id here, "" when absent.
  std::string Value(const std::string& id) {
    GetItemRequest request;
    request.table_name = "t";
    request.key = Key(id);
    GetItemResult result;
    EXPECT_TRUE(GetItem(db_->catalog(), ctx_, request, &result).ok());
    return result.item ? result.item->at("v").scalar : "";
  }

  Status DeleteHere(const std::string& id) {
    DeleteItemRequest request;
    request.table_name = "t";
    request.key = Key(id);
    WriteItemResult result;
    return DeleteItem(db_->writes(), ctx_, request, &result);
  }

  std::unique_ptr<Database> db_;
  CapturingSink sink_;
  ManualClock clock_{kNowMillis};
  RequestContext ctx_;
};

TEST_F(ReplicationTest, OlderPutAfterNewerPutLoses) {
  EXPECT_EQ(1u, FromWest("a", 200, "newer"));
  EXPECT_EQ(0u, FromWest("a", 100, "older"));
  EXPECT_EQ("newer", Value("a"));
}

TEST_F(ReplicationTest, NewerPutAfterOlderPutWins) {
  EXPECT_EQ(1u, FromWest("a", 100, "older"));
  EXPECT_EQ(1u, FromWest("a", 200, "newer"));
  EXPECT_EQ("newer", Value("a"));
}

TEST_F(ReplicationTest, OlderPutAfterNewerDeleteOfAnAbsentItemLoses) {
  EXPECT_EQ(1u, FromWest("a", 200, ""));  // the tombstone of an item this replica never held
  EXPECT_EQ(0u, FromWest("a", 100, "older"));
  EXPECT_EQ("", Value("a"));
}

TEST_F(ReplicationTest, OlderDeleteAfterNewerPutLoses) {
  EXPECT_EQ(1u, FromWest("a", 200, "newer"));
  EXPECT_EQ(0u, FromWest("a", 100, ""));
  EXPECT_EQ("newer", Value("a"));
}

TEST_F(ReplicationTest, LocalDeleteOfAnAbsentItemIsATombstoneSentOn) {
  ASSERT_TRUE(DeleteHere("a").ok());
  ASSERT_EQ(1u, sink_.sent.size());
  EXPECT_FALSE(sink_.sent[0].item);
  EXPECT_TRUE(sink_.sent[0].stamp.deleted);
  EXPECT_EQ(std::vector<std::string>{"eu-west-1"}, sink_.sent[0].to_regions);
  // A put made in eu-west-1 before the deletion, arriving after it, loses.
  EXPECT_EQ(0u, FromWest("a", kNowMillis * 1000 - 1, "older"));
  EXPECT_EQ("", Value("a"));
}

TEST_F(ReplicationTest, ConditionCheckIsNotSent) {
  TransactWriteRequest request;
  TransactWriteAction check;
  check.kind = TransactWriteAction::Kind::kConditionCheck;
  check.table_name = "t";
  check.item_or_key = Key("a");
  request.actions.push_back(check);
  TransactWriteResult result;
  ASSERT_TRUE(TransactWriteItems(db_->writes(), ctx_, request, &result).ok());
  EXPECT_TRUE(sink_.sent.empty());
}

TEST_F(ReplicationTest, TombstonesAreSweptAfterTheirRetention) {
  ASSERT_TRUE(DeleteHere("a").ok());
  uint64_t swept = 0;
  clock_.Advance(kTombstoneRetentionMicros / 1000 - 1);
  ASSERT_TRUE(db_->writes().SweepTombstones(ctx_, &swept).ok());
  EXPECT_EQ(0u, swept);
  EXPECT_EQ(0u, FromWest("a", kNowMillis * 1000 - 1, "older"));  // the tombstone still holds
  clock_.Advance(2);
  ASSERT_TRUE(db_->writes().SweepTombstones(ctx_, &swept).ok());
  EXPECT_EQ(1u, swept);
  // Past the retention a write older than the deletion resurrects the item: the bound documented.
  EXPECT_EQ(1u, FromWest("a", kNowMillis * 1000 - 1, "older"));
  EXPECT_EQ("older", Value("a"));
}

TEST(ReplicaStampTest, EncodesTombstonesAndReadsOldStamps) {
  ReplicaStamp stamp;
  ASSERT_TRUE(DecodeReplicaStamp(EncodeReplicaStamp(ReplicaStamp{12, "eu-west-1", true}), &stamp));
  EXPECT_EQ(12, stamp.micros);
  EXPECT_EQ("eu-west-1", stamp.origin);
  EXPECT_TRUE(stamp.deleted);
  ASSERT_TRUE(DecodeReplicaStamp("34 us-east-1", &stamp));  // written before tombstones were marked
  EXPECT_EQ("us-east-1", stamp.origin);
  EXPECT_FALSE(stamp.deleted);
}

}  // namespace
}  // namespace dynapage
