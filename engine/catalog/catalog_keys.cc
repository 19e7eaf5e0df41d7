#include "engine/catalog/catalog_keys.h"

#include "engine/catalog/stream_catalog.h"

namespace dynapage {

namespace {
std::string TagAndNumber(char tag, uint32_t number) {
  std::string key(1, tag);
  AppendBigEndian(number, 4, &key);
  return key;
}
}  // namespace

std::string DefinitionPrefix(uint32_t namespace_id) { return TagAndNumber(kDefinitionTag, namespace_id); }

std::string DefinitionKey(uint32_t namespace_id, std::string_view table_name) {
  return DefinitionPrefix(namespace_id).append(table_name);
}

std::string StatsKey(uint32_t keyspace) { return TagAndNumber(kStatsTag, keyspace); }

std::string StreamPrefix(uint32_t namespace_id) { return TagAndNumber(kStreamTag, namespace_id); }

std::string StreamKey(uint32_t namespace_id, uint32_t stream_id) {
  std::string key = StreamPrefix(namespace_id);
  AppendBigEndian(stream_id, 4, &key);
  return key;
}

std::string BackupPrefix(uint32_t namespace_id) { return TagAndNumber(kBackupTag, namespace_id); }

std::string BackupKey(uint32_t namespace_id, std::string_view backup_id) {
  return BackupPrefix(namespace_id).append(backup_id);
}

std::string ImportMarkPrefix(uint32_t namespace_id) { return TagAndNumber(kImportMarkTag, namespace_id); }

std::string ImportMarkKey(uint32_t namespace_id, std::string_view table_name) {
  return ImportMarkPrefix(namespace_id).append(table_name);
}

std::string JournalPrefix(uint32_t keyspace) { return TagAndNumber(kJournalTag, keyspace); }

std::string JournalKey(uint32_t keyspace, int64_t time_ms, uint32_t seq) {
  std::string key = JournalPrefix(keyspace);
  AppendBigEndian(static_cast<uint64_t>(time_ms), 8, &key);
  AppendBigEndian(seq, 4, &key);
  return key;
}

std::string NamespaceKey(std::string_view namespace_name) {
  return std::string(1, kNamespaceTag).append(namespace_name);
}

std::string MigrationKey(std::string_view namespace_name) {
  return std::string(1, kMigrationTag).append(namespace_name);
}

Status ParseStoredId(std::string_view text, const char* what, uint32_t* out) {
  uint64_t value = 0;
  bool digits = !text.empty() && text.size() <= 10;
  for (char c : text) {
    digits = digits && c >= '0' && c <= '9';
    if (digits) value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!digits || value == 0 || value > UINT32_MAX) {
    return Status::Internal(std::string("corrupt ") + what + ": " + std::string(text));
  }
  *out = static_cast<uint32_t>(value);
  return Status::OK();
}

Status ReadStoredCounter(const Storage& storage, std::string_view key, const char* what, uint32_t* out) {
  std::string text;
  bool found = false;
  DP_RETURN_IF_ERROR(storage.Get(key, &text, &found));
  if (!found) {
    *out = 1;
    return Status::OK();
  }
  return ParseStoredId(text, what, out);
}

}  // namespace dynapage
