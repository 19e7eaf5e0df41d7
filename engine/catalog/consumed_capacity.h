// ConsumedCapacity: the capacity units an operation used, split by table and index as DynamoDB reports them.
//
// Reads: ceil(bytes / 4 KB) units, halved unless strongly consistent. Writes: ceil(bytes / 1 KB) units, at
// least 1. Transactions cost twice as much. (docs/behaviour.md §7.3.)

#ifndef DYNAPAGE_ENGINE_CATALOG_CONSUMED_CAPACITY_H_
#define DYNAPAGE_ENGINE_CATALOG_CONSUMED_CAPACITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dynapage {

struct ConsumedCapacity {
  std::string table_name;
  double table_units = 0;
  std::map<std::string, double> global_index_units;
  std::map<std::string, double> local_index_units;
  // Writes only: VectorWriteRequestBytes per vector index whose entry the write changed (docs/vector-search.md,
  // "Capacity"). Not units: never in total(), and shown only under INDEXES.
  std::map<std::string, double> vector_write_bytes;
  bool is_read = true;
  // Units in the total but on no arm: a BatchExecuteStatement write that failed its condition (docs/partiql.md).
  double unattributed_units = 0;

  double total() const {
    double sum = table_units + unattributed_units;
    for (const auto& [name, units] : global_index_units) sum += units;
    for (const auto& [name, units] : local_index_units) sum += units;
    return sum;
  }
};

// Units for reading `bytes` of item data in one request (rounded up to 4 KB), minimum one unit.
inline double ReadUnits(uint64_t bytes, bool consistent) {
  uint64_t blocks = (bytes + 4095) / 4096;
  if (blocks == 0) blocks = 1;
  return consistent ? static_cast<double>(blocks) : static_cast<double>(blocks) / 2;
}

// Units for writing an item of `bytes` (rounded up to 1 KB), minimum one unit.
inline double WriteUnits(uint64_t bytes) {
  uint64_t blocks = (bytes + 1023) / 1024;
  return static_cast<double>(blocks == 0 ? 1 : blocks);
}

struct TableDefinition;
class AttributeValue;

// The write capacity of replacing old_item by new_item (either may be null) in table: the table's units from
// the larger of the two, each index whose entry is written or removed, and the bytes of each vector index whose
// entry changed (the larger of the old and the new entry's write-formula size). The items' sizes come from the
// caller, which has them already (ItemWrite). REQUIRES: old_size == ItemSize(*old_item), 0 without old_item;
// the same for new_size.
ConsumedCapacity WriteCapacity(const TableDefinition& table,
                               const std::map<std::string, AttributeValue>* old_item, uint64_t old_size,
                               const std::map<std::string, AttributeValue>* new_item, uint64_t new_size);

// Adds factor × c into the entry of c's table in *by_table (appending one for a table not yet there), for the
// per-table lists of BatchWriteItem and the transactions (factor 2). Vector bytes are summed once, whatever the
// factor: a transaction does not double them.
void AddCapacity(const ConsumedCapacity& c, double factor, std::vector<ConsumedCapacity>* by_table);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_CATALOG_CONSUMED_CAPACITY_H_
