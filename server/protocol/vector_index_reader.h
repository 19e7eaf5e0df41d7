// The VectorIndex structure of CreateTable's VectorIndexes and of UpdateTable's VectorIndexUpdates Create
// (docs/vector-search.md): its members' JSON types and the service model's constraints, as "N validation errors
// detected" entries at path ("vectorIndexes.1.member").

#ifndef DYNAPAGE_SERVER_PROTOCOL_VECTOR_INDEX_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_VECTOR_INDEX_READER_H_

#include <string>

#include "engine/catalog/vector_index_schema.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

Status ReadVectorIndex(const RequestReader& r, const std::string& path, VectorIndexInput* out,
                       ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_VECTOR_INDEX_READER_H_
