// Store and DatabaseSet (engine/database/): every namespace in one store, keyspaces unique across the store,
// namespaces back after a restart, a folder held by another store refused, a later layout refused, and a 0.1.0
// folder (one database per namespace) migrated once.

#include "engine/database/store.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/catalog/catalog_keys.h"
#include "engine/database/database.h"
#include "engine/database/database_set.h"
#include "engine/read/get_item.h"
#include "engine/storage/key_codec.h"
#include "engine/write/item_operations.h"

namespace dynapage {
namespace {

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = ::testing::TempDir() + "/dynapage-store-XXXXXX";
    path_ = mkdtemp(pattern.data());
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Caller CallerOf(const std::string& access_key, const std::string& region) {
  Caller caller;
  caller.access_key = access_key;
  caller.region = region;
  caller.account_id = AccountIdOf(access_key);
  return caller;
}

// A table "t" keyed by "id" (S), with a GSI on "g" when with_index, and a stream when with_stream.
Status CreateTable(Database* db, const std::string& name, bool with_index, bool with_stream) {
  TableDefinition table;
  table.name = name;
  table.key.hash = KeyAttribute{"id", AttrType::kS};
  table.attribute_definitions.push_back(table.key.hash);
  if (with_index) {
    IndexDefinition index;
    index.name = "by_g";
    index.key.hash = KeyAttribute{"g", AttrType::kS};
    table.attribute_definitions.push_back(index.key.hash);
    table.indexes.push_back(index);
  }
  if (with_stream) table.stream_view_type = "NEW_IMAGE";
  table.pay_per_request = true;
  TableDescription description;
  return db->writes().CreateTable(RequestContext(), table, &description);
}

Status Put(Database* db, const std::string& table, const std::string& id, const std::string& value) {
  PutItemRequest request;
  request.table_name = table;
  request.item["id"] = AttributeValue::String(id);
  request.item["g"] = AttributeValue::String(value);
  WriteItemResult result;
  return PutItem(db->writes(), RequestContext(), request, &result);
}

// The "g" of item id, or "" when there is none.
std::string Get(Database* db, const std::string& table, const std::string& id) {
  GetItemRequest request;
  request.table_name = table;
  request.key["id"] = AttributeValue::String(id);
  GetItemResult result;
  Status s = GetItem(db->catalog(), RequestContext(), request, &result);
  if (!s.ok() || !result.item) return "";
  return result.item->at("g").scalar;
}

std::string TableNames(Database* db) {
  std::vector<std::string> names;
  bool more = false;
  db->catalog().ListTables("", 100, &names, &more);
  std::string all;
  for (const auto& name : names) all += name + " ";
  return all;
}

TEST(StoreTest, NamespacesShareOneStoreWithTheirOwnTablesAndItems) {
  TempFolder folder;
  std::unique_ptr<DatabaseSet> set;
  ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions{folder.path()}, &set).ok());
  Database* a = nullptr;
  Database* b = nullptr;
  ASSERT_TRUE(set->For(CallerOf("A", "us-east-1"), &a).ok());
  ASSERT_TRUE(set->For(CallerOf("B", "us-east-1"), &b).ok());
  ASSERT_NE(a, b);
  EXPECT_EQ(&a->storage(), &b->storage());  // one store
  ASSERT_TRUE(CreateTable(a, "t", true, true).ok());
  ASSERT_TRUE(CreateTable(b, "t", true, true).ok());
  ASSERT_TRUE(Put(a, "t", "1", "from a").ok());
  ASSERT_TRUE(Put(b, "t", "1", "from b").ok());
  EXPECT_EQ("from a", Get(a, "t", "1"));
  EXPECT_EQ("from b", Get(b, "t", "1"));
  // Every keyspace (tables, indexes, streams) differs across the namespaces.
  std::set<uint32_t> keyspaces;
  for (Database* db : {a, b}) {
    auto table = db->catalog().FindTable("t");
    ASSERT_TRUE(table);
    keyspaces.insert({table->keyspace, table->indexes[0].keyspace, table->stream_id});
  }
  EXPECT_EQ(6u, keyspaces.size());
  EXPECT_EQ(1u, a->catalog().StatsOf(a->catalog().FindTable("t")->keyspace).item_count);
  // Only the store's folder: no namespace folder.
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    EXPECT_FALSE(entry.is_directory()) << entry.path();
  }
}

