// The members of CreateTable and UpdateTable (and of their GSI elements) that set a table's settings:
// TableClass, SSESpecification, OnDemandThroughput, WarmThroughput (engine/write/table_settings.h). Types are
// checked here (SerializationException), enumerations and ranges collected into errors, the rest is the engine's.

#ifndef DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_READER_H_

#include <string>

#include "engine/write/table_settings.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// OnDemandThroughput and WarmThroughput of r (a request or a GSI element at path, "" for the request).
Status ReadCapacitySettings(const RequestReader& r, const std::string& path, CapacitySettingsInput* out,
                            ConstraintErrors* errors);

// TableClass, SSESpecification and the table's capacity settings. (The enumerations are the model table's:
// model_constraints.cc.)
Status ReadTableSettings(const RequestReader& r, TableSettingsInput* out, ConstraintErrors* errors);

// The SSESpecification combinations DynamoDB refuses (AES256, a key without KMS): ValidationException.
Status CheckSseSpecification(const RequestReader& r);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TABLE_SETTINGS_READER_H_
