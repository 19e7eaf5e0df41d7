// Reading the items of one import object in CSV (docs/export-import.md), as DynamoDB's ImportTable reads them.
//
// Records follow RFC 4180: cells separated by the delimiter, records by CRLF or LF; a cell that starts with '"' is
// quoted, may hold the delimiter, line breaks and doubled quotes (""), and must end with a quote followed by the
// delimiter or the end of the record. A '"' inside an unquoted cell is kept as it is. Blank lines are skipped.
//
// The first record names the columns (case-sensitive), unless header_list does, in which case the first record is
// data. A column named in key_types (the table's and its indexes' AttributeDefinitions) gets that type: N is checked
// as a DynamoDB number, B is base64; every other column is S. An empty cell is no attribute.
//
// Outcomes go to the visitor, as for DYNAMODB_JSON (import_reader.h): item_index counts the data records from 0. A
// record with another number of cells than the header is an error for that record, and reading goes on. Text that
// does not parse (a quote left open, text after a closing quote, a header with an empty or repeated name) is one
// error, and the rest of the object is skipped.

#ifndef DYNAPAGE_ENGINE_TRANSFER_CSV_READER_H_
#define DYNAPAGE_ENGINE_TRANSFER_CSV_READER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attribute_value.h"
#include "engine/transfer/import_reader.h"

namespace dynapage {

struct CsvOptions {
  char delimiter = ',';
  std::vector<std::string> header_list;       // empty: the first record is the header
  std::map<std::string, AttrType> key_types;  // the typed columns; kS, kN or kB
};

void ReadCsvItems(const CsvOptions& options, std::string_view text, const ImportItemVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_CSV_READER_H_
