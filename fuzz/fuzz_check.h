// What every fuzz target uses to state a property: FUZZ_CHECK(condition) aborts with the condition's text, so
// that libFuzzer records the input as a crash (assert() would vanish under NDEBUG).

#ifndef DYNAPAGE_FUZZ_FUZZ_CHECK_H_
#define DYNAPAGE_FUZZ_FUZZ_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition)                                                            \
  do {                                                                                   \
    if (!(condition)) {                                                                  \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

#endif  // DYNAPAGE_FUZZ_FUZZ_CHECK_H_
