#include "engine/model/table_definition.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>

#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {
using Writer = JsonWriter;  // escapes control characters correctly (attribute names may hold them)

void WriteKeyAttribute(const KeyAttribute& k, Writer* w) {
  w->StartObject();
  w->Key("name");
  w->String(k.name);
  w->Key("type");
  w->String(AttrTypeName(k.type));
  w->EndObject();
}

// [hash, range]; a multi-attribute key lists every element in schema order, each with its "keyType" (a
// single-attribute key is stored as before multi-attribute keys existed).
void WriteKeySchema(const KeySchema& k, Writer* w) {
  w->StartArray();
  if (!k.multi_attribute()) {
    WriteKeyAttribute(k.hash, w);
    if (k.range) WriteKeyAttribute(*k.range, w);
  } else {
    auto element = [&](const KeyAttribute& a, const char* key_type) {
      w->StartObject();
      w->Key("name");
      w->String(a.name);
      w->Key("type");
      w->String(AttrTypeName(a.type));
      w->Key("keyType");
      w->String(key_type);
      w->EndObject();
    };
    for (size_t i = 0; i < k.hash_count(); i++) element(k.hash_at(i), "HASH");
    for (size_t i = 0; i < k.range_count(); i++) element(k.range_at(i), "RANGE");
  }
  w->EndArray();
}

void WriteThroughput(const ProvisionedThroughput& t, Writer* w) {
  w->StartArray();
  w->Int64(t.read_capacity_units);
  w->Int64(t.write_capacity_units);
  w->Int64(t.number_of_decreases_today);
  w->Double(t.last_increase_time);
  w->Double(t.last_decrease_time);
  w->EndArray();
}

bool ReadKeyAttribute(const rapidjson::Value& v, KeyAttribute* k) {
  if (!v.IsObject() || !v.HasMember("name") || !v.HasMember("type")) return false;
  k->name = v["name"].GetString();
  return AttrTypeFromName(v["type"].GetString(), &k->type);
}

bool ReadKeySchema(const rapidjson::Value& v, KeySchema* k) {
  if (!v.IsArray() || v.Size() < 1) return false;
  if (!ReadKeyAttribute(v[0], &k->hash)) return false;
  if (v[0].HasMember("keyType")) {  // a multi-attribute key
    for (rapidjson::SizeType i = 1; i < v.Size(); i++) {
      KeyAttribute a;
      if (!ReadKeyAttribute(v[i], &a) || !v[i].HasMember("keyType")) return false;
      bool is_range = std::string(v[i]["keyType"].GetString()) == "RANGE";
      if (is_range && !k->range) {
        k->range = std::move(a);
      } else {
        (is_range ? k->more_range : k->more_hash).push_back(std::move(a));
      }
    }
    return true;
  }
  if (v.Size() > 1) {
    KeyAttribute range;
    if (!ReadKeyAttribute(v[1], &range)) return false;
    k->range = range;
  }
  return true;
}

void ReadThroughput(const rapidjson::Value& v, ProvisionedThroughput* t) {
  if (!v.IsArray() || v.Size() != 5) return;
  t->read_capacity_units = v[0].GetInt64();
  t->write_capacity_units = v[1].GetInt64();
  t->number_of_decreases_today = v[2].GetInt64();
  t->last_increase_time = v[3].GetDouble();
  t->last_decrease_time = v[4].GetDouble();
}
}  // namespace

const char* ProjectionTypeName(ProjectionType type) {
  switch (type) {
    case ProjectionType::kAll:
      return "ALL";
    case ProjectionType::kKeysOnly:
      return "KEYS_ONLY";
    case ProjectionType::kInclude:
      return "INCLUDE";
  }
  return "ALL";
}

ProjectionType ProjectionTypeFromName(const char* name) {
  const std::string text = name;
  return text == "KEYS_ONLY" ? ProjectionType::kKeysOnly
         : text == "INCLUDE" ? ProjectionType::kInclude
                             : ProjectionType::kAll;
}

