// Request bodies with Content-Encoding (docs/robustness.md): gzip (multi-member too) and deflate are decoded, the
// decoded size counts against the 16 MB limit without being inflated in full, and anything broken is an error.

#include "server/http/content_encoding.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

#include "server/http/http_server.h"
#include "tests/http/http_test_util.h"

namespace dynapage {
namespace {

// window_bits: 15 + 16 gzip, 15 zlib, -15 raw deflate.
std::string Compress(const std::string& data, int window_bits) {
  z_stream z{};
  deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(&out[0]);
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
std::string Gzip(const std::string& data) { return Compress(data, 15 + 16); }

TEST(ContentEncodingTest, ParsesTheEncodingsDynamoDbAccepts) {
  EXPECT_EQ(ContentEncoding::kIdentity, ParseContentEncoding(""));
  EXPECT_EQ(ContentEncoding::kIdentity, ParseContentEncoding("identity"));
  EXPECT_EQ(ContentEncoding::kGzip, ParseContentEncoding("GZIP"));
  EXPECT_EQ(ContentEncoding::kGzip, ParseContentEncoding(" gzip "));
  EXPECT_EQ(ContentEncoding::kDeflate, ParseContentEncoding("deflate"));
  EXPECT_EQ(ContentEncoding::kUnknown, ParseContentEncoding("br"));
  EXPECT_EQ(ContentEncoding::kUnknown, ParseContentEncoding("gzip, gzip"));
}

TEST(ContentEncodingTest, DecodesGzipMultiMemberAndBothDeflateForms) {
  std::string out;
  EXPECT_EQ(DecodeResult::kOk, DecodeBody(ContentEncoding::kGzip, Gzip("hello"), 100, &out));
  EXPECT_EQ("hello", out);
  EXPECT_EQ(DecodeResult::kOk, DecodeBody(ContentEncoding::kGzip, Gzip("hel") + Gzip("lo"), 100, &out));
  EXPECT_EQ("hello", out);
  EXPECT_EQ(DecodeResult::kOk, DecodeBody(ContentEncoding::kDeflate, Compress("hello", 15), 100, &out));
  EXPECT_EQ("hello", out);
  EXPECT_EQ(DecodeResult::kOk, DecodeBody(ContentEncoding::kDeflate, Compress("hello", -15), 100, &out));
  EXPECT_EQ("hello", out);
}

TEST(ContentEncodingTest, TruncatedOrCorruptDataIsRefused) {
  std::string out;
  std::string gz = Gzip(std::string(1000, 'x') + "end");
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, gz.substr(0, gz.size() - 4), 1 << 20, &out));
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, gz.substr(0, 12), 1 << 20, &out));
  std::string bad = gz;
  bad[bad.size() - 6] ^= 0x55;  // the CRC no longer matches
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, bad, 1 << 20, &out));
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, "not gzip at all", 1 << 20, &out));
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, gz + "trailing", 1 << 20, &out));
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kDeflate, Compress("x", 15) + "x", 1 << 20, &out));
  EXPECT_EQ(DecodeResult::kCorrupt, DecodeBody(ContentEncoding::kGzip, "", 1 << 20, &out));
}

// A 20 MB bomb is refused after at most the limit's worth of output.
TEST(ContentEncodingTest, BombStopsAtTheLimit) {
  std::string bomb = Gzip(std::string(20 * 1024 * 1024, ' '));
  ASSERT_LT(bomb.size(), 100u * 1024);
  std::string out;
  EXPECT_EQ(DecodeResult::kTooLarge, DecodeBody(ContentEncoding::kGzip, bomb, kMaxRequestBytes, &out));
  EXPECT_EQ(0u, out.capacity() > 64 * 1024 ? out.capacity() : 0u) << "the bomb's output was held";
}

HttpRequest Encoded(const std::string& operation, const std::string& body, const std::string& encoding) {
  HttpRequest request;
  request.headers = DynamoHeaders(operation);
  request.headers.emplace("Content-Encoding", encoding);
  request.body = body;
  return request;
}

TEST(ContentEncodingHttpTest, CompressedRequestsAreServed) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  HttpResult r = server.Send(Encoded("PutItem", Gzip(R"({"TableName":"tbl","Item":{"pk":{"S":"a"}}})"), "gzip"));
  EXPECT_EQ(200, r.status) << r.Describe();
  r = server.Send(Encoded("PutItem", Gzip(R"({"TableName":"tbl",)") + Gzip(R"("Item":{"pk":{"S":"b"}}})"), "gzip"));
  EXPECT_EQ(200, r.status) << "multi-member gzip: " << r.Describe();
  r = server.Send(Encoded("PutItem", Compress(R"({"TableName":"tbl","Item":{"pk":{"S":"c"}}})", 15), "deflate"));
  EXPECT_EQ(200, r.status) << r.Describe();
  r = server.Call("Scan", R"({"TableName":"tbl"})");
  EXPECT_EQ(3, r.json["Count"].GetInt()) << r.Describe();
}

TEST(ContentEncodingHttpTest, BrokenCompressedBodiesAreErrorsAndStoreNothing) {
  TestServer server;
  ASSERT_EQ(200, server.CreateTable("tbl", "pk", "S").status);
  std::string gz = Gzip(R"({"TableName":"tbl","Item":{"pk":{"S":"a"}}})");
  HttpResult r = server.Send(Encoded("PutItem", gz.substr(0, gz.size() - 5), "gzip"));
  EXPECT_EQ(400, r.status) << "truncated: " << r.Describe();
  EXPECT_EQ("SerializationException", r.ErrorName()) << r.Describe();
  r = server.Send(Encoded("PutItem", "{\"TableName\":\"t\"}", "gzip"));
  EXPECT_EQ(400, r.status) << "not gzip: " << r.Describe();
  r = server.Send(Encoded("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"}}})", "compress"));
  EXPECT_EQ(400, r.status) << "unknown encoding: " << r.Describe();
  EXPECT_EQ("SerializationException", r.ErrorName()) << r.Describe();
  r = server.Call("Scan", R"({"TableName":"tbl"})");
  EXPECT_EQ(0, r.json["Count"].GetInt()) << r.Describe();
}

TEST(ContentEncodingHttpTest, DecompressionBombIsRefusedWith413) {
  TestServer server;
  std::string json = R"({"TableName":"tbl","Pad":")" + std::string(20 * 1024 * 1024, 'a') + "\"}";
  HttpResult r = server.Send(Encoded("ListTables", Gzip(json), "gzip"));
  EXPECT_EQ(413, r.status) << r.Describe();
  EXPECT_EQ("RequestEntityTooLargeException", r.ErrorName()) << r.Describe();
  EXPECT_EQ(std::to_string(Crc32(r.body)), r.Header("x-amz-crc32"));
  EXPECT_EQ(200, server.Call("ListTables", "{}").status);
}

}  // namespace
}  // namespace dynapage
