#include "server/protocol/consumed_capacity_json.h"

namespace dynapage {

namespace {
void WriteUnitsObject(double units, bool is_read, JsonWriter* w) {
  w->StartObject();
  w->Key(is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
  w->Double(units);
  w->Key("CapacityUnits");
  w->Double(units);
  w->EndObject();
}
}  // namespace

CapacityDetail ParseCapacityDetail(const std::optional<std::string>& value) {
  if (!value) return CapacityDetail::kNone;
  if (*value == "TOTAL") return CapacityDetail::kTotal;
  if (*value == "INDEXES") return CapacityDetail::kIndexes;
  return CapacityDetail::kNone;
}

void WriteConsumedCapacityObject(const ConsumedCapacity& c, CapacityDetail detail, JsonWriter* w) {
  w->StartObject();
  w->Key("TableName");
  w->String(c.table_name);
  w->Key("CapacityUnits");
  w->Double(c.total());
  w->Key(c.is_read ? "ReadCapacityUnits" : "WriteCapacityUnits");
  w->Double(c.total());
  if (detail == CapacityDetail::kIndexes) {
    w->Key("Table");
    WriteUnitsObject(c.table_units, c.is_read, w);
    if (!c.global_index_units.empty()) {
      w->Key("GlobalSecondaryIndexes");
      w->StartObject();
      for (const auto& [name, units] : c.global_index_units) {
        w->Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
        WriteUnitsObject(units, c.is_read, w);
      }
      w->EndObject();
    }
    if (!c.local_index_units.empty()) {
      w->Key("LocalSecondaryIndexes");
      w->StartObject();
      for (const auto& [name, units] : c.local_index_units) {
        w->Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
        WriteUnitsObject(units, c.is_read, w);
      }
      w->EndObject();
    }
    if (!c.vector_write_bytes.empty()) {
      w->Key("VectorIndexes");
      w->StartObject();
      for (const auto& [name, bytes] : c.vector_write_bytes) {
        w->Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
        w->StartObject();
        w->Key("VectorWriteRequestBytes");
        w->Double(bytes);
        w->EndObject();
      }
      w->EndObject();
    }
  }
  w->EndObject();
}

void WriteConsumedCapacityMember(const ConsumedCapacity& c, CapacityDetail detail, JsonWriter* w) {
  if (detail == CapacityDetail::kNone) return;
  w->Key("ConsumedCapacity");
  WriteConsumedCapacityObject(c, detail, w);
}

void WriteConsumedCapacityList(const std::vector<ConsumedCapacity>& capacities, CapacityDetail detail,
                               JsonWriter* w) {
  if (detail == CapacityDetail::kNone) return;
  w->Key("ConsumedCapacity");
  w->StartArray();
  for (const auto& c : capacities) WriteConsumedCapacityObject(c, detail, w);
  w->EndArray();
}

}  // namespace dynapage
