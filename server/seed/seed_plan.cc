#include "server/seed/seed_plan.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include "engine/base/check.h"
#include "engine/database/database_set.h"
#include "engine/model/attribute_value_json.h"
#include "engine/transfer/input_object.h"
#include "server/protocol/wire_error.h"

namespace dynapage {

namespace {

namespace fs = std::filesystem;

// Seed files and table.json files may nest this deep outside items (CreateTable's input needs 5 levels).
constexpr size_t kMaxDefinitionDepth = 64;

// 1-based line numbers of byte offsets in one text.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  size_t LineOf(size_t offset) const {
    return static_cast<size_t>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin()) + 1;
  }

 private:
  std::vector<size_t> newlines_;
};

// The offset of each table entry and each item of a seed file, keyed by (table index, item index; SIZE_MAX for the
// entry itself).
using Offsets = std::map<std::pair<size_t, size_t>, size_t>;

// Builds the document as RapidJSON's own parse does, noting where each object of Tables[i] and Tables[i].Items[j]
// starts. Only the first of repeated "Tables" or "Items" members is noted, the one FindMember finds.
class LocatingHandler {
 public:
  LocatingHandler(rapidjson::Document* document, rapidjson::InsituStringStream* stream, Offsets* offsets)
      : document_(document), stream_(stream), offsets_(offsets) {}

  bool Null() { return Begin(false), document_->Null(); }
  bool Bool(bool b) { return Begin(false), document_->Bool(b); }
  bool Int(int i) { return Begin(false), document_->Int(i); }
  bool Uint(unsigned i) { return Begin(false), document_->Uint(i); }
  bool Int64(int64_t i) { return Begin(false), document_->Int64(i); }
  bool Uint64(uint64_t i) { return Begin(false), document_->Uint64(i); }
  bool Double(double d) { return Begin(false), document_->Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return Begin(false), document_->RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return Begin(false), document_->String(s, n, copy || !InItems());
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    // Only the keys of the outer levels matter (root, table entry).
    if (frames_.size() <= 3) frames_.back().key.assign(s, n);
    return document_->Key(s, n, copy || !InItems());
  }
  bool StartObject() {
    if (TooDeep()) return false;
    Begin(true);
    frames_.push_back(Frame{false, {}, 0});
    return document_->StartObject();
  }
  bool EndObject(rapidjson::SizeType members) {
    frames_.pop_back();
    return document_->EndObject(members);
  }
  bool StartArray() {
    if (TooDeep()) return false;
    Begin(false);
    frames_.push_back(Frame{true, {}, 0});
    return document_->StartArray();
  }
  bool EndArray(rapidjson::SizeType elements) {
    frames_.pop_back();
    return document_->EndArray(elements);
  }

 private:
  struct Frame {
    bool array;
    std::string key;   // an object's last key
    size_t count = 0;  // an array's elements so far
  };

  // Inside some Tables[i].Items: strings may stay in the parsed text (they are decoded into items before it
  // goes). Any other string is copied, since the CreateTable inputs copied out of the document (CopyFrom) would
  // still point into the text.
  bool InItems() const {
    return frames_.size() >= 4 && frames_[0].key == "Tables" && frames_[2].key == "Items" && frames_[3].array;
  }

  // A definition is copied (CopyFrom) and converted recursively: its nesting is bounded here, so that no input
  // drives the recursion's depth. Items are decoded by DecodeAttributeMap, which bounds theirs.
  bool TooDeep() {
    too_deep_ = too_deep_ || (frames_.size() >= kMaxDefinitionDepth && !InItems());
    return too_deep_;
  }

 public:
  bool too_deep() const { return too_deep_; }

 private:
  void Begin(bool object) {
    bool in_tables = frames_.size() >= 2 && !frames_[0].array && frames_[0].key == "Tables" && frames_[1].array;
    size_t at = stream_->Tell();  // the iterative parser calls StartObject before it takes the '{'
    if (object && in_tables && frames_.size() == 2) offsets_->emplace(std::make_pair(frames_[1].count, SIZE_MAX), at);
    if (object && in_tables && frames_.size() == 4 && frames_[2].key == "Items" && frames_[3].array) {
      offsets_->emplace(std::make_pair(frames_[1].count - 1, frames_[3].count), at);
    }
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
  }

