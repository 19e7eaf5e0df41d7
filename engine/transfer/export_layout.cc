#include "engine/transfer/export_layout.h"

#include <rapidjson/stringbuffer.h>

#include "engine/base/utc_time.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {
// "<prefix>/AWSDynamoDB/" ("AWSDynamoDB/" for an empty prefix; the prefix's trailing '/' not doubled).
std::string ExportRootKey(const std::string& prefix) {
  std::string key = prefix;
  while (!key.empty() && key.back() == '/') key.pop_back();
  if (!key.empty()) key += '/';
  return key + "AWSDynamoDB/";
}
}  // namespace

std::string ExportFolderKey(const std::string& prefix, const std::string& id) {
  return ExportRootKey(prefix) + id + "/";
}

std::string IncrementalDataFolderKey(const std::string& prefix) { return ExportRootKey(prefix) + "data/"; }

std::string ManifestFilesLine(uint64_t item_count, const std::string& md5_base64, const std::string& etag,
                              const std::string& data_file_key) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("itemCount");
  w.Uint64(item_count);
  w.Key("md5Checksum");
  w.String(md5_base64);
  w.Key("etag");
  w.String(etag);
  w.Key("dataFileS3Key");
  w.String(data_file_key);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

std::string ManifestSummaryJson(const ExportRecord& record, const std::string& manifest_files_key) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  auto optional = [&w](const char* key, const std::optional<std::string>& value) {
    w.Key(key);
    if (value) {
      w.String(*value);
    } else {
      w.Null();
    }
  };
  w.StartObject();
  w.Key("version");
  w.String("2020-06-30");
  w.Key("exportArn");
  w.String(record.arn);
  w.Key("startTime");
  w.String(IsoUtcTextOfSeconds(record.start_time));
  w.Key("endTime");
  w.String(IsoUtcTextOfSeconds(record.end_time.value_or(record.start_time)));
  w.Key("tableArn");
  w.String(record.table_arn);
  w.Key("tableId");
  w.String(record.table_id);
  w.Key("exportTime");
  w.String(IsoUtcTextOfSeconds(record.export_time));
  w.Key("s3Bucket");
  w.String(record.s3_bucket);
  optional("s3Prefix", record.s3_prefix);
  w.Key("s3SseAlgorithm");
  w.String(record.s3_sse_algorithm);
  optional("s3SseKmsKeyId", record.s3_sse_kms_key_id);
  w.Key("manifestFilesS3Key");
  w.String(manifest_files_key);
  w.Key("billedSizeBytes");
  w.Uint64(record.billed_size_bytes);
  w.Key("itemCount");
  w.Uint64(record.item_count);
  w.Key("outputFormat");
  w.String(record.export_format);
  if (record.export_type && *record.export_type == "INCREMENTAL_EXPORT") {
    w.Key("exportType");
    w.String(*record.export_type);
    w.Key("outputView");
    w.String(record.export_view_type.value_or("NEW_AND_OLD_IMAGES"));
    w.Key("exportFromTime");
    w.String(IsoUtcTextOfSeconds(record.export_from_time.value_or(0)));
    w.Key("exportToTime");
    w.String(IsoUtcTextOfSeconds(record.export_to_time.value_or(0)));
  }
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace dynapage
