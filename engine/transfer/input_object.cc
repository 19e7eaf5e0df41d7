#include "engine/transfer/input_object.h"

#include <rapidjson/document.h>

#include "engine/transfer/gzip_codec.h"
#include "engine/transfer/ion_reader.h"
#include "engine/transfer/zstd_codec.h"

namespace dynapage {

InputObjectFormat ImportFormatOf(const std::string& input_format, const std::string& compression,
                                 const std::string& csv_options_json, const TableDefinition& table) {
  InputObjectFormat format;
  if (input_format == "ION") format.format = InputFormat::kIon;
  if (input_format == "CSV") format.format = InputFormat::kCsv;
  if (compression == "GZIP") format.compression = InputCompression::kGzip;
  if (compression == "ZSTD") format.compression = InputCompression::kZstd;
  for (const KeyAttribute& key : table.attribute_definitions) format.csv.key_types[key.name] = key.type;
  if (csv_options_json.empty()) return format;
  rapidjson::Document options;
  options.Parse(csv_options_json.c_str(), csv_options_json.size());
  if (!options.IsObject()) return format;
  auto csv = options.FindMember("Csv");
  if (csv == options.MemberEnd() || !csv->value.IsObject()) return format;
  auto delimiter = csv->value.FindMember("Delimiter");
  if (delimiter != csv->value.MemberEnd() && delimiter->value.IsString() && delimiter->value.GetStringLength() == 1) {
    format.csv.delimiter = delimiter->value.GetString()[0];
  }
  auto header = csv->value.FindMember("HeaderList");
  if (header != csv->value.MemberEnd() && header->value.IsArray()) {
    for (const auto& name : header->value.GetArray()) {
      if (name.IsString()) format.csv.header_list.emplace_back(name.GetString(), name.GetStringLength());
    }
  }
  return format;
}

Status ReadInputObject(const InputObjectFormat& format, std::string_view object_bytes, const ImportItemVisitor& each,
                       uint64_t* uncompressed_bytes) {
  std::string decompressed;
  std::string_view text = object_bytes;
  if (format.compression == InputCompression::kGzip) {
    DP_RETURN_IF_ERROR(GzipDecompress(object_bytes, kMaxImportObjectBytes, &decompressed));
    text = decompressed;
  } else if (format.compression == InputCompression::kZstd) {
    DP_RETURN_IF_ERROR(ZstdDecompress(object_bytes, kMaxImportObjectBytes, &decompressed));
    text = decompressed;
  }
  if (uncompressed_bytes) *uncompressed_bytes = text.size();
  switch (format.format) {
    case InputFormat::kDynamoDbJson:
      ReadDynamoDbJsonItems(text, each);
      break;
    case InputFormat::kIon:
      ReadIonItems(text, each);
      break;
    case InputFormat::kCsv:
      ReadCsvItems(format.csv, text, each);
      break;
  }
  return Status::OK();
}

}  // namespace dynapage
