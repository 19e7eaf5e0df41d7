// ReadRequest: the parameters Query and Scan share, and what a page of either reports.

#ifndef DYNAPAGE_ENGINE_READ_READ_REQUEST_H_
#define DYNAPAGE_ENGINE_READ_READ_REQUEST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/consumed_capacity.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"

namespace dynapage {

struct ReadRequest {
  std::string table_name;
  std::optional<std::string> index_name;
  std::optional<std::string> filter_expression;
  std::optional<std::vector<LegacyCondition>> legacy_filter;  // QueryFilter / ScanFilter
  std::optional<std::string> conditional_operator;
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<std::string> select;
  ExpressionInputs expression_inputs;
  std::optional<int64_t> limit;
  bool consistent_read = false;
  std::optional<AttributeMap> exclusive_start_key;
  bool index_capacity_detail = false;  // ReturnConsumedCapacity=INDEXES
};

struct ReadResult {
  uint64_t count = 0;
  uint64_t scanned_count = 0;
  std::optional<AttributeMap> last_evaluated_key;
  ConsumedCapacity capacity;
};

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_READ_REQUEST_H_
