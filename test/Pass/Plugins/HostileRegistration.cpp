//===- HostileRegistration.cpp - Registration callbacks that misbehave -----===//
//
// Built once per TL_HOSTILE_REG mode (test/Pass/Plugins/CMakeLists.txt): the
// registration callback throws, crashes, exits or hangs. Each must be one
// line naming the file and exit 1, before any trace is read.
//
//===----------------------------------------------------------------------===//
#include "tl/Pass/PassPlugin.h"
#include "tl/Pass/PassRegistry.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#define TL_REG_THROW 1
#define TL_REG_SEGV 2
#define TL_REG_EXIT 3
#define TL_REG_HANG 4

#if TL_HOSTILE_REG == TL_REG_SEGV
// A real fault, not raise(): a handler that returns would resume after a
// raise(). Constant-initialized, so no static constructor; volatile, so the
// store is not folded into a trap instruction. Only in this mode: clang's
// -Wunused-variable (with TL_WERROR) refuses it in the others.
static volatile uintptr_t NullAddress = 0;
#endif

extern "C" TL_PLUGIN_EXPORT tlPassPluginInfo tlGetPassPluginInfo() {
  return {TL_PLUGIN_API_VERSION, "HostileRegistration", "1.0",
          [](tl::PassRegistry &) {
#if TL_HOSTILE_REG == TL_REG_THROW
            throw std::runtime_error("registration blew up");
#elif TL_HOSTILE_REG == TL_REG_SEGV
            *reinterpret_cast<volatile int *>(NullAddress) = 1;
#elif TL_HOSTILE_REG == TL_REG_EXIT
            std::exit(0);
#elif TL_HOSTILE_REG == TL_REG_HANG
            for (;;)
              std::this_thread::sleep_for(std::chrono::seconds(1));
#else
#error "TL_HOSTILE_REG must be one of the modes above"
#endif
          }};
}
