#include "engine/transfer/input_object.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "engine/transfer/gzip_codec.h"

namespace dynapage {
namespace {

struct Read {
  Status status;
  std::vector<AttributeMap> items;
  std::vector<std::string> errors;
  uint64_t bytes = 0;
};

Read ReadObject(const InputObjectFormat& format, const std::string& object) {
  Read read;
  read.status = ReadInputObject(
      format, object,
      [&](size_t, const Status& s, AttributeMap* item) {
        if (s.ok()) {
          read.items.push_back(*item);
        } else {
          read.errors.push_back(s.message());
        }
      },
      &read.bytes);
  return read;
}

TableDefinition Table() {
  TableDefinition table;
  table.attribute_definitions = {{"pk", AttrType::kS}, {"gsi_n", AttrType::kN}};
  return table;
}

TEST(InputObjectTest, DecompressesThenParsesEachFormat) {
  const std::string json = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n{\"Item\":{\"pk\":{\"S\":\"b\"}}}\n";
  std::string gzip;
  ASSERT_TRUE(GzipCompress(json, &gzip).ok());
  std::string zstd(ZSTD_compressBound(json.size()), '\0');
  zstd.resize(ZSTD_compress(zstd.data(), zstd.size(), json.data(), json.size(), 3));

  InputObjectFormat format = ImportFormatOf("DYNAMODB_JSON", "NONE", "", Table());
  Read plain = ReadObject(format, json);
  EXPECT_EQ(plain.items.size(), 2u);
  EXPECT_EQ(plain.bytes, json.size());
  format = ImportFormatOf("DYNAMODB_JSON", "GZIP", "", Table());
  EXPECT_EQ(ReadObject(format, gzip).items.size(), 2u);
  format = ImportFormatOf("DYNAMODB_JSON", "ZSTD", "", Table());
  Read zstd_read = ReadObject(format, zstd);
  EXPECT_EQ(zstd_read.items.size(), 2u);
  EXPECT_EQ(zstd_read.bytes, json.size());  // ProcessedSizeBytes counts the uncompressed bytes

  format = ImportFormatOf("ION", "", "", Table());
  Read ion = ReadObject(format, "$ion_1_0 {Item:{pk:\"a\",n:1.}}\n");
  ASSERT_EQ(ion.items.size(), 1u);
  EXPECT_EQ(ion.items[0].at("n").type, AttrType::kN);

  format =
      ImportFormatOf("CSV", "NONE", "{\"Csv\":{\"Delimiter\":\";\",\"HeaderList\":[\"pk\",\"gsi_n\",\"n\"]}}", Table());
  EXPECT_EQ(format.csv.delimiter, ';');
  Read csv = ReadObject(format, "a;5;6\n");
  ASSERT_EQ(csv.items.size(), 1u) << (csv.errors.empty() ? "" : csv.errors[0]);
  EXPECT_EQ(csv.items[0].at("gsi_n").type, AttrType::kN);  // an index key: typed from AttributeDefinitions
  EXPECT_EQ(csv.items[0].at("n").type, AttrType::kS);
}

TEST(InputObjectTest, AnObjectThatDoesNotDecompressIsOneError) {
  const std::string json = "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n";
  for (const char* compression : {"GZIP", "ZSTD"}) {
    Read read = ReadObject(ImportFormatOf("DYNAMODB_JSON", compression, "", Table()), json);
    EXPECT_EQ(read.status.code(), ErrorCode::kValidation) << compression;
    EXPECT_TRUE(read.items.empty());
    EXPECT_TRUE(read.errors.empty());
  }
}

}  // namespace
}  // namespace dynapage
