#include "conformance/test_tables.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace conformance {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;

std::string KeySchemaJson(const KeyAttribute& hash, const std::optional<KeyAttribute>& range) {
  std::string out = "[{\"AttributeName\":" + Quote(hash.name) + ",\"KeyType\":\"HASH\"}";
  if (range) out += ",{\"AttributeName\":" + Quote(range->name) + ",\"KeyType\":\"RANGE\"}";
  return out + "]";
}

std::string CreateTableBody(const std::string& name, const TableSpec& spec) {
  std::vector<KeyAttribute> defs;
  auto define = [&defs](const KeyAttribute& k) {
    for (const auto& d : defs) {
      if (d.name == k.name) return;
    }
    defs.push_back(k);
  };
  define(spec.hash);
  if (spec.range) define(*spec.range);
  std::string gsis, lsis;
  for (const auto& index : spec.indexes) {
    define(index.hash);
    if (index.range) define(*index.range);
    std::string json = "{\"IndexName\":" + Quote(index.name) +
                       ",\"KeySchema\":" + KeySchemaJson(index.hash, index.range) +
                       ",\"Projection\":{\"ProjectionType\":" + Quote(index.projection) + "}}";
    std::string& list = index.global ? gsis : lsis;
    list += (list.empty() ? "" : ",") + json;
  }
  std::string body = "{\"TableName\":" + Quote(name) +
                     ",\"BillingMode\":\"PAY_PER_REQUEST\",\"KeySchema\":" + KeySchemaJson(spec.hash, spec.range) +
                     ",\"AttributeDefinitions\":[";
  for (size_t i = 0; i < defs.size(); ++i) {
    body += (i ? "," : "") + std::string("{\"AttributeName\":") + Quote(defs[i].name) +
            ",\"AttributeType\":" + Quote(defs[i].type) + "}";
  }
  body += "]";
  if (!gsis.empty()) body += ",\"GlobalSecondaryIndexes\":[" + gsis + "]";
  if (!lsis.empty()) body += ",\"LocalSecondaryIndexes\":[" + lsis + "]";
  return body + "}";
}

}  // namespace

TableRegistry::TableRegistry(Client* client) : client_(client) {}

std::string TableRegistry::UniqueName(const std::string& hint) {
  static std::mt19937_64 rng{std::random_device{}() ^
                             static_cast<uint64_t>(steady_clock::now().time_since_epoch().count())};
  char suffix[17];
  std::snprintf(suffix, sizeof(suffix), "%016llx", static_cast<unsigned long long>(rng()));
  return "dynapage-conformance-" + hint + "-" + std::string(suffix, 10);
}

bool TableRegistry::Create(const std::string& hint, const TableSpec& spec, std::string* name, std::string* error) {
  *name = UniqueName(hint);
  return CreateNamed(*name, spec, error);
}

bool TableRegistry::CreateNamed(const std::string& name, const TableSpec& spec, std::string* error) {
  Response r = client_->Call("CreateTable", CreateTableBody(name, spec));
  if (!r.ok()) {
    *error = "CreateTable " + name + ": " + r.Describe();
    return false;
  }
  live_.push_back(name);
  return WaitActive(name, error);
}

bool TableRegistry::WaitActive(const std::string& name, std::string* error) {
  const auto deadline = steady_clock::now() + std::chrono::minutes(10);
  for (int poll = 0;; ++poll) {
    Response r = client_->Call("DescribeTable", "{\"TableName\":" + Quote(name) + "}");
    if (!r.ok()) {
      *error = "DescribeTable " + name + ": " + r.Describe();
      return false;
    }
    const rapidjson::Value* table = Member(r.json, "Table");
    const rapidjson::Value* status = table ? Member(*table, "TableStatus") : nullptr;
    bool active = status && status->IsString() && std::string(status->GetString()) == "ACTIVE";
    if (const rapidjson::Value* gsis = table ? Member(*table, "GlobalSecondaryIndexes") : nullptr;
        gsis && gsis->IsArray()) {
      for (const auto& gsi : gsis->GetArray()) {
        const rapidjson::Value* s = Member(gsi, "IndexStatus");
        if (!s || !s->IsString() || std::string(s->GetString()) != "ACTIVE") active = false;
      }
    }
    if (active) return true;
    if (steady_clock::now() > deadline) {
      *error = "table " + name + " not ACTIVE after 10 minutes: " + r.Describe();
      return false;
    }
    std::this_thread::sleep_for(milliseconds(poll < 5 ? 500 : 2000));
  }
}

