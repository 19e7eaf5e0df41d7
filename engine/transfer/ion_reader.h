// Reading the items of one import object in ION text (docs/export-import.md): one {Item:{…}} struct per line, each
// optionally after the $ion_1_0 version marker, as DynamoDB's exports write them (export_lines.h) and its ImportTable
// reads them.
//
// The subset read: comments; structs with identifier, 'quoted symbol' or "string" field names; strings ("…" with
// Ion's escapes, and '''long''' strings, adjacent ones joined); decimals and floats (103., 6d2, 1.5, -0.1e3) and
// integers (1_000, 0x1f, 0b101) as N; {{base64}} blobs as B; true and false as BOOL; null and typed nulls
// (null.string, …) as NULL; lists as L; structs as M; and lists annotated $dynamodb_SS, $dynamodb_NS or $dynamodb_BS
// as sets. Other annotations are ignored. Symbol values, timestamps, clobs, s-expressions, nan and infinities are
// no DynamoDB value: an error for that item.
//
// Outcomes go to the visitor, as for DYNAMODB_JSON (import_reader.h): item_index counts the top-level values (the
// version marker aside) from 0; a value that is not a struct with an Item struct is an error for that item. Text
// that does not parse is one error, and the rest of the object is skipped. Parsing uses an explicit stack, never
// recursion: an item nested deeper than DynamoDB's limit (kMaxNestingDepth) is an error for that item, and reading
// goes on at the next line (an item is one line).

#ifndef DYNAPAGE_ENGINE_TRANSFER_ION_READER_H_
#define DYNAPAGE_ENGINE_TRANSFER_ION_READER_H_

#include <string_view>

#include "engine/transfer/import_reader.h"

namespace dynapage {

void ReadIonItems(std::string_view text, const ImportItemVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_ION_READER_H_
