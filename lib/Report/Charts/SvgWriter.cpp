//===- SvgWriter.cpp - Shared pieces of the hand-written SVG charts -------===//
#include "SvgWriter.h"
#include "../Html/MarkdownHtml.h"
#include "../ReportUtil.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tl {

std::string svgNum(double V) { return fixed(V, 2); }

void svgBegin(raw_ostream &OS, int W, int H, StringRef Title) {
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
     << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
  OS << "<title>" << htmlText(Title) << "</title>\n";
  OS << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

void svgHeading(raw_ostream &OS, int W, StringRef Title) {
  OS << "<text x=\"" << W / 2 << "\" y=\"30\" text-anchor=\"middle\" "
        "font-size=\"18\" font-weight=\"bold\">"
     << htmlText(Title) << "</text>\n";
}

} // namespace tl