TEST(StoreTest, NamespacesComeBackAfterARestart) {
  TempFolder folder;
  const std::vector<Caller> callers = {CallerOf("A", "us-east-1"), CallerOf("A", "eu-west-1"),
                                       CallerOf("123456789012", "us-east-1")};
  {
    std::unique_ptr<DatabaseSet> set;
    ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions{folder.path()}, &set).ok());
    for (size_t i = 0; i < callers.size(); i++) {
      Database* db = nullptr;
      ASSERT_TRUE(set->For(callers[i], &db).ok());
      ASSERT_TRUE(CreateTable(db, "t" + std::to_string(i), i == 0, i == 0).ok());
      ASSERT_TRUE(Put(db, "t" + std::to_string(i), "k", "v" + std::to_string(i)).ok());
    }
  }
  std::unique_ptr<DatabaseSet> set;
  ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions{folder.path()}, &set).ok());
  for (size_t i = 0; i < callers.size(); i++) {
    Database* db = nullptr;
    ASSERT_TRUE(set->For(callers[i], &db).ok());
    EXPECT_EQ("t" + std::to_string(i) + " ", TableNames(db));
    EXPECT_EQ("v" + std::to_string(i), Get(db, "t" + std::to_string(i), "k"));
    EXPECT_EQ(1u, db->catalog().StatsOf(db->catalog().FindTable("t" + std::to_string(i))->keyspace).item_count);
  }
  Database* first = nullptr;
  ASSERT_TRUE(set->For(callers[0], &first).ok());
  EXPECT_EQ(1u, first->catalog().streams().List().size());
  // A table made after the restart takes a keyspace none of the earlier ones has.
  Database* fresh = nullptr;
  ASSERT_TRUE(set->For(CallerOf("C", "us-east-1"), &fresh).ok());
  ASSERT_TRUE(CreateTable(fresh, "t0", false, false).ok());
  EXPECT_GT(fresh->catalog().FindTable("t0")->keyspace, first->catalog().FindTable("t0")->stream_id);
  EXPECT_EQ("", Get(fresh, "t0", "k"));
}

TEST(StoreTest, TablesMadeAtOnceInManyNamespacesGetDistinctKeyspaces) {
  std::unique_ptr<DatabaseSet> set;
  ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions(), &set).ok());
  constexpr int kThreads = 4, kTables = 25;
  std::vector<Database*> dbs(kThreads);
  for (int t = 0; t < kThreads; t++) ASSERT_TRUE(set->For(CallerOf("K" + std::to_string(t), "r"), &dbs[t]).ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kTables; i++) EXPECT_TRUE(CreateTable(dbs[t], "t" + std::to_string(i), true, false).ok());
    });
  }
  for (auto& thread : threads) thread.join();
  std::set<uint32_t> keyspaces;
  for (Database* db : dbs) {
    for (int i = 0; i < kTables; i++) {
      auto table = db->catalog().FindTable("t" + std::to_string(i));
      ASSERT_TRUE(table);
      keyspaces.insert({table->keyspace, table->indexes[0].keyspace});
    }
  }
  EXPECT_EQ(static_cast<size_t>(kThreads * kTables * 2), keyspaces.size());
}

TEST(StoreTest, ASecondStoreOnTheSameFolderIsRefused) {
  TempFolder folder;
  std::unique_ptr<Store> first, second;
  ASSERT_TRUE(Store::Open(StoreOptions{folder.path(), ""}, &first).ok());
  Status refused = Store::Open(StoreOptions{folder.path(), ""}, &second);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(folder.path() + " is in use by another dynapage process", refused.message());
  first.reset();
  EXPECT_TRUE(Store::Open(StoreOptions{folder.path(), ""}, &second).ok());
}

TEST(StoreTest, ALaterLayoutIsRefusedNotMisread) {
  TempFolder folder;
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(StoreOptions{folder.path(), ""}, &store).ok());
    Storage::Batch batch;
    batch.Put(kFormatKey, "3");
    ASSERT_TRUE(store->storage()->Write(&batch).ok());
  }
  std::unique_ptr<Store> store;
  Status refused = Store::Open(StoreOptions{folder.path(), ""}, &store);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(std::string::npos, refused.message().find("layout 3")) << refused.message();
}

// Rewrites a one-namespace store as dynapage 0.1.0 kept it: 'c' | name and 'x' | id, no registry, no format.
void DowngradeTo010(const std::string& path) {
  std::unique_ptr<Storage> storage;
  ASSERT_TRUE(Storage::Open(path, &storage).ok());
  Storage::Batch batch;
  auto it = storage->NewIterator("", "");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key(it->key());
    if (key[0] == '!' || key[0] == kNamespaceTag) {
      batch.Delete(key);
    } else if (key[0] == kDefinitionTag || key[0] == kStreamTag) {
      batch.Delete(key);
      batch.Put(std::string(1, key[0]) + key.substr(5), it->value());  // without the namespace id
    }
  }
  ASSERT_TRUE(storage->Write(&batch).ok());
  ASSERT_TRUE(storage->Flush().ok());
}

