//===- PassResultCodec.h - A pass's results as bytes -----------*- C++ -*-===//
//
// An isolated plugin pass runs in a forked child; what it produced comes
// back to the parent through a pipe in this format: the failure flag and
// message, every finding (all fields, its id included), every artifact
// (path and content) and the values of the pass's statistics, framed by a
// magic header and an end marker so a child that died midway is told from
// one that finished. Not carried: Artifact::Json (the parsed form; emitters
// parse Content when it is null) and anything a pass does outside its sink
// and statistics (analyses it computed, global state, timing scopes).
//
//===----------------------------------------------------------------------===//
#ifndef TL_PASS_PASSRESULTCODEC_H
#define TL_PASS_PASSRESULTCODEC_H

#include "tl/Report/Finding.h"
#include "tl/Report/ReportData.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tl {

/// What one pass run produced (PassResult without the parent's timing).
struct PassOutput {
  bool Failed = false;
  std::string Message;
  std::vector<Finding> Findings;
  std::vector<Artifact> Artifacts;
  ReportData Data;
  /// The pass's statistics in declaration order (Pass::statistics()).
  std::vector<uint64_t> StatisticValues;
};

std::string encodePassOutput(const PassOutput &Out);

/// Decode Bytes; an error says what is missing or malformed (a truncated
/// stream, a bad tag, counts larger than the bytes left).
llvm::Expected<PassOutput> decodePassOutput(llvm::StringRef Bytes);

} // namespace tl

#endif // TL_PASS_PASSRESULTCODEC_H
