#include "server/http/exchange.h"

#include <httplib.h>

namespace dynapage {

std::map<std::string, std::string> ParseQueryString(std::string_view query) {
  std::map<std::string, std::string> parameters;
  // cpp-httplib reads a null end as "up to a NUL byte": an empty query has no parameters to parse.
  if (query.empty()) return parameters;
  httplib::Params params;
  httplib::detail::parse_query_text(query.data(), query.size(), params);
  for (const auto& [name, value] : params) parameters.emplace(name, value);
  return parameters;
}

}  // namespace dynapage
