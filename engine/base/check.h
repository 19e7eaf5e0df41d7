// DP_DCHECK: checks a REQUIRES: precondition or an invariant in Debug and test builds.
//
// A header states each function's preconditions as "REQUIRES: …"; DP_DCHECK(condition) enforces them where
// the cost does not matter. It is active when NDEBUG is not defined (Debug builds, including the sanitizer
// build that CI runs the unit and HTTP tests with) and compiles to nothing, without evaluating its argument, in
// release builds. A failed check prints the condition, file and line to stderr and aborts: a broken contract
// is a bug in dynapage, never a client's error, so it must not be turned into a response.

#ifndef DYNAPAGE_ENGINE_BASE_CHECK_H_
#define DYNAPAGE_ENGINE_BASE_CHECK_H_

namespace dynapage {

// Reports a failed check and aborts. Never returns.
[[noreturn]] void CheckFailed(const char* condition, const char* file, int line);

}  // namespace dynapage

#ifdef NDEBUG
#define DP_DCHECK(condition) \
  do {                       \
    if (false) (void)(condition); \
  } while (0)
#define DP_DCHECK_IS_ON() false
#else
#define DP_DCHECK(condition)                                                     \
  do {                                                                           \
    if (!(condition)) ::dynapage::CheckFailed(#condition, __FILE__, __LINE__);   \
  } while (0)
#define DP_DCHECK_IS_ON() true
#endif

#endif  // DYNAPAGE_ENGINE_BASE_CHECK_H_
