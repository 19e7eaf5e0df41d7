// The NextToken of a SELECT (docs/partiql.md): where the next page begins, bound to the statement and parameters it
// continues. The token is opaque to the client: base64 of {"f": fingerprint, "p": partition reached, "k": last
// evaluated key, "m": [cursor, …]}, a cursor being null (not read yet), true (done) or the last key evaluated in its
// partition. A token of another statement, or of other parameters, is "NextToken does not match request"; one
// that does not decode is "Invalid NextToken".

#ifndef DYNAPAGE_ENGINE_PARTIQL_STATEMENT_TOKEN_H_
#define DYNAPAGE_ENGINE_PARTIQL_STATEMENT_TOKEN_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/model/attribute_value.h"
#include "engine/partiql/statement_request.h"

namespace dynapage {

// Where one partition of an ORDER BY merge was left.
struct PartitionCursor {
  bool done = false;
  std::optional<AttributeMap> after;  // the last key evaluated in the partition; none: not read yet
};

// Where a page of a SELECT begins: the partition reached and the last key evaluated in it; for ORDER BY a sort key
// over several partitions (a merge), where each partition was left instead.
struct SelectPosition {
  size_t partition = 0;
  std::optional<AttributeMap> key;
  std::vector<PartitionCursor> cursors;  // a merge's, one per partition; empty otherwise
};

// FNV-1a of the statement and its parameters: a NextToken names what it continues without holding it.
uint64_t StatementFingerprint(const PartiqlStatementRequest& request);

std::string EncodeNextToken(uint64_t fingerprint, const SelectPosition& position);

// Decodes token into *position. Its nesting never drives recursion (the parse is iterative).
Status DecodeNextToken(const std::string& token, uint64_t fingerprint, SelectPosition* position);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_STATEMENT_TOKEN_H_
