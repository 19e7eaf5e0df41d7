#include "tests/http/pagination_model_util.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>

#include "engine/base/base64.h"
#include "engine/database/database.h"
#include "engine/storage/item_key.h"
#include "tests/http/index_test_util.h"

namespace dynapage {

namespace {

using Allocator = rapidjson::Document::AllocatorType;

int Uniform(std::mt19937& rng, int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); }
bool Chance(std::mt19937& rng, double p) { return std::bernoulli_distribution(p)(rng); }
// REQUIRES: from is not empty.
template <typename T>
const T& Pick(std::mt19937& rng, const std::vector<T>& from) {
  return from[static_cast<size_t>(Uniform(rng, 0, static_cast<int>(from.size()) - 1))];
}

// Few pieces, so that keys share prefixes (begins_with) and strings order by UTF-8 bytes, not UTF-16 units
// (U+E000 sorts before U+1F600 only in UTF-8).
const std::vector<std::string> kStringPieces = {"a", "b", "A", "0", "\xc3\xa9", "\xe2\x82\xac", "\xe4\xb8\xad",
                                                "\xf0\x9f\x98\x80", "\xee\x80\x80"};
// NUL (escaped in storage keys), and bytes with the high bit set (which a signed compare misorders).
const std::vector<char> kBytes = {'\x00', '\x01', 'a', '\x7f', '\x80', '\xc3', '\xfe', '\xff'};

long long Power10(int e) {
  long long p = 1;
  while (e-- > 0) p *= 10;
  return p;
}

// A spelling of the number that DynamoDB accepts, not necessarily the canonical one.
std::string Spell(std::mt19937& rng, long long milli) {
  std::string canonical = CanonicalNumber(milli);
  switch (Uniform(rng, 0, 4)) {
    case 0: {  // mantissa and exponent: "2e3", "-15E-1", "7e+0"
      if (milli == 0) return "0.0";
      long long m = milli;
      int e = -3;
      while (m % 10 == 0) {
        m /= 10;
        e++;
      }
      std::string exponent = (e >= 0 && Chance(rng, 0.5) ? "+" : "") + std::to_string(e);
      return std::to_string(m) + (Chance(rng, 0.5) ? "e" : "E") + exponent;
    }
    case 1:  // superfluous zeros: "10.0", "-1.50"
      return canonical + (canonical.find('.') == std::string::npos ? ".0" : "00");
    case 2: {  // no leading zero: ".5", "-.25"
      size_t zero = canonical.find("0.");
      if (zero == 0 || (zero == 1 && canonical[0] == '-')) {
        return canonical.substr(0, zero) + canonical.substr(zero + 1);
      }
      return canonical;
    }
    default: return canonical;
  }
}

long long RandomMilli(std::mt19937& rng) {
  switch (Uniform(rng, 0, 3)) {
    case 0: return Uniform(rng, -50, 50) * 1000LL;
    case 1: return Uniform(rng, -200, 200) * 500LL;
    case 2: return Uniform(rng, -99999, 99999);
    default: {  // "2e3": drawn one after the other, as the order of a call's arguments is unspecified
      long long mantissa = Uniform(rng, -99, 99);
      return mantissa * Power10(Uniform(rng, 1, 6) + 3);
    }
  }
}

ModelValue RandomValue(std::mt19937& rng, AttrType type) {
  ModelValue v;
  v.type = type;
  if (type == AttrType::kN) {
    v.milli = RandomMilli(rng);
    v.wire = Spell(rng, v.milli);
    return v;
  }
  int length = Uniform(rng, 1, 4);
  for (int i = 0; i < length; i++) {
    if (type == AttrType::kS) {
      v.bytes += Pick(rng, kStringPieces);
    } else {
      v.bytes += Pick(rng, kBytes);
    }
  }
  return v;
}

ModelValue Number(long long milli) {
  ModelValue v;
  v.type = AttrType::kN;
  v.milli = milli;
  v.wire = CanonicalNumber(milli);
  return v;
}

// The same value, spelled anew when it is a number.
ModelValue Respelled(std::mt19937& rng, ModelValue v) {
  if (v.type == AttrType::kN) v.wire = Spell(rng, v.milli);
  return v;
}

bool SameValue(const ModelValue& a, const ModelValue& b) { return a.type == b.type && CompareValues(a, b) == 0; }

const ModelValue* Find(const ModelItem& item, const std::string& name) {
  auto it = item.find(name);
  return it == item.end() ? nullptr : &it->second;
}

// Distinct values of a type (by value, not by spelling).
std::vector<ModelValue> DistinctValues(std::mt19937& rng, AttrType type, int count) {
  std::vector<ModelValue> out;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < count * 20; tries++) {
    ModelValue v = RandomValue(rng, type);
    bool seen = false;
    for (const auto& o : out) seen |= SameValue(o, v);
    if (!seen) out.push_back(v);
  }
  return out;
}

// ---- JSON ----

rapidjson::Value JsonString(const std::string& s, Allocator& a) {
  return rapidjson::Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), a);
}

// {"S":…}, {"N":…}, {"B":…}: as sent (the number's spelling) or as DynamoDB returns it (canonical).
rapidjson::Value ValueJson(const ModelValue& v, bool as_sent, Allocator& a) {
  rapidjson::Value out(rapidjson::kObjectType);
  std::string text = v.type == AttrType::kN ? (as_sent ? v.wire : CanonicalNumber(v.milli))
                     : v.type == AttrType::kB ? Base64Encode(v.bytes)
                                              : v.bytes;
  out.AddMember(rapidjson::StringRef(AttrTypeName(v.type)), JsonString(text, a), a);
  return out;
}