  rapidjson::Document* document_;
  rapidjson::InsituStringStream* stream_;
  Offsets* offsets_;
  std::vector<Frame> frames_;
  bool too_deep_ = false;
};

// Parses *text in place into *document, noting offsets; false with "FILE:LINE: why" in *error.
bool ParseSeedText(std::string* text, const std::string& file, const LineIndex& lines, rapidjson::Document* document,
                   Offsets* offsets, std::string* error) {
  rapidjson::InsituStringStream stream(text->data());  // reads up to the string's NUL
  rapidjson::Reader reader;
  bool too_deep = false;
  auto parse = [&](rapidjson::Document& handler) {
    LocatingHandler locating(&handler, &stream, offsets);
    bool parsed =
        !reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseInsituFlag>(stream, locating).IsError();
    too_deep = locating.too_deep();
    return parsed;
  };
  document->Populate(parse);
  if (!reader.HasParseError()) return true;
  *error = SeedErrorPlace(file, lines.LineOf(reader.GetErrorOffset())) +
           (too_deep ? "a table definition nested deeper than " + std::to_string(kMaxDefinitionDepth) + " levels"
                     : std::string("not JSON: ") + rapidjson::GetParseError_En(reader.GetParseErrorCode()));
  return false;
}

bool ReadWholeFile(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  std::streamoff size = in.tellg();
  if (size < 0) return false;
  out->resize(static_cast<size_t>(size));
  in.seekg(0);
  return static_cast<bool>(in.read(out->data(), size));
}

std::string StringMember(const rapidjson::Value& object, const char* name) {
  auto member = object.FindMember(name);
  return member != object.MemberEnd() && member->value.IsString() ? member->value.GetString() : std::string();
}

// The caller of a table: default_caller, with "AccessKeyId" and "Region" of object where it has them.
Caller CallerOf(const rapidjson::Value& object, const Caller& default_caller) {
  Caller caller = default_caller;
  if (object.HasMember("AccessKeyId")) {
    caller.access_key = StringMember(object, "AccessKeyId");
    caller.account_id = AccountIdOf(caller.access_key);
  }
  std::string region = StringMember(object, "Region");
  if (!region.empty()) caller.region = region;
  return caller;
}

// The CreateTable input an entry (or a table.json) defines: its "CreateTable" member, its "Table" (DescribeTable's
// output) converted, or the object itself when it has "TableName" (a bare CreateTable input). False if none.
bool ReadDefinition(const rapidjson::Value& entry, rapidjson::Document* out) {
  auto create = entry.FindMember("CreateTable");
  if (create != entry.MemberEnd() && create->value.IsObject()) {
    out->CopyFrom(create->value, out->GetAllocator());
    return true;
  }
  auto table = entry.FindMember("Table");
  if (table != entry.MemberEnd() && table->value.IsObject()) {
    CreateTableInputOfDescription(table->value, out);
    return true;
  }
  if (entry.HasMember("TableName")) {
    out->CopyFrom(entry, out->GetAllocator());
    for (const char* ours : {"AccessKeyId", "Region", "Items", "ExportFolder"}) out->RemoveMember(ours);
    return true;
  }
  return false;
}

void NoteTable(std::unique_ptr<rapidjson::Document> create_table, const std::string& file, size_t line,
               const Caller& caller, SeedPlan* plan) {
  SeedTable& table = plan->tables.emplace_back();
  table.file = file;
  table.line = line;
  table.caller = caller;
  table.table_name = StringMember(*create_table, "TableName");
  table.create_table = std::move(create_table);
}

