#include "engine/database/legacy_migration.h"

#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "engine/catalog/catalog_keys.h"
#include "engine/catalog/stream_catalog.h"
#include "engine/model/table_definition.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {

// A copy is written in batches of about this many bytes, so that a large namespace is not held in memory whole.
constexpr size_t kCopyBatchBytes = 4 << 20;

// A 0.1.0 namespace being copied: where its keyspaces go, and what it may hold.
struct Remap {
  std::string folder;  // for messages
  uint32_t namespace_id = 0;
  uint32_t offset = 0;    // new keyspace = old + offset
  uint32_t old_next = 1;  // the old counter: every old keyspace is below it
};

Status Corrupt(const Remap& remap, const std::string& what) {
  return Status::Internal("cannot migrate the 0.1.0 database " + remap.folder + ": " + what);
}

// The keyspace old, moved. A keyspace the old counter never handed out means the folder is not what it seems:
// refused rather than misread.
Status Moved(const Remap& remap, uint32_t old, uint32_t* out) {
  if (old == 0 || old >= remap.old_next) return Corrupt(remap, "keyspace " + std::to_string(old) + " out of range");
  *out = old + remap.offset;
  return Status::OK();
}

// The keyspace (or stream id) after the tag of a 'd', 'r', 's' or 'x' key, moved.
Status MovedKeyspaceOfKey(const Remap& remap, std::string_view key, uint32_t* out) {
  if (key.size() < 5) return Corrupt(remap, "short key");
  return Moved(remap, static_cast<uint32_t>(ReadBigEndian(key.substr(1, 4))), out);
}

// Adds to batch the record (key, value) of a 0.1.0 namespace as the store holds it.
Status AddMoved(const Remap& remap, std::string_view key, std::string_view value, Storage::Batch* batch) {
  if (key.empty()) return Corrupt(remap, "empty key");
  uint32_t keyspace = 0;
  switch (key[0]) {
    case 'c': {
      TableDefinition table;
      if (!ParseTableDefinition(std::string(value), &table)) return Corrupt(remap, "corrupt table definition");
      DP_RETURN_IF_ERROR(Moved(remap, table.keyspace, &table.keyspace));
      if (table.stream_id != 0) DP_RETURN_IF_ERROR(Moved(remap, table.stream_id, &table.stream_id));
      for (auto& index : table.indexes) DP_RETURN_IF_ERROR(Moved(remap, index.keyspace, &index.keyspace));
      batch->Put(DefinitionKey(remap.namespace_id, key.substr(1)), SerializeTableDefinition(table));
      return Status::OK();
    }
    case 'k':
      return Status::OK();  // the old counter: the store's counter has taken its range
    case 'x': {
      StreamInfo stream;
      if (!ParseStreamInfo(value, &stream)) return Corrupt(remap, "corrupt stream description");
      DP_RETURN_IF_ERROR(MovedKeyspaceOfKey(remap, key, &stream.id));
      batch->Put(StreamKey(remap.namespace_id, stream.id), SerializeStreamInfo(stream));
      return Status::OK();
    }
    case 'd':
    case 'r':
    case 's': {
      DP_RETURN_IF_ERROR(MovedKeyspaceOfKey(remap, key, &keyspace));
      std::string moved(key);
      for (int i = 0; i < 4; i++) moved[1 + i] = static_cast<char>((keyspace >> (24 - 8 * i)) & 0xFF);
      batch->Put(moved, value);
      return Status::OK();
    }
    default:
      return Corrupt(remap, "unknown record tag '" + std::string(1, key[0]) + "'");
  }
}

