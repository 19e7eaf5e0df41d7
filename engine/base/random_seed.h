// RandomSeed: 64 random bits from the kernel, to seed a generator (request ids, backup and job ids, UUIDs).
//
// Not std::random_device: libstdc++'s asks the CPU which random instructions it has (CPUID) every time one is
// made, and in a virtual machine each CPUID leaves the guest for the hypervisor: 10-30 us a random_device on the
// 2-core VM, paid by every connection's first request (its thread's request ids start from a random one) and by
// start-up. getrandom(2) is one system call. Thread-safe.

#ifndef DYNAPAGE_ENGINE_BASE_RANDOM_SEED_H_
#define DYNAPAGE_ENGINE_BASE_RANDOM_SEED_H_

#include <cstdint>

namespace dynapage {

uint64_t RandomSeed();

}  // namespace dynapage

#endif  // DYNAPAGE_ENGINE_BASE_RANDOM_SEED_H_
