#include "engine/transfer/transfer_ids.h"

#include <cinttypes>
#include <cstdio>

#include "engine/base/random_seed.h"

namespace dynapage {

std::mt19937_64& JobRandom() {
  thread_local std::mt19937_64 rng(RandomSeed());
  return rng;
}

// A job id: the 14-digit epoch milliseconds of its start, '-', 8 lowercase hex digits.
std::string NewJobId(int64_t now_millis) {
  char id[32];
  std::snprintf(id, sizeof id, "%014" PRId64 "-%08" PRIx32, now_millis, static_cast<uint32_t>(JobRandom()()));
  return id;
}

Status ParseExportTableArn(const std::string& arn, TableArnParts* parts) {
  const std::string prefix = "arn:aws:dynamodb:";
  if (arn.compare(0, 4, "arn:") != 0) {
    return Status::Validation("One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  size_t region_end = arn.find(':', prefix.size());
  size_t account_end = region_end == std::string::npos ? region_end : arn.find(':', region_end + 1);
  if (arn.compare(0, prefix.size(), prefix) != 0 || account_end == std::string::npos ||
      arn.compare(account_end + 1, 6, "table/") != 0) {
    return Status::Validation("One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  parts->region = arn.substr(prefix.size(), region_end - prefix.size());
  parts->account = arn.substr(region_end + 1, account_end - region_end - 1);
  parts->table = arn.substr(account_end + 7);
  if (parts->table.empty() || parts->table.find('/') != std::string::npos) {
    return Status::Validation("Invalid Request: Table ARN is invalid.");
  }
  return Status::OK();
}

// The table part of a job's ARN (<table arn><segment><id>), which must be the caller's account's.
Status ParseJobArn(const std::string& arn, const char* segment, const char* invalid, const RequestContext& ctx,
                   TableArnParts* parts) {
  size_t at = arn.find(segment);
  if (at == std::string::npos || !ParseExportTableArn(arn.substr(0, at), parts).ok()) {
    return Status::Validation(invalid);
  }
  if (parts->account != ctx.caller.account_id) return Status::Error(ErrorCode::kAccessDenied, "Access is denied");
  return Status::OK();
}

std::string Hex(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

namespace {
constexpr size_t kListTokenBytes = 56;
}  // namespace

// A list page's NextToken: kind ("e" exports, "i" imports) and the position, as lowercase hex.
std::string MakeListToken(char kind, size_t position) {
  std::string text = std::string(1, kind) + ":" + std::to_string(position);
  text.resize(kListTokenBytes, ' ');  // 112 hex digits: botocore refuses a shorter ListImports token
  return Hex(text);
}

bool ParseListToken(char kind, const std::string& token, size_t* position) {
  if (token.size() != 2 * kListTokenBytes) return false;
  std::string text;
  for (size_t i = 0; i < token.size(); i += 2) {
    auto digit = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    int high = digit(token[i]), low = digit(token[i + 1]);
    if (high < 0 || low < 0) return false;
    text.push_back(static_cast<char>(high * 16 + low));
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (text.size() < 3 || text[0] != kind || text[1] != ':') return false;
  size_t value = 0;
  for (size_t i = 2; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9' || value > 1000000000) return false;
    value = value * 10 + static_cast<size_t>(text[i] - '0');
  }
  *position = value;
  return true;
}

Status FindTokenUse(const TokenUses& uses, uint32_t ns, const std::optional<std::string>& token,
                    const std::string& fingerprint, double now, const Status& conflict, size_t* index) {
  *index = kNoTokenUse;
  if (!token) return Status::OK();
  auto used = uses.find({ns, *token});
  if (used == uses.end() || now - used->second.time >= kClientTokenSeconds) return Status::OK();
  if (used->second.fingerprint != fingerprint) return conflict;
  *index = used->second.index;
  return Status::OK();
}

// The current id of the table that has the ARN table_arn now; empty if none has.
std::string CurrentTableId(const Database& db, const std::string& table_arn) {
  size_t at = table_arn.find(":table/");
  auto table = at == std::string::npos ? nullptr : db.catalog().FindTable(table_arn.substr(at + 7));
  return table && table->arn == table_arn ? table->table_id : std::string();
}

}  // namespace dynapage