// Adds the items of the export folder to table (the last of plan's tables).
void ReadExportItems(const fs::path& folder, SeedPlan* plan) {
  std::string summary_text, files_text;
  fs::path summary_path = folder / "manifest-summary.json", files_path = folder / "manifest-files.json";
  if (!ReadWholeFile(summary_path, &summary_text)) {
    plan->errors.push_back(folder.string() + ": not an export folder: it has no manifest-summary.json");
    return;
  }
  rapidjson::Document summary;
  summary.Parse<rapidjson::kParseIterativeFlag>(summary_text.c_str(), summary_text.size());
  if (summary.HasParseError() || !summary.IsObject()) {
    plan->errors.push_back(summary_path.string() + ": not a manifest summary (a JSON object)");
    return;
  }
  std::string format = StringMember(summary, "outputFormat");
  if (format.empty()) format = "DYNAMODB_JSON";
  if (!ReadWholeFile(files_path, &files_text)) {
    plan->errors.push_back(folder.string() + ": not an export folder: it has no manifest-files.json");
    return;
  }
  LineIndex manifest_lines(files_text);
  size_t begin = 0;
  while (begin < files_text.size()) {
    size_t end = std::min(files_text.find('\n', begin), files_text.size());
    std::string_view line(files_text.data() + begin, end - begin);
    size_t line_number = manifest_lines.LineOf(begin);
    begin = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    rapidjson::Document entry;
    entry.Parse<rapidjson::kParseIterativeFlag>(line.data(), line.size());
    std::string key = entry.HasParseError() || !entry.IsObject() ? "" : StringMember(entry, "dataFileS3Key");
    size_t data = key.rfind("data/");
    if (data == std::string::npos) {
      plan->errors.push_back(SeedErrorPlace(files_path.string(), line_number) + "no dataFileS3Key naming a data/ file");
      continue;
    }
    // The key names the file in the bucket it was exported to; the folder may have been copied anywhere since.
    fs::path data_path = folder / key.substr(data);
    std::string bytes;
    if (!ReadWholeFile(data_path, &bytes)) {
      plan->errors.push_back(SeedErrorPlace(files_path.string(), line_number) + "cannot read " + data_path.string());
      continue;
    }
    SeedTable& table = plan->tables.back();
    Status read = ReadExportObjectItems(format, key, bytes, [&](size_t index, const Status& s, AttributeMap* item) {
      // An export writes one item a line.
      if (!s.ok()) {
        plan->errors.push_back(SeedErrorPlace(data_path.string(), index + 1) + "table " + table.table_name + " item " +
                               std::to_string(index) + ": " + SeedErrorText(s));
        return;
      }
      table.items.push_back(SeedItem{std::move(*item), data_path.string(), index + 1, index});
    });
    if (!read.ok()) plan->errors.push_back(data_path.string() + ": " + read.message());
  }
}

void ReadExportFolderSeed(const fs::path& folder, const Caller& default_caller, SeedPlan* plan) {
  fs::path definition_path;
  for (const fs::path& candidate : {folder / "table.json", folder.parent_path() / "table.json"}) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      definition_path = candidate;
      break;
    }
  }
  if (definition_path.empty()) {
    plan->errors.push_back(folder.string() +
                           ": an export folder needs the table's definition: a table.json (CreateTable's input or "
                           "DescribeTable's output) inside it or beside it");
    return;
  }
  std::string text, error;
  rapidjson::Document json;
  Offsets offsets;
  if (!ReadWholeFile(definition_path, &text)) {
    plan->errors.push_back(definition_path.string() + ": cannot read it");
    return;
  }
  if (!ParseSeedText(&text, definition_path.string(), LineIndex(text), &json, &offsets, &error)) {
    plan->errors.push_back(error);
    return;
  }
  auto create_table = std::make_unique<rapidjson::Document>();
  if (!json.IsObject() || !ReadDefinition(json, create_table.get())) {
    plan->errors.push_back(SeedErrorPlace(definition_path.string(), 1) +
                           "not a table definition (CreateTable's input or DescribeTable's output)");
    return;
  }
  NoteTable(std::move(create_table), definition_path.string(), 1, CallerOf(json, default_caller), plan);
  ReadExportItems(folder, plan);
}

}  // namespace

