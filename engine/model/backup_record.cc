#include "engine/model/backup_record.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace dynapage {

std::string SerializeBackupRecord(const BackupRecord& b) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("id");
  w.String(b.id.c_str(), static_cast<rapidjson::SizeType>(b.id.size()));
  w.Key("name");
  w.String(b.name.c_str(), static_cast<rapidjson::SizeType>(b.name.size()));
  w.Key("arn");
  w.String(b.arn.c_str(), static_cast<rapidjson::SizeType>(b.arn.size()));
  w.Key("system");
  w.Bool(b.system);
  w.Key("created");
  w.Int64(b.creation_ms);
  w.Key("expires");
  w.Int64(b.expiry_ms);
  w.Key("keyspace");
  w.Uint(b.keyspace);
  w.Key("items");
  w.Int64(b.item_count);
  w.Key("bytes");
  w.Int64(b.size_bytes);
  const std::string table = SerializeTableDefinition(b.table);
  w.Key("table");
  w.String(table.c_str(), static_cast<rapidjson::SizeType>(table.size()));
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool ParseBackupRecord(const std::string& json, BackupRecord* b) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsObject()) return false;
  for (const char* member : {"id", "name", "arn", "table"}) {
    if (!d.HasMember(member) || !d[member].IsString()) return false;
  }
  for (const char* member : {"created", "expires", "keyspace", "items", "bytes"}) {
    if (!d.HasMember(member) || !d[member].IsInt64()) return false;
  }
  if (!d.HasMember("system") || !d["system"].IsBool()) return false;
  *b = BackupRecord();
  b->id = d["id"].GetString();
  b->name = d["name"].GetString();
  b->arn = d["arn"].GetString();
  b->system = d["system"].GetBool();
  b->creation_ms = d["created"].GetInt64();
  b->expiry_ms = d["expires"].GetInt64();
  b->keyspace = static_cast<uint32_t>(d["keyspace"].GetInt64());
  b->item_count = d["items"].GetInt64();
  b->size_bytes = d["bytes"].GetInt64();
  return ParseTableDefinition(d["table"].GetString(), &b->table);
}

}  // namespace dynapage
