#include "engine/transfer/export_lines.h"

#include <rapidjson/stringbuffer.h>

#include "engine/base/base64.h"
#include "engine/model/attribute_value_json.h"

namespace dynapage {

namespace {
void AppendIonString(std::string_view text, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(ch);
    } else if (c < 0x20 || c == 0x7f) {
      out->append("\\x");
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 0xf]);
    } else {
      out->push_back(ch);  // UTF-8 as it is: Ion text is UTF-8
    }
  }
  out->push_back('"');
}

// A canonical DynamoDB number (plain notation, no exponent) as an Ion decimal: an integer gets a trailing '.',
// which makes it a decimal rather than an Ion int, as DynamoDB writes it ("103.").
void AppendIonDecimal(const std::string& canonical, std::string* out) {
  out->append(canonical);
  if (canonical.find('.') == std::string::npos) out->push_back('.');
}

void AppendIonBlob(std::string_view bytes, std::string* out) {
  out->append("{{");
  out->append(Base64Encode(bytes));
  out->append("}}");
}

void AppendIonValue(const AttributeValue& value, std::string* out);

void AppendIonStruct(const AttributeMap& map, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const auto& [name, member] : map) {
    if (!first) out->push_back(',');
    first = false;
    AppendIonString(name, out);  // a string field name: any attribute name, no symbol rules to meet
    out->push_back(':');
    AppendIonValue(member, out);
  }
  out->push_back('}');
}

void AppendIonValue(const AttributeValue& value, std::string* out) {
  switch (value.type) {
    case AttrType::kS:
      AppendIonString(value.scalar, out);
      return;
    case AttrType::kN:
      AppendIonDecimal(value.scalar, out);
      return;
    case AttrType::kB:
      AppendIonBlob(value.scalar, out);
      return;
    case AttrType::kBool:
      out->append(value.boolean ? "true" : "false");
      return;
    case AttrType::kNull:
      out->append("null");
      return;
    case AttrType::kM:
      AppendIonStruct(value.map, out);
      return;
    case AttrType::kL: {
      out->push_back('[');
      for (size_t i = 0; i < value.list.size(); ++i) {
        if (i) out->push_back(',');
        AppendIonValue(value.list[i], out);
      }
      out->push_back(']');
      return;
    }
    case AttrType::kSS:
    case AttrType::kNS:
    case AttrType::kBS: {
      out->append("$dynamodb_");
      out->append(AttrTypeName(value.type));
      out->append("::[");
      for (size_t i = 0; i < value.set.size(); ++i) {
        if (i) out->push_back(',');
        if (value.type == AttrType::kSS) AppendIonString(value.set[i], out);
        if (value.type == AttrType::kNS) AppendIonDecimal(value.set[i], out);
        if (value.type == AttrType::kBS) AppendIonBlob(value.set[i], out);
      }
      out->push_back(']');
      return;
    }
  }
}
}  // namespace

void AppendExportLine(ExportFormat format, const AttributeMap& item, std::string* out) {
  if (format == ExportFormat::kIon) {
    out->append("$ion_1_0 {Item:");
    AppendIonStruct(item, out);
    out->append("}\n");
    return;
  }
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Key("Item");
  WriteAttributeMap(item, &writer);
  writer.EndObject();
  out->append(buffer.GetString(), buffer.GetSize());
  out->push_back('\n');
}

void AppendIncrementalExportLine(ExportFormat format, int64_t write_micros, const AttributeMap& keys,
                                 const AttributeMap* new_image, const AttributeMap* old_image, std::string* out) {
  const std::string micros = std::to_string(write_micros);
  if (format == ExportFormat::kIon) {
    out->append("$ion_1_0 {Metadata:{WriteTimestampMicros:");
    AppendIonDecimal(micros, out);
    out->append("},Keys:");
    AppendIonStruct(keys, out);
    if (new_image) {
      out->append(",NewImage:");
      AppendIonStruct(*new_image, out);
    }
    if (old_image) {
      out->append(",OldImage:");
      AppendIonStruct(*old_image, out);
    }
    out->append("}\n");
    return;
  }
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Key("Metadata");
  writer.StartObject();
  writer.Key("WriteTimestampMicros");
  writer.StartObject();
  writer.Key("N");
  writer.String(micros);
  writer.EndObject();
  writer.EndObject();
  writer.Key("Keys");
  WriteAttributeMap(keys, &writer);
  if (new_image) {
    writer.Key("NewImage");
    WriteAttributeMap(*new_image, &writer);
  }
  if (old_image) {
    writer.Key("OldImage");
    WriteAttributeMap(*old_image, &writer);
  }
  writer.EndObject();
  out->append(buffer.GetString(), buffer.GetSize());
  out->push_back('\n');
}

}  // namespace dynapage
