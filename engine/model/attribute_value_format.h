// How DynamoDB's error messages print an AttributeValue: "AttributeValue: {N:1}", "AttributeValue: {S:a}".
//
// Used by the BETWEEN bound errors of key conditions and filters, and by anything else that quotes a value
// back to the client. Scalars print as their text (B as base64), collections recursively.

#ifndef DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_FORMAT_H_
#define DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_FORMAT_H_

#include <string>

#include "engine/model/attribute_value.h"

namespace dynapage {

// "{N:1}", "{S:a}", "{B:AQI=}", "{BOOL:true}", "{NULL:true}", "{SS:[a, b]}", "{L:[{S:a}, {N:1}]}",
// "{M:{a={S:b}}}".
std::string FormatValueBody(const AttributeValue& value);

// "AttributeValue: " + FormatValueBody(value).
std::string FormatAttributeValue(const AttributeValue& value);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_MODEL_ATTRIBUTE_VALUE_FORMAT_H_
