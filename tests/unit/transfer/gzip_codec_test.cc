#include "engine/transfer/gzip_codec.h"

#include <gtest/gtest.h>

namespace dynapage {
namespace {

TEST(GzipCodecTest, RoundTripsAndReadsConcatenatedMembers) {
  std::string text(100000, 'x');
  text += "tail";
  std::string packed, unpacked;
  ASSERT_TRUE(GzipCompress(text, &packed).ok());
  EXPECT_LT(packed.size(), text.size() / 10);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // the gzip magic
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  ASSERT_TRUE(GzipDecompress(packed + packed, 1 << 20, &unpacked).ok());
  EXPECT_EQ(unpacked, text + text);
}

TEST(GzipCodecTest, RefusesDataThatIsNotGzipOrCutShortOrTooLarge) {
  std::string packed, unpacked;
  ASSERT_TRUE(GzipCompress(std::string(1 << 20, 'a'), &packed).ok());
  EXPECT_EQ(GzipDecompress("plain text", 1 << 20, &unpacked).code(), ErrorCode::kValidation);
  EXPECT_EQ(GzipDecompress(packed.substr(0, packed.size() / 2), 1 << 21, &unpacked).code(), ErrorCode::kValidation);
  EXPECT_EQ(GzipDecompress(packed, 1000, &unpacked).code(), ErrorCode::kValidation);
  EXPECT_TRUE(GzipDecompress(packed, 1 << 20, &unpacked).ok());
}

}  // namespace
}  // namespace dynapage
