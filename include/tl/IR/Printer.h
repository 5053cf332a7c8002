//===- Printer.h - Stable textual form of the IR ---------------*- C++ -*-===//
#ifndef TL_IR_PRINTER_H
#define TL_IR_PRINTER_H

#include <string>

namespace llvm {
class raw_ostream;
}

namespace tl {
class Trace;
/// One line per event (kind, name, uid, times, key args, links), indented by
/// the call tree; stable across runs, for lit tests (--print-ir).
void printTrace(const Trace &T, llvm::raw_ostream &OS);
/// Counts per kind, linked GPU events, streams, threads, devices
/// (--print-ir=summary).
void printTraceSummary(const Trace &T, llvm::raw_ostream &OS);
/// Shortest decimal text that reads back to exactly D ("1.5", "3.0", "1e+300").
std::string formatDouble(double D);
} // namespace tl

#endif // TL_IR_PRINTER_H
