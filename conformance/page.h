// Reading Query/Scan pages: shape checks and paging loops shared by the cases.
//
// Contract: WellFormedPage checks what every successful Query/Scan response must look like (docs/behaviour.md §4):
// integer Count and ScannedCount with Count <= ScannedCount; an Items array of Count elements, or no Items
// member at all for Select=COUNT; and a LastEvaluatedKey that, when present, is a non-empty object (an
// empty one would stop some SDK paginators and not others, §2.3). ReadAllPages follows LastEvaluatedKey
// until it is absent, checking every page.

#ifndef DYNAPAGE_CONFORMANCE_PAGE_H_
#define DYNAPAGE_CONFORMANCE_PAGE_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/client.h"
#include "conformance/json.h"

namespace conformance {

enum class ItemsMember { kRequired, kAbsent };

::testing::AssertionResult WellFormedPage(const Response& r, ItemsMember items = ItemsMember::kRequired);

int Count(const Response& r);         // -1 when absent
int ScannedCount(const Response& r);  // -1 when absent
bool HasLek(const Response& r);
// The LastEvaluatedKey as JSON text, "" when absent.
std::string LekJson(const Response& r);
// Sorted attribute names of the LastEvaluatedKey.
std::vector<std::string> LekNames(const Response& r);
// AttrText of attribute `name` in the LastEvaluatedKey.
std::string LekAttr(const Response& r, const char* name);
// AttrText of attribute `name` in each returned item, in order.
std::vector<std::string> Column(const Response& r, const char* name);

struct PagedRead {
  std::vector<Response> pages;
  std::string failure;  // empty when every page succeeded and was well formed
  // Column over all pages, in order.
  std::vector<std::string> Column(const char* name) const;
  int TotalCount() const;
};

// Sends `request` to `operation` ("Query" or "Scan") and follows LastEvaluatedKey through ExclusiveStartKey
// for at most `max_pages` pages. Stops at the first failed or malformed page, described in `failure`.
PagedRead ReadAllPages(Client& client, const std::string& operation, const Json& request, int max_pages,
                       ItemsMember items = ItemsMember::kRequired);

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_PAGE_H_
