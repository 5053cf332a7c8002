//===- JobMultiRank.h - The "Multi-rank" section of a job report -*- C++
//-*-===//
//
// Spec multi-rank.md §7.2: the job's analysis.md section with the world
// size, nodes, GPUs per node, the steps analysed and the median T_job; the
// per-rank table (node, step time, computation, exposed communication,
// idle by cause, communication time, wait, blame, clock offset); the node
// clock offsets; and the timeline and clock findings.
//
//===----------------------------------------------------------------------===//
#ifndef TL_DRIVER_JOBMULTIRANK_H
#define TL_DRIVER_JOBMULTIRANK_H

#include <string>

namespace tl {

struct JobReport;

std::string multiRankMarkdown(const JobReport &J);

} // namespace tl

#endif // TL_DRIVER_JOBMULTIRANK_H
