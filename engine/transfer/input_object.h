// Reading one import object (docs/export-import.md): the one entry point for every reader of S3 objects in
// DynamoDB's import formats (ImportTable, and the bulk and seed loaders). It decompresses the object (GZIP, ZSTD or
// none), then parses it (DYNAMODB_JSON, ION or CSV), handing each item's outcome to the visitor.
//
// Errors: an object that does not decompress is the returned status (one error for the object, as DynamoDB counts
// it); everything after that goes to the visitor, as the readers say (import_reader.h, ion_reader.h,
// csv_reader.h).

#ifndef DYNAPAGE_ENGINE_TRANSFER_INPUT_OBJECT_H_
#define DYNAPAGE_ENGINE_TRANSFER_INPUT_OBJECT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/status.h"
#include "engine/model/table_definition.h"
#include "engine/transfer/csv_reader.h"
#include "engine/transfer/import_reader.h"

namespace dynapage {

enum class InputFormat { kDynamoDbJson, kIon, kCsv };
enum class InputCompression { kNone, kGzip, kZstd };

struct InputObjectFormat {
  InputFormat format = InputFormat::kDynamoDbJson;
  InputCompression compression = InputCompression::kNone;
  CsvOptions csv;  // for kCsv
};

// An object may decompress to at most this many bytes (held in memory while it is read).
constexpr uint64_t kMaxImportObjectBytes = 1ULL << 31;

// The format of ImportTable's members: input_format DYNAMODB_JSON, ION or CSV; compression GZIP, ZSTD or NONE
// (empty: NONE); csv_options_json the InputFormatOptions object as sent, or empty; the key columns' types from
// table's AttributeDefinitions. REQUIRES: the members passed ImportTable's checks (import_table.cc).
InputObjectFormat ImportFormatOf(const std::string& input_format, const std::string& compression,
                                 const std::string& csv_options_json, const TableDefinition& table);

// Reads object_bytes as format says. *uncompressed_bytes, if given, is set to the size of the decompressed object.
Status ReadInputObject(const InputObjectFormat& format, std::string_view object_bytes, const ImportItemVisitor& each,
                       uint64_t* uncompressed_bytes = nullptr);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_INPUT_OBJECT_H_
