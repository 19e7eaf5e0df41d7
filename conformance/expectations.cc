#include "conformance/expectations.h"

namespace conformance {
namespace {

::testing::AssertionResult CheckType(const Response& r, const std::string& type) {
  if (r.status != 400) {
    return ::testing::AssertionFailure() << "want HTTP 400 " << type << ", got " << r.Describe();
  }
  if (r.error_type != type) {
    return ::testing::AssertionFailure() << "want " << type << ", got " << r.Describe();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult IsError(const Response& r, const std::string& type, const std::string& message) {
  ::testing::AssertionResult typed = CheckType(r, type);
  if (!typed) return typed;
  if (r.message != message) {
    return ::testing::AssertionFailure() << "message differs\n  want: " << message << "\n  got:  " << r.message;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult ErrorContains(const Response& r, const std::string& type, const std::string& fragment) {
  ::testing::AssertionResult typed = CheckType(r, type);
  if (!typed) return typed;
  if (r.message.find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << "message lacks the expected text\n  want (within): " << fragment
                                         << "\n  got: " << r.message;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace conformance
