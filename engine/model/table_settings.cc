#include "engine/model/table_settings.h"

namespace dynapage {

namespace {
int64_t Int64Or(const rapidjson::Value& v, const char* name, int64_t fallback) {
  auto m = v.FindMember(name);
  return m != v.MemberEnd() && m->value.IsInt64() ? m->value.GetInt64() : fallback;
}
double DoubleOr(const rapidjson::Value& v, const char* name, double fallback) {
  auto m = v.FindMember(name);
  return m != v.MemberEnd() && m->value.IsNumber() ? m->value.GetDouble() : fallback;
}
std::string StringOr(const rapidjson::Value& v, const char* name) {
  auto m = v.FindMember(name);
  return m != v.MemberEnd() && m->value.IsString() ? std::string(m->value.GetString(), m->value.GetStringLength())
                                                   : std::string();
}
bool BoolOr(const rapidjson::Value& v, const char* name, bool fallback) {
  auto m = v.FindMember(name);
  return m != v.MemberEnd() && m->value.IsBool() ? m->value.GetBool() : fallback;
}
}  // namespace

void WriteCapacitySettings(const CapacitySettings& s, JsonWriter* w) {
  if (s.on_demand.any_set()) {
    w->Key("maxReadRequestUnits");
    w->Int64(s.on_demand.max_read_request_units);
    w->Key("maxWriteRequestUnits");
    w->Int64(s.on_demand.max_write_request_units);
  }
  if (s.warm.read_units_per_second > 0 || s.warm.write_units_per_second > 0) {
    w->Key("warmRead");
    w->Int64(s.warm.read_units_per_second);
    w->Key("warmWrite");
    w->Int64(s.warm.write_units_per_second);
    w->Key("warmRaised");
    w->Double(s.warm.raised_time);
  }
  if (s.insights.updated_time > 0) {
    w->Key("insights");
    w->Bool(s.insights.enabled);
    w->Key("insightsMode");
    w->String(s.insights.mode);
    w->Key("insightsUpdated");
    w->Double(s.insights.updated_time);
  }
}

void ReadCapacitySettings(const rapidjson::Value& v, CapacitySettings* s) {
  s->on_demand.max_read_request_units = Int64Or(v, "maxReadRequestUnits", -1);
  s->on_demand.max_write_request_units = Int64Or(v, "maxWriteRequestUnits", -1);
  s->warm.read_units_per_second = Int64Or(v, "warmRead", 0);
  s->warm.write_units_per_second = Int64Or(v, "warmWrite", 0);
  s->warm.raised_time = DoubleOr(v, "warmRaised", 0);
  s->insights.enabled = BoolOr(v, "insights", false);
  s->insights.mode = StringOr(v, "insightsMode");
  s->insights.updated_time = DoubleOr(v, "insightsUpdated", 0);
}

void WriteTableSettings(const TableSettings& s, JsonWriter* w) {
  WriteCapacitySettings(s.capacity, w);
  if (!s.table_class.empty()) {
    w->Key("tableClass");
    w->String(s.table_class);
    w->Key("tableClassUpdated");
    w->Double(s.table_class_updated_time);
  }
  if (s.sse_kms || s.sse_updated_time > 0) {
    w->Key("sseKms");
    w->Bool(s.sse_kms);
    w->Key("kmsMasterKeyArn");
    w->String(s.kms_master_key_arn);
    w->Key("sseUpdated");
    w->Double(s.sse_updated_time);
  }
  if (!s.kinesis_destinations.empty()) {
    w->Key("kinesis");
    w->StartArray();
    for (const auto& d : s.kinesis_destinations) {
      w->StartObject();
      w->Key("streamArn");
      w->String(d.stream_arn);
      w->Key("active");
      w->Bool(d.active);
      w->Key("precision");
      w->String(d.precision);
      w->Key("updated");
      w->Double(d.updated_time);
      w->Key("byUpdate");
      w->Bool(d.updated);
      w->EndObject();
    }
    w->EndArray();
  }
  if (!s.resource_policies.empty()) {
    w->Key("policies");
    w->StartObject();
    for (const auto& [arn, policy] : s.resource_policies) {
      w->Key(arn.c_str(), static_cast<rapidjson::SizeType>(arn.size()));
      w->StartArray();
      w->String(policy.document);
      w->String(policy.revision_id);
      w->EndArray();
    }
    w->EndObject();
  }
}

void ReadTableSettings(const rapidjson::Value& v, TableSettings* s) {
  ReadCapacitySettings(v, &s->capacity);
  s->table_class = StringOr(v, "tableClass");
  s->table_class_updated_time = DoubleOr(v, "tableClassUpdated", 0);
  s->sse_kms = BoolOr(v, "sseKms", false);
  s->kms_master_key_arn = StringOr(v, "kmsMasterKeyArn");
  s->sse_updated_time = DoubleOr(v, "sseUpdated", 0);
  auto kinesis = v.FindMember("kinesis");
  if (kinesis != v.MemberEnd() && kinesis->value.IsArray()) {
    for (const auto& e : kinesis->value.GetArray()) {
      if (!e.IsObject()) continue;
      KinesisDestination d;
      d.stream_arn = StringOr(e, "streamArn");
      d.active = BoolOr(e, "active", true);
      d.precision = StringOr(e, "precision");
      d.updated_time = DoubleOr(e, "updated", 0);
      d.updated = BoolOr(e, "byUpdate", false);
      s->kinesis_destinations.push_back(std::move(d));
    }
  }
  auto policies = v.FindMember("policies");
  if (policies != v.MemberEnd() && policies->value.IsObject()) {
    for (auto m = policies->value.MemberBegin(); m != policies->value.MemberEnd(); ++m) {
      if (!m->value.IsArray() || m->value.Size() != 2) continue;
      s->resource_policies[m->name.GetString()] = {m->value[0].GetString(), m->value[1].GetString()};
    }
  }
}

}  // namespace dynapage
