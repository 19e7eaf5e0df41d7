// SelectStoredMembers: the top-level members of a stored item's JSON that a reader needs, cut out without parsing
// the rest of the item.
//
// A filter reads a few attributes of every item a Scan or Query evaluates. Parsing the whole stored JSON (payload
// strings and all) into a DOM to find them was most of a filtered page's work: ~2,800 of ~5,200 instructions an
// evaluated item of ~200 bytes (bench/README.md). The stored form is the canonical JSON JsonWriter writes: one
// object of members "name":value, no whitespace, every string escaped. This walks its top-level members, skipping
// each value over its brackets and strings with a depth counter (never recursion), and copies the members whose
// names are needed into an object of their own, which the caller parses as it parsed the whole item. It stops at
// the last member needed: items are stored with their names in order, so a filter on a name early in the
// alphabet crosses none of the payload after it.
//
// It returns false where it cannot vouch for the result, and the caller then parses the whole item, which also
// words any corruption: the text is not an object of that shape, or a member's name holds an escape (the names
// needed are unescaped text, and comparing them with escaped ones is not worth it for so rare a name).
//
// DecodeStoredScalarMembers goes one step further for the common filter, whose attributes are strings, numbers
// and booleans: it decodes such members from the text it walks, with no JSON parser, into the map the page
// reuses from item to item. Whatever else it meets (a map, a list, a set, a binary, an escape) it leaves to the
// parser: it returns false, and the caller takes SelectStoredMembers' way.

#ifndef DYNAPAGE_ENGINE_MODEL_STORED_MEMBERS_H_
#define DYNAPAGE_ENGINE_MODEL_STORED_MEMBERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attribute_value.h"

namespace dynapage {

// Sets *out to a JSON object holding json's members named in names, as they are in json, in json's order; "{}"
// if it has none of them. REQUIRES: names holds no name twice.
bool SelectStoredMembers(std::string_view json, const std::vector<std::string>& names, std::string* out);

// Sets *out to json's members named in names, decoded, when each of them is an S or an N whose text holds no
// escape, a BOOL or a NULL; returns false (and leaves *out in any state) otherwise, or where SelectStoredMembers
// would. The nodes and strings of *out are reused for the names it already holds.
// REQUIRES: names holds no name twice, and at most 64; *out holds no name that is not in names.
bool DecodeStoredScalarMembers(std::string_view json, const std::vector<std::string>& names, AttributeMap* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_STORED_MEMBERS_H_
