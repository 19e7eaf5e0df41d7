// The StreamSpecification member of CreateTable and UpdateTable: {"StreamEnabled": bool, "StreamViewType": enum}.
//
// ReadStreamSpecification checks JSON types (SerializationException at once) and adds the constraint violations
// (a null StreamEnabled, a view type outside the enum) to a ConstraintErrors. The two operations then word the
// missing or extra view type differently: CreateTableStreamCheck and UpdateTableStreamCheck (docs/streams-and-ttl.md).

#ifndef DYNAPAGE_SERVER_PROTOCOL_STREAM_SPECIFICATION_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_STREAM_SPECIFICATION_READER_H_

#include <optional>
#include <string>

#include "engine/base/status.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

struct StreamSpecificationInput {
  bool present = false;
  std::optional<bool> enabled;
  std::optional<std::string> view_type;
};

Status ReadStreamSpecification(const RequestReader& r, StreamSpecificationInput* out, ConstraintErrors* errors);

// The view type is required to enable and refused to disable. REQUIRES: the constraint errors were empty.
Status CreateTableStreamCheck(const StreamSpecificationInput& spec);
Status UpdateTableStreamCheck(const StreamSpecificationInput& spec);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_STREAM_SPECIFICATION_READER_H_