std::string SeedErrorPlace(const std::string& file, size_t line) { return file + ":" + std::to_string(line) + ": "; }

std::string SeedErrorText(const Status& status) {
  std::string type = ToWireError(status).type;
  return type.substr(type.find('#') + 1) + ": " + status.message();
}

size_t SeedPlan::item_count() const {
  size_t count = 0;
  for (const SeedTable& table : tables) count += table.items.size();
  return count;
}

Status ReadExportObjectItems(const std::string& format, const std::string& key, std::string_view object_bytes,
                             const ImportItemVisitor& each) {
  InputObjectFormat input;
  if (format == "DYNAMODB_JSON") {
    input.format = InputFormat::kDynamoDbJson;
  } else if (format == "ION") {
    input.format = InputFormat::kIon;
  } else {
    return Status::Validation("the export's outputFormat is " + format + ": only DYNAMODB_JSON and ION are read");
  }
  const bool gzip = key.size() >= 3 && key.compare(key.size() - 3, 3, ".gz") == 0;
  input.compression = gzip ? InputCompression::kGzip : InputCompression::kNone;
  return ReadInputObject(input, object_bytes, each);
}

void CreateTableInputOfDescription(const rapidjson::Value& description, rapidjson::Document* out) {
  DP_DCHECK(description.IsObject());
  out->SetObject();
  auto& a = out->GetAllocator();
  auto copy = [&](rapidjson::Value& to, const rapidjson::Value& from, const char* name, const char* as = nullptr) {
    auto member = from.FindMember(name);
    if (member == from.MemberEnd()) return;
    to.AddMember(rapidjson::Value(as ? as : name, a), rapidjson::Value(member->value, a), a);
  };
  const rapidjson::Value* summary = nullptr;
  auto billing = description.FindMember("BillingModeSummary");
  if (billing != description.MemberEnd() && billing->value.IsObject()) summary = &billing->value;
  std::string mode = summary ? StringMember(*summary, "BillingMode") : "";
  bool provisioned = mode != "PAY_PER_REQUEST";
  // Only the two capacities: DescribeTable adds NumberOfDecreasesToday and the times of the last changes.
  auto throughput = [&](rapidjson::Value& to, const rapidjson::Value& from) {
    auto member = from.FindMember("ProvisionedThroughput");
    if (!provisioned || member == from.MemberEnd() || !member->value.IsObject()) return;
    rapidjson::Value capacities(rapidjson::kObjectType);
    copy(capacities, member->value, "ReadCapacityUnits");
    copy(capacities, member->value, "WriteCapacityUnits");
    to.AddMember("ProvisionedThroughput", capacities, a);
  };
  copy(*out, description, "TableName");
  copy(*out, description, "AttributeDefinitions");
  copy(*out, description, "KeySchema");
  out->AddMember("BillingMode", rapidjson::Value(provisioned ? "PROVISIONED" : "PAY_PER_REQUEST", a), a);
  throughput(*out, description);
  copy(*out, description, "OnDemandThroughput");
  for (const char* list : {"LocalSecondaryIndexes", "GlobalSecondaryIndexes"}) {
    auto indexes = description.FindMember(list);
    if (indexes == description.MemberEnd() || !indexes->value.IsArray()) continue;
    rapidjson::Value inputs(rapidjson::kArrayType);
    for (const rapidjson::Value& index : indexes->value.GetArray()) {
      if (!index.IsObject()) continue;
      rapidjson::Value input(rapidjson::kObjectType);
      copy(input, index, "IndexName");
      copy(input, index, "KeySchema");
      copy(input, index, "Projection");
      if (list[0] == 'G') {
        throughput(input, index);
        copy(input, index, "OnDemandThroughput");
      }
      inputs.PushBack(input, a);
    }
    out->AddMember(rapidjson::Value(list, a), inputs, a);
  }
  auto stream = description.FindMember("StreamSpecification");
  if (stream != description.MemberEnd() && stream->value.IsObject()) {
    auto enabled = stream->value.FindMember("StreamEnabled");
    if (enabled != stream->value.MemberEnd() && enabled->value.IsBool() && enabled->value.GetBool()) {
      copy(*out, description, "StreamSpecification");
    }
  }
  auto table_class = description.FindMember("TableClassSummary");
  if (table_class != description.MemberEnd() && table_class->value.IsObject()) {
    copy(*out, table_class->value, "TableClass");
  }
  copy(*out, description, "DeletionProtectionEnabled");
}

