#include "engine/transfer/zstd_codec.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <string>

namespace dynapage {
namespace {

// A frame as zstd(1) writes it when it streams: no content size in its header.
std::string CompressStreaming(const std::string& text) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 0);
  std::string out(ZSTD_compressBound(text.size()) + 64, '\0');
  ZSTD_inBuffer in{text.data(), text.size(), 0};
  ZSTD_outBuffer buffer{out.data(), out.size(), 0};
  size_t left = ZSTD_compressStream2(cctx, &buffer, &in, ZSTD_e_end);
  ZSTD_freeCCtx(cctx);
  EXPECT_EQ(left, 0u);
  out.resize(buffer.pos);
  return out;
}

std::string CompressOneShot(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

TEST(ZstdCodecTest, RoundTripsFramesWithAndWithoutContentSizeAndConcatenated) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i * 7919 % 1000) + ",";
  std::string unpacked;
  std::string streamed = CompressStreaming(text);
  EXPECT_EQ(ZSTD_getFrameContentSize(streamed.data(), streamed.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  ASSERT_TRUE(ZstdDecompress(streamed, 1 << 24, &unpacked).ok());
  EXPECT_EQ(unpacked, text);
  ASSERT_TRUE(ZstdDecompress(CompressOneShot(text) + CompressOneShot("tail"), 1 << 24, &unpacked).ok());
  EXPECT_EQ(unpacked, text + "tail");
  ASSERT_TRUE(ZstdDecompress("", 10, &unpacked).ok());
  EXPECT_EQ(unpacked, "");
}

TEST(ZstdCodecTest, RefusesDataThatIsNotZstdOrCutShortOrTooLarge) {
  std::string text(1 << 20, 'a');
  std::string packed = CompressStreaming(text), unpacked;
  Status s = ZstdDecompress("plain text, not zstd", 1 << 21, &unpacked);
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_NE(s.message().find("not valid zstd"), std::string::npos) << s.message();
  s = ZstdDecompress(packed.substr(0, packed.size() - 3), 1 << 21, &unpacked);
  EXPECT_EQ(s.code(), ErrorCode::kValidation) << s.message();
  s = ZstdDecompress(packed, 100000, &unpacked);
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_NE(s.message().find("more than 100000 bytes"), std::string::npos) << s.message();
  EXPECT_LT(unpacked.size(), 100000u + (1u << 18));  // stopped near the bound, not after inflating it all
  EXPECT_TRUE(ZstdDecompress(packed, 1 << 20, &unpacked).ok());
}

}  // namespace
}  // namespace dynapage