bool TableRegistry::Delete(const std::string& name, std::string* error) {
  // A table still CREATING (or being updated) refuses deletion with ResourceInUseException: wait it out.
  for (int attempt = 0; attempt < 60; ++attempt) {
    Response r = client_->Call("DeleteTable", "{\"TableName\":" + Quote(name) + "}");
    if (r.ok() || r.error_type == "ResourceNotFoundException") {
      live_.erase(std::remove(live_.begin(), live_.end(), name), live_.end());
      return true;
    }
    if (r.error_type != "ResourceInUseException") {
      *error = "DeleteTable " + name + ": " + r.Describe();
      return false;
    }
    std::this_thread::sleep_for(milliseconds(5000));
  }
  *error = "DeleteTable " + name + ": still in use after 5 minutes";
  return false;
}

void TableRegistry::DeleteAll() {
  std::vector<std::string> names = live_;
  for (const auto& name : names) {
    std::string error;
    if (!Delete(name, &error)) {
      std::fprintf(stderr, "conformance: could not delete table %s: %s\n", name.c_str(), error.c_str());
      // Forget it anyway so that a second DeleteAll (atexit after TearDown) does not wait on it again.
      live_.erase(std::remove(live_.begin(), live_.end(), name), live_.end());
    }
  }
}

ScopedTable::ScopedTable(TableRegistry* registry, const std::string& hint, const TableSpec& spec)
    : registry_(registry) {
  ok_ = registry_->Create(hint, spec, &name_, &error_);
}

ScopedTable::~ScopedTable() {
  if (name_.empty()) return;
  std::string error;
  if (!registry_->Delete(name_, &error)) std::fprintf(stderr, "conformance: %s\n", error.c_str());
}

bool ScopedTable::Fill(const std::vector<std::string>& items) {
  if (ok_ && !WriteItems(*registry_->client(), name_, items, &error_)) ok_ = false;
  return ok_;
}

bool ScopedTable::WaitForIndex(const std::string& index, int expected) {
  if (ok_ && !WaitForIndexCount(*registry_->client(), name_, index, expected, &error_)) ok_ = false;
  return ok_;
}

bool WriteItems(Client& client, const std::string& table, const std::vector<std::string>& items, std::string* error) {
  for (size_t start = 0; start < items.size(); start += 25) {
    std::string requests;
    for (size_t i = start; i < std::min(items.size(), start + 25); ++i) {
      requests += (requests.empty() ? "" : ",") + std::string("{\"PutRequest\":{\"Item\":") + items[i] + "}}";
    }
    std::string body = "{\"RequestItems\":{" + Quote(table) + ":[" + requests + "]}}";
    for (int attempt = 0;; ++attempt) {
      Response r = client.Call("BatchWriteItem", body);
      if (!r.ok()) {
        *error = "BatchWriteItem: " + r.Describe();
        return false;
      }
      const rapidjson::Value* unprocessed = Member(r.json, "UnprocessedItems");
      if (!unprocessed || !unprocessed->IsObject() || unprocessed->MemberCount() == 0) break;
      if (attempt == 30) {
        *error = "BatchWriteItem: items still unprocessed after 30 attempts";
        return false;
      }
      body = "{\"RequestItems\":" + ToJson(*unprocessed) + "}";
      std::this_thread::sleep_for(milliseconds(100 * (1 << std::min(attempt, 5))));
    }
  }
  return true;
}

bool WaitForIndexCount(Client& client, const std::string& table, const std::string& index, int expected,
                       std::string* error) {
  // An emulator updates its indexes with the write; whether it counts right is for the cases to check.
  if (!client.endpoint().is_aws) return true;
  const auto deadline = steady_clock::now() + std::chrono::minutes(2);
  const std::string base =
      "{\"TableName\":" + Quote(table) + ",\"IndexName\":" + Quote(index) + ",\"Select\":\"COUNT\"";
  for (;;) {
    int total = 0;
    std::string esk;
    for (int page = 0; page < 1000; ++page) {
      Response r = client.Call("Scan", base + (esk.empty() ? "" : ",\"ExclusiveStartKey\":" + esk) + "}");
      if (!r.ok()) {
        *error = "Scan of index " + index + " while waiting for it: " + r.Describe();
        return false;
      }
      const rapidjson::Value* count = Member(r.json, "Count");
      total += count && count->IsInt() ? count->GetInt() : 0;
      const rapidjson::Value* lek = Member(r.json, "LastEvaluatedKey");
      if (!lek || !lek->IsObject() || lek->MemberCount() == 0) break;
      esk = ToJson(*lek);
    }
    if (total == expected) return true;
    if (steady_clock::now() > deadline) {
      *error = "index " + index + " holds " + std::to_string(total) + " items, want " + std::to_string(expected);
      return false;
    }
    std::this_thread::sleep_for(milliseconds(1000));
  }
}

}  // namespace conformance