// Copies one 0.1.0 namespace folder into store as namespace `name`, then removes the folder.
Status MigrateFolder(Store* store, const std::string& folder, const std::string& name) {
  Storage* storage = store->storage();
  std::string text;
  bool registered = false, migrating = false;
  DP_RETURN_IF_ERROR(storage->Get(NamespaceKey(name), &text, &registered));
  std::string plan;
  DP_RETURN_IF_ERROR(storage->Get(MigrationKey(name), &plan, &migrating));
  if (registered && !migrating) {
    // Copied before, and the removal interrupted.
    std::error_code error;
    std::filesystem::remove_all(folder, error);
    return Status::OK();
  }
  Remap remap;
  remap.folder = folder;
  {
    std::unique_ptr<Storage> old;
    DP_RETURN_IF_ERROR(Storage::Open(folder, &old));
    bool found = false;
    DP_RETURN_IF_ERROR(old->Get(kFormatKey, &text, &found));
    if (found) return Corrupt(remap, "it holds a store of layout " + text + ", not a 0.1.0 namespace");
    DP_RETURN_IF_ERROR(ReadStoredCounter(*old, kNextKeyspaceKey, "keyspace counter", &remap.old_next));
    if (migrating) {
      unsigned long long id = 0, offset = 0;
      if (std::sscanf(plan.c_str(), "%llu %llu", &id, &offset) != 2) return Corrupt(remap, "corrupt migration record");
      remap.namespace_id = static_cast<uint32_t>(id);
      remap.offset = static_cast<uint32_t>(offset);
    } else {
      // The keyspaces 1 … old_next-1 move to first … first+old_next-2.
      if (remap.old_next > 1) {
        uint32_t first = 0;
        DP_RETURN_IF_ERROR(store->keyspaces()->Reserve(remap.old_next - 1, &first));
        remap.offset = first - 1;
      }
      Storage::Batch batch;
      remap.namespace_id = store->TakeNamespaceId(&batch);
      batch.Put(MigrationKey(name), std::to_string(remap.namespace_id) + " " + std::to_string(remap.offset));
      DP_RETURN_IF_ERROR(storage->Write(&batch));
    }
    auto it = old->NewIterator("", "");
    auto batch = std::make_unique<Storage::Batch>();
    size_t bytes = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      DP_RETURN_IF_ERROR(AddMoved(remap, it->key(), it->value(), batch.get()));
      bytes += it->key().size() + it->value().size();
      if (bytes >= kCopyBatchBytes) {
        DP_RETURN_IF_ERROR(storage->Write(batch.get()));
        batch = std::make_unique<Storage::Batch>();
        bytes = 0;
      }
    }
    DP_RETURN_IF_ERROR(it->status());
    // The last batch registers the namespace: from here on it is migrated.
    batch->Put(NamespaceKey(name), std::to_string(remap.namespace_id));
    batch->Delete(MigrationKey(name));
    DP_RETURN_IF_ERROR(storage->Write(batch.get()));
  }
  std::error_code error;
  std::filesystem::remove_all(folder, error);
  if (error) return Status::Internal("migrated " + folder + " but cannot remove it: " + error.message());
  return Status::OK();
}

}  // namespace

Status RewriteLegacySharedDatabase(Store* store, Storage::Batch* batch, bool* legacy) {
  Storage* storage = store->storage();
  *legacy = false;
  std::vector<std::pair<std::string, std::string>> moved;  // the new keys of definitions and streams
  uint32_t namespace_id = 0;
  auto it = storage->NewIterator("", "");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (!*legacy) {
      *legacy = true;
      namespace_id = store->TakeNamespaceId(batch);
      batch->Put(NamespaceKey(kSharedNamespaceName), std::to_string(namespace_id));
    }
    std::string_view key = it->key();
    if (key[0] == kDefinitionTag) {
      moved.emplace_back(DefinitionKey(namespace_id, key.substr(1)), std::string(it->value()));
    } else if (key[0] == kStreamTag && key.size() == 5) {
      moved.emplace_back(StreamKey(namespace_id, static_cast<uint32_t>(ReadBigEndian(key.substr(1)))),
                         std::string(it->value()));
    } else {
      continue;
    }
    batch->Delete(key);
  }
  DP_RETURN_IF_ERROR(it->status());
  // After every delete: a batch's later entry for a key wins.
  for (const auto& [key, value] : moved) batch->Put(key, value);
  return Status::OK();
}

Status MigrateLegacyNamespaceFolders(Store* store, const std::string& path, const std::string& not_a_namespace,
                                     int* folders) {
  *folders = 0;
  std::error_code error;
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    std::string name = entry.path().filename().string();
    bool folder = entry.is_directory(error) && name.size() > 3 && name.compare(name.size() - 3, 3, ".db") == 0;
    if (!folder || name == not_a_namespace) continue;
    if (!std::filesystem::exists(entry.path() / "CURRENT", error)) continue;  // not a RocksDB: left alone
    names.push_back(name);
  }
  if (error) return Status::Internal("cannot list " + path + ": " + error.message());
  for (const std::string& name : names) {
    DP_RETURN_IF_ERROR(MigrateFolder(store, path + "/" + name, name));
    ++*folders;
  }
  return Status::OK();
}

}  // namespace dynapage
