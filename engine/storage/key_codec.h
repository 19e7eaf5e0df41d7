// Key codec: the RocksDB key of every stored item and index entry, built so that byte order is DynamoDB order.
//
//   item key   = 'd' | keyspace (u32 BE) | hash (u64 BE) | part(partition key) [| part(sort key)]
//   index key  = 'd' | keyspace (u32 BE) | hash (u64 BE) | part(index pk) [| part(index sk)]
//                    | part(table pk) [| part(table sk)]      (table key: unique tie-break for equal index keys)
//   multi-attribute index key (docs/multi-attribute-keys.md)
//              = 'd' | keyspace | hash | part(h1) … part(hn) | part(r1) … part(rm)
//                    | part(table pk) [| part(table sk)]
//                where for n ≥ 2 hash is the first 8 bytes of MD5("Outliers" ‖ part(h1) ‖ … ‖ part(hn))
//
// hash is the first 8 bytes of MD5("Outliers" ‖ partition key bytes) (docs/behaviour.md §6.1): ascending hash is the
// order in which DynamoDB scans partitions, and a parallel-scan segment is a contiguous range of it (docs/behaviour.md
// §6.2). A part is self-delimiting and order-preserving: S and B are the raw bytes with 0x00 escaped as 00 FF and a 00
// 01 terminator (unsigned byte order, shorter prefix first); N is Decimal::AppendOrderedKey (numeric order, so "1e3"
// and "1000" are one key). A Query of one partition, a whole Scan and one segment are each one range.

#ifndef DYNAPAGE_ENGINE_STORAGE_KEY_CODEC_H_
#define DYNAPAGE_ENGINE_STORAGE_KEY_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/model/attribute_value.h"

namespace dynapage {

constexpr char kDataTag = 'd';

// The bytes DynamoDB hashes for a partition key value: UTF-8 for S, raw bytes for B, Decimal::HashBytes for N.
std::string PartitionHashInput(const AttributeValue& value);
// First 8 bytes of MD5("Outliers" ‖ PartitionHashInput(value)), big-endian.
uint64_t PartitionHash(const AttributeValue& value);

// 'd' | keyspace: the prefix shared by all keys of one table or index.
std::string KeyspacePrefix(uint32_t keyspace);
// The smallest key greater than every key starting with prefix (prefix with its last byte incremented).
std::string PrefixSuccessor(std::string prefix);

// REQUIRES: value is S, N or B.
void AppendKeyPart(const AttributeValue& value, std::string* out);
// Decodes one part of the given type at *pos, advancing *pos. Returns false on corrupt input.
bool DecodeKeyPart(std::string_view key, size_t* pos, AttrType type, AttributeValue* out);

// prefix | hash(pk) | part(pk): the start of a partition (every key of it starts with this).
std::string PartitionPrefix(uint32_t keyspace, const AttributeValue& partition_key);
// The start of a partition of a multi-attribute key: prefix | hash | part(values[0]) … part(values[count-1]), the
// hash taken over all the parts (for count 1, PartitionPrefix(keyspace, *values[0])).
// REQUIRES: 1 <= count; each value is S, N or B.
std::string CompositePartitionPrefix(uint32_t keyspace, const AttributeValue* const* values, size_t count);
// A full key. sort_key may be null for hash-only schemas.
std::string ItemKey(uint32_t keyspace, const AttributeValue& partition_key, const AttributeValue* sort_key);

// Bounds of segment `segment` of `total` in the hash space: [lower, upper) as keys within the keyspace;
// upper is the keyspace end for the last segment. An item is in segment floor(hash × total / 2^64).
// REQUIRES: 0 <= segment < total.
void SegmentBounds(uint32_t keyspace, uint32_t segment, uint32_t total, std::string* lower, std::string* upper);
uint32_t SegmentOfHash(uint64_t hash, uint32_t total);
// The hash stored in a data key. REQUIRES: key is a data key.
uint64_t HashOfKey(std::string_view key);

constexpr size_t kKeyHeaderSize = 1 + 4 + 8;  // tag, keyspace, hash

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_STORAGE_KEY_CODEC_H_