rapidjson::Value ItemJson(const ModelItem& item, bool as_sent, Allocator& a) {
  rapidjson::Value out(rapidjson::kObjectType);
  for (const auto& [name, v] : item) out.AddMember(JsonString(name, a), ValueJson(v, as_sent, a), a);
  return out;
}

std::string ItemJsonText(const ModelItem& item, bool as_sent) {
  rapidjson::Document doc;
  rapidjson::Value json = ItemJson(item, as_sent, doc.GetAllocator());
  return JsonText(json);
}

// An object's members in name order, so that answers compare whatever order dynapage writes them in.
std::string SortedMembers(const rapidjson::Value& object) {
  if (!object.IsObject()) return "(not an object: " + JsonText(object) + ")";
  std::map<std::string, std::string> members;
  for (const auto& m : object.GetObject()) {
    members[std::string(m.name.GetString(), m.name.GetStringLength())] = JsonText(m.value);
  }
  std::string out;
  for (const auto& [name, value] : members) out += name + ":" + value + ";";
  return out;
}

std::string SortedMembers(const ModelItem& item) {
  rapidjson::Document doc;
  return SortedMembers(ItemJson(item, /*as_sent=*/false, doc.GetAllocator()));
}

std::string Hex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string Label(const ModelValue& v) {
  switch (v.type) {
    case AttrType::kN: return CanonicalNumber(v.milli);
    case AttrType::kB: return "0x" + Hex(v.bytes);
    default: return '"' + v.bytes + '"';
  }
}

// ---- The read's target: table or index ----

std::string HashName(const ModelTable& t, const ModelIndex* index) { return index ? index->hash.name : t.hash.name; }
const ModelKeyAttribute* RangeOf(const ModelTable& t, const ModelIndex* index) {
  if (index) return &index->range;
  return t.range ? &*t.range : nullptr;
}