// A 0.1.0 folder: the shared database in the folder itself, and a namespace's database in a subfolder.
void Make010Folder(const std::string& path) {
  for (const std::string& where : {path, path + "/A_us-east-1.db"}) {
    {
      std::unique_ptr<Database> db;
      ASSERT_TRUE(Database::Open(DatabaseOptions{where}, &db).ok());
      ASSERT_TRUE(CreateTable(db.get(), "t", true, true).ok());
      ASSERT_TRUE(Put(db.get(), "t", "1", "in " + where).ok());
    }
    DowngradeTo010(where);
    std::filesystem::remove(where + "/" + kLockFileName);
  }
}

TEST(StoreTest, A010FolderIsMigratedOnce) {
  TempFolder folder;
  Make010Folder(folder.path());
  for (int open = 0; open < 2; open++) {
    std::unique_ptr<DatabaseSet> shared, namespaced;
    ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kShared, DatabaseOptions{folder.path()}, &shared).ok());
    EXPECT_EQ(open == 0 ? 2 : 0, shared->store()->migrated_namespaces());
    Database* db = nullptr;
    ASSERT_TRUE(shared->For(Caller(), &db).ok());
    EXPECT_EQ("in " + folder.path(), Get(db, "t", "1"));
    uint32_t shared_table = db->catalog().FindTable("t")->keyspace;
    shared.reset();
    EXPECT_FALSE(std::filesystem::exists(folder.path() + "/A_us-east-1.db"));

    ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions{folder.path()}, &namespaced).ok());
    ASSERT_TRUE(namespaced->For(CallerOf("A", "us-east-1"), &db).ok());
    EXPECT_EQ("in " + folder.path() + "/A_us-east-1.db", Get(db, "t", "1"));
    auto table = db->catalog().FindTable("t");
    ASSERT_TRUE(table);
    EXPECT_NE(shared_table, table->keyspace);  // moved past the shared database's keyspaces
    EXPECT_EQ(1u, db->catalog().StatsOf(table->keyspace).item_count);
    EXPECT_EQ(1u, db->catalog().StatsOf(table->indexes[0].keyspace).item_count);
    StreamInfo stream;
    EXPECT_TRUE(db->catalog().streams().Find(table->stream_id, &stream));
    // A table made now takes a keyspace of its own.
    ASSERT_TRUE(CreateTable(db, "t" + std::to_string(open + 2), false, false).ok());
    EXPECT_GT(db->catalog().FindTable("t" + std::to_string(open + 2))->keyspace, table->stream_id);
  }
}

// An interrupted migration (the folder copied, or half copied, but not registered) is redone with the same
// namespace id and keyspaces.
TEST(StoreTest, AnInterruptedMigrationIsRedone) {
  TempFolder folder;
  Make010Folder(folder.path());
  std::filesystem::copy(folder.path() + "/A_us-east-1.db", folder.path() + "/copy",
                        std::filesystem::copy_options::recursive);
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(StoreOptions{folder.path(), ""}, &store).ok());
    // As if the process had stopped before the batch that registers the namespace.
    uint32_t id = 0;
    ASSERT_TRUE(store->NamespaceId("A_us-east-1.db", &id).ok());
    Storage::Batch batch;
    batch.Delete(NamespaceKey("A_us-east-1.db"));
    batch.Put(MigrationKey("A_us-east-1.db"), std::to_string(id) + " 100");
    ASSERT_TRUE(store->storage()->Write(&batch).ok());
  }
  std::filesystem::rename(folder.path() + "/copy", folder.path() + "/A_us-east-1.db");
  std::unique_ptr<DatabaseSet> set;
  ASSERT_TRUE(DatabaseSet::Open(NamespaceMode::kAccessKeyRegion, DatabaseOptions{folder.path()}, &set).ok());
  Database* db = nullptr;
  ASSERT_TRUE(set->For(CallerOf("A", "us-east-1"), &db).ok());
  EXPECT_EQ("in " + folder.path() + "/A_us-east-1.db", Get(db, "t", "1"));
  EXPECT_EQ(101u, db->catalog().FindTable("t")->keyspace);
}

}  // namespace
}  // namespace dynapage
