#include "engine/storage/key_codec.h"

// The low-level MD5 interface (deprecated in OpenSSL 3 in favour of EVP) computes the digest directly; EVP
// would load OpenSSL's provider machinery at the first call, adding milliseconds to start-up and megabytes of
// resident memory for one hash function.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>

#include "engine/base/check.h"
#include "engine/model/number.h"

namespace dynapage {

namespace {
constexpr char kHashSalt[] = "Outliers";  // what DynamoDB's partition hash is salted with (docs/behaviour.md §6.1)

// Big-endian, so that keys order by the number.
template <typename Unsigned>
void AppendBigEndian(Unsigned v, std::string* out) {
  char bytes[sizeof(Unsigned)];
  for (size_t i = 0; i < sizeof(Unsigned); i++) bytes[i] = static_cast<char>(v >> (8 * (sizeof(Unsigned) - 1 - i)));
  out->append(bytes, sizeof(Unsigned));
}
void AppendU32(uint32_t v, std::string* out) { AppendBigEndian(v, out); }
void AppendU64(uint64_t v, std::string* out) { AppendBigEndian(v, out); }
void AppendKeyspacePrefix(uint32_t keyspace, std::string* out) {
  out->push_back(kDataTag);
  AppendU32(keyspace, out);
}
}  // namespace

std::string PartitionHashInput(const AttributeValue& value) {
  if (value.type == AttrType::kN) {
    Decimal d;
    Decimal::Parse(value.scalar, &d);
    return d.HashBytes();
  }
  return value.scalar;
}

uint64_t PartitionHash(const AttributeValue& value) {
  // The last value hashed on this thread: a client paging through a partition has its key hashed for the
  // ExclusiveStartKey and for the range of every page, and an MD5 costs far more than this comparison.
  thread_local AttrType last_type = AttrType::kNull;  // never a key type: nothing is remembered yet
  thread_local std::string last_scalar;
  thread_local uint64_t last_hash = 0;
  if (value.type == last_type && value.scalar == last_scalar) return last_hash;
  unsigned char digest[MD5_DIGEST_LENGTH];
  MD5_CTX ctx;
  MD5_Init(&ctx);
  MD5_Update(&ctx, kHashSalt, sizeof(kHashSalt) - 1);
  if (value.type == AttrType::kN) {
    std::string bytes = PartitionHashInput(value);
    MD5_Update(&ctx, bytes.data(), bytes.size());
  } else {
    MD5_Update(&ctx, value.scalar.data(), value.scalar.size());
  }
  MD5_Final(digest, &ctx);
  uint64_t hash = 0;
  for (int i = 0; i < 8; i++) hash = (hash << 8) | digest[i];
  last_type = value.type;
  last_scalar = value.scalar;
  last_hash = hash;
  return hash;
}

// Room for a prefix, a hash and two key parts of typical length, so that building an item key allocates once.
constexpr size_t kItemKeyReserve = 80;

std::string KeyspacePrefix(uint32_t keyspace) {
  std::string out;
  AppendKeyspacePrefix(keyspace, &out);
  return out;
}

std::string PrefixSuccessor(std::string prefix) {
  while (!prefix.empty()) {
    unsigned char last = static_cast<unsigned char>(prefix.back());
    if (last != 0xFF) {
      prefix.back() = static_cast<char>(last + 1);
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;  // empty: no upper bound
}

void AppendKeyPart(const AttributeValue& value, std::string* out) {
  if (value.type == AttrType::kN) {
    Decimal::AppendCanonicalOrderedKey(value.scalar, out);
    return;
  }
  // Runs without NUL are copied whole; each NUL is escaped as 00 FF, and 00 01 ends the part.
  std::string_view rest = value.scalar;
  for (size_t nul = rest.find('\0'); nul != std::string_view::npos; nul = rest.find('\0')) {
    out->append(rest.data(), nul + 1);
    out->push_back('\xFF');
    rest.remove_prefix(nul + 1);
  }
  out->append(rest.data(), rest.size());
  out->append("\0\x01", 2);
}

bool DecodeKeyPart(std::string_view key, size_t* pos, AttrType type, AttributeValue* out) {
  if (type == AttrType::kN) {
    Decimal d;
    if (!Decimal::DecodeOrderedKey(key, pos, &d)) return false;
    *out = AttributeValue::Number(d.ToString());
    return true;
  }
  std::string bytes;
  size_t i = *pos;
  while (i < key.size()) {
    char c = key[i];
    if (c != '\0') {
      bytes.push_back(c);
      i++;
      continue;
    }
    if (i + 1 >= key.size()) return false;
    if (key[i + 1] == '\xFF') {
      bytes.push_back('\0');
      i += 2;
    } else if (key[i + 1] == '\x01') {
      *pos = i + 2;
      out->type = type;
      out->scalar = std::move(bytes);
      return true;
    } else {
      return false;
    }
  }
  return false;
}

std::string PartitionPrefix(uint32_t keyspace, const AttributeValue& partition_key) {
  std::string out;
  out.reserve(kItemKeyReserve);  // before anything is written, so that the key is allocated once
  AppendKeyspacePrefix(keyspace, &out);
  AppendU64(PartitionHash(partition_key), &out);
  AppendKeyPart(partition_key, &out);
  return out;
}

std::string CompositePartitionPrefix(uint32_t keyspace, const AttributeValue* const* values, size_t count) {
  DP_DCHECK(count >= 1);
  if (count == 1) return PartitionPrefix(keyspace, *values[0]);
  std::string out;
  out.reserve(kItemKeyReserve);
  AppendKeyspacePrefix(keyspace, &out);
  const size_t hash_at = out.size();
  AppendU64(0, &out);  // the hash, filled in once the parts it covers are written
  const size_t parts_at = out.size();
  for (size_t i = 0; i < count; i++) AppendKeyPart(*values[i], &out);
  // The parts are self-delimiting and canonical (one encoding per value), so equal tuples hash alike.
  unsigned char digest[MD5_DIGEST_LENGTH];
  MD5_CTX ctx;
  MD5_Init(&ctx);
  MD5_Update(&ctx, kHashSalt, sizeof(kHashSalt) - 1);
  MD5_Update(&ctx, out.data() + parts_at, out.size() - parts_at);
  MD5_Final(digest, &ctx);
  for (size_t i = 0; i < 8; i++) out[hash_at + i] = static_cast<char>(digest[i]);
  return out;
}

std::string ItemKey(uint32_t keyspace, const AttributeValue& partition_key, const AttributeValue* sort_key) {
  std::string out = PartitionPrefix(keyspace, partition_key);
  if (sort_key) AppendKeyPart(*sort_key, &out);
  return out;
}

uint32_t SegmentOfHash(uint64_t hash, uint32_t total) {
  return static_cast<uint32_t>((static_cast<unsigned __int128>(hash) * total) >> 64);
}

void SegmentBounds(uint32_t keyspace, uint32_t segment, uint32_t total, std::string* lower, std::string* upper) {
  DP_DCHECK(segment < total);
  // Segment s holds the hashes h with floor(h·T / 2^64) == s, i.e. h in [ceil(2^64·s/T), ceil(2^64·(s+1)/T)).
  auto boundary = [total](uint32_t s) -> unsigned __int128 {
    unsigned __int128 numerator = static_cast<unsigned __int128>(s) << 64;
    return (numerator + total - 1) / total;
  };
  std::string prefix = KeyspacePrefix(keyspace);
  *lower = prefix;
  AppendU64(static_cast<uint64_t>(boundary(segment)), lower);
  if (segment + 1 >= total) {
    *upper = PrefixSuccessor(prefix);
  } else {
    *upper = prefix;
    AppendU64(static_cast<uint64_t>(boundary(segment + 1)), upper);
  }
}

uint64_t HashOfKey(std::string_view key) {
  uint64_t hash = 0;
  for (size_t i = 5; i < 13; i++) hash = (hash << 8) | static_cast<unsigned char>(key[i]);
  return hash;
}

}  // namespace dynapage
