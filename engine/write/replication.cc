#include "engine/write/replication.h"

#include <cstdlib>

#include "engine/base/check.h"
#include "engine/storage/key_codec.h"

namespace dynapage {

namespace {
constexpr char kStampTag = 'g';
}

std::string ReplicaStampKey(std::string_view item_key) {
  DP_DCHECK(!item_key.empty() && item_key[0] == 'd');
  std::string key(item_key);
  key[0] = kStampTag;
  return key;
}

std::string ReplicaStampPrefix(uint32_t keyspace) { return ReplicaStampKey(KeyspacePrefix(keyspace)); }

// "<micros> <origin>", and " -" after a deletion's. Region names have no spaces.
std::string EncodeReplicaStamp(const ReplicaStamp& stamp) {
  return std::to_string(stamp.micros) + " " + stamp.origin + (stamp.deleted ? " -" : "");
}

bool DecodeReplicaStamp(std::string_view value, ReplicaStamp* stamp) {
  size_t space = value.find(' ');
  if (space == std::string_view::npos || space == 0) return false;
  std::string micros(value.substr(0, space));
  char* end = nullptr;
  stamp->micros = std::strtoll(micros.c_str(), &end, 10);
  if (*end != '\0') return false;
  std::string_view rest = value.substr(space + 1);
  stamp->deleted = rest.size() > 2 && rest.substr(rest.size() - 2) == " -";
  if (stamp->deleted) rest.remove_suffix(2);
  stamp->origin = std::string(rest);
  return !stamp->origin.empty();
}

}  // namespace dynapage
