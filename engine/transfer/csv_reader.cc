#include "engine/transfer/csv_reader.h"

#include <rapidjson/document.h>

#include <set>

#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {

// Splits text into RFC 4180 records, one at a time.
class CsvRecords {
 public:
  CsvRecords(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {}

  // The next record into *cells: true, or false at the end of the text or on an error (then *error is set).
  bool Next(std::vector<std::string>* cells, std::string* error) {
    cells->clear();
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;  // blank lines
    if (pos_ >= text_.size()) return false;
    for (;;) {
      std::string& cell = cells->emplace_back();
      if (pos_ < text_.size() && text_[pos_] == '"') {
        if (!ReadQuoted(&cell, error)) return false;
      } else {
        while (pos_ < text_.size() && text_[pos_] != delimiter_ && text_[pos_] != '\n' && text_[pos_] != '\r') {
          cell.push_back(text_[pos_++]);
        }
      }
      if (pos_ < text_.size() && text_[pos_] == delimiter_) {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      return true;
    }
  }

  size_t position() const { return pos_; }

 private:
  bool ReadQuoted(std::string* cell, std::string* error) {
    size_t start = pos_++;
    for (;;) {
      if (pos_ >= text_.size()) {
        *error = "Unexpected data: a quoted cell that starts at offset " + std::to_string(start) + " is not closed";
        return false;
      }
      char c = text_[pos_++];
      if (c != '"') {
        cell->push_back(c);
      } else if (pos_ < text_.size() && text_[pos_] == '"') {
        cell->push_back('"');
        ++pos_;
      } else {
        break;
      }
    }
    if (pos_ < text_.size() && text_[pos_] != delimiter_ && text_[pos_] != '\n' && text_[pos_] != '\r') {
      *error = "Unexpected data: text after the closing quote at offset " + std::to_string(pos_ - 1);
      return false;
    }
    return true;
  }

  std::string_view text_;
  char delimiter_;
  size_t pos_ = 0;
};

bool CheckHeader(const std::vector<std::string>& header, std::string* error) {
  std::set<std::string_view> seen;
  for (const std::string& name : header) {
    if (name.empty()) {
      *error = "Unexpected data: the CSV header has an empty column name";
      return false;
    }
    if (!seen.insert(name).second) {
      *error = "Unexpected data: the CSV header names the column " + name + " twice";
      return false;
    }
  }
  return true;
}

// The record as a wire item ({"pk":{"N":"1"},"a":{"S":"x"}}), decoded and checked as any request's item is.
Status DecodeRecord(const CsvOptions& options, const std::vector<std::string>& header,
                    const std::vector<std::string>& cells, AttributeMap* item) {
  if (cells.size() != header.size()) {
    return Status::Validation("Unexpected data: the CSV record has " + std::to_string(cells.size()) +
                              " cells where the header has " + std::to_string(header.size()));
  }
  rapidjson::Document wire(rapidjson::kObjectType);
  auto& alloc = wire.GetAllocator();
  for (size_t i = 0; i < cells.size(); ++i) {
    if (cells[i].empty()) continue;
    auto typed = options.key_types.find(header[i]);
    const char* type = AttrTypeName(typed == options.key_types.end() ? AttrType::kS : typed->second);
    rapidjson::Value value(rapidjson::kObjectType);
    value.AddMember(rapidjson::StringRef(type), rapidjson::Value(cells[i].data(), cells[i].size(), alloc), alloc);
    wire.AddMember(rapidjson::Value(header[i].data(), header[i].size(), alloc), value, alloc);
  }
  return DecodeAttributeMap(wire, item);
}

}  // namespace

void ReadCsvItems(const CsvOptions& options, std::string_view text, const ImportItemVisitor& each) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark, as spreadsheets write
  CsvRecords records(text, options.delimiter);
  std::vector<std::string> header = options.header_list;
  std::vector<std::string> cells;
  std::string error;
  AttributeMap item;
  size_t index = 0;
  auto fail = [&]() { each(index, Status::Validation(error), &item); };
  if (header.empty() && !records.Next(&header, &error)) {
    if (!error.empty()) fail();
    return;
  }
  if (!CheckHeader(header, &error)) return fail();
  while (records.Next(&cells, &error)) {
    item.clear();
    Status s = DecodeRecord(options, header, cells, &item);
    if (!s.ok()) item.clear();
    each(index++, s, &item);
  }
  if (!error.empty()) {
    item.clear();
    fail();
  }
}

}  // namespace dynapage