bool IndexDefinition::Projects(const std::string& attribute, const KeySchema& table_key) const {
  if (projection == ProjectionType::kAll) return true;
  if (key.IsKeyAttribute(attribute) || table_key.IsKeyAttribute(attribute)) return true;
  if (projection == ProjectionType::kInclude) {
    return std::find(non_key_attributes.begin(), non_key_attributes.end(), attribute) != non_key_attributes.end();
  }
  return false;
}

const IndexDefinition* TableDefinition::FindIndex(const std::string& index_name) const {
  for (const auto& index : indexes) {
    if (index.name == index_name) return &index;
  }
  return nullptr;
}

const VectorIndexDefinition* TableDefinition::FindVectorIndex(const std::string& index_name) const {
  for (const auto& index : vector_indexes) {
    if (index.name == index_name) return &index;
  }
  return nullptr;
}

bool TableDefinition::HasGlobalIndexes() const {
  return std::any_of(indexes.begin(), indexes.end(), [](const IndexDefinition& i) { return i.global; });
}

bool TableDefinition::HasLocalIndexes() const {
  return std::any_of(indexes.begin(), indexes.end(), [](const IndexDefinition& i) { return !i.global; });
}

std::string SerializeTableDefinition(const TableDefinition& t) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  w.Key("name");
  w.String(t.name);
  w.Key("attributes");
  w.StartArray();
  for (const auto& a : t.attribute_definitions) WriteKeyAttribute(a, &w);
  w.EndArray();
  w.Key("key");
  WriteKeySchema(t.key, &w);
  w.Key("indexes");
  w.StartArray();
  for (const auto& i : t.indexes) {
    w.StartObject();
    w.Key("name");
    w.String(i.name);
    w.Key("global");
    w.Bool(i.global);
    w.Key("key");
    WriteKeySchema(i.key, &w);
    w.Key("projection");
    w.String(ProjectionTypeName(i.projection));
    w.Key("include");
    w.StartArray();
    for (const auto& n : i.non_key_attributes) w.String(n);
    w.EndArray();
    w.Key("keyspace");
    w.Uint(i.keyspace);
    w.Key("throughput");
    WriteThroughput(i.throughput, &w);
    if (i.creation_time > 0) {
      w.Key("created");
      w.Double(i.creation_time);
    }
    WriteCapacitySettings(i.settings, &w);
    w.EndObject();
  }
  w.EndArray();
  // Absent from definitions without vector indexes (and from those written before vector search).
  if (!t.vector_indexes.empty()) {
    w.Key("vectorIndexes");
    w.StartArray();
    for (const auto& v : t.vector_indexes) WriteVectorIndexDefinition(v, &w);
    w.EndArray();
  }
  w.Key("keyspace");
  w.Uint(t.keyspace);
  w.Key("created");
  w.Double(t.creation_time);
  w.Key("id");
  w.String(t.table_id);
  w.Key("arn");
  w.String(t.arn);
  w.Key("payPerRequest");
  w.Bool(t.pay_per_request);
  w.Key("payPerRequestSince");
  w.Double(t.last_update_to_pay_per_request_time);
  w.Key("throughput");
  WriteThroughput(t.throughput, &w);
  w.Key("ttl");
  w.String(t.ttl_attribute);
  w.Key("ttlChanged");
  w.Int64(t.ttl_changed_ms);
  w.Key("tags");
  w.StartObject();
  for (const auto& [k, v] : t.tags) {
    w.Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size()));
    w.String(v);
  }
  w.EndObject();
  w.Key("deletionProtection");
  w.Bool(t.deletion_protection);
  w.Key("streamViewType");
  w.String(t.stream_view_type);
  w.Key("pointInTimeRecovery");
  w.Bool(t.point_in_time_recovery);
  w.Key("pointInTimeRecoverySince");
  w.Double(t.point_in_time_recovery_since);
  w.Key("recoveryPeriodInDays");
  w.Int64(t.recovery_period_in_days);
  w.Key("streamId");
  w.Uint(t.stream_id);
  w.Key("latestStreamArn");
  w.String(t.latest_stream_arn);
  w.Key("latestStreamLabel");
  w.String(t.latest_stream_label);
  WriteTableSettings(t.settings, &w);
  if (t.restore_date_time > 0) {
    w.Key("restore");
    w.StartObject();
    w.Key("backupArn");
    w.String(t.restore_source_backup_arn);
    w.Key("tableArn");
    w.String(t.restore_source_table_arn);
    w.Key("time");
    w.Double(t.restore_date_time);
    w.EndObject();
  }
  if (t.global.is_global() || !t.global.deleting.empty()) {
    w.Key("global");
    WriteGlobalTableMembership(t.global, &w);
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool ParseTableDefinition(const std::string& json, TableDefinition* t) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsObject()) return false;
  *t = TableDefinition();
  t->name = d["name"].GetString();
  for (const auto& a : d["attributes"].GetArray()) {
    KeyAttribute k;
    if (!ReadKeyAttribute(a, &k)) return false;
    t->attribute_definitions.push_back(k);
  }
  if (!ReadKeySchema(d["key"], &t->key)) return false;
  for (const auto& iv : d["indexes"].GetArray()) {
    IndexDefinition i;
    i.name = iv["name"].GetString();
    i.global = iv["global"].GetBool();
    if (!ReadKeySchema(iv["key"], &i.key)) return false;
    i.projection = ProjectionTypeFromName(iv["projection"].GetString());
    for (const auto& n : iv["include"].GetArray()) i.non_key_attributes.push_back(n.GetString());
    i.keyspace = iv["keyspace"].GetUint();
    ReadThroughput(iv["throughput"], &i.throughput);
    if (iv.HasMember("created") && iv["created"].IsNumber()) i.creation_time = iv["created"].GetDouble();
    ReadCapacitySettings(iv, &i.settings);
    t->indexes.push_back(std::move(i));
  }
  if (d.HasMember("vectorIndexes")) {
    for (const auto& vv : d["vectorIndexes"].GetArray()) {
      VectorIndexDefinition v;
      if (!ReadVectorIndexDefinition(vv, &v)) return false;
      t->vector_indexes.push_back(std::move(v));
    }
  }
  t->keyspace = d["keyspace"].GetUint();
  t->creation_time = d["created"].GetDouble();
  t->table_id = d["id"].GetString();
  t->arn = d["arn"].GetString();
  t->pay_per_request = d["payPerRequest"].GetBool();
  if (d.HasMember("payPerRequestSince")) t->last_update_to_pay_per_request_time = d["payPerRequestSince"].GetDouble();
  ReadThroughput(d["throughput"], &t->throughput);
  t->ttl_attribute = d["ttl"].GetString();
  // Absent from definitions written before the TTL cooldown was kept.
  if (d.HasMember("ttlChanged")) t->ttl_changed_ms = d["ttlChanged"].GetInt64();
  for (auto m = d["tags"].MemberBegin(); m != d["tags"].MemberEnd(); ++m) {
    t->tags[m->name.GetString()] = m->value.GetString();
  }
  t->deletion_protection = d["deletionProtection"].GetBool();
  t->stream_view_type = d["streamViewType"].GetString();
  // Absent from definitions written before point-in-time recovery was recorded.
  if (d.HasMember("pointInTimeRecovery")) {
    t->point_in_time_recovery = d["pointInTimeRecovery"].GetBool();
    t->point_in_time_recovery_since = d["pointInTimeRecoverySince"].GetDouble();
    t->recovery_period_in_days = d["recoveryPeriodInDays"].GetInt64();
  }
  // Definitions written before streams were implemented have no stream members.
  if (d.HasMember("streamId")) {
    t->stream_id = d["streamId"].GetUint();
    t->latest_stream_arn = d["latestStreamArn"].GetString();
    t->latest_stream_label = d["latestStreamLabel"].GetString();
  }
  ReadTableSettings(d, &t->settings);
  if (d.HasMember("restore")) {
    const auto& restore = d["restore"];
    t->restore_source_backup_arn = restore["backupArn"].GetString();
    t->restore_source_table_arn = restore["tableArn"].GetString();
    t->restore_date_time = restore["time"].GetDouble();
  }
  if (d.HasMember("global") && !ReadGlobalTableMembership(d["global"], &t->global)) return false;
  return true;
}

}  // namespace dynapage
