//===- MarkdownHtml.cpp - analysis.md's markdown as HTML ------------------===//
//
// A line-oriented converter for the subset of markdown tl's report writers
// produce. It never passes input through: text is escaped (htmlText), and
// tags come only from the constructs recognised here.
//
//===----------------------------------------------------------------------===//
#include "MarkdownHtml.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <vector>

using namespace llvm;

namespace tl {

namespace {

/// Length of the UTF-8 sequence at S[I], 0 when it is not well formed.
size_t utf8Length(StringRef S, size_t I) {
  unsigned char C = S[I];
  size_t N = C < 0x80 ? 1 : (C >> 5) == 6 ? 2 : (C >> 4) == 14 ? 3
                                             : (C >> 3) == 30 ? 4 : 0;
  if (N == 0 || I + N > S.size())
    return 0;
  for (size_t K = 1; K < N; ++K)
    if ((static_cast<unsigned char>(S[I + K]) & 0xC0) != 0x80)
      return 0;
  uint32_t CP = N == 1 ? C : C & (0x7F >> N);
  for (size_t K = 1; K < N; ++K)
    CP = (CP << 6) | (S[I + K] & 0x3F);
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  static const uint32_t Min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (CP < Min[N] || (CP >= 0xD800 && CP <= 0xDFFF) || CP > 0x10FFFF)
    return 0;
  return N;
}

/// Shared by htmlText and visibleText.
std::string cleanText(StringRef S, bool Escape) {
  std::string O;
  O.reserve(S.size());
  for (size_t I = 0; I < S.size();) {
    size_t N = utf8Length(S, I);
    if (N == 0) {
      O += "\xEF\xBF\xBD"; // U+FFFD
      ++I;
      continue;
    }
    unsigned char C = S[I];
    bool Control = C < 0x20 || C == 0x7F ||
                   (N == 2 && C == 0xC2 &&
                    static_cast<unsigned char>(S[I + 1]) < 0xA0);
    if (!Control) {
      const char *E = nullptr;
      if (Escape)
        switch (C) {
        case '&': E = "&amp;"; break;
        case '<': E = "&lt;"; break;
        case '>': E = "&gt;"; break;
        case '"': E = "&quot;"; break;
        case '\'': E = "&#39;"; break;
        default: break;
        }
      if (E)
        O += E;
      else
        O.append(S.data() + I, N);
    }
    I += N;
  }
  return O;
}

bool isIdChar(char C) { return isAlnum(C) || C == '-' || C == '_'; }

/// An in-page anchor (#id) or a relative file path; anything else (schemes,
/// absolute paths, parent directories) is not linked.
bool safeHref(StringRef U) {
  if (U.consume_front("#"))
    return !U.empty() && all_of(U, isIdChar);
  if (U.empty() || U.front() == '/' || U.front() == '.' || U.contains("..") ||
      U.contains("//"))
    return false;
  return all_of(U, [](char C) {
    return isIdChar(C) || C == '.' || C == '/';
  });
}

/// `<a id="X"></a>` at the start of S with a plain id: its length, else 0.
size_t anchorTag(StringRef S, std::string *Id) {
  if (!S.starts_with("<a id=\""))
    return 0;
  StringRef Rest = S.drop_front(7);
  size_t Q = Rest.find('"');
  if (Q == StringRef::npos || Q == 0 || !all_of(Rest.take_front(Q), isIdChar) ||
      !Rest.drop_front(Q).starts_with("\"></a>"))
    return 0;
  if (Id)
    *Id = Rest.take_front(Q).str();
  return 7 + Q + 6;
}

/// Remove complete `<!-- ... -->` spans (tl's markers) from a line.
std::string stripComments(StringRef L) {
  std::string O;
  while (true) {
    size_t B = L.find("<!--");
    size_t E = B == StringRef::npos ? B : L.find("-->", B + 4);
    if (E == StringRef::npos) {
      O += L;
      return O;
    }
    O += L.take_front(B);
    L = L.drop_front(E + 3);
  }
}

bool flanksLeft(StringRef S, size_t I) {
  return I == 0 || !isAlnum(S[I - 1]);
}
bool flanksRight(StringRef S, size_t End) {
  return End >= S.size() || !isAlnum(S[End]);
}

class Converter {
public:
  Converter(const MarkdownHtmlOptions &Opts, raw_ostream &OS)
      : Opts(Opts), OS(OS) {}
  void run(StringRef Md);

private:
  /// Inline markup of S. Cells (table cells) get no emphasis, links or
  /// images (tl's tables have none): a kernel name like
  /// `f(float**, int*)` or `[x](y)` reads as it is.
  void inlineHtml(StringRef S, bool Cell, unsigned Depth);
  void image(StringRef Alt, StringRef File);

