#include "engine/catalog/stream_catalog.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <mutex>

#include "engine/catalog/catalog_keys.h"
#include "engine/model/attribute_value_json.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
constexpr char kRecordTag = 'r';
}  // namespace

std::string SerializeStreamInfo(const StreamInfo& s) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  w.Key("id");
  w.Uint(s.id);
  w.Key("arn");
  w.String(s.arn);
  w.Key("label");
  w.String(s.label);
  w.Key("table");
  w.String(s.table_name);
  w.Key("view");
  w.String(s.view_type);
  w.Key("hash");
  w.String(s.hash_key);
  w.Key("range");
  w.String(s.range_key);
  w.Key("shard");
  w.String(s.shard_id);
  w.Key("created");
  w.Int64(s.created_ms);
  w.Key("disabled");
  w.Int64(s.disabled_ms);
  w.Key("start");
  w.Uint64(s.starting_seq);
  w.Key("trim");
  w.Uint64(s.trim_seq);
  // A disabled stream's counter: it gets no more records, so its end survives the trimming of all of them.
  w.Key("next");
  w.Uint64(s.next_seq);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

bool ParseStreamInfo(std::string_view json, StreamInfo* s) {
  rapidjson::Document d;
  d.Parse(json.data(), json.size());
  if (d.HasParseError() || !d.IsObject()) return false;
  for (const char* member : {"id", "arn", "label", "table", "view", "hash", "range", "shard", "created", "disabled",
                             "start", "trim", "next"}) {
    if (!d.HasMember(member)) return false;
  }
  s->id = d["id"].GetUint();
  s->arn = d["arn"].GetString();
  s->label = d["label"].GetString();
  s->table_name = d["table"].GetString();
  s->view_type = d["view"].GetString();
  s->hash_key = d["hash"].GetString();
  s->range_key = d["range"].GetString();
  s->shard_id = d["shard"].GetString();
  s->created_ms = d["created"].GetInt64();
  s->disabled_ms = d["disabled"].GetInt64();
  s->starting_seq = d["start"].GetUint64();
  s->trim_seq = d["trim"].GetUint64();
  s->next_seq = d["next"].GetUint64();
  return true;
}

void AppendBigEndian(uint64_t value, int bytes, std::string* out) {
  for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) out->push_back(static_cast<char>((value >> shift) & 0xFF));
}

uint64_t ReadBigEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

uint64_t Fnv1a(std::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001B3ULL;
  return hash;
}

std::string FormatSequenceNumber(uint64_t seq) {
  // "1" and the number in 20 digits, zero-padded: snprintf's format parsing cost ~1,000 instructions a record.
  std::string text(21, '0');
  text[0] = '1';
  for (size_t i = text.size() - 1; seq != 0; i--, seq /= 10) text[i] = static_cast<char>('0' + seq % 10);
  return text;
}

bool ParseSequenceNumber(std::string_view text, uint64_t* seq) {
  // "1" followed by 20 digits is our form; a plain decimal is accepted too (clients may strip the leading "1").
  if (text.size() == 21 && text[0] == '1') text.remove_prefix(1);
  if (text.empty() || text.size() > 20) return false;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *seq = value;
  return true;
}

std::string StreamRecordPrefix(uint32_t stream_id) {
  std::string key(1, kRecordTag);
  AppendBigEndian(stream_id, 4, &key);
  return key;
}

std::string StreamRecordKey(uint32_t stream_id, uint64_t seq) {
  std::string key = StreamRecordPrefix(stream_id);
  AppendBigEndian(seq, 8, &key);
  return key;
}

uint64_t SequenceOfRecordKey(std::string_view key) { return ReadBigEndian(key.substr(5, 8)); }

std::string EncodeStreamRecord(int64_t written_ms, std::string_view record_json) {
  std::string value;
  value.reserve(8 + record_json.size());
  AppendBigEndian(static_cast<uint64_t>(written_ms), 8, &value);
  value.append(record_json);
  return value;
}

bool DecodeStreamRecord(std::string_view value, int64_t* written_ms, std::string_view* record_json) {
  if (value.size() < 9) return false;
  *written_ms = static_cast<int64_t>(ReadBigEndian(value.substr(0, 8)));
  *record_json = value.substr(8);
  return true;
}

Status StreamCatalog::Load(const Storage& storage) {
  std::map<uint32_t, StreamInfo> loaded;
  std::string streams_prefix = StreamPrefix(namespace_id_);
  auto it = storage.NewIterator(streams_prefix, PrefixSuccessor(streams_prefix));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    StreamInfo stream;
    if (!ParseStreamInfo(it->value(), &stream)) return Status::Internal("corrupt stream description");
    // An enabled stream's counter moves on with every write and is stored with the records: one past the last.
    if (stream.enabled()) {
      std::string prefix = StreamRecordPrefix(stream.id);
      auto records = storage.NewIterator(prefix, StreamRecordPrefix(stream.id + 1));
      records->SeekToLast();
      if (records->Valid()) stream.next_seq = std::max(stream.next_seq, SequenceOfRecordKey(records->key()) + 1);
      DP_RETURN_IF_ERROR(records->status());
      stream.next_seq = std::max({stream.next_seq, stream.trim_seq, stream.starting_seq});
    }
    loaded[stream.id] = std::move(stream);
  }
  DP_RETURN_IF_ERROR(it->status());
  std::unique_lock<std::shared_mutex> lock(mu_);
  streams_ = std::move(loaded);
  return Status::OK();
}

bool StreamCatalog::Find(uint32_t id, StreamInfo* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = streams_.find(id);
  if (it == streams_.end()) return false;
  *out = it->second;
  return true;
}

bool StreamCatalog::FindByArn(std::string_view arn, StreamInfo* out) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  for (const auto& [id, stream] : streams_) {
    if (stream.arn == arn) {
      *out = stream;
      return true;
    }
  }
  return false;
}

std::vector<StreamInfo> StreamCatalog::List() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  std::vector<StreamInfo> all;
  all.reserve(streams_.size());
  for (const auto& [id, stream] : streams_) all.push_back(stream);
  return all;
}

bool StreamCatalog::LabelTaken(const std::string& table_name, const std::string& label) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  for (const auto& [id, stream] : streams_) {
    if (stream.table_name == table_name && stream.label == label) return true;
  }
  return false;
}

void StreamCatalog::PutStream(const StreamInfo& stream, Storage::Batch* batch) const {
  batch->Put(StreamKey(namespace_id_, stream.id), SerializeStreamInfo(stream));
}

void StreamCatalog::DeleteStream(uint32_t id, Storage::Batch* batch) const {
  batch->Delete(StreamKey(namespace_id_, id));
  std::string prefix = StreamRecordPrefix(id);
  batch->DeleteRange(prefix, StreamRecordPrefix(id + 1));
}

void StreamCatalog::SetStream(const StreamInfo& stream) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  streams_[stream.id] = stream;
}

void StreamCatalog::SetNextSequence(uint32_t id, uint64_t next_seq) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  auto it = streams_.find(id);
  if (it != streams_.end()) it->second.next_seq = next_seq;
}

void StreamCatalog::RemoveStream(uint32_t id) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  streams_.erase(id);
}

}  // namespace dynapage