// The attributes a LastEvaluatedKey holds: the table key, plus the index key for an index read (docs/behaviour.md
// §3.1).
std::vector<std::string> KeyNames(const ModelTable& t, const ModelIndex* index) {
  std::vector<std::string> names = {t.hash.name};
  if (t.range) names.push_back(t.range->name);
  if (index) {
    for (const std::string& name : {index->hash.name, index->range.name}) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

// What orders a partition: the sort key, then for an index the table key (dynapage's tie-break: an index entry's
// storage key ends with the table key's parts, each ordered like a sort key).
std::vector<std::string> OrderNames(const ModelTable& t, const ModelIndex* index) {
  std::vector<std::string> names;
  if (const ModelKeyAttribute* range = RangeOf(t, index)) names.push_back(range->name);
  if (index) {
    names.push_back(t.hash.name);
    if (t.range) names.push_back(t.range->name);
  }
  return names;
}

int ComparePositions(const ModelItem& a, const ModelItem& b, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    int c = CompareValues(a.at(name), b.at(name));
    if (c != 0) return c;
  }
  return 0;
}

bool InIndex(const ModelItem& item, const ModelIndex* index) {
  return !index || (Find(item, index->hash.name) && Find(item, index->range.name));
}

bool Projects(const ModelTable& t, const ModelIndex* index, const std::string& name) {
  if (!index || index->projection == ProjectionType::kAll) return true;
  for (const std::string& key : KeyNames(t, index)) {
    if (key == name) return true;
  }
  return index->projection == ProjectionType::kInclude &&
         std::find(index->include.begin(), index->include.end(), name) != index->include.end();
}

// The item as the read returns it: the index's projection (an LSI's base-item fetch for a filter does not
// widen the answer).
ModelItem Returned(const ModelTable& t, const ModelIndex* index, const ModelItem& item) {
  ModelItem out;
  for (const auto& [name, v] : item) {
    if (Projects(t, index, name)) out.emplace(name, v);
  }
  return out;
}

ModelItem KeyOf(const ModelTable& t, const ModelIndex* index, const ModelItem& item) {
  ModelItem out;
  for (const std::string& name : KeyNames(t, index)) out.emplace(name, item.at(name));
  return out;
}

std::string KeyLabel(const ModelTable& t, const ModelIndex* index, const ModelItem& item) {
  std::string out;
  for (const std::string& name : KeyNames(t, index)) {
    const ModelValue* v = Find(item, name);
    out += (out.empty() ? "" : " ") + name + "=" + (v ? Label(*v) : "?");
  }
  return "{" + out + "}";
}

bool SortMatches(const ModelRead& read, const ModelValue& v) {
  int a = read.sort_op == SortOp::kNone ? 0 : CompareValues(v, read.sort_a);
  switch (read.sort_op) {
    case SortOp::kNone: return true;
    case SortOp::kEq: return a == 0;
    case SortOp::kLt: return a < 0;
    case SortOp::kLe: return a <= 0;
    case SortOp::kGt: return a > 0;
    case SortOp::kGe: return a >= 0;
    case SortOp::kBetween: return a >= 0 && CompareValues(v, read.sort_b) <= 0;
    case SortOp::kBeginsWith: return v.bytes.compare(0, read.sort_a.bytes.size(), read.sort_a.bytes) == 0;
  }
  return false;
}

// A GSI read sees only the projected attributes; an LSI read fetches the base item for the filter.
bool PassesFilter(const ModelTable& t, const ModelRead& read, const ModelItem& item) {
  if (read.filter == FilterOp::kNone) return true;
  const ModelValue* f = Find(item, "f");
  if (read.index && read.index->global && !Projects(t, read.index, "f")) f = nullptr;
  if (read.filter == FilterOp::kMissing) return f == nullptr;
  if (!f) return false;
  long long a = read.filter_a * 1000LL, b = read.filter_b * 1000LL;
  switch (read.filter) {
    case FilterOp::kLess: return f->milli < a;
    case FilterOp::kAtLeast: return f->milli >= a;
    case FilterOp::kEqual: return f->milli == a;
    case FilterOp::kBetween: return f->milli >= a && f->milli <= b;
    default: return false;
  }
}

// The size dynapage counts against max_page_bytes for the item in the read's table or index: the engine's own.
uint64_t EntrySize(const TableDefinition& def, const IndexDefinition* index, const ModelItem& item) {
  AttributeMap map;
  for (const auto& [name, v] : item) {
    switch (v.type) {
      case AttrType::kN: map.emplace(name, AttributeValue::Number(CanonicalNumber(v.milli))); break;
      case AttrType::kB: map.emplace(name, AttributeValue::Binary(v.bytes)); break;
      default: map.emplace(name, AttributeValue::String(v.bytes)); break;
    }
  }
  return index ? ItemSize(ProjectForIndex(def, *index, map)) : ItemSize(map);
}

// ---- The model's pages ----

struct ModelPage {
  std::vector<const ModelItem*> evaluated;
  std::vector<const ModelItem*> returned;
  bool last_key = false;  // LastEvaluatedKey = the key of evaluated.back()
  bool size_stop = false;
  bool size_exact = false;  // the sizes add up to max_page_bytes exactly
};

// docs/behaviour.md §2 and §11: a page stops once Limit items are evaluated or their sizes reach max_page_bytes (the
// item that crosses it included), and then has a LastEvaluatedKey, with no look-ahead. A Query of a hash-only table can
// only ever hold one item: reading it exhausts the range.
std::vector<ModelPage> CutPages(const ModelTable& t, const ModelRead& read, const std::vector<const ModelItem*>& order,
                                const std::vector<uint64_t>& sizes, uint64_t max_page_bytes, bool single_item_range) {
  std::vector<ModelPage> pages;
  size_t next = 0;
  do {
    ModelPage page;
    uint64_t bytes = 0;
    while (next < order.size()) {
      const ModelItem* item = order[next];
      bytes += sizes[next++];
      page.evaluated.push_back(item);
      if (PassesFilter(t, read, *item)) page.returned.push_back(item);
      bool at_limit = read.limit && page.evaluated.size() >= static_cast<size_t>(*read.limit);
      if (at_limit || bytes >= max_page_bytes) {
        page.last_key = !single_item_range;
        page.size_stop = !at_limit;
        page.size_exact = bytes == max_page_bytes;
        break;
      }
    }
    pages.push_back(page);
  } while (pages.back().last_key);
  return pages;
}

std::string Labels(const ModelTable& t, const ModelIndex* index, const std::vector<const ModelItem*>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); i++) {
    if (i == 12) return out + " … (" + std::to_string(items.size()) + " in all)]";
    out += (i ? ", " : "") + KeyLabel(t, index, *items[i]);
  }
  return out + "]";
}

std::string ResponseLabels(const ModelTable& t, const ModelIndex* index, const HttpResult& page) {
  std::vector<std::string> names = KeyNames(t, index);
  std::string out = "[";
  size_t n = 0;
  for (const auto& item : page.json["Items"].GetArray()) {
    if (n++ == 12) return out + " … (" + std::to_string(page.json["Items"].Size()) + " in all)]";
    std::string label;
    for (const std::string& name : names) {
      label += (label.empty() ? "" : " ") + name + "=" +
               (item.IsObject() && item.HasMember(name.c_str()) ? JsonText(item[name.c_str()]) : "?");
    }
    out += (n > 1 ? ", {" : "{") + label + "}";
  }
  return out + "]";
}