  void flushParagraph();
  void flushTable();
  void flushList(unsigned Depth = 0);
  void flushQuote();
  void flushAll() {
    flushParagraph();
    flushTable();
    flushList();
    flushQuote();
  }
  void flushCaption();
  void flushInsert() {
    if (!PendingInsert.empty())
      OS << PendingInsert;
    PendingInsert.clear();
  }
  bool collapsible() const {
    return !Opts.CollapsibleSection.empty() &&
           Section == Opts.CollapsibleSection;
  }

  const MarkdownHtmlOptions &Opts;
  raw_ostream &OS;
  std::vector<std::string> Para, Quote;
  std::vector<std::vector<std::string>> Table;
  bool TableHasHeader = false;
  unsigned ListDepth = 0;
  bool ItemOpen = false;
  /// Title line held back as the next table's summary.
  std::string Caption;
  std::string PendingInsert;
  std::string Section;
};

std::vector<std::string> splitRow(StringRef L) {
  L = L.trim();
  L.consume_front("|");
  if (L.ends_with("|") && !L.ends_with("\\|"))
    L = L.drop_back();
  std::vector<std::string> Cells;
  std::string Cur;
  for (size_t I = 0; I < L.size(); ++I) {
    if (L[I] == '\\' && I + 1 < L.size() && L[I + 1] == '|') {
      Cur += "\\|";
      ++I;
    } else if (L[I] == '|') {
      Cells.push_back(StringRef(Cur).trim().str());
      Cur.clear();
    } else {
      Cur += L[I];
    }
  }
  Cells.push_back(StringRef(Cur).trim().str());
  return Cells;
}

bool isSeparatorRow(StringRef L) {
  L = L.trim();
  return L.starts_with("|") && L.contains('-') &&
         all_of(L, [](char C) { return C == '|' || C == '-' || C == ':' ||
                                       C == ' '; });
}

void Converter::image(StringRef Alt, StringRef File) {
  auto It = Opts.InlineImages.find(File.str());
  if (It == Opts.InlineImages.end()) {
    if (safeHref(File)) {
      OS << "<a href=\"" << File << "\">" << htmlText(Alt) << "</a>";
    } else {
      OS << htmlText(Alt);
    }
    return;
  }
  OS << "<figure><img alt=\"" << htmlText(Alt) << "\" src=\"data:"
     << It->second.first << ";base64," << encodeBase64(It->second.second)
     << "\"><figcaption>" << htmlText(Alt) << "</figcaption></figure>";
}

void Converter::inlineHtml(StringRef S, bool Cell, unsigned Depth) {
  size_t Run = 0; // start of the plain text not yet written
  auto Flush = [&](size_t I) {
    OS << htmlText(S.slice(Run, I));
  };
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    size_t Next = 0; // past the construct written at I, 0 = plain char
    if (C == '\\' && I + 1 < S.size() &&
        std::ispunct(static_cast<unsigned char>(S[I + 1]))) {
      // A backslash escape (CommonMark §2.4): the character itself.
      Flush(I);
      OS << htmlText(S.substr(I + 1, 1));
      Next = I + 2;
    } else if (C == '`') {
      // A code span: the fence is a run of N backticks, closed by the next
      // run of exactly N (CommonMark §6.1); one space each side is padding.
      size_t N = S.substr(I).find_first_not_of('`');
      N = N == StringRef::npos ? S.size() - I : N;
      size_t E = I + N;
      while ((E = S.find('`', E)) != StringRef::npos) {
        size_t M = S.substr(E).find_first_not_of('`');
        M = M == StringRef::npos ? S.size() - E : M;
        if (M == N)
          break;
        E += M;
      }
      if (E != StringRef::npos) {
        Flush(I);
        std::string Body = S.slice(I + N, E).str();
        if (Cell) { // GFM: `\\|` inside a table cell's code span is a `|`
          std::string Un;
          for (size_t K = 0; K < Body.size(); ++K) {
            if (Body[K] == '\\' && K + 1 < Body.size() && Body[K + 1] == '|')
              ++K;
            Un += Body[K];
          }
          Body = std::move(Un);
        }
        StringRef B(Body);
        if (B.size() >= 2 && B.front() == ' ' && B.back() == ' ' &&
            B.find_first_not_of(' ') != StringRef::npos)
          B = B.drop_front().drop_back();
        OS << "<code>" << htmlText(B) << "</code>";
        Next = E + N;
      } else {
        // No closing fence: the backticks are literal text.
        Next = 0;
        I += N - 1;
      }
    } else if (C == '*' && !Cell && Depth < 4 && flanksLeft(S, I)) {
      size_t W = S.substr(I).starts_with("**") ? 2 : 1;
      StringRef Delim = S.substr(I, W);
      if (I + W < S.size() && S[I + W] != ' ' && S[I + W] != '*') {
        for (size_t E = S.find(Delim, I + W + 1); E != StringRef::npos;
             E = S.find(Delim, E + 1)) {
          bool Closes = S[E - 1] != ' ' && flanksRight(S, E + W) &&
                        (W == 2 || S.substr(E).take_front(2) != "**") &&
                        (W == 2 || S[E - 1] != '*');
          if (!Closes)
            continue;
          Flush(I);
          const char *Tag = W == 2 ? "strong" : "em";
          OS << "<" << Tag << ">";
          inlineHtml(S.slice(I + W, E), Cell, Depth + 1);
          OS << "</" << Tag << ">";
          Next = E + W;
          break;
        }
      }
    } else if ((!Cell || Opts.LinksInCells) &&
               (C == '[' || (C == '!' && S.substr(I + 1).starts_with("["))) &&
               Depth < 4) {
      size_t Open = C == '!' ? I + 1 : I;
      size_t Close = S.find("](", Open);
      size_t End = Close == StringRef::npos ? Close : S.find(')', Close + 2);
      if (End != StringRef::npos && S.slice(Open + 1, Close).find('[') ==
                                        StringRef::npos) {
        StringRef Text = S.slice(Open + 1, Close);
        StringRef Href = S.slice(Close + 2, End);
        if (C == '!') {
          Flush(I);
          image(Text, Href);
          Next = End + 1;
        } else if (safeHref(Href)) {
          Flush(I);
          OS << "<a href=\"" << Href << "\">";
          inlineHtml(Text, Cell, Depth + 1);
          OS << "</a>";
          Next = End + 1;
        }
      }
    } else if (C == '<') {
      std::string Id;
      if (S.substr(I).starts_with("<br>")) {
        Flush(I);
        OS << "<br>";
        Next = I + 4;
      } else if (size_t N = anchorTag(S.substr(I), &Id)) {
        Flush(I);
        OS << "<a id=\"" << Id << "\"></a>";
        Next = I + N;
      }
    }
    if (Next) {
      I = Run = Next;
    } else {
      ++I;
    }
  }
  Flush(S.size());
}

void Converter::flushCaption() {
  if (Caption.empty())
    return;
  OS << "<p>";
  inlineHtml(Caption, false, 0);
  OS << "</p>\n";
  Caption.clear();
}

void Converter::flushParagraph() {
  if (Para.empty())
    return;
  std::string Text = join(Para, "\n");
  Para.clear();
  StringRef T = StringRef(Text).trim();
  // `*Title*` / `**Title:**` alone on a line names the table below it.
  bool TitleOnly = !T.contains('\n') && T.size() > 2 && T.front() == '*' &&
                   T.back() == '*' && T.drop_front().drop_back().trim('*')
                                          .find('*') == StringRef::npos;
  if (collapsible() && TitleOnly) {
    flushCaption();
    Caption = T.str();
    return;
  }
  flushCaption();
  OS << "<p>";
  inlineHtml(Text, false, 0);
  OS << "</p>\n";
}

void Converter::flushTable() {
  if (Table.empty())
    return;
  size_t Body = TableHasHeader ? 1 : 0;
  size_t Rows = Table.size() - Body;
  bool Fold = collapsible();
  if (Fold) {
    OS << "<details class=\"evidence\"" << (Rows <= Opts.OpenTableRows ? " open" : "")
       << "><summary>";
    StringRef Cap = StringRef(Caption).trim('*').trim();
    Cap.consume_back(":");
    inlineHtml(Cap.empty() ? StringRef("Table") : Cap, true, 0);
    OS << " <span class=\"rows\">(" << Rows << " row" << (Rows == 1 ? "" : "s")
       << ")</span></summary>\n";
    Caption.clear();
  } else {
    flushCaption();
  }
  OS << "<table" << (TableHasHeader ? " class=\"sortable\"" : "") << ">\n";
  if (TableHasHeader) {
    OS << "<thead><tr>";
    for (const std::string &H : Table[0]) {
      OS << "<th title=\"sort\">";
      inlineHtml(H, true, 0);
      OS << "</th>";
    }
    OS << "</tr></thead>\n";
  }
  OS << "<tbody>\n";
  for (size_t R = Body; R < Table.size(); ++R) {
    OS << "<tr>";
    for (const std::string &Cell : Table[R]) {
      OS << "<td>";
      inlineHtml(Cell, true, 0);
      OS << "</td>";
    }
    OS << "</tr>\n";
  }
  OS << "</tbody></table>\n";
  if (Fold)
    OS << "</details>\n";
  Table.clear();
  TableHasHeader = false;
}

void Converter::flushList(unsigned Depth) {
  while (ListDepth > Depth) {
    if (ItemOpen)
      OS << "</li>";
    OS << "</ul>\n";
    --ListDepth;
    ItemOpen = ListDepth > 0;
  }
}

void Converter::flushQuote() {
  if (Quote.empty())
    return;
  flushCaption();
  OS << "<blockquote><p>";
  inlineHtml(join(Quote, "\n"), false, 0);
  OS << "</p></blockquote>\n";
  Quote.clear();
}

void Converter::run(StringRef Md) {
  SmallVector<StringRef, 0> Lines;
  Md.split(Lines, '\n');
  bool Fence = false;
  for (StringRef Raw : Lines) {
    Raw = Raw.rtrim('\r');
    if (Fence) {
      if (Raw.trim().starts_with("```")) {
        OS << "</code></pre>\n";
        Fence = false;
      } else {
        OS << htmlText(Raw) << "\n";
      }
      continue;
    }
    if (Raw.trim().starts_with("```")) {
      flushAll();
      flushCaption();
      OS << "<pre><code>";
      Fence = true;
      continue;
    }
    std::string Stripped = stripComments(Raw);
    StringRef L = StringRef(Stripped).rtrim();
    // A line that was only markers is no line at all (it neither ends a
    // paragraph nor a table).
    if (L.trim().empty() && !Raw.trim().empty())
      continue;
    StringRef T = L.ltrim();
    if (T.empty()) {
      flushAll();
      continue;
    }
    std::string Id;
    if (size_t N = anchorTag(T, &Id); N && N == T.size()) {
      flushAll();
      flushCaption();
      flushInsert();
      OS << "<a id=\"" << Id << "\"></a>\n";
      if (auto It = Opts.AfterAnchor.find(Id); It != Opts.AfterAnchor.end())
        PendingInsert = It->second;
      continue;
    }
    if (T.starts_with("#")) {
      size_t Level = T.find_first_not_of('#');
      if (Level != StringRef::npos && Level <= 6 && T[Level] == ' ') {
        flushAll();
        flushCaption();
        if (Level <= 3)
          flushInsert();
        StringRef Text = T.drop_front(Level).trim();
        if (Level <= 2)
          Section = Text.str();
        OS << "<h" << Level << ">";
        inlineHtml(Text, false, 0);
        OS << "</h" << Level << ">\n";
        continue;
      }
    }
    if (T == "---" || T == "***") {
      flushAll();
      flushCaption();
      OS << "<hr>\n";
      continue;
    }
    if (T.starts_with("|")) {
      flushParagraph();
      flushList();
      flushQuote();
      if (Table.size() == 1 && isSeparatorRow(T)) {
        TableHasHeader = true;
        continue;
      }
      Table.push_back(splitRow(T));
      continue;
    }
    flushTable();
    if (T.starts_with("> ") || T == ">") {
      flushParagraph();
      flushList();
      Quote.push_back(T.drop_front(1).ltrim().str());
      continue;
    }
    flushQuote();
    if (T.starts_with("- ") || T.starts_with("* ")) {
      flushParagraph();
      flushCaption();
      unsigned Depth = std::min<size_t>(8, (L.size() - T.size()) / 2) + 1;
      if (Depth > ListDepth + 1)
        Depth = ListDepth + 1;
      flushList(Depth);
      if (ListDepth < Depth) {
        OS << "<ul>";
        ListDepth = Depth;
      } else if (ItemOpen) {
        OS << "</li>\n";
      }
      OS << "<li>";
      inlineHtml(T.drop_front(2), false, 0);
      ItemOpen = true;
      continue;
    }
    if (ListDepth && L.starts_with("  ")) {
      OS << "\n";
      inlineHtml(T, false, 0);
      continue;
    }
    flushList();
    Para.push_back(T.str());
  }
  if (Fence)
    OS << "</code></pre>\n";
  flushAll();
  flushCaption();
  flushInsert();
}

} // namespace

std::string htmlText(StringRef S) { return cleanText(S, /*Escape=*/true); }
std::string visibleText(StringRef S) { return cleanText(S, /*Escape=*/false); }

void markdownToHtml(StringRef Markdown, const MarkdownHtmlOptions &Opts,
                    raw_ostream &OS) {
  Converter(Opts, OS).run(Markdown);
}

} // namespace tl
