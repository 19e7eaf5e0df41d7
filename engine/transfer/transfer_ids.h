// What the transfer jobs share (exports and imports in transfer_jobs.h, bulk operations in bulk_operations.h): job
// ids, ClientToken lifetime, table and job ARNs, and the paging of a namespace's records newest first.

#ifndef DYNAPAGE_ENGINE_TRANSFER_TRANSFER_IDS_H_
#define DYNAPAGE_ENGINE_TRANSFER_TRANSFER_IDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/database/database.h"

namespace dynapage {

// How long a ClientToken is remembered (DynamoDB: 8 hours).
constexpr double kClientTokenSeconds = 8 * 3600;

// This thread's random numbers for ids and file names.
std::mt19937_64& JobRandom();

// A job id: the 14-digit epoch milliseconds of its start, '-', 8 lowercase hex digits.
std::string NewJobId(int64_t now_millis);

// Bytes as lowercase hex.
std::string Hex(std::string_view bytes);

// The parts of a table ARN arn:aws:dynamodb:<region>:<account>:table/<name>.
struct TableArnParts {
  std::string region, account, table;
};
// ValidationException (export's wording) for text that is not a table ARN.
Status ParseExportTableArn(const std::string& arn, TableArnParts* parts);
// The table part of a job's ARN (<table arn><segment><id>), which must be the caller's account's: else
// ValidationException invalid, or AccessDeniedException.
Status ParseJobArn(const std::string& arn, const char* segment, const char* invalid, const RequestContext& ctx,
                   TableArnParts* parts);

// The ClientTokens of one kind of job: (namespace, token) -> the job's index among the namespace's records, the
// fingerprint of the request's members, and when it was used.
struct TokenUse {
  size_t index;
  std::string fingerprint;
  double time;
};
using TokenUses = std::map<std::pair<uint32_t, std::string>, TokenUse>;
constexpr size_t kNoTokenUse = static_cast<size_t>(-1);
// *index: the job a request with token started in the last kClientTokenSeconds, or kNoTokenUse (also without a
// token). The same token with another fingerprint: conflict.
Status FindTokenUse(const TokenUses& uses, uint32_t ns, const std::optional<std::string>& token,
                    const std::string& fingerprint, double now, const Status& conflict, size_t* index);

// A list page's NextToken: kind (a letter per kind of job) and the position, as lowercase hex.
std::string MakeListToken(char kind, size_t position);
bool ParseListToken(char kind, const std::string& token, size_t* position);

// The current id of the table that has the ARN table_arn now; empty if none has.
std::string CurrentTableId(const Database& db, const std::string& table_arn);

// Finds the record of arn among a namespace's records (each has .arn).
template <typename Record>
const Record* FindRecord(const std::map<uint32_t, std::vector<Record>>& all, uint32_t ns, const std::string& arn) {
  auto records = all.find(ns);
  if (records == all.end()) return nullptr;
  for (const Record& record : records->second) {
    if (record.arn == arn) return &record;
  }
  return nullptr;
}

// One page of db's records (oldest first in all; each has .table_id), newest first, from the token. With
// table_arn, those of the table that has that ARN now: a table that is gone lists none, even when it had some.
template <typename Record>
Status ListRecords(const std::map<uint32_t, std::vector<Record>>& all, const Database& db, char kind,
                   const std::optional<std::string>& table_arn, int64_t page, const std::string& next_token,
                   std::vector<Record>* out, std::string* next_token_out) {
  size_t position = 0;
  if (!next_token.empty() && !ParseListToken(kind, next_token, &position)) {
    return Status::Validation("Invalid Request: Provided nextToken is invalid: " + next_token);
  }
  next_token_out->clear();
  std::string table_id;
  if (table_arn) {
    table_id = CurrentTableId(db, *table_arn);
    if (table_id.empty()) return Status::OK();
  }
  auto records = all.find(db.namespace_id());
  if (records == all.end()) return Status::OK();
  size_t seen = 0;
  for (auto it = records->second.rbegin(); it != records->second.rend(); ++it) {
    if (!table_id.empty() && it->table_id != table_id) continue;
    if (seen++ < position) continue;
    if (static_cast<int64_t>(out->size()) == page) {
      *next_token_out = MakeListToken(kind, seen - 1);
      break;
    }
    out->push_back(*it);
  }
  return Status::OK();
}

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_TRANSFER_TRANSFER_IDS_H_
