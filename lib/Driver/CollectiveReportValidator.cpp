//===- CollectiveReportValidator.cpp - Checking a job's collective files --===//
#include "tl/Driver/CollectiveReportValidator.h"

#include "tl/Driver/CollectiveMatch.h"
#include "tl/Driver/CollectiveTables.h"
#include "tl/Driver/Stragglers.h"
#include "tl/Support/Csv.h"
#include "tl/Support/PyFormat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

using namespace llvm;

namespace tl {

namespace {
/// A row of collectives.csv with the member rows of collectives_long.csv.
struct Instance {
  std::string Id, Status, Type;
  std::optional<double> GroupSize;
  std::vector<std::string> Members;
  double FirstStart = 0, Skew = 0, Blame = 0;
  std::string FirstRank, LastRank;
  /// (rank, start, wait) of each long row.
  struct Member {
    std::string Rank;
    double Start, Wait;
  };
  std::vector<Member> Present;
  bool forStragglers() const {
    MatchedCollective C;
    C.Status = Status == "ok" ? MatchStatus::Ok : MatchStatus::Incomplete;
    C.CollType = Type;
    return C.countsForStragglers() && Present.size() >= 2;
  }
};

std::optional<double> num(StringRef S) {
  double D = 0;
  if (S.getAsDouble(D))
    return std::nullopt;
  return D;
}

/// Equal up to the rounding of sums printed in shortest round-trip form.
bool close(double A, double B, double Scale = 1) {
  return std::fabs(A - B) <=
         1e-9 * std::max({1.0, std::fabs(A), std::fabs(B), std::fabs(Scale)});
}

class Checker {
public:
  Checker(StringRef Dir, ValidationResult &R) : Dir(Dir), R(R) {}

