//===- tl-gen.cpp - synthetic Kineto trace generator -----------------------===//
// Placeholder; replaced by the generator work.
int main() { return 0; }
