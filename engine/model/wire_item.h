// WireItem: an item as a request carries it, checked, sized and written in the stored form straight from the
// request's JSON, for a put that stores the item unchanged (BatchWriteItem).
//
// Decoding an item into an AttributeMap costs an allocation or two per attribute and a second walk to encode
// the map again; most items written are flat, and for those a WireItem gives the same stored form, byte for
// byte, at a fraction of the cost. It takes only items it can vouch for: every attribute a plain S, N, BOOL or
// NULL value given as its one type member, no attribute named twice. For anything else (B, sets, L, M, null
// members, other members, a number DynamoDB refuses, JSON of the wrong type) FromJson returns false and the
// caller decodes with DecodeAttributeMap, which words every error. DecodeAttributeMap accepts every item that
// FromJson accepts, and gives an AttributeMap equal to ToAttributeMap().

#ifndef DYNAPAGE_ENGINE_MODEL_WIRE_ITEM_H_
#define DYNAPAGE_ENGINE_MODEL_WIRE_ITEM_H_

#include <rapidjson/document.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <forward_list>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

class WireItem {
 public:
  WireItem() = default;
  // Moves only: a copy's views would point into the original's numbers.
  WireItem(WireItem&&) = default;
  WireItem& operator=(WireItem&&) = default;
  WireItem(const WireItem&) = delete;
  WireItem& operator=(const WireItem&) = delete;

  // True if json is an item of the kind above; *out then describes it and refers to json's strings.
  // REQUIRES: json outlives *out and is not modified while *out is used.
  static bool FromJson(const rapidjson::Value& json, WireItem* out);

  // ItemSize() of the item.
  size_t size() const { return size_; }
  // The value of the named attribute; false if the item has none.
  bool Find(std::string_view name, AttributeValue* out) const;
  // What WriteAttributeMap writes for ToAttributeMap().
  void Write(JsonWriter* writer) const;
  AttributeMap ToAttributeMap() const;

 private:
  // Views only, so that sorting moves a few words per attribute.
  struct Attribute {
    std::string_view name;
    std::string_view text;  // S's string or N's canonical text
    // The name's first 8 bytes as a big-endian number, zero-padded: names order as these do wherever they
    // differ, so that most comparisons of a sort are one of numbers (a name given twice has equal ones).
    uint64_t name_order = 0;
    AttrType type = AttrType::kNull;
    bool boolean = true;  // BOOL; true for the others, as in AttributeValue
    AttributeValue ToValue() const;
  };

  // Most items have a few attributes: up to kInlineAttributes are held in the WireItem itself, so that a batch of
  // 25 items makes no array of its own for each (a malloc and a free, ~350 instructions an item), and more in
  // more_attributes_. Either way sorted by name.
  static constexpr size_t kInlineAttributes = 8;
  // Room for count attributes, which FromJson then fills in.
  Attribute* MakeRoom(size_t count);
  const Attribute* begin() const {
    return count_ <= kInlineAttributes ? inline_attributes_.data() : more_attributes_.data();
  }
  const Attribute* end() const { return begin() + count_; }

  std::array<Attribute, kInlineAttributes> inline_attributes_;
  std::vector<Attribute> more_attributes_;
  size_t count_ = 0;
  // Canonical numbers that differ from the request's text. A list: its strings never move, and neither do
  // views of them, when the WireItem moves or another number is added.
  std::forward_list<std::string> canonical_numbers_;
  size_t size_ = 0;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_WIRE_ITEM_H_