std::string ComparePage(const ModelTable& t, const ModelRead& read, const ModelPage& expected, const HttpResult& r) {
  const ModelIndex* index = read.index;
  if (r.status != 200 || !r.json.IsObject()) return "answer " + r.Describe();
  if (!r.Has("ScannedCount") || !r.Has("Count")) return "no Count or ScannedCount: " + r.Describe();
  uint64_t scanned = r.json["ScannedCount"].GetUint64(), count = r.json["Count"].GetUint64();
  if (read.limit && scanned > static_cast<uint64_t>(*read.limit)) {
    return "ScannedCount " + std::to_string(scanned) + " exceeds Limit " + std::to_string(*read.limit);
  }
  if (scanned != expected.evaluated.size()) {
    return "ScannedCount " + std::to_string(scanned) + ", the model evaluates " +
           std::to_string(expected.evaluated.size()) + ": " + Labels(t, index, expected.evaluated);
  }
  if (count != expected.returned.size()) {
    return "Count " + std::to_string(count) + ", the model returns " + std::to_string(expected.returned.size());
  }
  if (read.count_only) {
    if (r.Has("Items")) return "Items present with Select=COUNT";
  } else {
    if (!r.Has("Items") || !r.json["Items"].IsArray()) return "no Items array";
    const auto& items = r.json["Items"];
    bool same = items.Size() == expected.returned.size();
    for (size_t i = 0; same && i < expected.returned.size(); i++) {
      same = SortedMembers(items[static_cast<rapidjson::SizeType>(i)]) ==
             SortedMembers(Returned(t, index, *expected.returned[i]));
    }
    if (!same) {
      std::string detail;
      for (size_t i = 0; i < expected.returned.size() && i < items.Size(); i++) {
        std::string want = SortedMembers(Returned(t, index, *expected.returned[i]));
        std::string got = SortedMembers(items[static_cast<rapidjson::SizeType>(i)]);
        if (want != got) {
          detail = "; first difference at item " + std::to_string(i) + ": expected " + want.substr(0, 300) +
                   " got " + got.substr(0, 300);
          break;
        }
      }
      return "Items " + ResponseLabels(t, index, r) + ", the model returns " + Labels(t, index, expected.returned) +
             detail;
    }
  }
  bool has_key = r.Has("LastEvaluatedKey");
  if (has_key != expected.last_key) {
    return std::string(has_key ? "a LastEvaluatedKey " + LastKey(r) : "no LastEvaluatedKey") +
           ", the model says " +
           (expected.last_key ? "the page stopped on " + std::string(expected.size_stop ? "size" : "Limit")
                              : "the range is exhausted");
  }
  if (has_key) {
    const ModelItem& last = *expected.evaluated.back();
    if (SortedMembers(r.json["LastEvaluatedKey"]) != SortedMembers(KeyOf(t, index, last))) {
      return "LastEvaluatedKey " + LastKey(r) + ", the model's last evaluated item is " + KeyLabel(t, index, last);
    }
  }
  return "";
}

}  // namespace

