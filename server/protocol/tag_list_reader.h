// The Tags member of TagResource and CreateTable: a list of {Key, Value}, read with DynamoDB's constraints
// (docs/behaviour.md, tags): key 1 to 128 characters, value 0 to 256 characters (characters, not bytes), both
// made of letters, digits, white space and _ . : / = + - @ only. Rules about the whole set (at most 50, no aws:
// prefix) are the engine's (engine/write/tags.h).

#ifndef DYNAPAGE_SERVER_PROTOCOL_TAG_LIST_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_TAG_LIST_READER_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

// Reads r's "Tags" into *tags in request order; *present says whether the member was there. Type errors are
// returned; constraint violations go to *errors (paths "tags.N.member.key" / ".value").
Status ReadTagList(const RequestReader& r, std::vector<std::pair<std::string, std::string>>* tags, bool* present,
                   ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_TAG_LIST_READER_H_