  void error(const Twine &Msg) {
    R.Issues.push_back(
        {ValidationIssue::Kind::Error, "job", "collectives", Msg.str()});
  }
  bool check(bool Ok, const Twine &Msg) {
    ++R.Checks;
    if (!Ok)
      error(Msg);
    return Ok;
  }
  /// multirank/Name as columns -> cells rows; none (with an issue) when
  /// unreadable or not the table's columns.
  std::optional<std::vector<StringMap<std::string>>>
  table(StringRef Name, const std::vector<std::string> &Cols) {
    SmallString<256> P(Dir);
    sys::path::append(P, "multirank", Name);
    std::string File = ("multirank/" + Name).str();
    ++R.Checks;
    auto B = MemoryBuffer::getFile(P);
    if (!B) {
      error(File + ": " + B.getError().message());
      return std::nullopt;
    }
    auto Rows = parseCsv((*B)->getBuffer());
    if (!Rows) {
      error(File + ": " + toString(Rows.takeError()));
      return std::nullopt;
    }
    if (!check(!Rows->empty() && Rows->front() == Cols,
               File + ": not the " + Name.drop_back(4) + " table's columns"))
      return std::nullopt;
    std::vector<StringMap<std::string>> Out;
    for (size_t I = 1; I < Rows->size(); ++I) {
      const CsvRow &Row = (*Rows)[I];
      if (!check(Row.size() == Cols.size(), File + ": row " + Twine(I) +
                                                " has " + Twine(Row.size()) +
                                                " fields"))
        continue;
      StringMap<std::string> Cells;
      for (size_t K = 0; K < Cols.size(); ++K)
        Cells[Cols[K]] = Row[K];
      Out.push_back(std::move(Cells));
    }
    return Out;
  }
  double number(StringMap<std::string> &Row, StringRef Col, StringRef File,
                StringRef What) {
    std::optional<double> V = num(Row[Col]);
    check(V.has_value(), File + ": " + What + ": " + Col + " is not a number");
    return V.value_or(0);
  }

private:
  StringRef Dir;
  ValidationResult &R;
};
} // namespace

/// collectives.csv: ids unique, an ok instance's members its group.
static std::vector<Instance> readInstances(Checker &C,
                                           const StringSet<> &Ranks) {
  const char *File = "multirank/collectives.csv";
  auto Rows =
      C.table("collectives.csv", collectivesTable({}, std::nullopt).columns());
  std::vector<Instance> Out;
  if (!Rows)
    return Out;
  StringSet<> Ids;
  for (StringMap<std::string> &Row : *Rows) {
    Instance I;
    I.Id = Row["instance_id"];
    std::string What = "instance " + I.Id;
    if (!C.check(Ids.insert(I.Id).second,
                 Twine(File) + ": instance " + I.Id + " is listed twice"))
      continue;
    I.Status = Row["status"];
    I.Type = Row["coll_type"];
    I.GroupSize = num(Row["group_size"]);
    SmallVector<StringRef, 16> Ms;
    StringRef(Row["members"]).split(Ms, ';', -1, /*KeepEmpty=*/false);
    for (StringRef M : Ms)
      I.Members.push_back(M.str());
    I.FirstStart = C.number(Row, "first_start_us", File, What);
    I.Skew = C.number(Row, "arrival_skew_us", File, What);
    I.Blame = C.number(Row, "blame_us", File, What);
    I.FirstRank = Row["first_rank"];
    I.LastRank = Row["last_rank"];
    if (I.Status == "ok") {
      // A send/recv pair has two members of a larger group.
      if (I.GroupSize && I.Type != "sendrecv")
        C.check(double(I.Members.size()) == *I.GroupSize,
                Twine(File) + ": " + What + " is ok with " +
                    Twine(I.Members.size()) + " members for group size " +
                    Row["group_size"]);
      for (const std::string &M : I.Members)
        C.check(Ranks.count(M), Twine(File) + ": " + What +
                                    " is ok but its member " + M +
                                    " is no rank of ranks.csv");
    }
    Out.push_back(std::move(I));
  }
  return Out;
}

/// collectives_long.csv against collectives.csv.
static void checkLong(Checker &C, std::vector<Instance> &Is) {
  const char *File = "multirank/collectives_long.csv";
  auto Rows =
      C.table("collectives_long.csv", collectivesLongTable({}).columns());
  if (!Rows)
    return;
  std::map<std::string, Instance *> ById;
  for (Instance &I : Is)
    ById[I.Id] = &I;
  for (size_t K = 0; K < Rows->size(); ++K) {
    StringMap<std::string> &Row = (*Rows)[K];
    auto It = ById.find(Row["instance_id"]);
    std::string What = "row " + std::to_string(K + 1);
    if (!C.check(It != ById.end(), Twine(File) + ": " + What + ": instance " +
                                       Row["instance_id"] +
                                       " is not in collectives.csv"))
      continue;
    double Start = C.number(Row, "start_us", File, What);
    double End = C.number(Row, "end_us", File, What);
    double Dur = C.number(Row, "dur_us", File, What);
    C.check(close(Dur, End - Start, End),
            Twine(File) + ": " + What + ": dur_us is not end_us - start_us");
    It->second->Present.push_back(
        {Row["rank"], Start, C.number(Row, "wait_us", File, What)});
  }
  for (Instance &I : Is) {
    std::string What = "multirank/collectives.csv: instance " + I.Id;
    if (!C.check(!I.Present.empty(),
                 What + " has no rows in collectives_long.csv"))
      continue;
    // The first and the last arrival; ties: the lower rank.
    const Instance::Member *First = &I.Present[0], *Last = &I.Present[0];
    double Blame = 0;
    for (const Instance::Member &M : I.Present) {
      auto Lower = [](StringRef A, StringRef B) {
        int64_t X = 0, Y = 0;
        return !A.getAsInteger(10, X) && !B.getAsInteger(10, Y) && X < Y;
      };
      if (M.Start < First->Start ||
          (M.Start == First->Start && Lower(M.Rank, First->Rank)))
        First = &M;
      if (M.Start > Last->Start ||
          (M.Start == Last->Start && Lower(M.Rank, Last->Rank)))
        Last = &M;
    }
    for (const Instance::Member &M : I.Present) {
      Blame += M.Wait;
      C.check(close(M.Wait, Last->Start - M.Start, Last->Start),
              What + ": rank " + M.Rank +
                  "'s wait_us in collectives_long.csv is not the last start "
                  "minus its start");
    }
    C.check(close(I.FirstStart, First->Start, First->Start),
            What + ": first_start_us is not the earliest start_us of its "
                   "collectives_long.csv rows");
    C.check(close(I.Skew, Last->Start - First->Start, Last->Start),
            What + ": arrival_skew_us is not max - min start_us of its "
                   "collectives_long.csv rows");
    C.check(I.FirstRank == First->Rank && I.LastRank == Last->Rank,
            What + ": first_rank/last_rank are not the earliest/latest "
                   "start of its collectives_long.csv rows");
    C.check(close(I.Blame, Blame), What + ": blame_us is not the sum of "
                                          "its collectives_long.csv wait_us");
    if (I.Status == "ok") {
      std::vector<std::string> Got;
      for (const Instance::Member &M : I.Present)
        Got.push_back(M.Rank);
      std::vector<std::string> Want = I.Members;
      llvm::sort(Got);
      llvm::sort(Want);
      C.check(Got == Want,
              What + " is ok but its collectives_long.csv rows are not its "
                     "members");
    }
  }
}

/// collective_summary.csv: the ok instances, their blame.
static void checkSummary(Checker &C, const std::vector<Instance> &Is) {
  const char *File = "multirank/collective_summary.csv";
  auto Rows = C.table("collective_summary.csv",
                      collectiveSummaryTable({}, std::nullopt).columns());
  if (!Rows)
    return;
  double Count = 0, Blame = 0, WantBlame = 0;
  size_t Ok = 0;
  for (size_t K = 0; K < Rows->size(); ++K) {
    std::string What = "row " + std::to_string(K + 1);
    Count += C.number((*Rows)[K], "count", File, What);
    Blame += C.number((*Rows)[K], "blame_total_us", File, What);
  }
  for (const Instance &I : Is)
    if (I.Status == "ok") {
      ++Ok;
      WantBlame += I.Blame;
    }
  C.check(Count == double(Ok), Twine(File) + ": the counts add up to " +
                                   Twine(int64_t(Count)) + ", not the " +
                                   Twine(Ok) + " ok instances");
  C.check(close(Blame, WantBlame),
          Twine(File) + ": blame_total_us adds up to " + pyRepr(Blame) +
              ", not the ok instances' " + pyRepr(WantBlame));
}

/// stragglers.csv: per rank and in total, the instances the straggler
/// statistics use (ok, implicit-sync or send/recv, two members or more).
static void checkStragglers(Checker &C, const std::vector<Instance> &Is) {
  const char *File = "multirank/stragglers.csv";
  auto Rows = C.table("stragglers.csv", stragglersTable({}).columns());
  if (!Rows)
    return;
  std::map<std::string, std::pair<unsigned, double>> Last; // times, blame
  std::map<std::string, unsigned> In;
  double WantBlame = 0;
  for (const Instance &I : Is) {
    if (!I.forStragglers())
      continue;
    WantBlame += I.Blame;
    ++Last[I.LastRank].first;
    Last[I.LastRank].second += I.Blame;
    for (const Instance::Member &M : I.Present)
      ++In[M.Rank];
  }
  double Blame = 0;
  for (size_t K = 0; K < Rows->size(); ++K) {
    StringMap<std::string> &Row = (*Rows)[K];
    std::string Rank = Row["rank"];
    std::string What = "rank " + Rank;
    double B = C.number(Row, "blame_us", File, What);
    Blame += B;
    C.check(Row["instances"] == std::to_string(In[Rank]),
            Twine(File) + ": " + What + ": instances " + Row["instances"] +
                ", but it is a member of " + Twine(In[Rank]) +
                " counted collectives");
    C.check(Row["times_last"] == std::to_string(Last[Rank].first),
            Twine(File) + ": " + What + ": times_last " + Row["times_last"] +
                ", but collectives.csv has it last " + Twine(Last[Rank].first) +
                " times");
    C.check(close(B, Last[Rank].second),
            Twine(File) + ": " + What + ": blame_us " + Row["blame_us"] +
                " is not the blame of the collectives it is last in (" +
                pyRepr(Last[Rank].second) + ")");
  }
  C.check(close(Blame, WantBlame),
          Twine(File) + ": blame_us adds up to " + pyRepr(Blame) +
              ", not collectives.csv's " + pyRepr(WantBlame));
}

void checkCollectiveFiles(StringRef Dir, const StringSet<> &Ranks,
                          ValidationResult &R) {
  SmallString<256> P(Dir);
  sys::path::append(P, "multirank", "collectives.csv");
  if (!sys::fs::exists(P))
    return;
  Checker C(Dir, R);
  std::vector<Instance> Is = readInstances(C, Ranks);
  checkLong(C, Is);
  checkSummary(C, Is);
  checkStragglers(C, Is);
}

} // namespace tl
