// The lists of actions on regions of the global-table operations: UpdateTable's ReplicaUpdates
// ({"Create"|"Update"|"Delete": {"RegionName": …, …}}), its GlobalTableWitnessUpdates, and UpdateGlobalTable's
// ReplicaUpdates ({"Create"|"Delete": {"RegionName": …}}).

#ifndef DYNAPAGE_SERVER_PROTOCOL_REGION_ACTIONS_READER_H_
#define DYNAPAGE_SERVER_PROTOCOL_REGION_ACTIONS_READER_H_

#include <string>
#include <vector>

#include "engine/base/status.h"
#include "server/protocol/request_reader.h"

namespace dynapage {

struct RegionActions {
  bool present = false;  // the member was there (perhaps empty)
  size_t elements = 0;
  std::vector<std::string> creates, updates, deletes;  // region names, in the request's order
  bool some_element_empty = false;                     // an element with no action
  bool some_element_mixed = false;                     // an element with more than one action
};

// Reads member; path is its name in constraint messages ("replicaUpdates"). A missing RegionName is a constraint
// error. Update is read only if with_update.
Status ReadRegionActions(const RequestReader& r, const char* member, const std::string& path, bool with_update,
                         RegionActions* out, ConstraintErrors* errors);

}  // namespace dynapage

#endif  // DYNAPAGE_SERVER_PROTOCOL_REGION_ACTIONS_READER_H_