int CompareValues(const ModelValue& a, const ModelValue& b) {
  if (a.type == AttrType::kN) return a.milli < b.milli ? -1 : a.milli > b.milli ? 1 : 0;
  // Unsigned bytes, the shorter prefix first.
  size_t n = std::min(a.bytes.size(), b.bytes.size());
  for (size_t i = 0; i < n; i++) {
    unsigned char x = static_cast<unsigned char>(a.bytes[i]), y = static_cast<unsigned char>(b.bytes[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.bytes.size() < b.bytes.size() ? -1 : a.bytes.size() > b.bytes.size() ? 1 : 0;
}

std::string CanonicalNumber(long long milli) {
  if (milli == 0) return "0";
  unsigned long long magnitude = milli < 0 ? 0ULL - static_cast<unsigned long long>(milli) : milli;
  std::string out = (milli < 0 ? "-" : "") + std::to_string(magnitude / 1000);
  if (unsigned fraction = static_cast<unsigned>(magnitude % 1000)) {
    char digits[4];
    std::snprintf(digits, sizeof digits, "%03u", fraction);
    std::string f = digits;
    while (f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out;
}

TableShape ShapeOfSeed(uint32_t seed) {
  static const AttrType kTypes[] = {AttrType::kS, AttrType::kN, AttrType::kB};
  TableShape shape;
  shape.range = seed % 4 != 3;
  shape.hash_type = kTypes[seed / 3 % 3];
  shape.range_type = kTypes[seed % 3];
  shape.lsi_range_type = kTypes[(seed + 1) % 3];
  shape.gsi_range_type = kTypes[(seed + 2) % 3];
  return shape;
}

uint64_t SmallPageBytes(uint32_t seed) { return 2000 + 1000 * (seed % 7); }

ModelTable RandomTable(std::mt19937& rng, const std::string& name, const TableShape& shape) {
  ModelTable t;
  t.name = name;
  t.hash = {"pk", shape.hash_type};
  if (shape.range) t.range = ModelKeyAttribute{"sk", shape.range_type};
  std::vector<ModelValue> lsk_pool, gsk_pool, gpk_pool;
  if (shape.indexes) {
    static const std::vector<ProjectionType> kProjections = {ProjectionType::kAll, ProjectionType::kKeysOnly,
                                                             ProjectionType::kInclude};
    for (bool global : {false, true}) {
      ModelIndex index;
      index.global = global;
      index.name = global ? "by_gsk" : "by_lsk";
      index.hash = global ? ModelKeyAttribute{"gpk", AttrType::kS} : t.hash;
      index.range = {global ? "gsk" : "lsk", global ? shape.gsi_range_type : shape.lsi_range_type};
      index.projection = Pick(rng, kProjections);
      if (index.projection == ProjectionType::kInclude) index.include = {"f"};
      t.indexes.push_back(index);
    }
    // Small pools of index key values: many entries share an index sort key, so ties are common.
    lsk_pool = DistinctValues(rng, t.indexes[0].range.type, 25);
    gsk_pool = DistinctValues(rng, t.indexes[1].range.type, 20);
    gpk_pool = DistinctValues(rng, AttrType::kS, 3);
  }
  auto add_item = [&](ModelValue pk, std::optional<ModelValue> sk) {
    ModelItem item;
    item.emplace("pk", std::move(pk));
    if (sk) item.emplace("sk", std::move(*sk));
    if (Chance(rng, 0.85)) item.emplace("f", Number(Uniform(rng, 0, 99) * 1000LL));
    // Mostly small items, some of several KB: a lowered page size limit then cuts pages by size.
    int size = Chance(rng, 0.75) ? Uniform(rng, 10, 300) : Uniform(rng, 1500, 6000);
    item.emplace(
        "d", ModelValue{AttrType::kS,
                        std::string(static_cast<size_t>(size), static_cast<char>('a' + Uniform(rng, 0, 25))), 0, ""});
    if (shape.indexes) {
      // Some items lack an index key attribute, and are absent from that index.
      if (Chance(rng, 0.85)) item.emplace("lsk", Respelled(rng, Pick(rng, lsk_pool)));
      if (Chance(rng, 0.9)) item.emplace("gpk", Pick(rng, gpk_pool));
      if (Chance(rng, 0.85)) item.emplace("gsk", Respelled(rng, Pick(rng, gsk_pool)));
    }
    t.items.push_back(std::move(item));
  };
  if (!shape.range) {
    for (const ModelValue& pk : DistinctValues(rng, shape.hash_type, Uniform(rng, 20, 150))) add_item(pk, std::nullopt);
    return t;
  }
  for (const ModelValue& pk : DistinctValues(rng, shape.hash_type, Uniform(rng, 1, 5))) {
    for (const ModelValue& sk : DistinctValues(rng, shape.range_type, Uniform(rng, 0, 150))) add_item(pk, sk);
  }
  return t;
}

::testing::AssertionResult LoadTable(TestServer& server, const ModelTable& t) {
  rapidjson::Document create(rapidjson::kObjectType);
  Allocator& a = create.GetAllocator();
  std::vector<ModelKeyAttribute> attributes = {t.hash};
  if (t.range) attributes.push_back(*t.range);
  auto key_schema = [&](const ModelKeyAttribute& hash, const ModelKeyAttribute* range) {
    rapidjson::Value schema(rapidjson::kArrayType);
    for (const ModelKeyAttribute* k : {&hash, range}) {
      if (!k) continue;
      rapidjson::Value element(rapidjson::kObjectType);
      element.AddMember("AttributeName", JsonString(k->name, a), a);
      element.AddMember("KeyType", rapidjson::StringRef(k == &hash ? "HASH" : "RANGE"), a);
      schema.PushBack(element, a);
    }
    return schema;
  };
  rapidjson::Value lsis(rapidjson::kArrayType), gsis(rapidjson::kArrayType);
  for (const ModelIndex& index : t.indexes) {
    for (const ModelKeyAttribute& k : {index.hash, index.range}) {
      bool known = false;
      for (const auto& d : attributes) known |= d.name == k.name;
      if (!known) attributes.push_back(k);
    }
    rapidjson::Value projection(rapidjson::kObjectType);
    projection.AddMember("ProjectionType", rapidjson::StringRef(ProjectionTypeName(index.projection)), a);
    if (!index.include.empty()) {
      rapidjson::Value names(rapidjson::kArrayType);
      for (const std::string& name : index.include) names.PushBack(JsonString(name, a), a);
      projection.AddMember("NonKeyAttributes", names, a);
    }
    rapidjson::Value json(rapidjson::kObjectType);
    json.AddMember("IndexName", JsonString(index.name, a), a);
    json.AddMember("KeySchema", key_schema(index.hash, &index.range), a);
    json.AddMember("Projection", projection, a);
    (index.global ? gsis : lsis).PushBack(json, a);
  }
  rapidjson::Value definitions(rapidjson::kArrayType);
  for (const auto& d : attributes) {
    rapidjson::Value element(rapidjson::kObjectType);
    element.AddMember("AttributeName", JsonString(d.name, a), a);
    element.AddMember("AttributeType", rapidjson::StringRef(AttrTypeName(d.type)), a);
    definitions.PushBack(element, a);
  }
  create.AddMember("TableName", JsonString(t.name, a), a);
  create.AddMember("BillingMode", "PAY_PER_REQUEST", a);
  create.AddMember("AttributeDefinitions", definitions, a);
  create.AddMember("KeySchema", key_schema(t.hash, t.range ? &*t.range : nullptr), a);
  if (!lsis.Empty()) create.AddMember("LocalSecondaryIndexes", lsis, a);
  if (!gsis.Empty()) create.AddMember("GlobalSecondaryIndexes", gsis, a);
  HttpResult r = server.Call("CreateTable", JsonText(create));
  if (r.status != 200) return ::testing::AssertionFailure() << "CreateTable: " << r.Describe();

  for (size_t start = 0; start < t.items.size(); start += 25) {
    std::string puts;
    for (size_t i = start; i < t.items.size() && i < start + 25; i++) {
      puts += (puts.empty() ? "" : ",") + std::string(R"({"PutRequest":{"Item":)") +
              ItemJsonText(t.items[i], /*as_sent=*/true) + "}}";
    }
    rapidjson::Document name_json;
    std::string request = R"({"RequestItems":{)" + JsonText(JsonString(t.name, name_json.GetAllocator())) + ":[" +
                          puts + "]}}";
    r = server.Call("BatchWriteItem", request);
    if (r.status != 200 || (r.Has("UnprocessedItems") && r.json["UnprocessedItems"].MemberCount() != 0)) {
      return ::testing::AssertionFailure() << "BatchWriteItem: " << r.Describe();
    }
  }
  return ::testing::AssertionSuccess();
}

std::string ModelRead::Json(const ModelTable& t) const {
  rapidjson::Document doc(rapidjson::kObjectType);
  Allocator& a = doc.GetAllocator();
  rapidjson::Value values(rapidjson::kObjectType);
  doc.AddMember("TableName", JsonString(t.name, a), a);
  if (index) doc.AddMember("IndexName", JsonString(index->name, a), a);
  if (query) {
    std::string condition = HashName(t, index) + " = :p";
    values.AddMember(":p", ValueJson(partition, true, a), a);
    if (sort_op != SortOp::kNone) {
      const std::string& sk = RangeOf(t, index)->name;
      static const char* const kOps[] = {"", " = ", " < ", " <= ", " > ", " >= "};
      if (sort_op == SortOp::kBetween) {
        condition += " AND " + sk + " BETWEEN :a AND :b";
      } else if (sort_op == SortOp::kBeginsWith) {
        condition += " AND begins_with(" + sk + ", :a)";
      } else {
        condition += " AND " + sk + kOps[static_cast<int>(sort_op)] + ":a";
      }
      values.AddMember(":a", ValueJson(sort_a, true, a), a);
      if (sort_op == SortOp::kBetween) values.AddMember(":b", ValueJson(sort_b, true, a), a);
    }
    doc.AddMember("KeyConditionExpression", JsonString(condition, a), a);
    if (!forward) doc.AddMember("ScanIndexForward", false, a);
  }
  if (filter != FilterOp::kNone) {
    static const char* const kFilters[] = {"", "f < :fa", "f >= :fa", "f = :fa", "f BETWEEN :fa AND :fb",
                                           "attribute_not_exists(f)"};
    doc.AddMember("FilterExpression", rapidjson::StringRef(kFilters[static_cast<int>(filter)]), a);
    if (filter != FilterOp::kMissing) values.AddMember(":fa", ValueJson(Number(filter_a * 1000LL), true, a), a);
    if (filter == FilterOp::kBetween) values.AddMember(":fb", ValueJson(Number(filter_b * 1000LL), true, a), a);
  }
  if (values.MemberCount() != 0) doc.AddMember("ExpressionAttributeValues", values, a);
  if (limit) doc.AddMember("Limit", *limit, a);
  if (count_only) doc.AddMember("Select", "COUNT", a);
  if (total_segments) {
    doc.AddMember("Segment", segment, a);
    doc.AddMember("TotalSegments", total_segments, a);
  }
  return JsonText(doc);
}

namespace {

void RandomFilterAndLimit(std::mt19937& rng, ModelRead* read) {
  if (!Chance(rng, 0.3)) read->limit = Uniform(rng, 1, 30);
  if (Chance(rng, 0.5)) {
    read->filter = static_cast<FilterOp>(Uniform(rng, 1, 5));
    read->filter_a = Uniform(rng, 0, 99);
    read->filter_b = Uniform(rng, read->filter_a, 99);
  }
  read->count_only = Chance(rng, 0.15);
}

// A leading part of a key value, cut between UTF-8 characters for a string.
ModelValue RandomPrefix(std::mt19937& rng, const ModelValue& v) {
  std::vector<size_t> cuts;
  for (size_t i = 1; i <= v.bytes.size(); i++) {
    if (v.type == AttrType::kB || i == v.bytes.size() || (static_cast<unsigned char>(v.bytes[i]) & 0xC0) != 0x80) {
      cuts.push_back(i);
    }
  }
  ModelValue prefix = v;
  prefix.bytes.resize(Pick(rng, cuts));
  return prefix;
}

}  // namespace

ModelRead RandomQuery(std::mt19937& rng, const ModelTable& t, const ModelIndex* index) {
  ModelRead read;
  read.index = index;
  const std::string hash = HashName(t, index);
  const ModelKeyAttribute* range = RangeOf(t, index);
  std::vector<ModelValue> partitions;
  for (const ModelItem& item : t.items) {
    if (!InIndex(item, index)) continue;
    bool seen = false;
    for (const auto& p : partitions) seen |= SameValue(p, item.at(hash));
    if (!seen) partitions.push_back(item.at(hash));
  }
  AttrType hash_type = index ? index->hash.type : t.hash.type;
  read.partition = partitions.empty() || Chance(rng, 0.08) ? RandomValue(rng, hash_type)
                                                            : Respelled(rng, Pick(rng, partitions));
  if (range) {
    std::vector<ModelValue> sort_values;
    for (const ModelItem& item : t.items) {
      if (InIndex(item, index) && SameValue(item.at(hash), read.partition)) sort_values.push_back(item.at(range->name));
    }
    // Operands are mostly existing sort keys, so that boundaries fall exactly on items.
    auto operand = [&]() {
      return !sort_values.empty() && Chance(rng, 0.6) ? Respelled(rng, Pick(rng, sort_values))
                                                      : RandomValue(rng, range->type);
    };
    int last_op = range->type == AttrType::kN ? static_cast<int>(SortOp::kBetween)
                                              : static_cast<int>(SortOp::kBeginsWith);
    read.sort_op = static_cast<SortOp>(Uniform(rng, 0, last_op));
    if (read.sort_op == SortOp::kBeginsWith) {
      read.sort_a = RandomPrefix(rng, operand());
    } else if (read.sort_op != SortOp::kNone) {
      read.sort_a = operand();
    }
    if (read.sort_op == SortOp::kBetween) {
      read.sort_b = operand();
      if (CompareValues(read.sort_a, read.sort_b) > 0) std::swap(read.sort_a, read.sort_b);
    }
  }
  read.forward = Chance(rng, 0.5);
  RandomFilterAndLimit(rng, &read);
  return read;
}

void AddRandomStartKey(std::mt19937& rng, const ModelTable& t, ModelRead* read) {
  const ModelIndex* index = read->index;
  const ModelKeyAttribute& range = *RangeOf(t, index);
  std::vector<std::string> order = OrderNames(t, index);
  // A sort key value that satisfies the key condition: a start key must lie in the queried range (docs/behaviour.md
  // §3.2).
  auto sort_value = [&]() -> std::optional<ModelValue> {
    for (int tries = 0; tries < 100; tries++) {
      ModelValue v = RandomValue(rng, range.type);
      if (read->sort_op == SortOp::kEq) v = Respelled(rng, read->sort_a);
      if (read->sort_op == SortOp::kBeginsWith && Chance(rng, 0.7)) v.bytes = read->sort_a.bytes + v.bytes;
      if (SortMatches(*read, v)) return v;
    }
    return std::nullopt;
  };
  auto table_value = [&](const ModelKeyAttribute& k) {
    if (t.items.empty() || Chance(rng, 0.5)) return RandomValue(rng, k.type);
    return Respelled(rng, Pick(rng, t.items).at(k.name));
  };
  std::optional<ModelItem> start;
  for (int tries = 0; tries < 20; tries++) {
    std::optional<ModelValue> sk = sort_value();
    if (!sk) break;
    ModelItem candidate;
    candidate.emplace(HashName(t, index), read->partition);
    candidate.emplace(range.name, *sk);
    if (index) {
      if (!candidate.count(t.hash.name)) candidate.emplace(t.hash.name, table_value(t.hash));
      if (t.range && !candidate.count(t.range->name)) candidate.emplace(t.range->name, table_value(*t.range));
    }
    start = candidate;
    bool is_item = false;
    for (const ModelItem& item : t.items) {
      is_item |= InIndex(item, index) && SameValue(item.at(HashName(t, index)), read->partition) &&
                 ComparePositions(item, candidate, order) == 0;
    }
    if (!is_item) break;
  }
  read->start = start;
}

ModelRead RandomScan(std::mt19937& rng) {
  ModelRead read;
  read.query = false;
  RandomFilterAndLimit(rng, &read);
  return read;
}

std::vector<const ModelItem*> QueryOrder(const ModelTable& t, const ModelRead& read) {
  const std::string hash = HashName(t, read.index);
  const ModelKeyAttribute* range = RangeOf(t, read.index);
  std::vector<const ModelItem*> out;
  for (const ModelItem& item : t.items) {
    if (!InIndex(item, read.index) || !SameValue(item.at(hash), read.partition)) continue;
    if (range && !SortMatches(read, item.at(range->name))) continue;
    out.push_back(&item);
  }
  std::vector<std::string> order = OrderNames(t, read.index);
  std::sort(out.begin(), out.end(),
            [&](const ModelItem* a, const ModelItem* b) { return ComparePositions(*a, *b, order) < 0; });
  if (!read.forward) std::reverse(out.begin(), out.end());
  if (read.start) {
    // Strictly after the start key in the read's direction (strictly before it in sort order when backward).
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](const ModelItem* item) {
                               int c = ComparePositions(*item, *read.start, order);
                               return read.forward ? c <= 0 : c >= 0;
                             }),
              out.end());
  }
  return out;
}

std::string CheckRead(TestServer& server, const ModelTable& t, const ModelRead& read,
                      const std::vector<const ModelItem*>& order, ModelCoverage* coverage) {
  std::shared_ptr<const TableDefinition> def = server.db().catalog().FindTable(t.name);
  if (!def) return "no table " + t.name;
  const IndexDefinition* index_def = read.index ? def->FindIndex(read.index->name) : nullptr;
  std::vector<uint64_t> sizes;
  for (const ModelItem* item : order) sizes.push_back(EntrySize(*def, index_def, *item));
  bool single_item_range = read.query && !read.index && !t.range;
  std::vector<ModelPage> expected =
      CutPages(t, read, order, sizes, server.options().max_page_bytes, single_item_range);

  const std::string body = read.Json(t);
  const std::string start = read.start ? ItemJsonText(*read.start, /*as_sent=*/true) : "";
  std::vector<HttpResult> pages = ReadAllPages(server, read.query ? "Query" : "Scan", body, start);
  std::string context = "\n  request: " + body + (start.empty() ? "" : "\n  first ExclusiveStartKey: " + start);
  uint64_t total_scanned = 0, total_count = 0;
  for (size_t i = 0; i < pages.size(); i++) {
    std::string where = "page " + std::to_string(i + 1) + " (model: " + std::to_string(expected.size()) + " pages)";
    if (i >= expected.size()) return where + ": dynapage read a page the model does not have" + context;
    std::string diff = ComparePage(t, read, expected[i], pages[i]);
    if (!diff.empty()) {
      std::string from = i == 0 ? start : LastKey(pages[i - 1]);
      return where + ": " + diff + context + (from.empty() ? "" : "\n  this page's ExclusiveStartKey: " + from) +
             "\n  response: " + pages[i].Describe();
    }
    total_scanned += pages[i].json["ScannedCount"].GetUint64();
    total_count += pages[i].json["Count"].GetUint64();
  }
  if (pages.size() != expected.size()) {
    return "dynapage ended after " + std::to_string(pages.size()) + " pages, the model has " +
           std::to_string(expected.size()) + context;
  }
  size_t filtered = 0;
  for (const ModelItem* item : order) filtered += PassesFilter(t, read, *item) ? 1 : 0;
  if (total_scanned != order.size() || total_count != filtered) {
    return "totals: ScannedCount " + std::to_string(total_scanned) + " and Count " + std::to_string(total_count) +
           ", the model has " + std::to_string(order.size()) + " and " + std::to_string(filtered) + context;
  }

  coverage->reads++;
  coverage->pages += static_cast<int>(pages.size());
  coverage->count_only += read.count_only ? 1 : 0;
  for (size_t i = 0; i < expected.size(); i++) {
    const ModelPage& page = expected[i];
    coverage->size_stops += page.size_stop ? 1 : 0;
    coverage->exact_size_stops += page.size_stop && page.size_exact ? 1 : 0;
    if (page.last_key && i + 1 < expected.size() && expected[i + 1].evaluated.empty()) coverage->exhausted_by_limit++;
    if (page.last_key && page.returned.empty() && read.filter != FilterOp::kNone) coverage->filtered_empty++;
  }
  return "";
}

std::string CheckRandomQueries(std::mt19937& rng, TestServer& server, const ModelTable& t, const ModelIndex* index,
                               int reads, double start_key_chance, ModelCoverage* coverage) {
  for (int i = 0; i < reads; i++) {
    ModelRead read = RandomQuery(rng, t, index);
    if ((index || t.range) && Chance(rng, start_key_chance)) AddRandomStartKey(rng, t, &read);
    coverage->start_keys += read.start ? 1 : 0;
    std::string diff = CheckRead(server, t, read, QueryOrder(t, read), coverage);
    if (!diff.empty()) return "query " + std::to_string(i + 1) + " of " + std::to_string(reads) + ": " + diff;
  }
  return "";
}

std::vector<const ModelItem*> ItemsOfPages(const ModelTable& t, const std::vector<HttpResult>& pages,
                                           std::string* error) {
  std::map<std::string, const ModelItem*> by_key;
  for (const ModelItem& item : t.items) by_key[SortedMembers(KeyOf(t, nullptr, item))] = &item;
  std::vector<const ModelItem*> out;
  for (const HttpResult& page : pages) {
    if (!page.Has("Items")) {
      *error = "a page without Items: " + page.Describe();
      return out;
    }
    for (const auto& item : page.json["Items"].GetArray()) {
      rapidjson::Document key(rapidjson::kObjectType);
      for (const std::string& name : KeyNames(t, nullptr)) {
        if (!item.HasMember(name.c_str())) continue;
        key.AddMember(JsonString(name, key.GetAllocator()),
                      rapidjson::Value(item[name.c_str()], key.GetAllocator()), key.GetAllocator());
      }
      auto found = by_key.find(SortedMembers(key));
      if (found == by_key.end()) {
        *error = "an item the model does not have: " + JsonText(item).substr(0, 300);
        return out;
      }
      out.push_back(found->second);
    }
  }
  return out;
}

std::string CheckScanOrder(const ModelTable& t, const std::vector<const ModelItem*>& order) {
  std::set<const ModelItem*> distinct(order.begin(), order.end());
  if (distinct.size() != order.size()) return "an item came back twice: " + Labels(t, nullptr, order);
  if (order.size() != t.items.size()) {
    return std::to_string(order.size()) + " items, the table has " + std::to_string(t.items.size());
  }
  std::vector<const ModelValue*> partitions_done;
  for (size_t i = 1; i < order.size(); i++) {
    const ModelItem& before = *order[i - 1];
    const ModelItem& item = *order[i];
    if (SameValue(before.at(t.hash.name), item.at(t.hash.name))) {
      if (t.range && CompareValues(before.at(t.range->name), item.at(t.range->name)) >= 0) {
        return "sort keys out of order: " + KeyLabel(t, nullptr, before) + " before " + KeyLabel(t, nullptr, item);
      }
      continue;
    }
    partitions_done.push_back(&before.at(t.hash.name));
    for (const ModelValue* done : partitions_done) {
      if (SameValue(*done, item.at(t.hash.name))) return "partition " + Label(*done) + " is split";
    }
  }
  return "";
}

std::string CompareOrders(const ModelTable& t, const std::vector<const ModelItem*>& expected,
                          const std::vector<const ModelItem*>& actual) {
  for (size_t i = 0; i < expected.size() || i < actual.size(); i++) {
    if (i < expected.size() && i < actual.size() && expected[i] == actual[i]) continue;
    auto at = [&](const std::vector<const ModelItem*>& order) {
      return i < order.size() ? KeyLabel(t, nullptr, *order[i]) : std::string("(the end)");
    };
    return "item " + std::to_string(i) + " is " + at(actual) + ", expected " + at(expected);
  }
  return "";
}

}  // namespace dynapage

