//===- NoEntry.cpp - A shared object without tlGetPassPluginInfo ----------===//
extern "C" __attribute__((visibility("default"))) int tlSomethingElse() {
  return 42;
}
