// A statement that names one item by its key (docs/partiql.md): the values of the primary key's attributes pinned
// by equality among the conjuncts of the WHERE clause. UPDATE, DELETE and EXISTS must pin the whole key ("Where
// clause does not contain a mandatory equality on all key attributes"); a SELECT that pins it and says nothing
// else is a single-item read (BatchExecuteStatement, ExecuteTransaction).

#ifndef DYNAPAGE_ENGINE_PARTIQL_PINNED_KEY_H_
#define DYNAPAGE_ENGINE_PARTIQL_PINNED_KEY_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/catalog/catalog.h"
#include "engine/expressions/write_condition.h"
#include "engine/model/attribute_value.h"
#include "engine/model/key_schema.h"
#include "engine/partiql/partiql_parser.h"

namespace dynapage {

// The values of the key attributes of schema pinned by equality among the conjuncts of s's WHERE clause into *key;
// the other conjuncts into *rest. REQUIRES: parameters holds a value for every `?` of s.
Status PinnedKey(const KeySchema& schema, const PartiqlStatement& s, const std::vector<AttributeValue>& parameters,
                 AttributeMap* key, std::vector<const PartiqlCondition*>* rest);

// A SELECT of exactly one item (BatchExecuteStatement, ExecuteTransaction): the full primary key by equality and
// nothing else, on a table. *key_only is false when the WHERE clause says more or names an index. The item read
// is answered through PartiqlProjectedItem (statement_projection.h) when the statement projects.
struct PartiqlKeyRead {
  std::string table_name;
  AttributeMap key;
  std::optional<std::string> projection_expression;
  ExpressionInputs inputs;
};
Status PrepareKeyRead(const Catalog& catalog, const PartiqlStatement& statement,
                      const std::vector<AttributeValue>& parameters, bool* key_only, PartiqlKeyRead* out);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_PARTIQL_PINNED_KEY_H_
