// The layout of a DynamoDB export in its bucket, exactly as DynamoDB writes it (docs/export-import.md):
//
//   <prefix>/AWSDynamoDB/<id>/_started                   empty, written first
//   <prefix>/AWSDynamoDB/<id>/data/<random>.json.gz      the items, one line each (export_lines.h); ION: .ion.gz
//   <prefix>/AWSDynamoDB/<id>/manifest-files.json        a JSON line per data file
//   <prefix>/AWSDynamoDB/<id>/manifest-files.checksum    the md5 (hex) of manifest-files.json
//   <prefix>/AWSDynamoDB/<id>/manifest-summary.json      the export's summary, written last
//   <prefix>/AWSDynamoDB/<id>/manifest-summary.checksum  the md5 (hex) of manifest-summary.json
//
// An incremental export writes its data files to <prefix>/AWSDynamoDB/data/ instead, a folder shared by the
// incremental exports of the prefix; its lines are export_lines.h's change records.
//
// "<prefix>/" is left out without an S3Prefix.

#ifndef DYNAPAGE_ENGINE_TRANSFER_EXPORT_LAYOUT_H_
#define DYNAPAGE_ENGINE_TRANSFER_EXPORT_LAYOUT_H_

#include <cstdint>
#include <string>

#include "engine/transfer/export_record.h"

namespace dynapage {

// "<prefix>/AWSDynamoDB/<id>/" (prefix's trailing '/' not doubled), or "AWSDynamoDB/<id>/" for an empty prefix.
std::string ExportFolderKey(const std::string& prefix, const std::string& id);

// "<prefix>/AWSDynamoDB/data/": where incremental exports put their data files, shared by the exports of a prefix.
std::string IncrementalDataFolderKey(const std::string& prefix);

// One line of manifest-files.json, '\n' included.
std::string ManifestFilesLine(uint64_t item_count, const std::string& md5_base64, const std::string& etag,
                              const std::string& data_file_key);

// manifest-summary.json of a completed export.
std::string ManifestSummaryJson(const ExportRecord& record, const std::string& manifest_files_key);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_EXPORT_LAYOUT_H_
