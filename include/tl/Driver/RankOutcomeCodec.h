//===- RankOutcomeCodec.h - A job's rank outcomes as bytes ------*- C++ -*-===//
//
// What an MPI process sends process 0 (tools/tl-opt/MpiJob.cpp): the
// outcomes of the ranks it analysed (Job.h), every field of each summary,
// so the job report process 0 writes is the one a threaded run writes.
// Little-endian, doubles by their bits; a version byte first. Every field
// of RankOutcome, RankSummary and CollectiveInstance is here: a new field
// must be added to both functions (the unit test compares them all).
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_RANKOUTCOMECODEC_H
#define TL_DRIVER_RANKOUTCOMECODEC_H

#include "tl/Driver/Job.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tl {

std::string encodeRankOutcomes(llvm::ArrayRef<RankOutcome> Outcomes);

/// Appends the outcomes in Bytes to Out; an error for bytes that are not
/// what encodeRankOutcomes writes (truncated, another version).
llvm::Error decodeRankOutcomes(llvm::StringRef Bytes,
                               std::vector<RankOutcome> &Out);

} // namespace tl

#endif // TL_DRIVER_RANKOUTCOMECODEC_H
