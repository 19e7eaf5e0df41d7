// ModelConstraints: the member constraints of DynamoDB's service model that an operation's own reading does not
// check, as one table (model_constraints.cc), so that a constraint is a row, not code.
//
// DynamoDB checks every member of a request against its service model (lengths, value ranges, enumerations,
// required members) before anything else, and reports all violations together: "N validation errors detected:
// Value '<value>' at '<path>' failed to satisfy constraint: <rule>; …" (docs/behaviour.md §8.6). Most members are
// read and checked by the operation that uses them (request_reader.h); the members dynapage accepts without using
// them (SSESpecification, TableClass, …) and a few nested ones are checked here, from the same service model
// (botocore's dynamodb/2012-08-10/service-2.json). A member of the wrong JSON type is left to the operation's
// typed reading, which reports it first.

#ifndef DYNAPAGE_SERVER_PROTOCOL_MODEL_CONSTRAINTS_H_
#define DYNAPAGE_SERVER_PROTOCOL_MODEL_CONSTRAINTS_H_

#include <rapidjson/document.h>

#include <string_view>

#include "server/protocol/request_reader.h"

namespace dynapage {

// Adds to errors each violation, in body (a request of operation, "CreateTable"), of the table's constraints.
// An operation without rows adds nothing.
void CheckModelConstraints(std::string_view operation, const rapidjson::Value& body, ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_MODEL_CONSTRAINTS_H_