void ReadSeedJson(std::string text, const std::string& file, const std::string& base_folder,
                  const Caller& default_caller, SeedPlan* plan) {
  LineIndex lines(text);
  // Parsed in place: the items' strings point into text, which outlives the document (100 MB of items are not
  // copied once more); LocatingHandler copies every other string.
  rapidjson::Document document;
  Offsets offsets;
  std::string error;
  if (!ParseSeedText(&text, file, lines, &document, &offsets, &error)) {
    plan->errors.push_back(error);
    return;
  }
  auto tables = document.IsObject() ? document.FindMember("Tables") : document.MemberEnd();
  if (!document.IsObject() || tables == document.MemberEnd() || !tables->value.IsArray()) {
    plan->errors.push_back(SeedErrorPlace(file, 1) + "a seed file is an object with a \"Tables\" list");
    return;
  }
  Caller file_caller = CallerOf(document, default_caller);
  auto line_of = [&](size_t table, size_t item) {
    auto at = offsets.find({table, item});
    return at == offsets.end() ? 1 : lines.LineOf(at->second);
  };
  for (size_t t = 0; t < tables->value.Size(); ++t) {
    const rapidjson::Value& entry = tables->value[t];
    size_t entry_line = line_of(t, SIZE_MAX);
    auto create_table = std::make_unique<rapidjson::Document>();
    if (!entry.IsObject() || !ReadDefinition(entry, create_table.get())) {
      plan->errors.push_back(SeedErrorPlace(file, entry_line) + "table " + std::to_string(t) +
                             ": needs \"CreateTable\" (CreateTable's input) or \"Table\" (DescribeTable's output)");
      continue;
    }
    NoteTable(std::move(create_table), file, entry_line, CallerOf(entry, file_caller), plan);
    SeedTable& table = plan->tables.back();
    auto items = entry.FindMember("Items");
    if (items != entry.MemberEnd() && !items->value.IsArray()) {
      plan->errors.push_back(SeedErrorPlace(file, entry_line) + "table " + table.table_name +
                             ": \"Items\" is not a list");
    } else if (items != entry.MemberEnd()) {
      table.items.reserve(table.items.size() + items->value.Size());
      for (size_t i = 0; i < items->value.Size(); ++i) {
        SeedItem& item = table.items.emplace_back();
        item.file = file;
        item.line = line_of(t, i);
        item.index = i;
        const rapidjson::Value& json = items->value[i];
        Status decoded = json.IsObject() ? DecodeAttributeMap(json, &item.item)
                                         : Status::Validation("an item is an object of attribute values");
        if (!decoded.ok()) {
          plan->errors.push_back(SeedErrorPlace(file, item.line) + "table " + table.table_name + " item " +
                                 std::to_string(i) + ": " + SeedErrorText(decoded));
          table.items.pop_back();
        }
      }
    }
    std::string folder = StringMember(entry, "ExportFolder");
    if (!folder.empty()) ReadExportItems(fs::path(base_folder) / folder, plan);
  }
}

void ReadSeedPath(const std::string& path, const Caller& default_caller, SeedPlan* plan) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return ReadExportFolderSeed(fs::path(path), default_caller, plan);
  std::string text;
  if (!ReadWholeFile(path, &text)) {
    plan->errors.push_back(path + ": cannot read it (a seed JSON file or an export folder)");
    return;
  }
  ReadSeedJson(std::move(text), path, fs::path(path).parent_path().string(), default_caller, plan);
}

}  // namespace dynapage
