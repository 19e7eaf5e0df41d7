// ProjectionType: which attributes an index keeps of each item (DynamoDB's Projection.ProjectionType), shared by
// secondary indexes (engine/model/table_definition.h) and vector indexes (engine/model/vector_index_definition.h).

#ifndef DYNAPAGE_ENGINE_MODEL_PROJECTION_TYPE_H_
#define DYNAPAGE_ENGINE_MODEL_PROJECTION_TYPE_H_

namespace dynapage {

enum class ProjectionType { kAll, kKeysOnly, kInclude };
// "ALL", "KEYS_ONLY", "INCLUDE".
const char* ProjectionTypeName(ProjectionType type);
// The inverse of ProjectionTypeName; ALL for any other text.
ProjectionType ProjectionTypeFromName(const char* name);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_PROJECTION_TYPE_H_
