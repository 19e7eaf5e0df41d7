// Table schema members of CreateTable and UpdateTable requests: AttributeDefinitions, KeySchema,
// ProvisionedThroughput and secondary index structures (a LocalSecondaryIndex, a GlobalSecondaryIndex, an
// UpdateTable Create action).
//
// Each reader checks JSON types first (a SerializationException is returned at once) and adds constraint
// violations (null members, lengths, enums, name patterns, minima) to a ConstraintErrors under DynamoDB's
// lowerCamel path ("globalSecondaryIndexes.1.member.keySchema"). What it read is usable once the
// ConstraintErrors are empty.

#ifndef DYNAPAGE_SERVER_PROTOCOL_TABLE_SCHEMA_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_TABLE_SCHEMA_READER_H_

#include <rapidjson/document.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/catalog/index_schema.h"
#include "engine/model/table_definition.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// A list member whose elements are structures; null elements are skipped. *present: the member was there.
Status ReadStructList(const RequestReader& r, const char* member, std::vector<const rapidjson::Value*>* out,
                      bool* present);

// AttributeDefinitions. *valid is false if an element lacks a name or has no scalar type (the constraint
// errors or DynamoDB's "Invalid AttributeDefinitions" then apply).
Status ReadAttributeDefinitions(const RequestReader& r, std::vector<KeyAttribute>* out, bool* present, bool* valid,
                                ConstraintErrors* errors);

// A KeySchema member at path: at least 1 element, and at most 2 for a table or an LSI (at_most_two); a GSI's
// longer keys are checked by CheckGlobalIndexKeyShape (docs/multi-attribute-keys.md).
Status ReadKeySchema(const RequestReader& r, const char* member, const std::string& path,
                     std::vector<KeyElementInput>* out, bool* present, ConstraintErrors* errors,
                     bool at_most_two = true);

// The ProvisionedThroughput member (or another of its shape); *out stays empty when absent.
Status ReadThroughput(const RequestReader& r, const std::string& path, std::optional<ProvisionedThroughput>* out,
                      ConstraintErrors* errors, const char* member = "ProvisionedThroughput");

// The Projection member of an index at path: ProjectionType and NonKeyAttributes as sent, with their constraints.
Status ReadProjection(const RequestReader& r, const std::string& path, std::optional<std::string>* projection_type,
                      std::optional<std::vector<std::string>>* non_key_attributes, ConstraintErrors* errors);

// One index structure at path ("localSecondaryIndexes.1.member"): IndexName, KeySchema, Projection and, for a
// GSI, ProvisionedThroughput.
Status ReadSecondaryIndex(const RequestReader& r, const std::string& path, bool global, SecondaryIndexInput* out,
                          ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TABLE_SCHEMA_READER_H_
