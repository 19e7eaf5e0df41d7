// Page chaos (docs/testing-pagination.md): every choice of where a request's answer is cut, in one place. Each
// cut stays within DynamoDB's contract, so a client that follows it still reads every item exactly once; one that
// does not (stops at the first short page, drops UnprocessedKeys) is caught.
//
// The test bench decides per request whether chaos applies and hands the engine its seed in ctx.policies
// (engine/base/request_policies.h). Every choice here draws from ChaosDice seeded with that seed, so a seed and a
// sequence of requests give the same pages; without policies (the default) each function chooses nothing.
//
//   Query and Scan (and so PartiQL SELECT, which reads through them)  ChoosePageCut
//   GetRecords                                                        ChooseGetRecordsCut
//   ListTables                                                        ChooseListTablesCut
//   BatchGetItem, BatchWriteItem (also a fault rule's share)          ChooseUnprocessed

#ifndef DYNAPAGE_ENGINE_READ_PAGE_CHAOS_H_
#define DYNAPAGE_ENGINE_READ_PAGE_CHAOS_H_

#include <cstddef>
#include <cstdint>

#include "engine/base/request_context.h"
#include "engine/base/request_policies.h"
#include "engine/model/table_definition.h"
#include "engine/read/page_reader.h"

namespace dynapage {

// Query and Scan: under page chaos, one page in eight as it would be, a quarter empty (where a key between two
// entries can be made on the keyspace of table, or index), the rest short, and half the time a LastEvaluatedKey on
// the last item. Sets spec->cut to cut when it cuts. REQUIRES: cut outlives the read of spec.
void ChoosePageCut(const RequestContext& ctx, const TableDefinition& table, const IndexDefinition* index, PageCut* cut,
                   PageSpec* spec);

// How page chaos cuts one GetRecords answer: fewer records than Limit, no records at all with a NextShardIterator
// at the same place, or a NextShardIterator after the last records of a closed shard (the reader's next call is
// then empty and ends the shard).
enum class GetRecordsCut { kNone, kShort, kEmpty, kIteratorOnLast };

// The cut chaos chooses for this GetRecords, lowering *limit for it. kNone without page chaos.
GetRecordsCut ChooseGetRecordsCut(const RequestContext& ctx, int64_t* limit);

// ListTables: under page chaos, most pages shorter (*page lowered) and, when it returns true, a
// LastEvaluatedTableName on the last name even where no table follows.
bool ChooseListTablesCut(const RequestContext& ctx, size_t* page);

// The batches chaos and fault rules leave unprocessed, told apart so that their choices differ.
enum class BatchKind { kGet, kWrite };

// Which of a batch's `total` requests to leave unprocessed, in request order: the fault rule's share (rounded up),
// or under page chaos, half the time a random number from 1 to total. Empty without policies. *injected describes
// the choice ("2 of 5 unprocessed"), or is left alone when nothing is left.
std::vector<bool> ChooseUnprocessed(const RequestContext& ctx, BatchKind kind, size_t total, std::string* injected);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_READ_PAGE_CHAOS_H_
