// SeedPlan: what --seed PATH asks to load before the server answers (docs/seeding.md), read and parsed but not yet
// checked against any table. Each PATH is
//   - a JSON file {"Tables":[{"CreateTable":{…}, "Items":[{…DynamoDB JSON…},…], "ExportFolder":"dir"},…]}, where a
//     table's definition is CreateTable's input ("CreateTable") or DescribeTable's output ("Table", converted by
//     CreateTableInputOfDescription), and "AccessKeyId"/"Region" (top level or per table) name its namespace; or
//   - an export folder (…/AWSDynamoDB/<id>/, as ExportTableToPointInTime writes it) with a table.json inside it or
//     beside it (in its parent folder) holding the definition.
// Every item remembers where it was read (file, 1-based line, index), so that the checks that come later
// (server/seed/seeder.h) name it. Errors found while reading (a file that does not parse, a value DynamoDB refuses)
// are collected in SeedPlan::errors rather than stopping at the first, so that one run reports them all.
//
// Parsing is iterative (RapidJSON's kParseIterativeFlag): no input nesting drives recursion.

#ifndef DYNAPAGE_SERVER_SEED_SEED_PLAN_H_
#define DYNAPAGE_SERVER_SEED_SEED_PLAN_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/transfer/import_reader.h"

namespace dynapage {

struct SeedItem {
  AttributeMap item;
  std::string file;  // where the item was read: the seed file, or an export's data file
  size_t line = 0;   // 1-based line of the file (of the decompressed data file) where the item starts
  size_t index = 0;  // 0-based position among the items of its "Items" list or data file
};

struct SeedTable {
  std::string file;        // the file that defines the table
  size_t line = 0;         // where its entry starts in that file (1-based)
  std::string table_name;  // CreateTable's TableName, if it is a string ("" otherwise: CreateTable will say)
  Caller caller;           // whose namespace the table goes to
  std::unique_ptr<rapidjson::Document> create_table;  // CreateTable's input
  std::vector<SeedItem> items;
};

struct SeedPlan {
  std::vector<SeedTable> tables;
  std::vector<std::string> errors;  // "FILE:LINE: message", in the order found
  size_t item_count() const;
};

// "ValidationException: message": an error as an SDK shows it, for the seed's error lines.
std::string SeedErrorText(const Status& status);

// "file:line: ": where a seed error line points.
std::string SeedErrorPlace(const std::string& file, size_t line);

// Reads path (a seed JSON file or an export folder) into *plan, adding its tables and any errors. default_caller
// is the namespace of tables that name none.
void ReadSeedPath(const std::string& path, const Caller& default_caller, SeedPlan* plan);

// Reads the text of a seed JSON file named file (for messages); relative ExportFolder paths are taken from
// base_folder. The text is parsed in place (taken by value: move a large one in).
void ReadSeedJson(std::string text, const std::string& file, const std::string& base_folder,
                  const Caller& default_caller, SeedPlan* plan);

// DescribeTable's "Table" (a TableDescription) as the CreateTable input that makes the same table: name,
// attribute definitions, key schema, indexes (name, key schema, projection, throughput), billing mode,
// throughput, stream, table class, deletion protection, on-demand throughput. What a new table cannot be given
// (status, counts, ARNs, times, SSE, replicas) is left out. REQUIRES: description is an object.
void CreateTableInputOfDescription(const rapidjson::Value& description, rapidjson::Document* out);

// The items of one object of an export's data folder (object_bytes as stored: gzip-compressed when the key ends
// in .gz), each to each as engine/transfer/input_object.h's ReadInputObject gives them. format: the manifest's
// outputFormat, DYNAMODB_JSON or ION; any other is refused.
Status ReadExportObjectItems(const std::string& format, const std::string& key, std::string_view object_bytes,
                             const ImportItemVisitor& each);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_SEED_SEED_PLAN_H_
