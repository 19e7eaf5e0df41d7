// Assertion helpers for error answers.
//
// Contract: IsError passes when the response is an HTTP 400 whose __type ends in "#<type>" and whose
// message (from "message" or "Message") equals `message` exactly; ErrorContains only requires the message
// to contain `fragment`, for the few texts whose surrounding prefix docs/behaviour.md does not pin.

#ifndef DYNAPAGE_CONFORMANCE_EXPECTATIONS_H_
#define DYNAPAGE_CONFORMANCE_EXPECTATIONS_H_

#include <gtest/gtest.h>

#include <string>

#include "conformance/client.h"

namespace conformance {

::testing::AssertionResult IsError(const Response& r, const std::string& type, const std::string& message);
::testing::AssertionResult ErrorContains(const Response& r, const std::string& type, const std::string& fragment);

inline ::testing::AssertionResult IsValidation(const Response& r, const std::string& message) {
  return IsError(r, "ValidationException", message);
}

}  // namespace conformance

#endif  // DYNAPAGE_CONFORMANCE_EXPECTATIONS_H_
