// Kinesis streaming destinations of a table (Enable/Disable/Describe/UpdateKinesisStreamingDestination), kept in
// its settings (docs/control-plane.md). There is no Kinesis locally: nothing is ever sent to a destination.
//
// Enable adds (or re-enables) a destination, ENABLING then ACTIVE; Disable moves an ACTIVE one to DISABLING then
// DISABLED, and it stays listed; Update changes the precision of an ACTIVE one (UPDATING then ACTIVE). The
// transitional status lasts for the context's transient-status delay (none by default). One destination of a
// table may be live (ENABLING, ACTIVE, UPDATING) at a time. Errors are DynamoDB's ValidationExceptions, never a
// ResourceNotFoundException for a destination; a missing table is ResourceNotFoundException.

#ifndef DYNAPAGE_ENGINE_WRITE_KINESIS_DESTINATIONS_H_
#define DYNAPAGE_ENGINE_WRITE_KINESIS_DESTINATIONS_H_

#include <string>
#include <vector>

#include "engine/base/request_context.h"
#include "engine/base/status.h"
#include "engine/write/write_path.h"

namespace dynapage {

// ApproximateCreationDateTimePrecision when none was set.
inline constexpr char kDefaultKinesisPrecision[] = "MILLISECOND";

struct KinesisDestinationView {
  KinesisDestination destination;
  std::string status;  // ENABLING, ACTIVE, UPDATING, DISABLING, DISABLED
};

// ValidationException unless arn has the shape arn:<partition>:kinesis:<region>:<account>:stream/<name>.
Status CheckKinesisStreamArn(const std::string& arn);

// precision: empty for the default. *view: the destination as the answer shows it.
Status EnableKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                         const std::string& table_name, const std::string& stream_arn,
                                         const std::string& precision, KinesisDestinationView* view);
Status DisableKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                          const std::string& table_name, const std::string& stream_arn,
                                          KinesisDestinationView* view);
Status UpdateKinesisStreamingDestination(WritePath& write_path, const RequestContext& ctx,
                                         const std::string& table_name, const std::string& stream_arn,
                                         const std::string& precision, KinesisDestinationView* view);
// Every destination of the table, in the order they were first enabled.
Status DescribeKinesisStreamingDestination(const Catalog& catalog, const RequestContext& ctx,
                                           const std::string& table_name, std::vector<KinesisDestinationView>* views);

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_WRITE_KINESIS_DESTINATIONS_H_
