#include "engine/model/global_table_membership.h"

#include <algorithm>

namespace dynapage {

using JsonOut = rapidjson::Writer<rapidjson::StringBuffer>;

bool GlobalTableMembership::has(const std::string& region) const { return find(region) != nullptr; }

const ReplicaMember* GlobalTableMembership::find(const std::string& region) const {
  auto it = std::find_if(replicas.begin(), replicas.end(), [&](const ReplicaMember& r) { return r.region == region; });
  return it == replicas.end() ? nullptr : &*it;
}

ReplicaMember* GlobalTableMembership::find(const std::string& region) {
  auto it = std::find_if(replicas.begin(), replicas.end(), [&](const ReplicaMember& r) { return r.region == region; });
  return it == replicas.end() ? nullptr : &*it;
}

namespace {
void WriteScaling(const AutoScalingSettings& s, JsonOut* w) {
  w->StartObject();
  w->Key("configured");
  w->Bool(s.configured);
  w->Key("disabled");
  w->Bool(s.disabled);
  w->Key("min");
  w->Int64(s.minimum_units);
  w->Key("max");
  w->Int64(s.maximum_units);
  w->Key("role");
  w->String(s.role_arn);
  w->Key("policy");
  w->String(s.policy_name);
  w->Key("target");
  w->Double(s.target_value);
  w->Key("disableScaleIn");
  w->Bool(s.disable_scale_in);
  w->Key("scaleIn");
  w->Int64(s.scale_in_cooldown);
  w->Key("scaleOut");
  w->Int64(s.scale_out_cooldown);
  w->EndObject();
}

void WriteScalingMap(const std::map<std::string, AutoScalingSettings>& m, JsonOut* w) {
  w->StartObject();
  for (const auto& [name, s] : m) {
    w->Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    WriteScaling(s, w);
  }
  w->EndObject();
}

bool ReadScaling(const rapidjson::Value& v, AutoScalingSettings* s) {
  if (!v.IsObject()) return false;
  s->configured = v["configured"].GetBool();
  s->disabled = v["disabled"].GetBool();
  s->minimum_units = v["min"].GetInt64();
  s->maximum_units = v["max"].GetInt64();
  s->role_arn = v["role"].GetString();
  s->policy_name = v["policy"].GetString();
  s->target_value = v["target"].GetDouble();
  s->disable_scale_in = v["disableScaleIn"].GetBool();
  s->scale_in_cooldown = v["scaleIn"].GetInt64();
  s->scale_out_cooldown = v["scaleOut"].GetInt64();
  return true;
}

bool ReadScalingMap(const rapidjson::Value& v, std::map<std::string, AutoScalingSettings>* m) {
  if (!v.IsObject()) return false;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    if (!ReadScaling(it->value, &(*m)[it->name.GetString()])) return false;
  }
  return true;
}
}  // namespace

bool InTransientWindow(double since, double now, uint64_t delay_ms) {
  return since > 0 && (now - since) * 1000 < static_cast<double>(delay_ms);
}

bool MembershipChanging(const GlobalTableMembership& m, double now, uint64_t delay_ms) {
  for (const ReplicaMember& r : m.replicas) {
    if (InTransientWindow(r.created, now, delay_ms)) return true;
  }
  for (const auto& [region, since] : m.deleting) {
    if (InTransientWindow(since, now, delay_ms)) return true;
  }
  return false;
}

void WriteGlobalTableMembership(const GlobalTableMembership& m, JsonOut* w) {
  w->StartObject();
  w->Key("version");
  w->String(m.version);
  w->Key("replicas");
  w->StartArray();
  for (const ReplicaMember& r : m.replicas) {
    w->StartObject();
    w->Key("region");
    w->String(r.region);
    w->Key("created");
    w->Double(r.created);
    w->Key("readOverride");
    w->Int64(r.read_capacity_override);
    w->Key("readScaling");
    WriteScaling(r.read_scaling, w);
    w->Key("indexReadScaling");
    WriteScalingMap(r.index_read_scaling, w);
    w->EndObject();
  }
  w->EndArray();
  w->Key("strong");
  w->Bool(m.strong_consistency);
  w->Key("witness");
  w->String(m.witness_region);
  w->Key("groupCreated");
  w->Double(m.group_created);
  w->Key("writeScaling");
  WriteScaling(m.write_scaling, w);
  w->Key("indexWriteScaling");
  WriteScalingMap(m.index_write_scaling, w);
  if (!m.deleting.empty()) {
    w->Key("deleting");
    w->StartObject();
    for (const auto& [region, since] : m.deleting) {
      w->Key(region.c_str());
      w->Double(since);
    }
    w->EndObject();
  }
  w->EndObject();
}

bool ReadGlobalTableMembership(const rapidjson::Value& v, GlobalTableMembership* m) {
  *m = GlobalTableMembership();
  if (!v.IsObject() || !v.HasMember("version") || !v.HasMember("replicas")) return false;
  m->version = v["version"].GetString();
  for (const auto& rv : v["replicas"].GetArray()) {
    ReplicaMember r;
    r.region = rv["region"].GetString();
    r.created = rv["created"].GetDouble();
    r.read_capacity_override = rv["readOverride"].GetInt64();
    if (!ReadScaling(rv["readScaling"], &r.read_scaling)) return false;
    if (!ReadScalingMap(rv["indexReadScaling"], &r.index_read_scaling)) return false;
    m->replicas.push_back(std::move(r));
  }
  m->strong_consistency = v["strong"].GetBool();
  m->witness_region = v["witness"].GetString();
  m->group_created = v["groupCreated"].GetDouble();
  if (v.HasMember("deleting")) {
    if (!v["deleting"].IsObject()) return false;
    for (auto it = v["deleting"].MemberBegin(); it != v["deleting"].MemberEnd(); ++it) {
      if (!it->value.IsNumber()) return false;
      m->deleting[it->name.GetString()] = it->value.GetDouble();
    }
  }
  return ReadScaling(v["writeScaling"], &m->write_scaling) &&
         ReadScalingMap(v["indexWriteScaling"], &m->index_write_scaling);
}

}  // namespace dynapage
